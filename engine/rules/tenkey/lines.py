"""Line shapes (形状:貫通): from the caster's zone through the origin zone, straight on to the edge.

The line runs like a rook or a bishop moving away from the caster — vertically, horizontally or
diagonally — through the zone of the character it is aimed at and on to the edge of the mat,
never behind the caster. A zone a knight's move away is on no line. Aimed at a character in the
caster's own zone, the caster names a direction.
"""

from __future__ import annotations

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex

# The eight directions as (column step, row step), row 0 on top.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0),
    "up-left": (-1, -1), "up-right": (1, -1), "down-left": (-1, 1), "down-right": (1, 1),
}


def direction(caster: Hex, target: Hex) -> tuple[int, int] | None:
    """The unit step of the line from ``caster`` through ``target``; None for a knight's line or one zone."""
    dq, dr = target.q - caster.q, target.r - caster.r
    if (dq, dr) == (0, 0):
        return None
    if dq and dr and abs(dq) != abs(dr):
        return None
    return ((dq > 0) - (dq < 0), (dr > 0) - (dr < 0))


def on_a_line(caster: Hex, target: Hex) -> bool:
    """Whether ``target`` lies on a vertical, horizontal or diagonal line from ``caster`` (or in its zone)."""
    return caster == target or direction(caster, target) is not None


def line(board: ZoneBoard, caster: Hex, target: Hex, towards: str | None = None) -> tuple[Hex, ...]:
    """The zones a line from ``caster`` through ``target`` covers, caster's zone first.

    ``towards`` (one of :data:`DIRECTIONS`) is needed when the target shares the caster's zone.
    """
    if caster == target:
        if towards not in DIRECTIONS:
            raise ValueError(f"a line at one's own zone needs a direction: one of {', '.join(DIRECTIONS)}")
        unit = DIRECTIONS[towards]
    else:
        found = direction(caster, target)
        if found is None:
            raise ValueError(f"{board.label(target)} is not on a straight line from {board.label(caster)} "
                             "(vertical, horizontal or diagonal); a knight's line is not possible")
        unit = found
    zones = [caster]
    z = Hex(caster.q + unit[0], caster.r + unit[1])
    while z in board:
        zones.append(z)
        z = Hex(z.q + unit[0], z.r + unit[1])
    return tuple(zones)
