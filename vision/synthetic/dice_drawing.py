"""Draw dice (:mod:`vision.synthetic.dice_models`) through the camera model: textured faces, light, glare, blur.

Each visible face is its texture (pips or a numeral) laid by a perspective warp onto the face's four
projected corners — exact for a planar face, and the lens distortion over 16 mm is far below a pixel.
Faces are shaded by a lamp above the table; a glossy die also mirrors it as a bright spot on its upward
face. A die in flight is smeared along its motion in the picture (motion blur).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera_model import CameraModel
from vision.dice.faces import PIP_RADIUS, PIP_SPOT, PIPS
from vision.synthetic.dice_models import solid

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]
Colour = tuple[int, int, int]
TEXTURE_PX = 96
AMBIENT, DIFFUSE = 0.38, 0.62


@dataclass(frozen=True, slots=True)
class DieLook:
    """A die's body and ink colours (BGR) and whether its surface is glossy (mirrors the lamp)."""

    body: Colour = (235, 235, 235)
    ink: Colour = (25, 25, 25)
    glossy: bool = False


DIE_LOOKS: tuple[DieLook, ...] = (
    DieLook((235, 235, 235), (25, 25, 25)),  # white, black pips
    DieLook((40, 40, 200), (240, 240, 240)),  # red, white pips
    DieLook((190, 90, 30), (240, 240, 240)),  # blue
    DieLook((30, 30, 30), (235, 235, 235)),  # black, white pips
    DieLook((40, 200, 230), (30, 30, 30)),  # yellow, black pips
    DieLook((200, 225, 235), (40, 30, 120)),  # ivory, dark red pips
)


@dataclass(frozen=True, slots=True)
class DiePose:
    """A die at one instant: kind, which way it is turned, its centre (table mm, height up), its look.

    ``motion_mm`` is how far its centre moves during one exposure (mm, table frame), for motion blur.
    """

    kind: str
    rotation: FloatArray
    centre_mm: tuple[float, float, float]
    look: DieLook = field(default_factory=DieLook)
    motion_mm: tuple[float, float, float] = (0.0, 0.0, 0.0)


@lru_cache(maxsize=64)
def face_texture(kind: str, value: int, body: Colour, ink: Colour) -> Image:
    """The face's picture, ``TEXTURE_PX`` square: pips for a d6, the numeral (6 and 9 underlined) for a d10."""
    tex = np.empty((TEXTURE_PX, TEXTURE_PX, 3), np.uint8)
    tex[:] = body
    half = TEXTURE_PX / 2.0
    if kind == "d6":
        radius = PIP_RADIUS * half
        for u, v in PIPS[value]:
            centre = (round((half + u * PIP_SPOT * half) * 16), round((half + v * PIP_SPOT * half) * 16))
            cv2.circle(tex, centre, round(radius * 16), ink, -1, cv2.LINE_AA, shift=4)
        return tex
    text = str(value)
    font, scale, thick = cv2.FONT_HERSHEY_SIMPLEX, 1.25, 3
    (w, h), _base = cv2.getTextSize(text, font, scale, thick)
    cx, cy = half, TEXTURE_PX * 0.43  # the kite's wide part, below its apex
    cv2.putText(tex, text, (round(cx - w / 2), round(cy + h / 2)), font, scale, ink, thick, cv2.LINE_AA)
    if value in (6, 9):
        y = round(cy + h / 2 + 7)
        cv2.line(tex, (round(cx - w / 2), y), (round(cx + w / 2), y), ink, 3, cv2.LINE_AA)
    return tex


def _shade(normal: FloatArray, light_dir: FloatArray) -> float:
    return AMBIENT + DIFFUSE * max(0.0, float(normal @ light_dir))


def _glare_spot(corners: FloatArray, normal: FloatArray) -> FloatArray | None:
    """Where a glossy die mirrors the lamp: a little off the centre of its upward face, none on the others."""
    if normal[2] < 0.9:
        return None
    return np.asarray(corners.mean(axis=0) + np.array([2.2, -2.0, 0.0]), dtype=np.float64)


