"""Edge-fit corners: sub-pixel exact on sharp and blurred squares, from a start a few pixels off."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.refine import refine_quads


def _square(corners: np.ndarray, blur_px: float, size: int = 120, supersample: int = 16) -> np.ndarray:
    """A black quad on white, anti-aliased by supersampling (pixel centres at integer coordinates)."""
    big = np.full((size * supersample, size * supersample), 255, np.uint8)
    pts = np.round((corners + 0.5) * supersample - 0.5).astype(np.int32)
    cv2.fillPoly(big, [pts], 0)
    image = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
    if blur_px > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur_px)
    return np.clip(image * 0.7 + 40, 0, 255).astype(np.uint8)  # black 40, white 218


@pytest.mark.parametrize("blur_px", [0.0, 1.0, 2.0])
@pytest.mark.parametrize("angle_deg", [0.0, 17.0, 40.0])
def test_corners_found_to_a_tenth_of_a_pixel(blur_px: float, angle_deg: float) -> None:
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    truth = np.array([[-14.0, -14.0], [14.0, -14.0], [14.0, 14.0], [-14.0, 14.0]]) @ rot.T + [60.3, 58.7]
    image = _square(truth, blur_px)
    start = truth + np.random.default_rng(int(angle_deg)).uniform(-2.0, 2.0, truth.shape)
    refined, strength = refine_quads(image, start[None])
    assert np.abs(refined[0] - truth).max() < 0.1
    assert strength[0] > 8.0


def test_a_quad_on_a_blank_image_keeps_its_corners_and_has_no_edge_strength() -> None:
    start = np.array([[[40.0, 40.0], [80.0, 40.0], [80.0, 80.0], [40.0, 80.0]]])
    refined, strength = refine_quads(np.full((120, 120), 128, np.uint8), start)
    assert np.array_equal(refined, start)
    assert strength[0] == 0.0


def test_no_quads_no_work() -> None:
    refined, strength = refine_quads(np.zeros((10, 10), np.uint8), np.zeros((0, 4, 2)))
    assert refined.shape == (0, 4, 2) and strength.shape == (0,)
