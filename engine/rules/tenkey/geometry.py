"""Zone geometry: the keypad's rows and columns, the price of a step and who stands where.

Inside a zone there is no distance. A step to the zone above or below costs 10 m, to the zone left
or right 3 m; there are no diagonal moves. Zones are ``Hex(column, row)`` cells of a zone board,
row 0 on top, so a larger mat (5×5, which the original allows) works the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex
from engine.texts import join_words

VERTICAL_M = 10  # a step to the zone above or below
HORIZONTAL_M = 3  # a step to the zone left or right
DIAGONAL_M = 10  # a shot or spell passing one adjacent diagonal (never a move)


def step_m(a: Hex, b: Hex) -> int | None:
    """The metres of one move step between two zones, or None when they are not side by side."""
    dq, dr = abs(a.q - b.q), abs(a.r - b.r)
    if (dq, dr) == (0, 1):
        return VERTICAL_M
    if (dq, dr) == (1, 0):
        return HORIZONTAL_M
    return None


def walk_m(a: Hex, b: Hex) -> int:
    """The movement a walk from ``a`` to ``b`` needs on an open mat: 10 m a row, 3 m a column."""
    return VERTICAL_M * abs(a.r - b.r) + HORIZONTAL_M * abs(a.q - b.q)


def adjacent(a: Hex, b: Hex) -> bool:
    """Two different zones touching at a side or a corner (vertical, horizontal or diagonal)."""
    return a != b and abs(a.q - b.q) <= 1 and abs(a.r - b.r) <= 1


def horizontal_neighbours(board: ZoneBoard, zone: Hex) -> list[Hex]:
    """The zones left and right of ``zone`` that are on the board (left first)."""
    return [z for z in (Hex(zone.q - 1, zone.r), Hex(zone.q + 1, zone.r)) if z in board]


def zones_between_in_row(a: Hex, b: Hex) -> list[Hex]:
    """The zones strictly between two zones of one row."""
    lo, hi = sorted((a.q, b.q))
    return [Hex(q, a.r) for q in range(lo + 1, hi)]


def labels(board: ZoneBoard, zones: Iterable[Hex]) -> str:
    """Zone labels for people, in the order given: "4, 5 and 6" (Japanese: "4、5、6")."""
    return join_words(board.label(z) for z in zones)
