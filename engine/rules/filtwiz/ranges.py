"""Range and areas (the original's "射程と範囲に関する補足"): distances are counted in hexes.

"Range N" reaches the hexes at most N hexes from the user ("range 1": the neighbouring hexes only).
"Within N hexes of a chosen hex" covers that hex and every hex at most N hexes from it.
"""

from __future__ import annotations

from collections.abc import Container

from engine.hexes import Hex, hex_distance, hexes_within
from engine.i18n import gettext_for

_ = gettext_for(__name__)


def in_range(user: Hex, target: Hex, reach: int) -> bool:
    """Whether ``target`` is within range ``reach`` of ``user`` (hex distance ≤ reach)."""
    return hex_distance(user, target) <= reach


def hexes_in_range(user: Hex, reach: int, board: Container[Hex]) -> set[Hex]:
    """The board's hexes a range-``reach`` skill of ``user`` may aim at (the user's own hex included)."""
    if reach < 0:
        raise ValueError(_("a range of {reach} is not a range: give 0 or more hexes", reach=reach))
    return {h for h in hexes_within(user, reach) if h in board}


def area_around(centre: Hex, radius: int, board: Container[Hex]) -> set[Hex]:
    """"Within ``radius`` hexes of the chosen hex": the chosen hex and the board's hexes at most ``radius`` away."""
    if radius < 0:
        raise ValueError(_("an area of radius {radius} is not an area: give 0 or more hexes", radius=radius))
    return {h for h in hexes_within(centre, radius) if h in board}
