"""Calibration file: round trip, clear errors for bad files, atomic saves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.board_spec import BoardSpec
from calibration.calibration_file import (
    CalibrationFileError,
    CalibrationQuality,
    CalibrationRecord,
    CheckBar,
    load_calibration,
    save_calibration,
)
from calibration.camera_model import CameraModel


def _record() -> CalibrationRecord:
    return CalibrationRecord(
        camera=CameraModel.synthetic(),
        board=BoardSpec(),
        quality=CalibrationQuality(0.21, 0.3, 0.006, 18, "good"),
        camera_id="0",
        camera_name="USB webcam",
        check_bar=CheckBar(100.0, 99.0),
    )


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    path = save_calibration(_record(), tmp_path / "cal.json")
    loaded = load_calibration(path, expected_resolution=(1920, 1080), expected_camera_id="0")
    original = _record().camera
    np.testing.assert_allclose(loaded.camera.camera_matrix, original.camera_matrix)
    np.testing.assert_allclose(loaded.camera.dist_coeffs, original.dist_coeffs)
    np.testing.assert_allclose(loaded.camera.rvec, original.rvec)
    np.testing.assert_allclose(loaded.camera.tvec, original.tvec)
    assert loaded.board == BoardSpec()
    assert loaded.quality.verdict == "good"
    assert loaded.check_bar.scale == pytest.approx(0.99)
    assert loaded.camera_name == "USB webcam"
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["resolution"] == [1920, 1080]


def test_truncated_file_is_a_clear_error(tmp_path: Path) -> None:
    path = save_calibration(_record(), tmp_path / "cal.json")
    path.write_text(path.read_text()[:200])
    with pytest.raises(CalibrationFileError, match=r"truncated.*hexa calibrate"):
        load_calibration(path)


def test_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_bytes(b"\x00\xffnot json at all}")
    with pytest.raises(CalibrationFileError, match="calibrat"):
        load_calibration(path)


def test_damaged_field_names_the_field(tmp_path: Path) -> None:
    path = save_calibration(_record(), tmp_path / "cal.json")
    data = json.loads(path.read_text())
    data["intrinsics"]["camera_matrix"] = [[1, 2], [3, 4]]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError, match="camera_matrix"):
        load_calibration(path)
    data["intrinsics"]["camera_matrix"] = np.eye(3).tolist()
    del data["table_pose"]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError, match="table_pose"):
        load_calibration(path)


def test_other_version_and_other_schema_are_refused(tmp_path: Path) -> None:
    path = save_calibration(_record(), tmp_path / "cal.json")
    data = json.loads(path.read_text())
    data["version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError, match="version 99"):
        load_calibration(path)
    path.write_text(json.dumps({"schema": "something-else"}))
    with pytest.raises(CalibrationFileError, match="not a Hexa calibration file"):
        load_calibration(path)


def test_mismatched_resolution_and_camera_say_what_to_do(tmp_path: Path) -> None:
    path = save_calibration(_record(), tmp_path / "cal.json")
    with pytest.raises(CalibrationFileError, match=r"1920×1080.*1280×720.*hexa calibrate"):
        load_calibration(path, expected_resolution=(1280, 720))
    with pytest.raises(CalibrationFileError, match=r"camera '0'.*not camera '2'"):
        load_calibration(path, expected_camera_id="2")


def test_missing_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(CalibrationFileError, match="does not exist"):
        load_calibration(tmp_path / "nope.json")


def test_failed_save_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    path = save_calibration(_record(), tmp_path / "cal.json")
    before = path.read_bytes()
    bad = CalibrationRecord(CameraModel.synthetic(), BoardSpec(),
                            CalibrationQuality(float("nan"), 0, 0, 1, "redo", advice=(object(),)))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        save_calibration(bad, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.json"]
