"""Reserved board-anchor tags: the ids players stick on a scenario's anchor hexes, never on figures."""

from __future__ import annotations

# Figures use DICT_4X4_100 ids from 0 up; the top ten are kept for anchors so the two never clash.
ANCHOR_DICTIONARY = "DICT_4X4_100"
ANCHOR_IDS: tuple[int, ...] = tuple(range(90, 100))
FIGURE_DICTIONARY = "DICT_4X4_100"


def is_anchor_id(marker_id: int) -> bool:
    """Whether ``marker_id`` (in :data:`ANCHOR_DICTIONARY`) is reserved for board anchors."""
    return marker_id in ANCHOR_IDS
