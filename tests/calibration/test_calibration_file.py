"""Calibration file: round trip, clear errors for bad files, atomic saves."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.board_spec import BoardSpec
from calibration.calibration_file import (
    CalibrationFileError,
    CalibrationQuality,
    CalibrationRecord,
    CheckBar,
    load_calibration,
    record_from_json,
    record_to_json,
    save_calibration,
)
from calibration.camera_model import CameraModel, _look_at_pose


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


# -- the file's physics: each absurd value is refused with the field named ------------------------------------------
def _edit(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    path = save_calibration(_record(), tmp_path / "cal.json")
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def _set(*keys: str | int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("intrinsics", "camera_matrix", value=[[0.0] * 3] * 3), r"camera_matrix focal length fx is 0 px"),
        (_set("intrinsics", "camera_matrix", 0, 2, value=5000.0),
         r"camera_matrix principal point \(5000, .*\) is outside"),
        (_set("intrinsics", "camera_matrix", 2, 2, value=0.0), r"camera_matrix must be \[\[fx, 0, cx\]"),
        (_set("distortion", 0, value=1e10), r"distortion coefficient 1 is 1e\+10"),
        (_set("distortion", 2, value=3.0), r"distortion coefficient 3 is 3; a lens has at most 1"),
        (_set("distortion", value=[[-0.12, 0.06, 0.0005, -0.0004, -0.01]]),
         r"distortion must be a flat list.*\(1, 5\)"),
        (_set("table_pose", "tvec", value=[0.0, 0.0, 0.0]), r"table_pose puts the camera 0 mm above the table, on or"),
        (_set("table_pose", "tvec", 2, value=-1000.0), r"table_pose puts the table behind"),
        (_set("table_pose", "tvec", 2, value=1e9), r"table_pose .* it must be in front, 50 to 20000 mm away"),
        (_set("resolution", value=[10**12, 1080]), r"'resolution' 1000000000000×1080 is outside 16 to 16384"),
        (_set("resolution", value=[1920.5, 1080]), r"'resolution' must be two whole numbers"),
        (_set("quality", "reprojection_px", value=-1), r"quality reprojection_px must be a non-negative number"),
        (_set("board", "square_mm", value=1e300), r"board square_mm is 1e\+300"),
        (_set("check_bar", "measured_mm", value=1e-9), r"check_bar measured_mm must be a positive length close"),
    ],
)
def test_physically_impossible_files_are_refused_naming_the_field(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    path = _edit(tmp_path, change)
    with pytest.raises(CalibrationFileError, match=f"calibration file {re.escape(str(path))} is damaged: {message}"):
        load_calibration(path)


def test_a_camera_under_the_table_is_refused(tmp_path: Path) -> None:
    # Board frame: z points into the table, so z = +1000 is a metre below it, looking up at the sheet.
    rvec, tvec = _look_at_pose(np.array([150.0, 100.0, 1000.0]), np.array([150.0, 100.0, 0.0]))

    def below(data: dict[str, Any]) -> None:
        data["table_pose"] = {"rvec": rvec.tolist(), "tvec": tvec.tolist()}

    with pytest.raises(CalibrationFileError, match=r"table_pose puts the camera -1000 mm above the table, on or under"):
        load_calibration(_edit(tmp_path, below))


_MUTANTS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5), st.lists(st.floats(allow_nan=True), max_size=16),
    st.lists(st.lists(st.floats(-10, 10), max_size=4), max_size=4), st.dictionaries(st.text(max_size=3), st.integers()),
)


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


_GOOD = record_to_json(_record())
_PATHS = _paths(_GOOD)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PATHS), _MUTANTS), min_size=1, max_size=3))
def test_mutated_files_load_or_give_a_calibration_file_error(edits: list[tuple[tuple[str | int, ...], Any]]) -> None:
    data = json.loads(json.dumps(_GOOD))
    for keys, value in edits:
        try:
            _set(*keys, value=value)(data)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit replaced the container
    try:
        record = record_from_json(data, "calibration file fuzz.json")
    except CalibrationFileError as exc:
        assert str(exc).startswith("calibration file fuzz.json")
        return
    # Whatever loads is usable: it projects the table centre to a finite pixel.
    assert np.all(np.isfinite(record.camera.project([[150.0, 100.0]])))
