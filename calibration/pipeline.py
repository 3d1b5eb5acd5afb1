"""From sheet views to a calibration record: lens fit, outlier views dropped, table pose, verdict.

The one entry point all front ends (image folder, video, live camera) share, so they cannot
drift apart in what they compute or how they judge it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from calibration.board_spec import BoardSpec
from calibration.calibration_file import CalibrationRecord, CheckBar
from calibration.coverage import coverage_counts, coverage_fraction, uncovered_corners
from calibration.detection import BoardView
from calibration.quality import DEFAULT_HEX_ACROSS_FLATS_MM, QualityInputs, assess
from calibration.solver import CalibrationError, LensFit, TableFit, calibrate_lens, fit_table
from engine.i18n import gettext_for, ngettext_for

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

log = logging.getLogger(__name__)

CHECK_BAR_NOMINAL_MM = 100.0
# A measured bar outside this range is a typo or the wrong bar, not a printer's scaling.
CHECK_BAR_RANGE_MM = (80.0, 120.0)
# A view fitting this much worse than the median (and over 1 px) is dropped and the lens refitted.
OUTLIER_FACTOR = 3.0


@dataclass(frozen=True, eq=False)
class CalibrationResult:
    """The record to save plus the intermediate fits (for reports and tests)."""

    record: CalibrationRecord
    lens: LensFit
    table: TableFit
    dropped_views: tuple[str, ...]


def check_bar_from_measurement(measured_mm: float | None) -> CheckBar:
    """Validate the user's measurement of the printed 100 mm bar."""
    if measured_mm is None:
        return CheckBar(CHECK_BAR_NOMINAL_MM, None)
    low, high = CHECK_BAR_RANGE_MM
    if not (low <= measured_mm <= high):
        raise CalibrationError(_("a check bar measured as {mm:g} mm cannot be right: measure the bar marked '100 mm' "
                                 "on the printed sheet, in millimetres (expected {low:g}–{high:g}).",
                                 mm=measured_mm, low=low, high=high))
    return CheckBar(CHECK_BAR_NOMINAL_MM, float(measured_mm))


def calibrate_views(
    lens_views: list[BoardView],
    table_view: BoardView | None,
    spec: BoardSpec,
    check_bar_mm: float | None = None,
    hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM,
    camera_id: str = "0",
    camera_name: str = "",
) -> CalibrationResult:
    """Fit lens and table pose; judge the result. Raises :class:`CalibrationError` when impossible."""
    if table_view is None:
        raise CalibrationError(_("the sheet was not found in the table view: lay the whole sheet flat on the table, "
                                 "in good light, fully inside the picture, and take that view again."))
    bar = check_bar_from_measurement(check_bar_mm)
    scale = bar.scale
    # The lens comes from the hand-held views only: a table view with a bent sheet must not bend
    # the lens too, or the flatness check below would compare two spoiled fits.
    views = list(lens_views)
    lens = calibrate_lens(views, spec, scale)
    dropped: list[str] = []
    errors = np.asarray(lens.per_view_rms_px)
    if errors.size >= 6:
        limit = max(1.0, OUTLIER_FACTOR * float(np.median(errors)))
        keep = [v for v, e in zip(views, errors, strict=True) if e <= limit]
        if len(keep) < len(views):
            dropped = [v.source or _("unnamed view") for v, e in zip(views, errors, strict=True) if e > limit]
            log.info("dropping %d poorly fitting view(s): %s", len(dropped), ", ".join(dropped))
            views = keep
            lens = calibrate_lens(views, spec, scale)
    table = fit_table(lens, table_view, spec, scale)
    counts = coverage_counts(views, lens.image_size)
    inputs = QualityInputs(
        lens_rms_px=lens.rms_px,
        table_rms_px=table.rms_px,
        table_rms_mm=table.rms_mm,
        mm_per_px=table.mm_per_px,
        views=len(views),
        coverage=coverage_fraction(counts),
        uncovered_corners=uncovered_corners(counts),
        median_sharpness=float(np.median([v.sharpness for v in views])),
        max_tilt_deg=max(lens.view_tilts_deg),
        check_bar_scale=None if check_bar_mm is None else scale,
        hex_mm=hex_mm,
        table_corner_share=table_view.count / max((spec.squares_x - 1) * (spec.squares_y - 1), 1),
    )
    quality = assess(inputs)
    if dropped:
        quality = type(quality)(quality.reprojection_px, quality.table_error_mm, quality.table_error_hex,
                                quality.views, quality.verdict,
                                (*quality.advice, _n("{n} view fitted badly and was left out: {views}.",
                                                     "{n} views fitted badly and were left out: {views}.",
                                                     len(dropped), views=_(", ").join(dropped))))
    record = CalibrationRecord(table.camera, spec, quality, camera_id, camera_name, bar)
    return CalibrationResult(record, lens, table, tuple(dropped))
