"""The guided flow's state machine fed with rendered frames (no window), and its overlay drawing."""

from __future__ import annotations

import numpy as np

from calibration.live import KEY_CAPTURE, KEY_NEXT, LiveSession, Stage, is_still
from calibration.live_window import draw_overlay
from tests.calibration.conftest import A4_SPEC, RenderedSet


def test_guided_flow_collects_views_then_the_table_and_calibrates(rendered: RenderedSet) -> None:
    session = LiveSession(A4_SPEC, target_views=10)
    status = session.feed(np.full_like(rendered.table_image, 90))
    assert "sheet not found" in status.message
    for image in rendered.lens_images:
        if session.stage is Stage.LENS:
            moving = session.feed(image)  # first sight of a new position: the sheet is still moving
            assert moving.message == "hold still"
            session.feed(image)
    # The last four views reach the picture's corners; only then are enough views enough.
    assert len(session.kept) >= 12
    assert session.stage is Stage.TABLE
    assert "lay the sheet flat" in " ".join(session.status().instructions)
    session.feed(rendered.table_image)
    assert session.key(KEY_CAPTURE).stage is Stage.DONE
    result = session.finish(camera_name="rendered")
    assert result.record.quality.verdict == "good"
    truth = rendered.truth.camera_position_mm
    assert np.linalg.norm(result.record.camera.camera_position_mm - truth) < 3.0


def test_next_needs_enough_views_and_capture_needs_the_sheet(rendered: RenderedSet) -> None:
    session = LiveSession(A4_SPEC)
    assert "need at least" in session.key(KEY_NEXT).message
    for image in rendered.lens_images[:5]:
        session.feed(image)
        session.feed(image)
    status = session.status()
    assert status.stage is Stage.LENS and 0 < status.progress < 1
    assert any("Press N" in line for line in status.instructions)
    assert session.key(KEY_NEXT).stage is Stage.TABLE
    session.feed(np.full_like(rendered.table_image, 90))
    assert "sheet not found" in session.key(KEY_CAPTURE).message
    assert session.stage is Stage.TABLE


def test_still_means_the_corners_did_not_move(rendered: RenderedSet) -> None:
    session = LiveSession(A4_SPEC)
    a = session.feed(rendered.lens_images[0]).view
    b = session.feed(rendered.lens_images[1]).view
    assert is_still(a, a) and not is_still(a, b) and not is_still(a, None)


def test_overlay_draws_panel_progress_and_coverage(rendered: RenderedSet) -> None:
    session = LiveSession(A4_SPEC)
    session.feed(rendered.lens_images[0])
    status = session.feed(rendered.lens_images[0])
    coverage = session.coverage_image(200)
    frame = rendered.lens_images[0]
    out = draw_overlay(frame, status, coverage)
    assert out.shape == frame.shape and out.dtype == np.uint8
    h, w = frame.shape[:2]
    np.testing.assert_array_equal(out[h - coverage.shape[0] - 10:h - 10, w - coverage.shape[1] - 10:w - 10], coverage)
    assert out[:40].mean() < frame[:40].mean()  # the text panel darkens the top


def test_verdict_picture_shows_the_verdict_colour_and_coverage() -> None:
    from calibration.calibration_file import CalibrationQuality
    from calibration.live_window import verdict_picture

    coverage = np.full((90, 160, 3), 77, np.uint8)
    redo = verdict_picture(CalibrationQuality(1.4, 4.2, 0.084, 5, "redo", ("Too few views (5); collect more.",)),
                           coverage)
    good = verdict_picture(CalibrationQuality(0.2, 0.3, 0.006, 15, "good"), coverage)
    assert redo.shape == good.shape == (540, 960, 3)
    np.testing.assert_array_equal(redo[10:100, 960 - 170:950], coverage)
    title = (slice(20, 80), slice(20, 300))
    assert redo[title][..., 2].max() > 200 and redo[title][..., 1].max() < 60  # red
    assert good[title][..., 1].max() > 180 and good[title][..., 2].max() < 60  # green
