"""Test fixture: the printed ChArUco sheet rendered through known cameras (ground truth views)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.board_spec import BoardSpec
from calibration.camera_model import CameraModel

PX_PER_MM = 6.0
PAGE_MARGIN_MM = 12.0
TABLE_GREY = 90
PAGE_WHITE = 235

# A 720p webcam lens with noticeable barrel distortion; small so that tests stay fast.
LENS_K = np.array([[900.0, 0.0, 643.0], [0.0, 900.0, 357.0], [0.0, 0.0, 1.0]])
LENS_DIST = np.array([-0.15, 0.09, 0.0006, -0.0005, -0.02])
LENS_SIZE = (1280, 720)


def sheet_picture(spec: BoardSpec, px_per_mm: float = PX_PER_MM) -> tuple[NDArray[np.uint8], tuple[float, float]]:
    """The sheet as a grey picture (board on a white page margin) and the picture origin in table mm."""
    board = spec.make_board()
    bw, bh = round(spec.width_mm * px_per_mm), round(spec.height_mm * px_per_mm)
    board_img = board.generateImage((bw, bh), marginSize=0, borderBits=1)
    board_img = np.where(board_img > 127, PAGE_WHITE, 15).astype(np.uint8)
    margin = round(PAGE_MARGIN_MM * px_per_mm)
    page = np.full((bh + 2 * margin, bw + 2 * margin), PAGE_WHITE, np.uint8)
    page[margin:margin + bh, margin:margin + bw] = board_img
    return page, (-margin / px_per_mm, -margin / px_per_mm)


def render_sheet(camera: CameraModel, spec: BoardSpec, blur_sigma: float = 0.0, noise: float = 1.5,
                 seed: int = 0, height_mm: float = 0.0) -> NDArray[np.uint8]:
    """One camera frame (BGR) of the sheet lying at ``height_mm`` over the table."""
    picture, origin = sheet_picture(spec)
    frame = camera.render_plane(picture, 1.0 / PX_PER_MM, origin, height_mm, background=TABLE_GREY, supersample=2)
    if blur_sigma > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), blur_sigma)
    if noise > 0:
        rng = np.random.default_rng(seed)
        frame = np.clip(frame + rng.normal(0.0, noise, frame.shape), 0, 255).astype(np.uint8)
    return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), dtype=np.uint8)


def table_camera() -> CameraModel:
    """The lens mounted over the table, about 70 cm up and tilted: the pose to recover."""
    return CameraModel.looking_at(LENS_K, LENS_DIST, LENS_SIZE, (150.0, -220.0, 680.0), (150.0, 110.0, 0.0))


def lens_view_cameras(spec: BoardSpec, count: int = 10) -> list[CameraModel]:
    """Poses a player produces by tilting the sheet in front of the camera, covering the image.

    Moving the camera around a fixed sheet is the same geometry as moving the sheet.
    """
    cx, cy = spec.width_mm / 2.0, spec.height_mm / 2.0
    cams: list[CameraModel] = []
    for i in range(count):
        angle = 2.0 * math.pi * i / count
        tilt = math.radians(22.0 + 14.0 * (i % 3))
        distance = 330.0 + 50.0 * (i % 4)
        horizontal = distance * math.sin(tilt)
        eye = (cx + horizontal * math.cos(angle), cy + horizontal * math.sin(angle), distance * math.cos(tilt))
        # Aim off-centre so the sheet lands in different parts of the image, corners included.
        reach = 0.45 if i % 2 else 0.85
        aim = (cx + reach * spec.width_mm * math.cos(angle + 2.2), cy + reach * spec.height_mm * math.sin(angle + 2.2),
               0.0)
        cams.append(CameraModel.looking_at(LENS_K, LENS_DIST, LENS_SIZE, eye, aim))
    # Then one view with the sheet pushed into each corner of the picture.
    w, h = LENS_SIZE
    for k, (u, v) in enumerate([(0.2 * w, 0.22 * h), (0.8 * w, 0.22 * h), (0.2 * w, 0.78 * h), (0.8 * w, 0.78 * h)]):
        eye = (cx + 120.0 * (1 - 2 * (k % 2)), cy + 90.0 * (1 - 2 * (k // 2)), 380.0)
        cams.append(sheet_at_pixel(CameraModel.looking_at(LENS_K, LENS_DIST, LENS_SIZE, eye, (cx, cy, 0.0)), (u, v)))
    return cams


def sheet_at_pixel(camera: CameraModel, pixel: tuple[float, float]) -> CameraModel:
    """Turn ``camera`` about its centre so that what it sees on its optical axis appears at ``pixel``."""
    ray = np.append(camera.pixel_rays([pixel])[0], 1.0)
    ray /= np.linalg.norm(ray)
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(z, ray)
    angle = math.asin(min(1.0, float(np.linalg.norm(axis))))
    align, _ = cv2.Rodrigues(axis / np.linalg.norm(axis) * angle)
    rotation = align @ camera.rotation
    centre = -camera.rotation.T @ camera.tvec
    rvec, _ = cv2.Rodrigues(rotation)
    return camera.with_pose(rvec.reshape(3), -rotation @ centre)


def render_lifted_half(camera: CameraModel, spec: BoardSpec, lift_mm: float, seed: int = 0) -> NDArray[np.uint8]:
    """The sheet with its right half lifted ``lift_mm`` off the table (lying over a book's edge)."""
    flat = render_sheet(camera, spec, seed=seed)
    raised = render_sheet(camera, spec, seed=seed, height_mm=lift_mm)
    w, h = camera.image_size
    us, vs = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    table = camera.table_from_pixels(np.stack([us.ravel(), vs.ravel()], axis=1), lift_mm).reshape(h, w, 2)
    right = table[..., 0] > spec.width_mm / 2.0
    return np.asarray(np.where(right[..., None], raised, flat), dtype=np.uint8)
