"""The race course: which hexes a runner may enter and which sides of a hex it may cross.

A runner enters floor hexes only (rock, low obstacles and water stop it) and never crosses a wall;
nobody opens a door in a race, so a door is a wall too. Runners pass each other freely but never end
a run on another runner (one figure per hex, the core's default).
"""

from __future__ import annotations

from engine.board import HexBoard, Terrain
from engine.hexes import Hex, edge
from engine.pathfinding import Reach, StepCost, reachable


def open_step(board: HexBoard) -> StepCost:
    """The price of one step: 1 onto floor, None (no way) into anything else or across a wall or door."""

    def cost(a: Hex, b: Hex) -> float | None:
        info = board.tiles.get(b)
        if info is None or info.terrain is not Terrain.FLOOR or edge(a, b) in board.edges:
            return None
        return 1.0

    return cost


def runs(board: HexBoard, start: Hex, allowance: float, taken: set[Hex]) -> dict[Hex, Reach]:
    """Every hex a runner at ``start`` may end on within ``allowance`` hexes (its own hex included)."""
    return reachable(start, allowance, open_step(board), can_end=lambda h: h not in taken)
