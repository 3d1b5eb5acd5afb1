"""Camera model geometry: projection, back-projection at a height, and the plane renderer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera_model import CameraModel, table_to_board_points


@pytest.fixture
def camera() -> CameraModel:
    return CameraModel.synthetic()


def test_synthetic_camera_sits_about_a_metre_above_the_table(camera: CameraModel) -> None:
    pos = camera.camera_position_mm
    assert pos[2] == pytest.approx(1000.0, abs=1e-6)
    assert camera.depth_mm([(150.0, 100.0, 0.0)])[0] > 900.0


def test_height_is_upward_so_raised_points_are_closer_to_the_camera(camera: CameraModel) -> None:
    base, raised = camera.depth_mm([(100.0, 50.0, 0.0), (100.0, 50.0, 40.0)])
    assert raised < base - 30.0
    assert table_to_board_points([(1.0, 2.0, 5.0)])[0].tolist() == [1.0, 2.0, -5.0]


def test_projection_matches_opencv_with_negated_height(camera: CameraModel) -> None:
    px = camera.project([(10.0, 20.0, 30.0)])
    ref, _ = cv2.projectPoints(np.array([[10.0, 20.0, -30.0]]), camera.rvec, camera.tvec,
                               camera.camera_matrix, camera.dist_coeffs)
    np.testing.assert_allclose(px, ref.reshape(-1, 2), atol=1e-9)


@pytest.mark.parametrize("height", [0.0, 25.0, 60.0])
def test_pixels_back_to_table_round_trip(camera: CameraModel, height: float) -> None:
    xs, ys = np.meshgrid(np.linspace(-100, 400, 9), np.linspace(-80, 300, 7))
    pts = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, height)], axis=1)
    px = camera.project(pts)
    back = camera.table_from_pixels(px, height)
    np.testing.assert_allclose(back, pts[:, :2], atol=1e-4)


def test_wrong_height_gives_a_parallax_shift(camera: CameraModel) -> None:
    px = camera.project([(300.0, 250.0, 50.0)])
    assert np.linalg.norm(camera.table_from_pixels(px, 0.0)[0] - (300.0, 250.0)) > 5.0


def test_ray_pointing_away_from_the_plane_is_nan() -> None:
    cam = CameraModel.synthetic(tilt_deg=0.0)
    above_camera = cam.table_from_pixels(cam.project([(150.0, 100.0, 0.0)]), height_mm=2000.0)
    assert np.isnan(above_camera).all()


def test_render_plane_puts_a_dot_where_project_says(camera: CameraModel) -> None:
    mm_per_px = 0.5
    picture = np.full((800, 1000), 255, np.uint8)
    centre_mm = (180.0, 140.0)
    cx, cy = (int(centre_mm[0] / mm_per_px), int(centre_mm[1] / mm_per_px))
    cv2.circle(picture, (cx, cy), 10, 0, -1)
    frame = camera.render_plane(picture, mm_per_px, height_mm=20.0, background=128)
    assert frame.shape == (1080, 1920)
    dark = np.argwhere(frame < 60)
    found = dark.mean(axis=0)[::-1]
    expected = camera.project([(centre_mm[0] + 0.25, centre_mm[1] + 0.25, 20.0)])[0]
    assert np.linalg.norm(found - expected) < 0.6
    assert frame[0, 0] in (128, 255)


def test_bad_distortion_length_is_refused() -> None:
    with pytest.raises(ValueError, match="coefficients"):
        CameraModel(np.eye(3), np.zeros(3), (640, 480))


def test_coarse_grid_maps_match_the_exact_maps() -> None:
    cam = CameraModel.synthetic(image_size=(640, 360), focal_px=480.0, dist_coeffs=(-0.2, 0.08, 0.0, 0.0, -0.01))
    exact_x, exact_y = cam.plane_remap_maps(0.25, origin_mm=(-50.0, -30.0), height_mm=10.0, grid_step=1)
    fast_x, fast_y = cam.plane_remap_maps(0.25, origin_mm=(-50.0, -30.0), height_mm=10.0, grid_step=4)
    assert fast_x.shape == exact_x.shape == (360, 640)
    # Within a hundredth of the distance between neighbouring camera pixels, everywhere.
    pixel_pitch = min(np.abs(np.diff(exact_x, axis=1)).min(), np.abs(np.diff(exact_y, axis=0)).min())
    assert np.abs(fast_x - exact_x).max() < 0.01 * pixel_pitch
    assert np.abs(fast_y - exact_y).max() < 0.01 * pixel_pitch


def test_supersampled_rendering_keeps_positions(camera: CameraModel) -> None:
    small = CameraModel.synthetic(image_size=(480, 270), focal_px=350.0)
    picture = np.full((800, 1000), 255, np.uint8)
    cv2.circle(picture, (400, 300), 30, 0, -1)
    expected = small.project([(200.25, 150.25, 0.0)])[0]
    for factor in (1, 3):
        frame = small.render_plane(picture, 0.5, background=255, supersample=factor)
        weights = (255.0 - frame.astype(np.float64))
        ys, xs = np.indices(frame.shape)
        found = np.array([(xs * weights).sum(), (ys * weights).sum()]) / weights.sum()
        assert np.linalg.norm(found - expected) < 0.3, factor
