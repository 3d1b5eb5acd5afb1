"""Areas by radius: which zones a "radius r" effect centred on a zone covers.

- radius up to 3 m: the zone itself;
- over 3 m up to 5 m: two zones side by side, the zone and one horizontal neighbour — the caster
  says which side (a prompt; no choice where the edge leaves one);
- 6 m and more: the zone and both horizontal neighbours, clipped at the edge of the mat (from 1 at 4
  a 6 m effect covers 4 and 5);
- from 7 m the original leaves the ruling to the GM: a GM prompt offering those three zones first.

Radii are whole metres in play; a radius between 5 and 6 m is taken as 6 m.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex

from .geometry import horizontal_neighbours

ONE_ZONE_M = 3.0
TWO_ZONES_M = 5.0
GM_RULES_FROM_M = 7.0


@dataclass(frozen=True)
class Area:
    """The zones an effect covers, or the choices still to make before it is known."""

    centre: Hex
    radius_m: float
    zones: tuple[Hex, ...]  # the covered zones (for a side choice: the centre only, until chosen)
    sides: tuple[Hex, ...] = ()  # the horizontal neighbours the caster may add (radius over 3 up to 5 m)
    gm_rules: bool = False  # radius 7 m or more: the GM rules; ``zones`` is the default offered

    @property
    def needs_side(self) -> bool:
        return len(self.sides) > 1


def area(board: ZoneBoard, centre: Hex, radius_m: float) -> Area:
    """The area of a radius ``radius_m`` effect centred on ``centre``."""
    if radius_m < 0:
        raise ValueError(f"a radius is at least 0 m, got {radius_m!r}")
    if radius_m <= ONE_ZONE_M:
        return Area(centre, radius_m, (centre,))
    beside = horizontal_neighbours(board, centre)
    if radius_m <= TWO_ZONES_M:
        if len(beside) == 1:
            return Area(centre, radius_m, in_order(centre, beside[0]))
        return Area(centre, radius_m, (centre,), tuple(beside))
    return Area(centre, radius_m, in_order(centre, *beside), gm_rules=radius_m >= GM_RULES_FROM_M)


def with_side(a: Area, side: Hex) -> tuple[Hex, ...]:
    """The two zones of a radius 3–5 m area once the caster has chosen the side."""
    if side not in a.sides:
        raise ValueError("the side must be a horizontal neighbour of the area's centre")
    return in_order(a.centre, side)


def in_order(*zones: Hex) -> tuple[Hex, ...]:
    """The zones once each, in reading order (top row first, left to right)."""
    return tuple(sorted(set(zones), key=lambda z: (z.r, z.q)))


def around(board: ZoneBoard, centre: Hex) -> tuple[Hex, ...]:
    """The zone and every zone touching it (one of the GM's choices for a large radius)."""
    return in_order(*(Hex(centre.q + dq, centre.r + dr) for dr in (-1, 0, 1) for dq in (-1, 0, 1)
                  if Hex(centre.q + dq, centre.r + dr) in board))