def _motion_kernel(dx: float, dy: float) -> NDArray[np.float32] | None:
    length = math.hypot(dx, dy)
    if length < 1.5:
        return None
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    cv2.line(kernel, (round(c - dx / 2), round(c - dy / 2)), (round(c + dx / 2), round(c + dy / 2)), 1.0, 1,
             cv2.LINE_AA)
    return kernel / max(float(kernel.sum()), 1e-6)


def draw_die(image: Image, camera: CameraModel, pose: DiePose, lamp_mm: FloatArray) -> None:
    """Draw one die into ``image`` (BGR, in place)."""
    body = solid(pose.kind)
    centre = np.array(pose.centre_mm)
    rot = pose.rotation
    verts = body.vertices @ rot.T + centre
    px = camera.project(verts)
    motion = np.array(pose.motion_mm)
    blur_px = camera.project([centre + motion / 2])[0] - camera.project([centre - motion / 2])[0]
    pad = math.ceil(np.abs(blur_px).max()) + 3
    h, w = image.shape[:2]
    x0, y0 = (np.floor(px.min(axis=0)).astype(int) - pad).tolist()
    x1, y1 = (np.ceil(px.max(axis=0)).astype(int) + pad).tolist()
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    roi = image[cy0:cy1, cx0:cx1]
    size = (cx1 - cx0, cy1 - cy0)
    camera_mm = camera.camera_position_mm
    origin = np.array([cx0, cy0], dtype=np.float64)
    for face in body.faces:
        corners = face.corners @ rot.T + centre
        normal = rot @ face.normal
        if float((camera_mm - corners.mean(axis=0)) @ normal) <= 0:
            continue  # faces away from the camera
        dst = (camera.project(corners) - origin).astype(np.float32)
        tex = face_texture(pose.kind, face.value, pose.look.body, pose.look.ink)
        light_dir = (lamp_mm - corners.mean(axis=0))
        light_dir = light_dir / np.linalg.norm(light_dir)
        shaded = np.asarray(cv2.convertScaleAbs(tex, alpha=_shade(normal, light_dir)), np.uint8)
        if pose.look.glossy:
            spot = _glare_spot(corners, normal)
            if spot is not None:
                shaded = _with_glare(shaded, corners, face.texture_corners, spot)
        src = (face.texture_corners * (TEXTURE_PX - 1)).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(shaded, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(mask, np.round(dst * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
        alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
        roi[:] = np.clip(roi * (1.0 - alpha) + warped * alpha + 0.5, 0, 255).astype(np.uint8)
    kernel = _motion_kernel(float(blur_px[0]), float(blur_px[1]))
    if kernel is not None:
        roi[:] = cv2.filter2D(roi, -1, kernel, borderType=cv2.BORDER_REPLICATE)


def _with_glare(texture: Image, corners: FloatArray, tex_corners: FloatArray, spot: FloatArray) -> Image:
    """``texture`` with a bright highlight around the point ``spot`` (mm) of the face, as a glossy die shows."""
    # The spot in texture coordinates: solve spot = c0 + a·(c1 − c0) + b·(c3 − c0) in the face plane.
    e1, e2 = corners[1] - corners[0], corners[3] - corners[0]
    coeffs, *_rest = np.linalg.lstsq(np.stack([e1, e2], axis=1), spot - corners[0], rcond=None)
    t0, t1, t3 = tex_corners[0], tex_corners[1], tex_corners[3]
    uv = (t0 + coeffs[0] * (t1 - t0) + coeffs[1] * (t3 - t0)) * (TEXTURE_PX - 1)
    ys, xs = np.mgrid[0:TEXTURE_PX, 0:TEXTURE_PX].astype(np.float32)
    sigma = TEXTURE_PX * 0.07
    glow = np.exp(-((xs - uv[0]) ** 2 + (ys - uv[1]) ** 2) / (2 * sigma * sigma)) * 170.0
    return np.asarray(np.clip(texture.astype(np.float32) + glow[:, :, None], 0, 255), dtype=np.uint8)


def draw_dice(image: Image, camera: CameraModel, poses: tuple[DiePose, ...], lamp_mm: FloatArray) -> None:
    """Draw every die, far ones first, into ``image`` (in place)."""
    if not poses:
        return
    depth = camera.depth_mm(np.array([p.centre_mm for p in poses]))
    for index in np.argsort(-depth):
        draw_die(image, camera, poses[int(index)], lamp_mm)
