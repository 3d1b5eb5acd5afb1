"""``hexa calibrate --images`` / ``--video`` end to end on rendered views, and its bad-input paths."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibration_file import load_calibration
from calibration.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_REDO, calibrate_main
from tests.calibration.conftest import A4_SPEC, RenderedSet


def _write_images(rendered: RenderedSet, folder: Path, count: int | None = None) -> Path:
    folder.mkdir()
    for i, img in enumerate(rendered.lens_images[:count]):
        cv2.imwrite(str(folder / f"view{i:02d}.png"), img)
    cv2.imwrite(str(folder / "zz_table.png"), rendered.table_image)
    return folder


def test_images_to_a_good_calibration_file(rendered: RenderedSet, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_images(rendered, tmp_path / "views")
    out = tmp_path / "calibration.json"
    code = calibrate_main(["--images", str(folder), "-o", str(out), "--camera-name", "test cam"])
    text = capsys.readouterr().out
    assert code == EXIT_OK, text
    assert "verdict              GOOD" in text and "px" in text and "mm on the table" in text
    record = load_calibration(out, expected_resolution=(1280, 720), expected_camera_id="0")
    assert record.quality.verdict == "good"
    assert record.board == A4_SPEC
    assert abs(record.camera.camera_position_mm[2] - rendered.truth.camera_position_mm[2]) < 3.0


def test_explicit_table_view_and_board_file(rendered: RenderedSet, tmp_path: Path) -> None:
    folder = _write_images(rendered, tmp_path / "views")
    table = folder / "zz_table.png"
    moved = tmp_path / "flat.png"
    table.rename(moved)
    board = tmp_path / "board.json"
    board.write_text(json.dumps(A4_SPEC.to_json()))
    out = tmp_path / "cal.json"
    assert calibrate_main(["--images", str(folder), "--table", str(moved), "--board", str(board),
                           "-o", str(out), "--check-bar", "100.2"]) == EXIT_OK
    assert load_calibration(out).check_bar.measured_mm == pytest.approx(100.2)


def test_video_to_a_calibration_file(rendered: RenderedSet, tmp_path: Path) -> None:
    video = tmp_path / "sheet.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (1280, 720))
    assert writer.isOpened()
    for img in [*rendered.lens_images, rendered.table_image]:
        for _ in range(3):  # the sheet held still for a moment in each position
            writer.write(img)
    writer.release()
    out = tmp_path / "cal.json"
    code = calibrate_main(["--video", str(video), "-o", str(out)])
    assert code == EXIT_OK
    record = load_calibration(out)
    assert record.quality.verdict in ("good", "usable")
    assert record.quality.reprojection_px < 0.5


def test_too_few_views_leaves_the_old_file_untouched(rendered: RenderedSet, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_images(rendered, tmp_path / "views", count=4)
    out = tmp_path / "cal.json"
    out.write_text("previous calibration")
    assert calibrate_main(["--images", str(folder), "-o", str(out)]) == EXIT_REDO
    assert "Too few views" in capsys.readouterr().out
    assert out.read_text() == "previous calibration"


def test_no_board_visible_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    for i in range(5):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((480, 640, 3), 128, np.uint8))
    out = tmp_path / "cal.json"
    assert calibrate_main(["--images", str(folder), "-o", str(out)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "not found in the table view" in err and "Nothing was written" in err
    assert not out.exists()


def test_empty_folder_and_corrupt_image_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "pics"
    folder.mkdir()
    assert calibrate_main(["--images", str(folder), "-o", str(tmp_path / "c.json")]) == EXIT_BAD_INPUT
    assert "holds no images" in capsys.readouterr().err
    (folder / "a.png").write_bytes(b"\x89PNG broken")
    assert calibrate_main(["--images", str(folder), "-o", str(tmp_path / "c.json")]) == EXIT_BAD_INPUT
    assert "a.png cannot be read" in capsys.readouterr().err


def test_missing_video_and_bad_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert calibrate_main(["--video", str(tmp_path / "none.mp4"), "-o", str(tmp_path / "c.json")]) == EXIT_BAD_INPUT
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "board.json"
    bad.write_text('{"dictionary": "DICT_5X5_100"}')
    assert calibrate_main(["--video", "x.mp4", "--board", str(bad), "-o", "c.json"]) == EXIT_BAD_INPUT
    assert "missing 'squares_x'" in capsys.readouterr().err


def test_live_flow_without_a_display_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    code = calibrate_main(["--camera", "0", "--check-bar", "100", "-o", str(tmp_path / "c.json")])
    assert code == EXIT_BAD_INPUT
    assert "--images DIR or --video FILE" in capsys.readouterr().err


def test_live_flow_without_a_camera_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":0")  # pretend a desktop: the missing camera must be what stops it
    out = tmp_path / "c.json"
    code = calibrate_main(["--camera", "57", "--check-bar", "100", "-o", str(out)])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "no camera found at index 57" in err and "--images DIR" in err
    assert not out.exists()
