"""The guided calibration flow as a window-free state machine: frames and key presses in, status out.

Stages: LENS (tilt the sheet around, views are kept automatically when the sheet is still and
somewhere new) → TABLE (lay the sheet flat, press SPACE) → DONE. The OpenCV window loop in
:mod:`calibration.live_window` only shows what this says, so the flow is tested on rendered
frames without a display.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
from numpy.typing import NDArray

from calibration.board_spec import BoardSpec
from calibration.coverage import coverage_counts, coverage_fraction, coverage_picture, uncovered_corners
from calibration.detection import BoardDetector, BoardView
from calibration.pipeline import CalibrationResult, calibrate_views
from calibration.quality import DEFAULT_HEX_ACROSS_FLATS_MM, GOOD_COVERAGE, GOOD_VIEWS
from calibration.selection import SelectionRules, motion_from, select_view
from calibration.solver import MIN_LENS_VIEWS
from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

# Corners moving less than this share of the image diagonal between frames = the sheet is held still
# (about 5 px on a 720p picture): frames taken while it moves are smeared by the shutter.
STILL_MOTION = 0.004
KEY_NEXT = "n"
KEY_CAPTURE = " "


class Stage(Enum):
    LENS = "lens"
    TABLE = "table"
    DONE = "done"


@dataclass
class LiveStatus:
    """What the window should show after one frame."""

    stage: Stage
    instructions: list[str]
    progress: float  # 0..1 of the views wanted
    message: str  # what just happened ("view kept", "hold still", …)
    view: BoardView | None = None


def is_still(current: BoardView | None, previous: BoardView | None, limit: float = STILL_MOTION) -> bool:
    """Whether the sheet stayed put between two consecutive frames."""
    if current is None or previous is None:
        return False
    return motion_from(current, previous) < limit


def instructions_for(stage: Stage, kept: int, target: int, missing_corners: tuple[str, ...]) -> list[str]:
    """The lines of guidance shown for a stage."""
    if stage is Stage.LENS:
        lines = [_("Step 1 of 2: hold the sheet in front of the camera ({kept}/{target} views).",
                   kept=kept, target=target),
                 _("Tilt it a different way each time and hold it still for a moment.")]
        if missing_corners:
            lines.append(_("Still needed: the {corners} corner(s) of the picture.",
                            corners=_(", ").join(_(c) for c in missing_corners)))
        if kept >= MIN_LENS_VIEWS + 1:
            lines.append(_("Press N when done (Q to quit)."))
        else:
            lines.append(_("Press Q to quit."))
        return lines
    if stage is Stage.TABLE:
        return [_("Step 2 of 2: lay the sheet flat on the table, where the figures will stand."),
                _("Keep it whole in the picture, then press SPACE (Q to quit).")]
    return [_("Done.")]


@dataclass
class LiveSession:
    """Collects lens views and the table view from a stream of frames."""

    spec: BoardSpec
    target_views: int = GOOD_VIEWS + 5
    rules: SelectionRules = field(default_factory=SelectionRules)
    stage: Stage = Stage.LENS
    kept: list[BoardView] = field(default_factory=list)
    table_view: BoardView | None = None
    _detector: BoardDetector | None = None
    _previous: BoardView | None = None
    _latest: BoardView | None = None
    _frames: int = 0

    def __post_init__(self) -> None:
        self._detector = BoardDetector(self.spec)

    @property
    def image_size(self) -> tuple[int, int] | None:
        return self.kept[0].image_size if self.kept else None

    def missing_corners(self) -> tuple[str, ...]:
        if not self.kept:
            return ("top-left", "top-right", "bottom-left", "bottom-right")
        return uncovered_corners(coverage_counts(self.kept, self.kept[0].image_size))

    def coverage(self) -> float:
        return coverage_fraction(coverage_counts(self.kept, self.kept[0].image_size)) if self.kept else 0.0

    def coverage_image(self, width: int = 320) -> NDArray[np.uint8]:
        size = self.image_size or (self._latest.image_size if self._latest else (1280, 720))
        return coverage_picture(coverage_counts(self.kept, size), self.kept, size, width)

    def status(self, message: str = "") -> LiveStatus:
        progress = min(1.0, len(self.kept) / self.target_views) if self.stage is Stage.LENS else 1.0
        lines = instructions_for(self.stage, len(self.kept), self.target_views, self.missing_corners())
        return LiveStatus(self.stage, lines, progress, message, self._latest)

    def feed(self, frame: NDArray[np.uint8]) -> LiveStatus:
        """Look at one camera frame; may keep it as a lens view."""
        assert self._detector is not None
        self._frames += 1
        view = self._detector.detect(frame, f"frame{self._frames:05d}")
        self._previous, self._latest = self._latest, view
        if self.stage is not Stage.LENS:
            return self.status(_("sheet in view") if view else _("sheet not found"))
        if view is None:
            return self.status(_("sheet not found: show the whole sheet, in good light"))
        if not is_still(view, self._previous):
            return self.status(_("hold still"))
        keep, reason = select_view(view, self.kept, self.rules)
        if keep:
            self.kept.append(view)
            log.info("kept view %d (%s)", len(self.kept), reason)
            if len(self.kept) >= self.target_views and self.coverage() >= GOOD_COVERAGE and not self.missing_corners():
                self.stage = Stage.TABLE
                return self.status(_("enough views: now the table"))
            return self.status(f"view {len(self.kept)} kept: {reason}")
        return self.status(reason)

    def key(self, key: str) -> LiveStatus:
        """React to a key press (``n`` next stage, SPACE capture)."""
        if self.stage is Stage.LENS and key == KEY_NEXT:
            if len(self.kept) < MIN_LENS_VIEWS:
                return self.status(_("need at least {MIN_LENS_VIEWS} views first", MIN_LENS_VIEWS=MIN_LENS_VIEWS))
            self.stage = Stage.TABLE
            return self.status(_("now the table"))
        if self.stage is Stage.TABLE and key == KEY_CAPTURE:
            if self._latest is None:
                return self.status(_("sheet not found: lay the whole sheet in view"))
            self.table_view = self._latest
            self.stage = Stage.DONE
            return self.status(_("table view taken"))
        return self.status()

    def finish(self, check_bar_mm: float | None = None, hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM,
               camera_id: str = "0", camera_name: str = "") -> CalibrationResult:
        """Compute the calibration from what was collected."""
        return calibrate_views(self.kept, self.table_view, self.spec, check_bar_mm, hex_mm, camera_id, camera_name)
