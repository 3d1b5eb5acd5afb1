"""Line of sight and what lies on the line, traced exactly from hex centre to hex centre (engine.lines).

Everything between shooter and target blocks the line except the lumber yard, which gives normal fire +2.
A wall (塀) the line crosses at a side of the target's hex makes an obstacle (+2); one at a side of the
shooter's own hex is the shooter's own cover and does not matter (he fires over it); one anywhere else
blocks. Only what the line passes through counts: touching a corner or running along a side does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import HexBoard
from engine.hexes import Edge, Hex
from engine.lines import Sight, sight_line

from . import terrain


@dataclass(frozen=True)
class LineOfFire:
    """The line from a shooter's hex to a target's: whether it is blocked (and by what), and its modifiers."""

    blocked: bool
    blocker: Hex | Edge | None = None
    lumber_yard: bool = False  # the lumber yard lies between
    obstacle: bool = False  # a wall at the target's hex lies on the line
    path: tuple[Hex, ...] = ()

    @property
    def sight(self) -> Sight:
        return Sight.BLOCKED if self.blocked else Sight.CLEAR


def line_of_fire(board: HexBoard, shooter: Hex, target: Hex) -> LineOfFire:
    """Trace the line from ``shooter`` to ``target``."""
    if shooter == target:
        return LineOfFire(False, path=(shooter,))
    line = sight_line(shooter, target)
    path = tuple(h for h in line.plus if h in line.crossed_hexes or h in (shooter, target))
    between = sorted(line.crossed_hexes - {shooter, target}, key=lambda h: h.distance(shooter))
    lumber = False
    for h in between:
        if h not in board:
            continue
        if terrain.blocks_sight(board, h):
            return LineOfFire(True, h, path=path)
        lumber = lumber or terrain.lumber_yard(board, h)
    obstacle = False
    for e in sorted(line.crossed_edges, key=lambda e: e.a.distance(shooter) + e.b.distance(shooter)):
        spec = board.edge_spec(e)
        if spec is None:
            continue
        if spec.name == terrain.WALL:
            if target in (e.a, e.b):
                obstacle = True
            elif shooter not in (e.a, e.b):
                return LineOfFire(True, e, path=path)
        elif spec.blocks_sight:
            return LineOfFire(True, e, path=path)
    return LineOfFire(False, lumber_yard=lumber, obstacle=obstacle, path=path)
