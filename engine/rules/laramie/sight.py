"""Line of sight and what lies on the line, traced exactly from hex centre to hex centre (engine.lines).

Everything between shooter and target blocks the line except the lumber yard, which gives normal fire +2.
A wall (塀) the line crosses at a side of the target's hex makes an obstacle (+2); one at a side of the
shooter's own hex is the shooter's own cover and does not matter (he fires over it) — unless it stands
between him and an adjacent target, where it is the target's obstacle; one anywhere else blocks.

A line that runs along a hex side or through a vertex is judged both ways nudged (the rules' third reading):
the line pushed an infinitesimal distance to either side is read on its own (a :class:`Reading`). When the
two readings agree the line is that reading; when they differ the players roll off and the winner chooses
(``combat``). A line through the interior of everything it meets reads the same both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board.hex import HexBoard
from engine.hexes import Edge, Hex
from engine.lines import Sight, sight_line

from . import terrain

PLUS, MINUS = 0, 1  # the two readings, by the side the line is nudged to


@dataclass(frozen=True)
class Reading:
    """What the line meets nudged to one side: blocked (and by what), or clear with its modifiers."""

    blocked: bool
    blocker: Hex | Edge | None = None
    lumber_yard: bool = False  # the lumber yard lies between
    obstacle: bool = False  # a wall at the target's hex lies on the line

    def verdict(self) -> tuple[bool, bool, bool]:
        """What the reading decides for a shot (the blocker's place aside)."""
        return self.blocked, self.lumber_yard, self.obstacle


@dataclass(frozen=True)
class LineOfFire:
    """The line from a shooter's hex to a target's, read nudged to either side (``readings``: plus, minus).

    ``reading`` is the one the players ruled after a roll-off (None: not ruled). The verdict fields below
    are those of the ruled reading, else of the two when they agree, else of the plus reading (see
    :attr:`split`)."""

    readings: tuple[Reading, Reading]
    path: tuple[Hex, ...] = ()
    ruled: int | None = None

    @property
    def split(self) -> bool:
        """The two nudged lines read differently and nobody has ruled which counts."""
        return self.ruled is None and self.readings[PLUS].verdict() != self.readings[MINUS].verdict()

    @property
    def current(self) -> Reading:
        return self.readings[PLUS if self.ruled is None else self.ruled]

    @property
    def blocked(self) -> bool:
        return self.current.blocked

    @property
    def blocker(self) -> Hex | Edge | None:
        return self.current.blocker or next((r.blocker for r in self.readings if r.blocker is not None), None)

    @property
    def lumber_yard(self) -> bool:
        return self.current.lumber_yard

    @property
    def obstacle(self) -> bool:
        return self.current.obstacle

    def taken(self, reading: int) -> LineOfFire:
        """The line as the players ruled it: ``reading`` counts."""
        return LineOfFire(self.readings, self.path, reading)

    @property
    def sight(self) -> Sight:
        if self.ruled is None and self.readings[PLUS].blocked != self.readings[MINUS].blocked:
            return Sight.AMBIGUOUS
        return Sight.BLOCKED if self.blocked else Sight.CLEAR


def read(board: HexBoard, shooter: Hex, target: Hex, way: tuple[Hex | Edge, ...]) -> Reading:
    """Judge one nudged line: ``way`` is its inner hexes and crossed sides in order from the shooter."""
    lumber = obstacle = False
    for item in way:
        if isinstance(item, Hex):
            if item not in board:
                continue
            if terrain.blocks_sight(board, item):
                return Reading(True, item)
            lumber = lumber or terrain.lumber_yard(board, item)
            continue
        spec = board.edge_spec(item)
        if spec is None:
            continue
        if spec.name == terrain.WALL:
            if target in (item.a, item.b):
                obstacle = True  # next to the target (also when it stands at the shooter's side: adjacent)
            elif shooter not in (item.a, item.b):
                return Reading(True, item)
        elif spec.blocks_sight:
            return Reading(True, item)
    return Reading(False, lumber_yard=lumber, obstacle=obstacle)


def line_of_fire(board: HexBoard, shooter: Hex, target: Hex, ruled: int | None = None) -> LineOfFire:
    """Trace the line from ``shooter`` to ``target`` both ways nudged (``ruled``: the reading the players chose)."""
    if shooter == target:
        clear = Reading(False)
        return LineOfFire((clear, clear), (shooter,), ruled)
    line = sight_line(shooter, target)
    path = tuple(h for h in line.plus if h in line.crossed_hexes or h in (shooter, target))
    plus, minus = line.nudged_ways
    return LineOfFire((read(board, shooter, target, plus), read(board, shooter, target, minus)), path, ruled)
