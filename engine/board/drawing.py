"""A board as the tablets draw it, whatever its kind: each cell's outline and where its texts go, in millimetres.

A board's ``to_dict`` adds these to every cell and a ``drawing`` entry to the board, so the app draws polygons and
places labels, figures and marks without knowing what kind of board it shows (:mod:`engine.board.kinds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.board.base import Point

# Outlines and label places to a hundredth of a millimetre: finer than any screen, and a large map's cells still
# fit one message. Centres are exact: facings and distances are measured between them.
DECIMALS = 2


def _pt(p: Point) -> list[float]:
    return [round(p[0], DECIMALS), round(p[1], DECIMALS)]


def cell_drawing(corners: Sequence[Point], centre: Point, *, label_mm: float, label_at: Point | None = None,
                 label_above: float = 0.0, mark_at: Point | None = None, pattern_mm: float | None = None,
                 caption_at: Point | None = None) -> dict[str, Any]:
    """One cell's drawing: its outline (clockwise on the table), centre, where and how tall its label is written
    (``label_at``, or ``label_above`` millimetres above the centre), and optionally where a query's mark, a
    terrain's pattern and caption go."""
    at = label_at if label_at is not None else (centre[0], centre[1] - label_above)
    out: dict[str, Any] = {"corners_mm": [_pt(p) for p in corners], "centre_mm": [centre[0], centre[1]],
                           "label_at_mm": _pt(at), "label_mm": round(label_mm, DECIMALS)}
    if mark_at is not None:
        out["mark_at_mm"] = _pt(mark_at)
    if pattern_mm is not None:
        out["pattern_mm"] = round(pattern_mm, DECIMALS)
    if caption_at is not None:
        out["caption_at_mm"] = _pt(caption_at)
    return out


def board_drawing(scale_mm: float, *, stacks: str, label_band: bool, facing_steps: Sequence[Sequence[int]] = (),
                  hex_labels: bool = False) -> dict[str, Any]:
    """How the tablets draw the board's figures and labels: ``scale_mm`` the size figures and marks are drawn at;
    ``stacks`` "offset" (a stack's tokens overlap, shifted) or "spread" (listed side by side in the cell);
    ``label_band`` labels kept in a band above the centre (clear of the figure) rather than at their own place;
    ``facing_steps`` the step to the neighbour a figure faces, by facing (none where the board has no facings);
    ``hex_labels`` whether a cell off the board is labelled as a hex ('E4')."""
    return {"scale_mm": scale_mm, "stacks": stacks, "label_band": label_band,
            "facing_steps": [list(s) for s in facing_steps], "hex_labels": hex_labels}
