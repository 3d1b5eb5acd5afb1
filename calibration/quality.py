"""Verdict (good / usable / redo) and plain advice from a calibration's figures.

Why these thresholds:

* What matters to a player is where a figure lands on the hex map. The engine assigns a hex from
  the figure's table position with some hysteresis; an error of a few per cent of a hex across
  is invisible, a tenth of a hex starts to flip figures standing near an edge. Hence the
  position-error limits: **good ≦ 1 mm** (2 % of a 50 mm hex), **usable ≦ 3 mm** (6 %); worse
  is redo. Reported in hexes too, against the hex width the player uses.
* Reprojection error: a careful ChArUco calibration of a webcam reaches 0.2–0.5 px; above 1 px
  something is wrong (blur, bent sheet, rolling-shutter motion). **good ≦ 0.5 px, usable ≦ 1 px**.
* Views: the fit has 9 lens unknowns plus 6 per view; ten varied views over-determine it
  comfortably, fewer than six leave the distortion poorly pinned down away from the sheet.
* Coverage: distortion is only measured where corners were seen; every image corner must be
  reached and at least half the picture covered, or the table's far edges will be off.
* Tilt: a sheet always facing the camera squarely leaves focal length and distance confounded;
  at least one view tilted 20° or more is needed.
* Sharpness: below 0.22 (≈ a blur of 1.8 px) corner positions lose their sub-pixel accuracy.
* Flatness: the flat view fits one plane; if its residual is far above the lens residual the
  sheet was bent or not lying flat.
* Table view: the table pose comes from the one flat view; seen at a steep angle (a camera at the
  table's edge, 65° from vertical) the sheet shows a quarter of its corners or fewer, and the
  flat view's residual, measured on those few, understates the error away from them (rendered:
  0.2 mm reported, up to 1.3 mm over an A3 area). **Good needs half the corners or more** in the
  table view (at 45°–55° three quarters or more are seen and the error stays under 1 mm).
* Print scale: a printer set to "fit to page" shrinks the sheet by 3–6 %, which scales every
  distance. The check bar measurement corrects it; a correction over 1 % still deserves a note
  because the marker sheet was likely printed the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.i18n import N_, gettext_for

if TYPE_CHECKING:  # the file module loads OpenCV: imported when a verdict is made, not by the engine's start
    from calibration.calibration_file import CalibrationQuality

_ = gettext_for(__name__)

VERDICT_WORDS: dict[str, str] = {"good": N_("good"), "usable": N_("usable"), "redo": N_("redo")}


def verdict_text(verdict: str) -> str:
    """A calibration verdict (``good``, ``usable``, ``redo``: the file's words) in the reader's language."""
    return _(VERDICT_WORDS.get(verdict, verdict))

DEFAULT_HEX_ACROSS_FLATS_MM = 50.0

GOOD_ERROR_MM = 1.0
USABLE_ERROR_MM = 3.0
GOOD_REPROJECTION_PX = 0.5
USABLE_REPROJECTION_PX = 1.0
GOOD_VIEWS = 10
USABLE_VIEWS = 6
GOOD_COVERAGE = 0.5
MIN_TILT_DEG = 20.0
MIN_SHARPNESS = 0.22
FLAT_RESIDUAL_FACTOR = 2.5  # flat-view rms allowed above the lens rms before the sheet is called bent
FLAT_RESIDUAL_FLOOR_PX = 0.5
REDO_FLAT_RESIDUAL_PX = 2.0
SCALE_NOTE_TOLERANCE = 0.01
GOOD_TABLE_CORNER_SHARE = 0.5


@dataclass(frozen=True)
class QualityInputs:
    """The figures a verdict is made from (all from the solver, the coverage grid and the user)."""

    lens_rms_px: float
    table_rms_px: float
    table_rms_mm: float
    mm_per_px: float
    views: int
    coverage: float
    uncovered_corners: tuple[str, ...]
    median_sharpness: float
    max_tilt_deg: float
    check_bar_scale: float | None = None
    hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM
    table_corner_share: float = 1.0  # share of the sheet's corners found in the table view


def expected_error_mm(q: QualityInputs) -> float:
    """Expected position error on the table: the flat view's own residual, or the lens residual
    carried to the table at its scale, whichever is worse (the first can be lucky on one view)."""
    return max(q.table_rms_mm, q.lens_rms_px * q.mm_per_px)


def assess(q: QualityInputs) -> CalibrationQuality:
    """Verdict and advice (empty when good)."""
    from calibration.calibration_file import CalibrationQuality

    error_mm = expected_error_mm(q)
    advice: list[str] = []
    redo = False
    not_good = False

    flat_limit = max(FLAT_RESIDUAL_FLOOR_PX, FLAT_RESIDUAL_FACTOR * q.lens_rms_px)
    if q.table_rms_px > flat_limit:
        not_good = True
        redo = redo or q.table_rms_px > REDO_FLAT_RESIDUAL_PX
        advice.append(_("The sheet does not seem to lie flat on the table (flat view fits to {flat:.2f} px, the "
                        "lens to {lens:.2f} px): tape it down flat, or glue it to stiff card, and take the table "
                        "view again.",
                        flat=q.table_rms_px, lens=q.lens_rms_px))
    if q.views < GOOD_VIEWS:
        not_good = True
        redo = redo or q.views < USABLE_VIEWS
        advice.append(_("Too few views ({views}); collect at least {good}, the sheet tilted a different way each "
                        "time.", views=q.views, good=GOOD_VIEWS))
    if q.uncovered_corners or q.coverage < GOOD_COVERAGE:
        not_good = True
        corners = _(", ").join(_(c) for c in q.uncovered_corners)
        where = _(" Reach the {corners} corner(s) of the picture.", corners=corners) if q.uncovered_corners else ""
        advice.append(_("The sheet was seen over only {share:.0%} of the picture.{where} Move the sheet so it fills "
                        "the edges and corners of the picture in some views.", share=q.coverage, where=where))
    if q.max_tilt_deg < MIN_TILT_DEG:
        not_good = True
        advice.append(_("The sheet always faced the camera (at most {tilt:.0f}° tilt); tilt it 30–45° towards and "
                        "away from the camera in a few views.", tilt=q.max_tilt_deg))
    if q.median_sharpness < MIN_SHARPNESS:
        not_good = True
        advice.append(_("The views are blurred: add light, hold the sheet still for a moment in each position, and "
                        "check the camera's focus."))
    if q.table_corner_share < GOOD_TABLE_CORNER_SHARE:
        not_good = True
        advice.append(_("The table view shows only {share:.0%} of the sheet's corners (the camera sees it very "
                        "obliquely), so positions far from the sheet may be off by more than reported: lay the sheet "
                        "in the part of the table nearest the camera for the table view.", share=q.table_corner_share))
    if q.lens_rms_px > GOOD_REPROJECTION_PX:
        not_good = True
        redo = redo or q.lens_rms_px > USABLE_REPROJECTION_PX
        advice.append(_("The corners fit the lens model to {lens:.2f} px only (good is ≦ {good} px): usually blur, a "
                        "bent sheet or motion while the picture was taken.", lens=q.lens_rms_px,
                        good=GOOD_REPROJECTION_PX))
    if error_mm > GOOD_ERROR_MM:
        not_good = True
        redo = redo or error_mm > USABLE_ERROR_MM
        advice.append(_("Positions on the table are expected to be off by about {mm:.1f} mm ({hexes:.2f} hex); a "
                        "camera closer to the table, or a higher camera resolution, reduces this.", mm=error_mm,
                        hexes=error_mm / q.hex_mm))
    if q.check_bar_scale is not None and abs(q.check_bar_scale - 1.0) > SCALE_NOTE_TOLERANCE:
        advice.append(_("The sheet was printed at {scale:.1%} of its true size; distances have been corrected, but "
                        "print at 100% / actual size next time, and check the marker sheet too.",
                        scale=q.check_bar_scale))
    elif q.check_bar_scale is None and not_good:
        advice.append(_("If distances look wrong, measure the printed 100 mm check bar and pass it with --check-bar."))

    verdict = "redo" if redo else ("usable" if not_good else "good")
    return CalibrationQuality(
        reprojection_px=round(q.lens_rms_px, 4),
        table_error_mm=round(error_mm, 4),
        table_error_hex=round(error_mm / q.hex_mm, 6),
        views=q.views,
        verdict=verdict,
        advice=tuple(advice),
    )
