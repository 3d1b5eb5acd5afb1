"""Movement obstruction: where a character may stop an enemy passing by.

- Within its restricted move (3 m: its own zone and the zones left and right) a character obstructs
  as usual; with Footwork it moves exactly 10 m, so it also reaches one zone up or down or two
  sideways (never one sideways and one up).
- A character in a melee area obstructs only inside its own zone.
- It cannot obstruct across a melee area (two zones sideways past one), nor into a zone that holds
  one: a melee area's zone is obstructed only from inside.

The obstructed character stops in the zone where it is stopped, and the obstructer joins it there.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex

from .geometry import zones_between_in_row
from .movement import FOOTWORK_M, reach

RESTRICTED_MOVE_M = 3


def obstruction_zones(board: ZoneBoard, at: Hex, melee: Iterable[Hex], footwork: bool = False) -> set[Hex]:
    """The zones a character standing in ``at`` may obstruct a passing enemy in (``melee``: zones with melee areas)."""
    fights = set(melee)
    if at in fights:
        return {at}
    metres = FOOTWORK_M if footwork else RESTRICTED_MOVE_M
    out = {at}
    for z in reach(board, at, metres):
        if z == at or z in fights:
            continue
        if z.r == at.r and any(b in fights for b in zones_between_in_row(at, z)):
            continue
        out.add(z)
    return out


def obstruction_points(path: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """The zones of a move where it may be stopped: those it passes through, not its start or end."""
    return path[1:-1]
