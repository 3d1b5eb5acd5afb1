"""Millimetre accuracy through a known distorted camera, on the table and at height."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera_model import CameraModel
from vision.detection import DetectedMarker, MarkerDetector
from vision.mapping import facing_deg, to_table
from vision.synthetic.effects import Effects
from vision.synthetic.renderer import TableRenderer, tag_corners_mm
from vision.synthetic.scene import Figure


def _figures(height: float) -> tuple[Figure, ...]:
    return tuple(Figure(k, 70.0 + 66 * (k % 8), 70.0 + 95 * (k // 8), 17.0 * k - 150, 22.0, height)
                 for k in range(24))


@pytest.mark.parametrize("height", [0.0, 30.0, 45.0])
def test_rendered_tags_map_to_their_true_table_position(renderer: TableRenderer, camera: CameraModel,
                                                        height: float) -> None:
    figures = _figures(height)
    frame = renderer.render(figures, effects=Effects(), rng=np.random.default_rng(2))
    found = MarkerDetector().detect(frame.image)
    placed = {m.marker_id: m for m in to_table(found, camera, {f.marker_id: f.height_mm for f in figures})}
    assert len(placed) >= 22
    errors, angle_errors = [], []
    for f in figures:
        if f.marker_id in placed:
            m = placed[f.marker_id]
            errors.append(math.hypot(m.x_mm - f.x_mm, m.y_mm - f.y_mm))
            angle_errors.append(abs((m.angle_deg - f.angle_deg + 180) % 360 - 180))
            assert m.side_mm == pytest.approx(22.0, abs=0.5)
    assert float(np.median(errors)) < 0.25
    assert max(errors) < 0.6
    assert max(angle_errors) < 1.5


def test_without_the_height_a_raised_tag_lands_far_off_at_the_edge_of_the_view(camera: CameraModel) -> None:
    """The parallax the height correction removes: ~9 mm for a 30 mm figure 300 mm off the camera axis."""
    figure = Figure(3, 0.0, 0.0, 0.0, 22.0, 30.0)
    corners = camera.project(tag_corners_mm(figure))
    marker = DetectedMarker(3, corners)
    right = to_table([marker], camera, {3: 30.0})[0]
    wrong = to_table([marker], camera)[0]
    assert math.hypot(right.x_mm, right.y_mm) < 1e-6 + 0.01
    assert math.hypot(wrong.x_mm, wrong.y_mm) > 8.0


def test_exact_corners_map_exactly_through_the_lens_model(camera: CameraModel) -> None:
    for x, y, h, a in [(10.0, 400.0, 0.0, 30.0), (590.0, 15.0, 45.0, -120.0), (300.0, 210.0, 12.5, 179.0)]:
        f = Figure(1, x, y, a, 25.0, h)
        m = to_table([DetectedMarker(1, camera.project(tag_corners_mm(f)))], camera, default_height_mm=h)[0]
        assert (m.x_mm, m.y_mm) == pytest.approx((x, y), abs=1e-3)
        assert m.angle_deg == pytest.approx(a, abs=1e-3)
        assert m.height_mm == h


def test_a_pixel_whose_ray_misses_the_table_is_flagged_not_raised(camera: CameraModel) -> None:
    # A camera looking at the horizon: the top of its image sees the sky.
    sideways = CameraModel.looking_at(camera.camera_matrix, camera.dist_coeffs, camera.image_size,
                                      (0.0, 0.0, 100.0), (1000.0, 0.0, 100.0))
    corners = np.array([[1700.0, 500.0], [1740.0, 500.0], [1740.0, 540.0], [1700.0, 540.0]])
    [m] = to_table([DetectedMarker(5, corners)], sideways)
    assert not m.on_table


def test_facing_follows_the_top_edge_in_a_y_down_frame() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    assert facing_deg(square) == pytest.approx(0.0)
    turned = square @ np.array([[0.0, 1.0], [-1.0, 0.0]])  # a quarter turn clockwise on screen
    assert facing_deg(turned) == pytest.approx(90.0)
