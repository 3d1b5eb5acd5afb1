"""The calibration file: versioned JSON holding one camera's lens, table pose and quality.

Distances in the file are true millimetres: when the user measured the printed check bar, the
board was scaled by ``check_bar.scale`` before calibrating, so intrinsics and pose need no further
correction; the nominal board spec and the scale are kept for the record. Saving is atomic (temp
file in the same directory, then rename), so a failed save never leaves a half-written file.
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.board_spec import BoardSpec
from calibration.camera_model import CameraModel
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

SCHEMA = "hexa-calibration"
SCHEMA_VERSION = 1

_REDO = N_("Run 'hexa calibrate' again to make a new one.")


class CalibrationFileError(ValueError):
    """A calibration file that cannot be used; the message says what is wrong and what to do."""


@dataclass(frozen=True)
class CalibrationQuality:
    """How good the calibration is, in the units a player cares about."""

    reprojection_px: float
    table_error_mm: float
    table_error_hex: float
    views: int
    verdict: str  # "good" | "usable" | "redo"
    advice: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckBar:
    """The printed 100 mm bar as measured by the user; ``scale`` = measured / nominal."""

    nominal_mm: float = 100.0
    measured_mm: float | None = None

    @property
    def scale(self) -> float:
        return 1.0 if self.measured_mm is None else self.measured_mm / self.nominal_mm


@dataclass(frozen=True, eq=False)
class CalibrationRecord:
    """Everything one calibration file holds."""

    camera: CameraModel
    board: BoardSpec
    quality: CalibrationQuality
    camera_id: str = "0"
    camera_name: str = ""
    check_bar: CheckBar = field(default_factory=CheckBar)
    date: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    @property
    def resolution(self) -> tuple[int, int]:
        return self.camera.image_size


def record_to_json(record: CalibrationRecord) -> dict[str, Any]:
    """The JSON object written to disk."""
    cam = record.camera
    q = record.quality
    return {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "camera": {"id": record.camera_id, "name": record.camera_name},
        "resolution": [cam.image_size[0], cam.image_size[1]],
        "date": record.date,
        "board": record.board.to_json(),
        "intrinsics": {"camera_matrix": cam.camera_matrix.tolist()},
        "distortion": cam.dist_coeffs.tolist(),
        "table_pose": {"rvec": cam.rvec.tolist(), "tvec": cam.tvec.tolist()},
        "quality": {
            "reprojection_px": q.reprojection_px,
            "table_error_mm": q.table_error_mm,
            "table_error_hex": q.table_error_hex,
            "views": q.views,
            "verdict": q.verdict,
            "advice": list(q.advice),
        },
        "check_bar": {
            "nominal_mm": record.check_bar.nominal_mm,
            "measured_mm": record.check_bar.measured_mm,
            "scale": record.check_bar.scale,
        },
    }


def record_from_json(data: Any, source: str = "calibration file") -> CalibrationRecord:
    """Parse and validate a decoded JSON object; raises :class:`CalibrationFileError`."""
    if not isinstance(data, dict):
        raise CalibrationFileError(_("{source} is not a JSON object. {redo}", source=source, redo=_(_REDO)))
    if data.get("schema") != SCHEMA:
        raise CalibrationFileError(_("{source} is not a Hexa calibration file (schema {schema!r}). Check the path, "
                                     "or run 'hexa calibrate' again to make a new one.",
                                     source=source, schema=data.get("schema")))
    version = data.get("version")
    if version != SCHEMA_VERSION:
        raise CalibrationFileError(_("{source} has format version {version!r}; this program reads version "
                                     "{SCHEMA_VERSION}. {redo}",
                                     source=source, version=version, SCHEMA_VERSION=SCHEMA_VERSION, redo=_(_REDO)))
    try:
        cam_info = _obj(data, "camera")
        width, height = _resolution(data["resolution"])
        k = np.array(_obj(data, "intrinsics")["camera_matrix"], dtype=np.float64)
        if k.shape != (3, 3):
            raise ValueError(_("camera_matrix must be 3×3, got shape {shape}", shape=k.shape))
        dist = np.array(data["distortion"], dtype=np.float64)
        if dist.ndim != 1 or dist.size not in _DIST_SIZES:
            raise ValueError(_("distortion must be a flat list of 4, 5, 8, 12 or 14 numbers, got shape {shape}",
                               shape=dist.shape))
        pose = _obj(data, "table_pose")
        rvec = np.array(pose["rvec"], dtype=np.float64)
        tvec = np.array(pose["tvec"], dtype=np.float64)
        if rvec.shape != (3,) or tvec.shape != (3,):
            raise ValueError(_("table_pose rvec and tvec must each hold 3 numbers"))
        for name, arr in (("camera_matrix", k), ("distortion", dist), ("rvec", rvec), ("tvec", tvec)):
            if not np.all(np.isfinite(arr)):
                raise ValueError(_("{name} holds a non-finite number", name=name))
        _check_lens(k, dist, width, height)
        camera = CameraModel(k, dist, (width, height), rvec, tvec)
        board = BoardSpec.from_json(data["board"])
        if not (math.isfinite(board.square_mm) and 1.0 <= board.square_mm <= 1000.0):
            raise ValueError(_("board square_mm is {square_mm}; a printed square is 1 to 1000 mm",
                               square_mm=board.square_mm))
        _check_pose(rvec, tvec, board)
        q = _obj(data, "quality")
        quality = CalibrationQuality(
            reprojection_px=_measure(q, "reprojection_px"),
            table_error_mm=_measure(q, "table_error_mm"),
            table_error_hex=_measure(q, "table_error_hex"),
            views=int(q["views"]),
            verdict=str(q["verdict"]),
            advice=tuple(str(a) for a in q.get("advice", [])),
        )
        bar = _obj(data, "check_bar")
        measured = bar.get("measured_mm")
        check_bar = CheckBar(float(bar.get("nominal_mm", 100.0)), None if measured is None else float(measured))
        if not (math.isfinite(check_bar.nominal_mm) and check_bar.nominal_mm > 0):
            raise ValueError(_("check_bar nominal_mm must be a positive length"))
        if check_bar.measured_mm is not None and not (math.isfinite(check_bar.scale) and 0.5 < check_bar.scale < 2):
            raise ValueError(_("check_bar measured_mm must be a positive length close to nominal_mm"))
        return CalibrationRecord(camera, board, quality, str(cam_info.get("id", "")), str(cam_info.get("name", "")),
                                 check_bar, str(data.get("date", "")))
    except CalibrationFileError:
        raise
    except KeyError as exc:
        raise CalibrationFileError(_("{source} is missing the field {value!r}. {redo}",
                                     source=source, value=exc.args[0], redo=_(_REDO))) from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise CalibrationFileError(_("{source} is damaged: {exc}. {redo}", source=source, exc=exc,
                                     redo=_(_REDO))) from None


_DIST_SIZES = (4, 5, 8, 12, 14)
MAX_IMAGE_SIDE_PX = 16_384  # larger than any webcam or phone sensor; keeps image buffers allocatable
MAX_RADIAL = 100.0  # |k1…k6|: wide-angle lenses stay in the tens
MAX_OTHER = 1.0  # |p1|, |p2|, thin prism s1…s4, tilt τx, τy: small by nature
MIN_DISTANCE_MM = 50.0
MAX_DISTANCE_MM = 20_000.0


def _resolution(res: Any) -> tuple[int, int]:
    if not (isinstance(res, list) and len(res) == 2):
        raise ValueError(_("'resolution' must be [width, height]"))
    if any(isinstance(v, bool) or not isinstance(v, int) for v in res):
        raise ValueError(_("'resolution' must be two whole numbers of pixels, got {res!r}", res=res))
    if not all(16 <= v <= MAX_IMAGE_SIDE_PX for v in res):
        raise ValueError(_("'resolution' {value}×{value2} is outside 16 to {MAX_IMAGE_SIDE_PX} pixels a side",
                           value=res[0], value2=res[1], MAX_IMAGE_SIDE_PX=MAX_IMAGE_SIDE_PX))
    return res[0], res[1]


def _check_lens(k: np.ndarray[Any, Any], dist: np.ndarray[Any, Any], width: int, height: int) -> None:
    """The intrinsics of a real lens: positive focal lengths, the principal point inside the image."""
    fx, fy, cx, cy = k[0, 0], k[1, 1], k[0, 2], k[1, 2]
    side = max(width, height)
    for name, f in (("fx", fx), ("fy", fy)):
        if not 0.05 * side <= f <= 50.0 * side:
            raise ValueError(_("camera_matrix focal length {name} is {f:g} px; a lens on a {width}×{height} image "
                               "has {value:g} to {value2:g}",
                               name=name, f=f, width=width, height=height, value=0.05 * side, value2=50 * side))
    if not (0.0 <= cx <= width and 0.0 <= cy <= height):
        raise ValueError(_("camera_matrix principal point ({cx:g}, {cy:g}) is outside the {width}×{height} image",
                           cx=cx, cy=cy, width=width, height=height))
    if abs(k[0, 1]) > 0.1 * fx or k[1, 0] != 0.0 or k[2, 0] != 0.0 or k[2, 1] != 0.0 or k[2, 2] != 1.0:
        raise ValueError(_("camera_matrix must be [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]"))
    radial = [0, 1, 4, 5, 6, 7]  # k1, k2, (p1, p2), k3, k4, k5, k6, then s1…s4, τx, τy
    for i, value in enumerate(dist):
        limit = MAX_RADIAL if i in radial else MAX_OTHER
        if abs(value) > limit:
            raise ValueError(_("distortion coefficient {value} is {value2:g}; a lens has at most {limit:g} there",
                               value=i + 1, value2=value, limit=limit))


def _check_pose(rvec: np.ndarray[Any, Any], tvec: np.ndarray[Any, Any], board: BoardSpec) -> None:
    """The table is in front of the camera, at a distance a camera over a table can have, seen from above."""
    rotation, _jacobian = cv2.Rodrigues(rvec.reshape(3, 1))
    centre = rotation @ np.array([board.width_mm / 2, board.height_mm / 2, 0.0]) + tvec
    distance = float(np.linalg.norm(centre))
    if centre[2] <= 0 or not MIN_DISTANCE_MM <= distance <= MAX_DISTANCE_MM:
        where = (_("table_pose puts the table behind the camera at {distance:.0f} mm", distance=distance)
                 if centre[2] <= 0 else
                 _("table_pose puts the table in front of the camera at {distance:.0f} mm", distance=distance))
        raise ValueError(_("{where}; it must be in front, {low:g} to {high:g} mm away",
                           where=where, low=MIN_DISTANCE_MM, high=MAX_DISTANCE_MM))
    camera_in_board = -rotation.T @ tvec
    if camera_in_board[2] > -MIN_DISTANCE_MM:  # the board frame's z points into the table
        above = -camera_in_board[2] + 0.0  # + 0.0: no "-0"
        raise ValueError(_("table_pose puts the camera {above:.0f} mm above the table, on or under it; it must look "
                           "down from at least {MIN_DISTANCE_MM:g} mm above",
                           above=above, MIN_DISTANCE_MM=MIN_DISTANCE_MM))


def _measure(q: dict[str, Any], key: str) -> float:
    value = float(q[key])
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(_("quality {key} must be a non-negative number, got {value!r}", key=key, value=q[key]))
    return value


def _obj(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data[key]
    if not isinstance(value, dict):
        raise ValueError(_("{key!r} must be a JSON object", key=key))
    return value


def save_calibration(record: CalibrationRecord, path: str | os.PathLike[str]) -> Path:
    """Write ``record`` to ``path`` atomically; the previous file survives any failure."""
    target = Path(path)
    text = json.dumps(record_to_json(record), indent=2) + "\n"
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    log.info("saved calibration to %s", target)
    return target


def load_calibration(
    path: str | os.PathLike[str],
    expected_resolution: tuple[int, int] | None = None,
    expected_camera_id: str | None = None,
) -> CalibrationRecord:
    """Read a calibration file, checking it matches the camera in use when told which one that is.

    Raises :class:`CalibrationFileError` for a missing, corrupt, truncated, other-version, other-
    resolution or other-camera file, with the fix in the message.
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationFileError(_("calibration file {source} does not exist. Run 'hexa calibrate -o {source}' "
                                     "first, or pass the right path.", source=source)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationFileError(_("calibration file {source} cannot be read ({exc}). {redo}",
                                     source=source, exc=exc, redo=_(_REDO))) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        what = _("truncated") if exc.pos >= len(text.rstrip()) else _("corrupt")
        raise CalibrationFileError(_("calibration file {source} is {what} (invalid JSON at line {lineno}, column "
                                     "{colno}). {redo}",
                                     source=source, what=what, lineno=exc.lineno, colno=exc.colno,
                                     redo=_(_REDO))) from None
    record = record_from_json(data, f"calibration file {source}")
    if expected_resolution is not None and tuple(expected_resolution) != record.resolution:
        w, h = record.resolution
        ew, eh = expected_resolution
        raise CalibrationFileError(
            _("calibration file {source} was made at {w}×{h} but the camera delivers {ew}×{eh}. Set the camera to "
              "{w}×{h}, or run 'hexa calibrate' again at {ew}×{eh}.", source=source, w=w, h=h, ew=ew, eh=eh))
    if expected_camera_id is not None and expected_camera_id != record.camera_id:
        raise CalibrationFileError(
            _("calibration file {source} is for camera {camera_id!r} ({value}), not camera {expected_camera_id!r}. "
              "Pass that camera's own calibration file, or run 'hexa calibrate --camera {expected_camera_id}'.",
              source=source, camera_id=record.camera_id, value=record.camera_name or 'unnamed',
              expected_camera_id=expected_camera_id))
    return record
