"""Movement on the Filtwiz board: 〔移動〕 hexes, less underwater, stopped by movement obstruction unless flying.

Decisions where the supplement leans on the core rules it does not print: a step costs 1 hex; nobody
enters a hex that is not standable, crosses a wall or a closed door, or enters an enemy's hex; a move
never ends on another character. Movement obstruction (移動妨害): a character that enters a hex next
to an enemy stops there — unless its flying works (not indoors, not underwater); enemies up in full
flight obstruct nobody. A character lying prone spends its move getting up.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import EdgeKind
from engine.cell_graph import KeptGraphs
from engine.hexes import Edge, Hex, edge
from engine.pathfinding import Reach, StepCost, reachable
from engine.state import GameState

from . import terrain
from .situation import Figure, Situation


def _open_side(sit: Situation, doors: dict[Edge, str], a: Hex, b: Hex) -> bool:
    kind = sit.board.edge_kind(a, b)
    if kind is None:
        return True
    if kind is EdgeKind.WALL:
        return False
    return doors.get(edge(a, b)) == "open"


_GRAPHS = KeptGraphs()  # each board's movement graph (a board with the GM's marks is a board of its own)


def board_step_cost(sit: Situation, doors: dict[Edge, str]) -> StepCost:
    """The price of a step from the board and its doors alone (no figures)."""

    def step_cost(a: Hex, b: Hex) -> float | None:
        if not terrain.standable(sit.board, b) or not _open_side(sit, doors, a, b):
            return None
        return 1.0

    return step_cost


def moves(sit: Situation, state: GameState, mover: Figure, allowance: int) -> Mapping[Hex, Reach]:
    """Every hex ``mover`` may end its move on with ``allowance`` hexes, with the cheapest path."""
    enemies = [f for f in sit.figures.values() if f.side != mover.side]
    doors: dict[Edge, str] = dict(state.doors)
    cost = board_step_cost(sit, doors)
    graph = _GRAPHS.of(sit.board, cost)
    graph.follow_edges(doors, cost)
    stops = () if mover.flying else {n for f in enemies if not f.airborne for n in f.hex.neighbours()}
    return graph.reachable(mover.hex, allowance, blocked={f.hex for f in enemies}, stops=stops,
                           keep_out={f.hex for f in sit.figures.values() if f.id != mover.id})


def moves_reference(sit: Situation, state: GameState, mover: Figure, allowance: int) -> dict[Hex, Reach]:
    """``moves`` through the general search and the rules' own step cost (what the fast form must match)."""
    enemies = [f for f in sit.figures.values() if f.side != mover.side]
    enemy_hexes = {f.hex for f in enemies}
    obstructing = {n for f in enemies if not f.airborne for n in f.hex.neighbours()}
    taken = {f.hex for f in sit.figures.values() if f.id != mover.id}
    doors: dict[Edge, str] = dict(state.doors)
    free = mover.flying

    def step_cost(a: Hex, b: Hex) -> float | None:
        if not terrain.standable(sit.board, b) or b in enemy_hexes or not _open_side(sit, doors, a, b):
            return None
        return 1.0

    def stops(h: Hex) -> bool:
        return not free and h in obstructing

    return reachable(mover.hex, allowance, step_cost, stops=stops, can_end=lambda h: h not in taken)
