"""Movement: which zones a movement value reaches, at full cost per step and never carried over.

A move needs the whole price of each step: with 9 m a character cannot change rows at all, and
leftover metres are lost at the end of the move (a 2-round walk is not possible; a slow character
makes a full move instead). A zone holding a melee area stops a move that enters it (the mover
joins the fight), unless the mover has Shadow Run; the rule set passes that in as ``stops``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet

from engine.board.zones.board import ZoneBoard
from engine.cell_graph import KeptGraphs
from engine.hexes import Hex
from engine.pathfinding import Reach, reachable

from .geometry import step_m

FOOTWORK_M = 10  # Footwork: the character simply moves 10 m (one zone up or down, or two sideways)


def zone_step(board: ZoneBoard) -> Callable[[Hex, Hex], float | None]:
    """The price of one step between zones of the board (None: not a move, or into terrain nobody stands on)."""

    def cost(a: Hex, b: Hex) -> float | None:
        if b not in board or not board.terrain_kind(b).standable:
            return None
        m = step_m(a, b)
        return None if m is None else float(m)

    return cost


_GRAPHS = KeptGraphs()  # each mat's movement graph: a step's price is the mat's alone


def reach(board: ZoneBoard, start: Hex, movement: float,
          stops: Callable[[Hex], bool] | AbstractSet[Hex] = frozenset()) -> Mapping[Hex, Reach]:
    """Every zone a move of ``movement`` metres from ``start`` may end in, with its cost and cheapest path.

    ``stops`` (the zones that end a move) as a set takes the mat's kept graph; as a predicate, the general search.
    """
    budget = max(0.0, float(movement))
    if isinstance(stops, AbstractSet):
        return _GRAPHS.of(board, zone_step(board)).reachable(start, budget, stops=stops)
    return reachable(start, budget, zone_step(board), stops=stops)


def cheapest_routes(board: ZoneBoard, start: Hex, end: Hex, movement: float,
                    stops: Callable[[Hex], bool] = lambda z: False) -> list[tuple[Hex, ...]]:
    """Every cheapest walk from ``start`` to ``end`` within ``movement`` (none when out of reach)."""
    far = reach(board, start, movement, stops)
    if end not in far:
        return []
    best = far[end].cost
    step = zone_step(board)
    routes: list[tuple[Hex, ...]] = []

    def walk(path: tuple[Hex, ...], spent: float) -> None:
        here = path[-1]
        if here == end:
            routes.append(path)
            return
        if here != start and stops(here):
            return
        for n in board.neighbours(here):
            c = step(here, n)
            if c is None or n in path or spent + c > best:
                continue
            walk((*path, n), spent + c)

    walk((start,), 0.0)
    return sorted(routes, key=lambda p: [(z.r, z.q) for z in p])
