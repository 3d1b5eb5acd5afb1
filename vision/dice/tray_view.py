"""Where a tray lies in the picture: its pose from its corner tags, and its area seen straight from above.

The tags' corners (known on the printed mat, :mod:`calibration.tray_spec`) give the tray's pose by
``solvePnP`` with the camera's lens (the board's calibration, or a plain guess for an uncalibrated tray
camera). From the pose any plane parallel to the mat can be rectified: the plane of the dice's top faces,
so that a flat die's top face appears undistorted, at its true place and size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera_model import CameraModel
from calibration.tray_spec import TraySpec
from vision.detection import DetectedMarker

FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]
GUESSED_FOCAL = 0.9  # focal length as a fraction of the image width, for a camera with no calibration


@dataclass(frozen=True)
class Lens:
    """Intrinsics and distortion of the camera that sees the tray."""

    matrix: FloatArray
    dist: FloatArray

    @staticmethod
    def of(camera: CameraModel | None, size: tuple[int, int]) -> Lens:
        if camera is not None and camera.image_size == size:
            return Lens(camera.camera_matrix, camera.dist_coeffs)
        w, h = size
        f = GUESSED_FOCAL * w
        return Lens(np.array([[f, 0.0, w / 2.0], [0.0, f, h / 2.0], [0.0, 0.0, 1.0]]), np.zeros(5))


@dataclass
class TrayView:
    """One tray's pose in one frame and helpers to look at it from above."""

    spec: TraySpec
    lens: Lens
    rvec: FloatArray
    tvec: FloatArray
    tags_seen: int
    corners_px: FloatArray  # the tags' corners it was found from, to tell when it moved
    _maps: dict[tuple[float, float, float], tuple[NDArray[np.int16], NDArray[np.uint16]]] = field(
        default_factory=dict, repr=False)

    @property
    def camera_mm(self) -> FloatArray:
        """The camera centre in the tray frame (x, y, height above the mat)."""
        r, _j = cv2.Rodrigues(self.rvec)
        c = -r.T @ self.tvec
        return np.array([c[0], c[1], -c[2]])

    def project(self, points: FloatArray) -> FloatArray:
        """Tray points (x, y, height) mm → pixels."""
        obj = np.asarray(points, dtype=np.float64).reshape(-1, 3).copy()
        obj[:, 2] = -obj[:, 2]
        px, _j = cv2.projectPoints(obj, self.rvec, self.tvec, self.lens.matrix, self.lens.dist)
        return np.asarray(px, dtype=np.float64).reshape(-1, 2)

    def rectify(self, image: Image, height_mm: float, px_per_mm: float, margin_mm: float = 0.0,
                box: tuple[int, int, int, int] | None = None) -> Image:
        """The tray's area (plus ``margin_mm``) on the plane ``height_mm`` above the mat, seen from above.

        Pixel (i, j) shows the tray point ((j + 0.5) / px_per_mm − margin, (i + 0.5) / px_per_mm − margin).
        The maps are kept for this pose. ``box``: only its rows and columns (top, bottom, left, right) are looked
        at, the rest left black.
        """
        key = (height_mm, px_per_mm, margin_mm)
        if key not in self._maps:
            w = math.ceil((self.spec.width_mm + 2 * margin_mm) * px_per_mm)
            h = math.ceil((self.spec.height_mm + 2 * margin_mm) * px_per_mm)
            xs = (np.arange(w) + 0.5) / px_per_mm - margin_mm
            ys = (np.arange(h) + 0.5) / px_per_mm - margin_mm
            gx, gy = np.meshgrid(xs, ys)
            pts = np.stack([gx.ravel(), gy.ravel(), np.full(gx.size, height_mm)], axis=1)
            px = self.project(pts).reshape(h, w, 2).astype(np.float32)
            # Fixed-point maps: remapping with them costs a third of float maps, for 1/32 pixel.
            fixed, fraction = cv2.convertMaps(np.ascontiguousarray(px[:, :, 0]), np.ascontiguousarray(px[:, :, 1]),
                                              cv2.CV_16SC2)
            self._maps[key] = (np.asarray(fixed, np.int16), np.asarray(fraction, np.uint16))
        mx, my = self._maps[key]
        if box is None or box == (0, mx.shape[0], 0, mx.shape[1]):
            return np.asarray(cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8)
        top, bottom, left, right = box
        out = np.zeros((*mx.shape[:2], *image.shape[2:]), np.uint8)
        cv2.remap(image, mx[top:bottom, left:right], my[top:bottom, left:right], cv2.INTER_LINEAR,
                  dst=out[top:bottom, left:right], borderMode=cv2.BORDER_REPLICATE)
        return out

    def patch(self, image: Image, centre_mm: tuple[float, float], height_mm: float, size_mm: float,
              px_per_mm: float, up: tuple[float, float] = (0.0, -1.0)) -> Image:
        """A square of ``size_mm`` on the plane ``height_mm`` around ``centre_mm``, seen from above, its top
        towards the tray direction ``up``. A local homography: the lens bends a 30 mm patch by far less than a pixel."""
        n = round(size_mm * px_per_mm)
        ux, uy = up
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        rx, ry = -uy, ux  # the patch's right, a quarter turn clockwise from up (y down)
        half = size_mm / 2.0
        cx, cy = centre_mm
        corners_mm = [(cx + (-rx + ux) * half, cy + (-ry + uy) * half), (cx + (rx + ux) * half, cy + (ry + uy) * half),
                      (cx + (rx - ux) * half, cy + (ry - uy) * half), (cx + (-rx - ux) * half, cy + (-ry - uy) * half)]
        src = self.project(np.array([[x, y, height_mm] for x, y in corners_mm])).astype(np.float32)
        dst = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        return np.asarray(cv2.warpPerspective(image, matrix, (n, n), flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_REPLICATE), np.uint8)


