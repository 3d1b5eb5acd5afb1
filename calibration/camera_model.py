"""A calibrated camera over the table: pinhole + OpenCV lens distortion + the table's pose.

The table frame is the printed calibration sheet's frame: millimetres, x to the right and y down
along the sheet, origin at the board's top-left outer corner (OpenCV's ChArUco board origin).
OpenCV's board frame has z pointing *into* the board, so a point ``height`` mm above the table has
``z = -height``. Every public function here takes heights measured upward and does that sign flip
in one place (:func:`table_to_board_points`) so no caller has to remember it.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

FloatArray = NDArray[np.float64]

# Tight termination for the iterative undistortion; the default (5 iterations) leaves
# tenths of a pixel of error near the corners of a wide-angle webcam image.
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)


def table_to_board_points(points: ArrayLike) -> FloatArray:
    """Table points ``(x, y[, height])`` in mm → OpenCV board-frame points ``(x, y, -height)``."""
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim == 1:
        pts = pts.reshape(1, -1)
    if pts.shape[-1] == 2:
        pts = np.concatenate([pts, np.zeros((*pts.shape[:-1], 1))], axis=-1)
    if pts.shape[-1] != 3:
        raise ValueError(_("table points must be (x, y) or (x, y, height) rows, got shape {shape}", shape=pts.shape))
    out = pts.reshape(-1, 3).copy()
    out[:, 2] = -out[:, 2]
    return out


def _look_at_pose(camera_mm: FloatArray, target_mm: FloatArray) -> tuple[FloatArray, FloatArray]:
    """World→camera rotation/translation for a camera at ``camera_mm`` looking at ``target_mm``.

    Both points are in the board frame (z into the table). The image's "down" is kept as close as
    possible to the sheet's +y so that an untilted camera sees the sheet upright.
    """
    forward = target_mm - camera_mm
    forward = forward / np.linalg.norm(forward)
    down_hint = np.array([0.0, 1.0, 0.0])
    right = np.cross(down_hint, forward)
    right = right / np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.stack([right, down, forward])
    tvec = -rotation @ camera_mm
    rvec, _jacobian = cv2.Rodrigues(rotation)
    return np.asarray(rvec, dtype=np.float64).reshape(3), np.asarray(tvec, dtype=np.float64).reshape(3)


@dataclass(frozen=True, eq=False)
class CameraModel:
    """Intrinsics, distortion, image size and the table → camera pose of one camera.

    ``rvec``/``tvec`` map board-frame points (z into the table) into the camera frame, exactly as
    :func:`cv2.projectPoints` and :func:`cv2.solvePnP` use them.
    """

    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    image_size: tuple[int, int]  # (width, height) in pixels
    rvec: FloatArray = field(default_factory=lambda: np.zeros(3))
    tvec: FloatArray = field(default_factory=lambda: np.array([0.0, 0.0, 1000.0]))

    def __post_init__(self) -> None:
        k = np.asarray(self.camera_matrix, dtype=np.float64).reshape(3, 3)
        d = np.asarray(self.dist_coeffs, dtype=np.float64).reshape(-1)
        if d.size not in (4, 5, 8, 12, 14):
            raise ValueError(_("distortion must have 4, 5, 8, 12 or 14 coefficients, got {size}", size=d.size))
        w, h = (int(v) for v in self.image_size)
        if w <= 0 or h <= 0:
            raise ValueError(_("image size must be positive, got {image_size}", image_size=self.image_size))
        object.__setattr__(self, "camera_matrix", k)
        object.__setattr__(self, "dist_coeffs", d)
        object.__setattr__(self, "image_size", (w, h))
        object.__setattr__(self, "rvec", np.asarray(self.rvec, dtype=np.float64).reshape(3))
        object.__setattr__(self, "tvec", np.asarray(self.tvec, dtype=np.float64).reshape(3))

    # ----------------------------------------------------------------- constructors

    @classmethod
    def synthetic(
        cls,
        image_size: tuple[int, int] = (1920, 1080),
        focal_px: float = 1400.0,
        height_mm: float = 1000.0,
        tilt_deg: float = 15.0,
        look_at_mm: tuple[float, float] = (150.0, 100.0),
        dist_coeffs: tuple[float, ...] = (-0.12, 0.06, 0.0005, -0.0004, -0.01),
        principal_offset_px: tuple[float, float] = (6.0, -4.0),
        pan_deg: float = 0.0,
    ) -> CameraModel:
        """A typical 1080p webcam ``height_mm`` above the table, tilted ``tilt_deg`` from vertical.

        The camera sits above the sheet point ``look_at_mm`` shifted back (towards -y) so that it
        looks at that point obliquely; ``pan_deg`` turns that offset direction about the vertical.
        """
        w, h = image_size
        k = np.array(
            [
                [focal_px, 0.0, w / 2.0 + principal_offset_px[0]],
                [0.0, focal_px, h / 2.0 + principal_offset_px[1]],
                [0.0, 0.0, 1.0],
            ]
        )
        tilt = math.radians(tilt_deg)
        pan = math.radians(pan_deg)
        horizontal = height_mm * math.tan(tilt)
        target = np.array([look_at_mm[0], look_at_mm[1], 0.0])
        camera = target + np.array([horizontal * math.sin(pan), -horizontal * math.cos(pan), -height_mm])
        rvec, tvec = _look_at_pose(camera, target)
        return cls(k, np.array(dist_coeffs, dtype=np.float64), (w, h), rvec, tvec)

    @classmethod
    def looking_at(
        cls,
        camera_matrix: ArrayLike,
        dist_coeffs: ArrayLike,
        image_size: tuple[int, int],
        camera_mm: tuple[float, float, float],
        target_mm: tuple[float, float, float],
    ) -> CameraModel:
        """A camera at ``camera_mm`` looking at ``target_mm``, both as table (x, y, height) in mm.

        Handy for rendering calibration views: move the camera around a fixed sheet.
        """
        cam = table_to_board_points(camera_mm)[0]
        tgt = table_to_board_points(target_mm)[0]
        rvec, tvec = _look_at_pose(cam, tgt)
        return cls(np.asarray(camera_matrix, dtype=np.float64), np.asarray(dist_coeffs, dtype=np.float64),
                   image_size, rvec, tvec)

    def with_pose(self, rvec: ArrayLike, tvec: ArrayLike) -> CameraModel:
        """The same lens with another table pose."""
        return CameraModel(self.camera_matrix, self.dist_coeffs, self.image_size,
                           np.asarray(rvec, dtype=np.float64), np.asarray(tvec, dtype=np.float64))

    # ----------------------------------------------------------------- geometry

    @property
    def rotation(self) -> FloatArray:
        """3×3 board → camera rotation matrix."""
        r, _jacobian = cv2.Rodrigues(self.rvec)
        return np.asarray(r, dtype=np.float64)

    @property
    def camera_position_mm(self) -> FloatArray:
        """The camera centre in table coordinates (x, y, height above the table)."""
        centre = -self.rotation.T @ self.tvec
        return np.array([centre[0], centre[1], -centre[2]])

    def project(self, table_points: ArrayLike) -> FloatArray:
        """Table points ``(x, y[, height])`` in mm → distorted pixel coordinates, shape (N, 2)."""
        obj = table_to_board_points(table_points)
        if obj.shape[0] == 0:
            return np.zeros((0, 2))
        px, _jacobian = cv2.projectPoints(obj, self.rvec, self.tvec, self.camera_matrix, self.dist_coeffs)
        return np.asarray(px, dtype=np.float64).reshape(-1, 2)

    def depth_mm(self, table_points: ArrayLike) -> FloatArray:
        """Distance along the optical axis of each table point (positive = in front of the camera)."""
        obj = table_to_board_points(table_points)
        cam = obj @ self.rotation.T + self.tvec
        return np.asarray(cam[:, 2], dtype=np.float64)

    def pixel_rays(self, pixels: ArrayLike) -> FloatArray:
        """Distorted pixels → undistorted normalised image coordinates (x/z, y/z), shape (N, 2)."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        if px.shape[0] == 0:
            return np.zeros((0, 2))
        norm = cv2.undistortPoints(px, self.camera_matrix, self.dist_coeffs, criteria=_UNDISTORT_CRITERIA)
        return np.asarray(norm, dtype=np.float64).reshape(-1, 2)

    def table_from_pixels(self, pixels: ArrayLike, height_mm: float | ArrayLike = 0.0) -> FloatArray:
        """Pixels of points lying ``height_mm`` above the table → their table (x, y) in mm, shape (N, 2).

        Rays that never reach that plane (pointing away from it) give NaN.
        """
        norm = self.pixel_rays(pixels)
        return self._intersect(norm, height_mm)

    def _intersect(self, norm: FloatArray, height_mm: float | ArrayLike) -> FloatArray:
        r = self.rotation
        centre = -r.T @ self.tvec
        rays_cam = np.concatenate([norm, np.ones((norm.shape[0], 1))], axis=1)
        rays = rays_cam @ r  # rows are R^T · ray, i.e. the rays in the board frame
        plane_z = -np.broadcast_to(np.asarray(height_mm, dtype=np.float64), (norm.shape[0],))
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (plane_z - centre[2]) / rays[:, 2]
        s = np.where(s > 0, s, np.nan)
        out = centre[:2] + s[:, None] * rays[:, :2]
        return np.asarray(out, dtype=np.float64)

    # ----------------------------------------------------------------- rendering

    def plane_remap_maps(
        self,
        mm_per_px: float,
        origin_mm: tuple[float, float] = (0.0, 0.0),
        height_mm: float = 0.0,
        output_size: tuple[int, int] | None = None,
        grid_step: int = 4,
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Maps for :func:`cv2.remap` that render a flat picture lying on the table as this camera sees it.

        The picture's pixel (column u, row v) covers the table square whose top-left corner is
        ``origin_mm + (u, v) * mm_per_px`` (so its centre is at ``+ 0.5`` pixel), lying
        ``height_mm`` above the table. ``cv2.remap(picture, mx, my, cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT)`` then gives the camera image (``image_size`` or
        ``output_size``), with the lens distortion applied; pixels whose ray misses the plane get -1.

        The exact mapping is computed every ``grid_step`` pixels and interpolated bilinearly in
        between (it is smooth; step 4 stays within ~0.01 picture pixel of exact), which makes a 1080p map
        about ``grid_step²`` times cheaper. ``grid_step=1`` computes every pixel.
        """
        w, h = output_size or self.image_size
        step = max(1, int(grid_step))
        # Sample where cv2.resize puts its source pixel centres: output u ↔ source (u + 0.5) / step - 0.5.
        # One extra sample on every side so the border pixels are interpolated, not clamped.
        pad = 1 if step > 1 else 0
        gw, gh = -(-w // step) + 2 * pad, -(-h // step) + 2 * pad
        offset = (step - 1) / 2.0 - pad * step
        us, vs = np.meshgrid(np.arange(gw) * step + offset, np.arange(gh) * step + offset)
        pixels = np.stack([us.ravel(), vs.ravel()], axis=1)
        table = self.table_from_pixels(pixels, height_mm)
        pic = (table - np.asarray(origin_mm, dtype=np.float64)) / mm_per_px - 0.5
        pic = np.where(np.isfinite(pic), pic, -1.0)
        maps: list[NDArray[np.float32]] = []
        for column in (0, 1):
            coarse: NDArray[np.float64] = pic[:, column].reshape(gh, gw)
            if step > 1:
                coarse = np.asarray(cv2.resize(coarse, (gw * step, gh * step), interpolation=cv2.INTER_LINEAR))
            first = pad * step
            maps.append(np.ascontiguousarray(coarse[first:first + h, first:first + w], dtype=np.float32))
        return maps[0], maps[1]

    def supersampled(self, factor: int) -> CameraModel:
        """The same camera with ``factor``× the pixels per side (for anti-aliased rendering).

        Scaled so that averaging each ``factor``×``factor`` block (``cv2.INTER_AREA``) gives back
        exactly this camera's pixel grid.
        """
        f = float(factor)
        k = self.camera_matrix.copy()
        k[0, 0] *= f
        k[1, 1] *= f
        k[0, 1] *= f
        k[0, 2] = f * k[0, 2] + (f - 1.0) / 2.0
        k[1, 2] = f * k[1, 2] + (f - 1.0) / 2.0
        w, h = self.image_size
        return CameraModel(k, self.dist_coeffs, (w * factor, h * factor), self.rvec, self.tvec)

    def render_plane(
        self,
        picture: NDArray[np.uint8],
        mm_per_px: float,
        origin_mm: tuple[float, float] = (0.0, 0.0),
        height_mm: float = 0.0,
        background: int = 0,
        supersample: int = 1,
    ) -> NDArray[np.uint8]:
        """Render ``picture`` (see :meth:`plane_remap_maps`) into a camera frame of ``image_size``.

        ``supersample`` > 1 renders at that many times the resolution and averages down, which
        removes the aliasing of a fine picture seen from afar (as a real sensor would).
        """
        if supersample > 1:
            big = self.supersampled(supersample).render_plane(picture, mm_per_px, origin_mm, height_mm, background)
            return np.asarray(cv2.resize(big, self.image_size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
        map_x, map_y = self.plane_remap_maps(mm_per_px, origin_mm, height_mm)
        out = cv2.remap(picture, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=background)
        return np.asarray(out, dtype=np.uint8)
