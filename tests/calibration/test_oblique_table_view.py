"""Calibration with the camera at the table's edge: the table view seen 45° and 55° from vertical."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera_model import CameraModel
from calibration.detection import BoardDetector, BoardView
from calibration.pipeline import calibrate_views
from tests.calibration.conftest import A4_SPEC, RenderedSet
from tests.calibration.rendering import LENS_DIST, LENS_K, LENS_SIZE, render_sheet

A3_X = np.linspace(140.0 - 210.0, 140.0 + 210.0, 15)
A3_Y = np.linspace(84.0 - 148.5, 84.0 + 148.5, 11)


@pytest.fixture(scope="module")
def lens_views(rendered: RenderedSet) -> list[BoardView]:
    detector = BoardDetector(A4_SPEC)
    return [v for i, img in enumerate(rendered.lens_images) if (v := detector.detect(img, f"view{i:02d}"))]


@pytest.mark.parametrize("tilt_deg", [45.0, 55.0])
def test_a_steep_table_view_keeps_the_error_the_verdict_gives(lens_views: list[BoardView], tilt_deg: float) -> None:
    tilt = math.radians(tilt_deg)
    truth = CameraModel.looking_at(LENS_K, LENS_DIST, LENS_SIZE,
                                   (150.0, 110.0 - 750.0 * math.sin(tilt), 750.0 * math.cos(tilt)), (150.0, 110.0, 0.0))
    table = BoardDetector(A4_SPEC).detect(render_sheet(truth, A4_SPEC, seed=99), "table")
    assert table is not None
    result = calibrate_views(lens_views, table, A4_SPEC, camera_name="rendered")
    q, found = result.record.quality, result.table.camera
    xs, ys = np.meshgrid(A3_X, A3_Y)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    errors = np.linalg.norm(found.table_from_pixels(truth.project(pts)) - pts, axis=1)
    assert q.verdict == "good", q.advice
    assert errors.max() < 1.0  # what "good" promises (GOOD_ERROR_MM), over an A3 area around the sheet
    assert q.table_error_hex == pytest.approx(q.table_error_mm / 50.0, rel=0.01)


def test_a_table_view_showing_few_corners_is_not_called_good(lens_views: list[BoardView]) -> None:
    # 65° from vertical: a quarter of the corners; the residual on those understates the error elsewhere
    tilt = math.radians(65.0)
    truth = CameraModel.looking_at(LENS_K, LENS_DIST, LENS_SIZE,
                                   (150.0, 110.0 - 750.0 * math.sin(tilt), 750.0 * math.cos(tilt)), (150.0, 110.0, 0.0))
    table = BoardDetector(A4_SPEC).detect(render_sheet(truth, A4_SPEC, seed=99), "table")
    assert table is not None
    q = calibrate_views(lens_views, table, A4_SPEC, camera_name="rendered").record.quality
    assert q.verdict == "usable"
    assert any("nearest the camera" in line for line in q.advice)
