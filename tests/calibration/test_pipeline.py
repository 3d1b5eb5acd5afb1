"""Calibration from views rendered through a known camera: lens, pose, table positions, bad inputs."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera_model import CameraModel
from calibration.detection import BoardDetector, BoardView
from calibration.pipeline import CalibrationResult, calibrate_views
from calibration.solver import CalibrationError
from tests.calibration.conftest import A4_SPEC, RenderedSet
from tests.calibration.rendering import render_lifted_half

# An A3 sheet's area (420 × 297 mm) centred on the calibration sheet.
A3_X = np.linspace(140.0 - 210.0, 140.0 + 210.0, 15)
A3_Y = np.linspace(84.0 - 148.5, 84.0 + 148.5, 11)


_DETECTED: dict[int, tuple[list[BoardView], BoardView | None]] = {}


def _views(rendered: RenderedSet) -> tuple[list[BoardView], BoardView | None]:
    """Detected views of a rendered set (cached: detection is the slow part of these tests)."""
    if id(rendered) not in _DETECTED:
        detector = BoardDetector(A4_SPEC)
        lens = [v for i, img in enumerate(rendered.lens_images) if (v := detector.detect(img, f"view{i:02d}"))]
        _DETECTED[id(rendered)] = (lens, detector.detect(rendered.table_image, "table"))
    lens, table = _DETECTED[id(rendered)]
    return list(lens), table


def _a3_errors_mm(truth: CameraModel, found: CameraModel) -> np.ndarray:
    xs, ys = np.meshgrid(A3_X, A3_Y)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    return np.linalg.norm(found.table_from_pixels(truth.project(pts)) - pts, axis=1)


@pytest.fixture(scope="module")
def result(rendered: RenderedSet) -> CalibrationResult:
    lens, table = _views(rendered)
    return calibrate_views(lens, table, A4_SPEC, camera_name="rendered")


def test_every_rendered_view_is_detected(rendered: RenderedSet) -> None:
    lens, table = _views(rendered)
    assert len(lens) == len(rendered.lens_images)
    assert table is not None and table.count == A4_SPEC.corner_count


def test_lens_is_recovered(result: CalibrationResult, rendered: RenderedSet) -> None:
    k, k_true = result.lens.camera_matrix, rendered.truth.camera_matrix
    assert k[0, 0] == pytest.approx(k_true[0, 0], rel=0.005)
    assert k[1, 1] == pytest.approx(k_true[1, 1], rel=0.005)
    assert k[0, 2] == pytest.approx(k_true[0, 2], abs=3.0)
    assert k[1, 2] == pytest.approx(k_true[1, 2], abs=3.0)
    # Distortion terms trade off against each other; compare what they do across the image instead
    # (the outermost pixels are extrapolated beyond the last corners seen, hence 1.5 px there).
    w, h = rendered.truth.image_size
    grid = np.stack(np.meshgrid(np.linspace(0, w - 1, 9), np.linspace(0, h - 1, 7)), axis=-1).reshape(-1, 2)
    rays_true = rendered.truth.pixel_rays(grid)
    rays_found = result.table.camera.pixel_rays(grid)
    assert np.abs(rays_true - rays_found).max() * k_true[0, 0] < 1.5


def test_reprojection_error_is_small(result: CalibrationResult) -> None:
    assert result.lens.rms_px <= 0.3
    assert result.table.rms_px <= 0.3
    assert result.record.quality.reprojection_px <= 0.3


def test_table_pose_is_recovered(result: CalibrationResult, rendered: RenderedSet) -> None:
    found = result.table.camera.camera_position_mm
    assert np.linalg.norm(found - rendered.truth.camera_position_mm) < 3.0


def test_positions_on_an_a3_area_are_within_half_a_millimetre(result: CalibrationResult,
                                                               rendered: RenderedSet) -> None:
    errors = _a3_errors_mm(rendered.truth, result.table.camera)
    assert errors.max() < 0.5


def test_verdict_is_good_with_the_figures_reported(result: CalibrationResult) -> None:
    q = result.record.quality
    assert q.verdict == "good", q.advice
    assert q.advice == ()
    assert 0 < q.table_error_mm < 0.5
    assert q.table_error_hex == pytest.approx(q.table_error_mm / 50.0, rel=0.01)
    assert q.views == 14


def test_check_bar_corrects_a_shrunken_print(rendered: RenderedSet) -> None:
    # The rendered sheet is what came out of a printer set to 97.5 %: its file said bigger squares.
    nominal = A4_SPEC.scaled(1 / 0.975)
    lens, table = _views(rendered)
    uncorrected = calibrate_views(lens, table, nominal)
    assert _a3_errors_mm(rendered.truth, uncorrected.table.camera).max() > 3.0
    corrected = calibrate_views(lens, table, nominal, check_bar_mm=97.5)
    assert _a3_errors_mm(rendered.truth, corrected.table.camera).max() < 0.5
    assert corrected.record.check_bar.scale == pytest.approx(0.975)
    assert corrected.record.board == nominal  # the file keeps what was printed on the sheet
    assert any("97.5%" in a for a in corrected.record.quality.advice)


def test_too_few_views_is_a_clear_error(rendered: RenderedSet) -> None:
    lens, table = _views(rendered)
    with pytest.raises(CalibrationError, match=r"only 3 view\(s\).*at least 4"):
        calibrate_views(lens[:3], table, A4_SPEC)


def test_few_views_give_a_redo_verdict_with_advice(rendered: RenderedSet) -> None:
    lens, table = _views(rendered)
    result = calibrate_views(lens[:5], table, A4_SPEC)
    assert result.record.quality.verdict == "redo"
    assert any("Too few views (5)" in a for a in result.record.quality.advice)


@pytest.mark.parametrize(("lift_mm", "verdict"), [(10.0, "usable"), (25.0, "redo")])
def test_a_sheet_not_lying_flat_is_caught(rendered: RenderedSet, lift_mm: float, verdict: str) -> None:
    lens, _ = _views(rendered)
    bent = BoardDetector(A4_SPEC).detect(render_lifted_half(rendered.truth, A4_SPEC, lift_mm), "bent")
    result = calibrate_views(lens, bent, A4_SPEC)
    assert result.record.quality.verdict == verdict
    assert any("does not seem to lie flat" in a for a in result.record.quality.advice)


def test_no_board_in_table_view_is_a_clear_error(rendered: RenderedSet) -> None:
    lens, _ = _views(rendered)
    blank = np.full_like(rendered.table_image, 90)
    assert BoardDetector(A4_SPEC).detect(blank) is None
    with pytest.raises(CalibrationError, match="not found in the table view"):
        calibrate_views(lens, None, A4_SPEC)


def test_implausible_check_bar_is_refused(rendered: RenderedSet) -> None:
    lens, table = _views(rendered)
    with pytest.raises(CalibrationError, match=r"check bar measured as 9\.75 mm"):
        calibrate_views(lens, table, A4_SPEC, check_bar_mm=9.75)


def test_mixed_resolutions_are_refused(rendered: RenderedSet) -> None:
    lens, table = _views(rendered)
    odd = BoardView(lens[0].corners_px, lens[0].ids, (640, 480), lens[0].sharpness, "odd")
    with pytest.raises(CalibrationError, match="different resolutions"):
        calibrate_views([*lens, odd], table, A4_SPEC)
