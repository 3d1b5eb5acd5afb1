"""Fan (扇形) areas: a 60° sector from the user's hex, opening towards one of the six hex directions.

The original's figure is lost; the decision (RULES.md §3) is a 60° sector centred on the line from
the user's hex towards a neighbour, reaching as far as the skill's range in hexes. A hex whose
centre lies on the sector's edge is inside, so a range-2 fan covers 4 hexes (1 at distance 1, 3 at
distance 2) and a range-3 fan 7. The user's own hex is not part of the fan.

The test is exact: in axial coordinates the sector towards direction 0 (+q) is the cone between the
two 30° lines through (2, -1) and (1, 1), i.e. ``q - r >= 0`` and ``q + 2r >= 0``; other directions
are rotated onto it.
"""

from __future__ import annotations

from collections.abc import Container

from engine.hexes import DIRECTIONS, Hex, hexes_within
from engine.i18n import gettext_for

_ = gettext_for(__name__)


def _to_direction_zero(offset: Hex, direction: int) -> Hex:
    """The offset turned clockwise by ``direction`` sixths, so that direction ``direction`` becomes direction 0."""
    for _turn in range(direction % 6):
        offset = offset.rotate_right()
    return offset


def in_fan_cone(offset: Hex, direction: int) -> bool:
    """Whether a hex at ``offset`` from the user lies in the 60° cone towards ``direction`` (edges included)."""
    h = _to_direction_zero(offset, direction)
    return h.q - h.r >= 0 and h.q + 2 * h.r >= 0


def fan(user: Hex, direction: int, reach: int, board: Container[Hex]) -> set[Hex]:
    """The board's hexes of a fan of range ``reach`` from ``user`` towards ``direction`` (0..5, as DIRECTIONS)."""
    if direction not in range(len(DIRECTIONS)):
        raise ValueError(_("fan direction {direction} is not a hex direction: give 0 to 5 (0 is +q, "
                           "counter-clockwise)", direction=direction))
    if reach < 0:
        raise ValueError(_("a fan of range {reach} is not a fan: give 0 or more hexes", reach=reach))
    return {h for h in hexes_within(user, reach)
            if h != user and h in board and in_fan_cone(h - user, direction)}


def directions_towards(user: Hex, towards: Hex) -> tuple[int, ...]:
    """The fan directions whose cone holds ``towards``: one, or two when it lies on the border of two cones."""
    if towards == user:
        raise ValueError(_("a fan opens away from the user's hex: choose another hex to give its direction"))
    return tuple(d for d in range(len(DIRECTIONS)) if in_fan_cone(towards - user, d))


def direction_towards(user: Hex, towards: Hex) -> int:
    """The fan direction a chosen hex gives: the cone holding it (on a border of two, the first counter-clockwise
    from direction 0, so a tap always opens one fan)."""
    return directions_towards(user, towards)[0]


def fan_size(reach: int) -> int:
    """How many hexes a fan of range ``reach`` covers on an open board."""
    return sum(1 for h in hexes_within(Hex(0, 0), reach) if h != Hex(0, 0) and in_fan_cone(h, 0))
