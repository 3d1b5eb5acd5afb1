"""Which sheet views to keep for the lens fit: enough corners, sharp, and not a repeat.

A video or live camera delivers hundreds of near-identical frames; fitting them all is slow and
weights one pose over the others. A view is kept only when it shows the sheet somewhere new
(moved by a noticeable share of the image, or reaching an empty coverage cell).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.coverage import coverage_counts
from calibration.detection import BoardView
from engine.i18n import gettext_for

_ = gettext_for(__name__)


@dataclass(frozen=True)
class SelectionRules:
    """Thresholds for keeping a view; the defaults suit a webcam and an A4/A3 sheet."""

    min_corners: int = 12  # partial views help coverage, but a handful of corners barely constrains anything
    min_sharpness: float = 0.18  # ≈ a blur of σ 2 px (see detection.edge_sharpness): corners go soft beyond it
    min_motion: float = 0.06  # mean corner displacement vs every kept view, as a share of the image diagonal
    max_views: int = 40  # more adds fitting time, not accuracy


def motion_from(candidate: BoardView, kept: BoardView) -> float:
    """Mean displacement of the corners both views share, as a share of the image diagonal (1.0 if none)."""
    common, ci, ki = np.intersect1d(candidate.ids, kept.ids, return_indices=True)
    if common.size < 4:
        return 1.0
    w, h = candidate.image_size
    moved = np.linalg.norm(candidate.corners_px[ci] - kept.corners_px[ki], axis=1)
    return float(moved.mean()) / float(np.hypot(w, h))


def select_view(candidate: BoardView, kept: list[BoardView], rules: SelectionRules = SelectionRules()
                ) -> tuple[bool, str]:
    """Whether to keep ``candidate`` given the views kept so far, and why (for the player)."""
    if candidate.count < rules.min_corners:
        return False, _("only {count} corners seen; show more of the sheet", count=candidate.count)
    if candidate.sharpness < rules.min_sharpness:
        return False, _("picture is blurred; hold the sheet still")
    if kept and candidate.image_size != kept[0].image_size:
        return False, _("the resolution changed; all views must come from one camera mode")
    if len(kept) >= rules.max_views:
        return False, _("enough views collected")
    if not kept:
        return True, _("first view")
    before = coverage_counts(kept, candidate.image_size)
    after = coverage_counts([candidate], candidate.image_size)
    if np.any((before == 0) & (after > 0)):
        return True, _("reaches a new part of the picture")
    motion = min(motion_from(candidate, k) for k in kept)
    if motion < rules.min_motion:
        return False, _("too like a view already taken; tilt or move the sheet")
    return True, _("new position")
