"""Ranged range and its blocking: what a shot or spell needs to reach a zone, and what stops it.

The original's rule, step by step:

1. In one's own zone a target is at 0 m.
2. A zone adjacent vertically, horizontally or diagonally is reached with 10 m, whatever is around.
3. Otherwise the range is the movement a walk there would need (10 m a row, 3 m a column), except
   that one adjacent diagonal may be passed for 10 m: 2→8 is 20 m, 1→6 13 m, 1→9 23 m (never
   1→5→9, which passes two diagonals).
4. Such a shot is blocked when *any* of those cheapest routes passes, between the two zones, a zone
   holding an obstacle or an enemy of the shooter. Hawk Eye ignores that.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex

from .geometry import DIAGONAL_M, adjacent, step_m

ADJACENT_M = 10


@dataclass(frozen=True)
class Shot:
    """The range a shot from one zone at another needs, its cheapest routes, and what blocks it."""

    shooter: Hex
    target: Hex
    range_m: int
    routes: tuple[tuple[Hex, ...], ...]  # every cheapest route (empty for one's own and adjacent zones)
    blockers: tuple[Hex, ...] = ()  # zones between that hold an obstacle or an enemy, nearest first
    hawk_eye: bool = False

    @property
    def blocked(self) -> bool:
        return bool(self.blockers) and not self.hawk_eye

    @property
    def between(self) -> tuple[Hex, ...]:
        """Every zone some cheapest route passes between the two zones."""
        seen: dict[Hex, None] = {}
        for route in self.routes:
            for z in route[1:-1]:
                seen.setdefault(z, None)
        return tuple(sorted(seen, key=lambda z: (_steps(self.shooter, z), z.r, z.q)))


def _steps(a: Hex, b: Hex) -> int:
    return max(abs(a.q - b.q), abs(a.r - b.r))


def _link_m(a: Hex, b: Hex) -> tuple[int, bool] | None:
    """(metres, whether it is a diagonal) of one step of a shot's route between adjacent zones."""
    m = step_m(a, b)
    if m is not None:
        return m, False
    if abs(a.q - b.q) == 1 and abs(a.r - b.r) == 1:
        return DIAGONAL_M, True
    return None


def _around(board: ZoneBoard, z: Hex) -> list[Hex]:
    return [Hex(z.q + dq, z.r + dr) for dr in (-1, 0, 1) for dq in (-1, 0, 1)
            if (dq or dr) and Hex(z.q + dq, z.r + dr) in board]


def route_m(board: ZoneBoard, a: Hex, b: Hex) -> int | None:
    """The cheapest route of row and column steps with at most one diagonal, in metres (None: no route)."""
    best: dict[tuple[Hex, int], int] = {(a, 0): 0}
    heap: list[tuple[int, int, int, int, Hex]] = [(0, 0, a.q, a.r, a)]
    while heap:
        d, used, _, _, z = heapq.heappop(heap)
        if z == b:
            return d
        if d > best.get((z, used), d):
            continue
        for n in _around(board, z):
            link = _link_m(z, n)
            assert link is not None
            m, diagonal = link
            u = used + int(diagonal)
            if u > 1:
                continue
            if d + m < best.get((n, u), d + m + 1):
                best[(n, u)] = d + m
                heapq.heappush(heap, (d + m, u, n.q, n.r, n))
    return None


def range_m(board: ZoneBoard, a: Hex, b: Hex) -> int:
    """The range a shot from zone ``a`` at zone ``b`` needs, in metres."""
    if a == b:
        return 0
    if adjacent(a, b):
        return ADJACENT_M
    m = route_m(board, a, b)
    if m is None:
        raise ValueError(f"no route joins {board.label(a)} and {board.label(b)}; both must be zones of the board")
    return m


def cheapest_routes(board: ZoneBoard, a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """Every cheapest route with at most one diagonal from ``a`` to ``b`` (for zones neither equal nor adjacent)."""
    if a == b or adjacent(a, b):
        return ()
    best = route_m(board, a, b)
    if best is None:
        return ()
    routes: list[tuple[Hex, ...]] = []

    def walk(path: tuple[Hex, ...], spent: int, used: int) -> None:
        here = path[-1]
        if here == b:
            routes.append(path)
            return
        for n in _around(board, here):
            link = _link_m(here, n)
            assert link is not None
            m, diagonal = link
            if n in path or used + int(diagonal) > 1 or spent + m > best:
                continue
            walk((*path, n), spent + m, used + int(diagonal))

    walk((a,), 0, 0)
    return tuple(sorted(routes, key=lambda p: [(z.r, z.q) for z in p]))


def shot(board: ZoneBoard, a: Hex, b: Hex, blocks: Callable[[Hex], bool], hawk_eye: bool = False) -> Shot:
    """The shot from zone ``a`` at zone ``b``; ``blocks`` says whether a zone holds an obstacle or an enemy."""
    routes = cheapest_routes(board, a, b)
    s = Shot(a, b, range_m(board, a, b), routes, hawk_eye=hawk_eye)
    blockers = tuple(z for z in s.between if blocks(z))
    return Shot(a, b, s.range_m, routes, blockers, hawk_eye)