def find_tray(markers: list[DetectedMarker], spec: TraySpec, lens: Lens, previous: TrayView | None = None
              ) -> TrayView | None:
    """The tray's pose from whichever of its tags are in ``markers`` (one is enough, more is better).

    Keeps ``previous`` (and its rectification maps) when its tags have not moved by more than half a pixel.
    """
    found = [m for m in markers if m.marker_id in spec.tag_centres]
    if not found:
        return None
    found.sort(key=lambda m: m.marker_id)
    corners_px = np.concatenate([m.corners_px for m in found]).astype(np.float64)
    if (previous is not None and previous.corners_px.shape == corners_px.shape
            and float(np.abs(previous.corners_px - corners_px).max()) < 0.5):
        return previous
    obj = np.array([[x, y, 0.0] for m in found for x, y in spec.tag_corners(m.marker_id)], dtype=np.float64)
    flag = cv2.SOLVEPNP_IPPE if len(found) > 1 else cv2.SOLVEPNP_IPPE_SQUARE
    if len(found) == 1:
        # IPPE_SQUARE wants the square centred on its origin: solve there, then move the origin back.
        cx, cy = spec.tag_centres[found[0].marker_id]
        local = obj - np.array([cx, cy, 0.0])
        ok, rvec, tvec = cv2.solvePnP(local, corners_px, lens.matrix, lens.dist, flags=flag)
        if ok:
            r, _j = cv2.Rodrigues(rvec)
            tvec = tvec - r @ np.array([[cx], [cy], [0.0]])
    else:
        ok, rvec, tvec = cv2.solvePnP(obj, corners_px, lens.matrix, lens.dist, flags=flag)
    if not ok:
        return None
    rvec, tvec = np.asarray(rvec, np.float64).reshape(3), np.asarray(tvec, np.float64).reshape(3)
    # Board frame (z into the mat) → our tray frame with heights up is handled in project(); nothing else to do.
    return TrayView(spec, lens, rvec, tvec, len(found), corners_px)
