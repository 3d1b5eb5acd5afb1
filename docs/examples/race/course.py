"""The race course: which cells a runner may enter and which sides of a cell it may cross.

A runner enters floor cells only (rock, low obstacles and water stop it) and never crosses a wall;
nobody opens a door in a race, so a door is a wall too. Runners pass each other freely but never end
a run on another runner (one figure per cell, the core's default). The course is any kind of board:
a runner steps to the board's own neighbours (six on hexes, four on squares).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.board import Board, Cell, Terrain
from engine.hexes import edge
from engine.pathfinding import Reach, StepCost, reachable


def open_step(board: Board) -> StepCost:
    """The price of one step: 1 onto floor, None (no way) into anything else or across a wall or door."""
    sides = board.edges

    def cost(a: Cell, b: Cell) -> float | None:
        if b not in board or board.terrain(b) != Terrain.FLOOR or (sides and edge(a, b) in sides):
            return None
        return 1.0

    return cost


def open_exits(board: Board) -> Callable[[Cell], Iterable[tuple[Cell, float]]]:
    """The open steps out of a cell, to the board's own neighbours, with their price."""
    cost = open_step(board)

    def exits(a: Cell) -> list[tuple[Cell, float]]:
        return [(b, c) for b in board.neighbours(a) if (c := cost(a, b)) is not None]

    return exits


def runs(board: Board, start: Cell, allowance: float, taken: set[Cell]) -> dict[Cell, Reach]:
    """Every cell a runner at ``start`` may end on within ``allowance`` steps (its own cell included)."""
    return reachable(start, allowance, exits=open_exits(board), can_end=lambda h: h not in taken)
