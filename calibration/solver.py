"""Estimate the lens from many sheet views and the table pose from the flat one.

Pure numerical steps over :class:`BoardView` lists: no files, windows or cameras. The printed
scale correction (check bar) is applied to the board's object points here, so every millimetre
that leaves this module is a true millimetre on the table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.board_spec import BoardSpec
from calibration.camera_model import CameraModel
from calibration.detection import BoardView
from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

FloatArray = NDArray[np.float64]

# Below this many views the five distortion terms and four intrinsics are not determined at all.
MIN_LENS_VIEWS = 4


class CalibrationError(ValueError):
    """Calibration cannot be computed from what was given; the message says what to do."""


@dataclass(frozen=True, eq=False)
class LensFit:
    """Intrinsics and distortion with how well they explain the views."""

    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    image_size: tuple[int, int]
    rms_px: float
    per_view_rms_px: tuple[float, ...]
    view_tilts_deg: tuple[float, ...]  # angle between each sheet's normal and the optical axis


@dataclass(frozen=True, eq=False)
class TableFit:
    """The table pose from the flat view and its residuals."""

    camera: CameraModel
    rms_px: float
    rms_mm: float  # flat-view corners back-projected onto the table vs their true sheet positions
    mm_per_px: float  # table distance covered by one pixel at the sheet's centre


def sheet_points(spec: BoardSpec, view: BoardView, scale: float = 1.0) -> FloatArray:
    """True table positions (board frame, z = 0) of the view's corners, corrected by ``scale``."""
    all_corners = np.asarray(spec.make_board().getChessboardCorners(), dtype=np.float64).reshape(-1, 3)
    if view.ids.size and (view.ids.min() < 0 or view.ids.max() >= all_corners.shape[0]):
        raise CalibrationError(_("view {value} has corner ids outside the board; is it the right sheet?",
                                 value=view.source or ''))
    return np.asarray(all_corners[view.ids] * scale, dtype=np.float64)


def _rms(residuals: NDArray[np.floating[Any]]) -> float:
    return float(np.sqrt(np.mean(np.sum(residuals**2, axis=-1)))) if residuals.size else 0.0


def calibrate_lens(views: list[BoardView], spec: BoardSpec, scale: float = 1.0) -> LensFit:
    """Intrinsics + 5-term distortion from ``views`` (all from one camera at one resolution)."""
    if len(views) < MIN_LENS_VIEWS:
        raise CalibrationError(_("only {count} view(s) of the sheet were usable; at least {MIN_LENS_VIEWS} are "
                                 "needed (10 or more for a good result). Show the whole sheet, tilted in different "
                                 "directions, in more images.", count=len(views), MIN_LENS_VIEWS=MIN_LENS_VIEWS))
    sizes = {v.image_size for v in views}
    if len(sizes) != 1:
        raise CalibrationError(_("the views have different resolutions {sorted}; use images from one camera at one "
                                 "resolution.", sorted=sorted(sizes)))
    size = views[0].image_size
    obj = [sheet_points(spec, v, scale).astype(np.float32) for v in views]
    img = [v.corners_px.astype(np.float32).reshape(-1, 1, 2) for v in views]
    w, h = size
    guess = np.array([[float(w), 0.0, w / 2.0], [0.0, float(w), h / 2.0], [0.0, 0.0, 1.0]])
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-12)
    try:
        rms, k, dist, rvecs, tvecs = cv2.calibrateCamera(obj, img, size, guess, np.zeros(5), flags=0,
                                                         criteria=criteria)
    except cv2.error as exc:
        raise CalibrationError(_("the lens could not be estimated ({err}); collect views with the sheet tilted in "
                                 "different directions.", err=exc.err)) from None
    k_fit: FloatArray = np.asarray(k, dtype=np.float64)
    dist_fit: FloatArray = np.asarray(dist, dtype=np.float64).reshape(-1)
    per_view: list[float] = []
    tilts: list[float] = []
    for o, i, rv, tv in zip(obj, img, rvecs, tvecs, strict=True):
        proj, _jacobian = cv2.projectPoints(o, rv, tv, k_fit, dist_fit)
        per_view.append(_rms(proj.reshape(-1, 2) - i.reshape(-1, 2)))
        r, _jacobian = cv2.Rodrigues(rv)
        tilts.append(float(np.degrees(np.arccos(min(1.0, abs(float(r[2, 2])))))))
    log.info("lens fit over %d views: rms %.3f px, fx %.1f fy %.1f", len(views), rms, k_fit[0, 0], k_fit[1, 1])
    return LensFit(k_fit, dist_fit, size, float(rms), tuple(per_view), tuple(tilts))


def fit_table(lens: LensFit, flat: BoardView, spec: BoardSpec, scale: float = 1.0) -> TableFit:
    """The table pose from the view of the sheet lying flat on the table."""
    if flat.image_size != lens.image_size:
        raise CalibrationError(_("the table view is {value}×{value2} but the lens views are {value3}×{value4}; take "
                                 "all images at one resolution.",
                                 value=flat.image_size[0], value2=flat.image_size[1], value3=lens.image_size[0],
                                 value4=lens.image_size[1]))
    obj = sheet_points(spec, flat, scale)
    img = flat.corners_px
    ok, rvec, tvec = cv2.solvePnP(obj, img, lens.camera_matrix, lens.dist_coeffs, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise CalibrationError(_("the table pose could not be found from the flat view; make sure the whole sheet "
                                 "lies flat and in view."))
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, lens.camera_matrix, lens.dist_coeffs, rvec, tvec)
    camera = CameraModel(lens.camera_matrix, lens.dist_coeffs, lens.image_size,
                         np.asarray(rvec, dtype=np.float64), np.asarray(tvec, dtype=np.float64))
    if camera.camera_position_mm[2] <= 0:
        raise CalibrationError(_("the flat view puts the camera under the table; the sheet was probably seen from "
                                 "behind. Lay it face up on the table."))
    rms_px = _rms(camera.project(obj[:, :2]) - img)
    rms_mm = _rms(camera.table_from_pixels(img) - obj[:, :2])
    centre = obj[:, :2].mean(axis=0)
    centre_px = camera.project([centre])[0]
    step = camera.table_from_pixels(centre_px + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    mm_per_px = float(0.5 * (np.linalg.norm(step[1] - step[0]) + np.linalg.norm(step[2] - step[0])))
    log.info("table pose: camera %.0f mm above the table, flat view rms %.3f px / %.3f mm",
             camera.camera_position_mm[2], rms_px, rms_mm)
    return TableFit(camera, rms_px, rms_mm, mm_per_px)
