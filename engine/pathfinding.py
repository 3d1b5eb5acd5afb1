"""Movement queries on a board's cells with terrain as functions: where a figure can go, and how.

Typed on :data:`engine.board.base.Cell`, so it serves every board kind: a board's own steps come as ``exits`` or as
``neighbours`` with a ``step_cost`` (four on a square grid); given a ``step_cost`` alone, a cell's neighbours
are a hex's six (the hex map's, in direction order).

Each rule set brings its own terrain: ``step_cost(a, b)`` prices one step (None forbids it:
wall, closed door, off-map, an enemy in ``b``); ``stops(h)`` ends a move on entering ``h``
(contact with an enemy); ``can_end(h)`` says whether a move may finish on ``h`` (not on a
friend). The search is Dijkstra's, deterministic: among equally cheap routes the one with
fewer steps wins, then the one found first (cells leave the queue by cost, steps, then axial
coordinates; neighbours are tried in direction order), so the same board gives the same paths.
While every step costs the same it runs layer by layer in that very order, without a heap.
A rule set that knows each cell's allowed steps may pass them as ``exits`` instead of ``step_cost``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.board.base import Cell
from engine.hexes import DIRECTIONS

StepCost = Callable[[Cell, Cell], float | None]
# Every step allowed out of a cell with its cost, neighbours in direction order (see ``reachable``).
Exits = Callable[[Cell], Iterable[tuple[Cell, float]]]
CellPredicate = Callable[[Cell], bool]

# Sums of fractional costs (0.1 + 0.2) must not fall just outside a budget they meet exactly.
_BUDGET_SLACK = 1e-9
_Key = tuple[int, int]  # (q, r) of a cell inside the search
_STEPS = tuple((d.q, d.r) for d in DIRECTIONS)


def never(_: Cell) -> bool:
    """Default ``stops``: no cell ends a move early."""
    return False


def always(_: Cell) -> bool:
    """Default ``can_end``: a move may finish anywhere it can reach."""
    return True


class TerrainArgumentError(ValueError):
    """A movement query was given no terrain, or two kinds at once."""


@dataclass(frozen=True)
class Reach:
    """The cheapest way found to a cell: its total cost and the cells walked, ``start`` first."""

    cost: float
    path: tuple[Cell, ...]


def reachable(
    start: Cell,
    budget: float,
    step_cost: StepCost | None = None,
    *,
    exits: Exits | None = None,
    neighbours: Callable[[Cell], Iterable[Cell]] | None = None,
    stops: CellPredicate = never,
    can_end: CellPredicate = always,
) -> dict[Cell, Reach]:
    """Every cell a move from ``start`` can finish on within ``budget``, with its cheapest path.

    The start is always included (cost 0, path ``(start,)``) and is never subject to ``stops``.
    Hexes where ``can_end`` is false are passed through but left out of the result. Terrain comes as
    ``step_cost`` or, faster when a rule set has them at hand, as ``exits(h)``: the allowed steps out of
    ``h`` with their costs, neighbours in direction order (``Cell.neighbours()``), which gives exactly
    the answer ``step_cost`` would. ``neighbours`` (a board's own, ``board.neighbours``: four on a square
    grid) are the cells ``step_cost`` is asked about; without it, a hex's six.
    """
    if not budget >= 0:
        raise ValueError(f"budget must be a number >= 0, got {budget!r}")
    if (step_cost is None) == (exits is None):
        raise TerrainArgumentError("give reachable() either step_cost or exits, not both or neither")
    if neighbours is not None:
        if step_cost is None:
            raise TerrainArgumentError("give reachable() neighbours with a step_cost, not with exits")
        exits, step_cost = _exits_over(neighbours, step_cost), None
    order, cost, parent = _search(start, budget, step_cost, stops, goal=None, exits=exits)
    result: dict[Cell, Reach] = {start: Reach(0.0, (start,))}
    paths: dict[_Key, tuple[Cell, ...]] = {order[0][0]: (start,)}
    for key, h in order[1:]:
        path = paths[key] = (*paths[parent[key]], h)
        if can_end(h):
            result[h] = Reach(cost[key], path)
    return result


def shortest_path(
    start: Cell,
    goal: Cell,
    step_cost: StepCost,
    *,
    stops: CellPredicate = never,
    budget: float = math.inf,
) -> Reach | None:
    """The cheapest way from ``start`` to ``goal`` within ``budget``, or None when there is none."""
    if not budget >= 0:
        raise ValueError(f"budget must be a number >= 0, got {budget!r}")
    _, cost, parent = _search(start, budget, step_cost, stops, goal=goal)
    key = (goal.q, goal.r)
    if key not in cost:
        return None
    keys = [key]
    while keys[-1] in parent:
        keys.append(parent[keys[-1]])
    path = [start, *(_cell_at(*k) for k in reversed(keys[:-1]))]
    return Reach(cost[key], tuple(path))


def _exits_over(neighbours: Callable[[Cell], Iterable[Cell]], step_cost: StepCost) -> Exits:
    """The allowed steps out of a cell to the given neighbours, priced by ``step_cost``."""

    def exits(h: Cell) -> list[tuple[Cell, float]]:
        return [(n, c) for n in neighbours(h) if (c := step_cost(h, n)) is not None]

    return exits


def _cell_at(q: int, r: int) -> Cell:
    """A shared Cell for (q, r), with its neighbours (see :func:`_around`)."""
    return _around((q, r))[0]


_Around = tuple[Cell, tuple[tuple[_Key, Cell], ...]]


def _around(key: _Key) -> _Around:
    """The shared Cell at ``key`` and its six neighbours' keys and cells (a hex's), in direction order.

    The search keys its tables on plain tuples (hashed in C) and builds each Cell, which the predicates
    need, and each neighbour list only once per place.
    """
    found = _AROUND.get(key)
    if found is None:
        if len(_AROUND) >= _AROUND_LIMIT:
            _AROUND.clear()
        q, r = key
        found = _AROUND[key] = (Cell(q, r), tuple(((q + dq, r + dr), Cell(q + dq, r + dr)) for dq, dr in _STEPS))
    return found


_AROUND: dict[_Key, _Around] = {}
_AROUND_LIMIT = 1 << 17


_Found = tuple[list[tuple[_Key, Cell]], dict[_Key, float], dict[_Key, _Key]]


def _search(
    start: Cell, budget: float, step_cost: StepCost | None, stops: CellPredicate, goal: Cell | None,
    exits: Exits | None = None,
) -> _Found:
    """Dijkstra from ``start``: (q, r) and Cell of hexes in the order they were settled, their costs and parents.

    Stops early once ``goal`` is settled (when given); only settled hexes appear in the costs. While every
    step costs the same the search goes layer by layer instead (:func:`_layers`), with the same answer.
    """
    found = _layers(start, budget, step_cost, stops, goal, exits)
    return found if found is not None else _dijkstra(start, budget, step_cost, stops, goal, exits)


def _layers(
    start: Cell, budget: float, step_cost: StepCost | None, stops: CellPredicate, goal: Cell | None,
    exits: Exits | None,
) -> _Found | None:
    """Breadth-first, one layer of equal steps at a time, each layer in (q, r) order; None as soon as a step
    costs differently from the first (or is not a cost), and the heap search starts over.

    With one cost per step, Dijkstra's queue order (cost, steps, q, r) is exactly this: a layer's hexes all
    have the same cost (summed in the same order) and leave the queue by coordinates, and the first of them
    to reach a hex of the next layer is its parent. No heap and no rank tuples, so it is about twice as fast.
    """
    limit = budget + _BUDGET_SLACK
    origin = (start.q, start.r)
    target = None if goal is None else (goal.q, goal.r)
    settled: dict[_Key, float] = {}
    parent: dict[_Key, _Key] = {}
    order: list[tuple[_Key, Cell]] = []
    table, around = _AROUND, _around
    unit: float | None = None
    spent = 0.0
    layer: list[tuple[_Key, Cell]] = [(origin, start)]
    while layer:
        for key, h in layer:
            settled[key] = spent
            order.append((key, h))
            if key == target:
                return order, settled, parent
        following: dict[_Key, Cell] = {}
        for key, h in layer:
            if key != origin and stops(h):
                continue
            if exits is not None:
                for n, c in exits(h):
                    if c != unit:
                        if unit is not None or not c >= 0:
                            return None
                        unit = c
                    if spent + c > limit:
                        continue
                    nkey = (n.q, n.r)
                    if nkey not in settled and nkey not in following:
                        following[nkey] = n
                        parent[nkey] = key
                continue
            assert step_cost is not None
            for nkey, n in (table.get(key) or around(key))[1]:
                if nkey in settled or nkey in following:
                    continue
                price = step_cost(h, n)
                if price is None:
                    continue
                if price != unit:
                    if unit is not None or not price >= 0:
                        return None
                    unit = price
                if spent + price <= limit:
                    following[nkey] = n
                    parent[nkey] = key
        if unit is None:
            break  # no step out of this layer at all
        spent = spent + unit
        layer = sorted(following.items())
    return order, settled, parent


def _dijkstra(
    start: Cell, budget: float, step_cost: StepCost | None, stops: CellPredicate, goal: Cell | None,
    exits: Exits | None,
) -> _Found:
    """The general search: a heap ordered by (cost, steps, q, r)."""
    limit = budget + _BUDGET_SLACK
    origin = (start.q, start.r)
    target = None if goal is None else (goal.q, goal.r)
    # Best (cost, steps) found so far per hex. Hexes leave the heap in (cost, steps) order, so a settled
    # hex's best is never beaten: the "already as good" test below also skips settled hexes.
    best: dict[_Key, tuple[float, int]] = {origin: (0.0, 0)}
    parent: dict[_Key, _Key] = {}
    settled: dict[_Key, float] = {}
    order: list[tuple[_Key, Cell]] = []
    # (cost, steps, key, hex): a hex is pushed again only with a better rank, so ties never reach the Cell.
    heap: list[tuple[float, int, _Key, Cell]] = [(0.0, 0, origin, start)]
    table, around, pop, push = _AROUND, _around, heapq.heappop, heapq.heappush
    while heap:
        spent, steps, key, h = pop(heap)
        if key in settled:
            continue
        settled[key] = spent
        order.append((key, h))
        if key == target:
            break
        if key != origin and stops(h):
            continue
        steps += 1
        if exits is not None:
            for n, c in exits(h):
                total = spent + c  # the cost is known, so no early test is needed to spare a call
                if total > limit:
                    continue
                if not c >= 0:
                    raise ValueError(f"exits({h!r}) gave {n!r} at {c!r}: costs must be >= 0")
                nkey = (n.q, n.r)
                old = best.get(nkey)
                rank = (total, steps)
                if old is None or rank < old:
                    best[nkey] = rank
                    parent[nkey] = key
                    push(heap, (total, steps, nkey, n))
            continue
        assert step_cost is not None
        for nkey, n in (table.get(key) or around(key))[1]:
            old = best.get(nkey)
            if old is not None and (old[0] < spent or (old[0] == spent and old[1] <= steps)):
                continue  # costs are >= 0, so no step from here can beat what it already has
            price = step_cost(h, n)
            if price is None:
                continue
            if not price >= 0:
                raise ValueError(f"step_cost({h!r}, {n!r}) returned {price!r}: costs must be >= 0 or None")
            total = spent + price
            if total > limit:
                continue
            if old is None or total < old[0] or (total == old[0] and steps < old[1]):
                best[nkey] = (total, steps)
                parent[nkey] = key
                push(heap, (total, steps, nkey, n))
    return order, settled, parent
