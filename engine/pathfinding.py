"""Movement queries on the hex grid with terrain as functions: where a figure can go, and how.

Each rule set brings its own terrain: ``step_cost(a, b)`` prices one step (None forbids it:
wall, closed door, off-map, an enemy in ``b``); ``stops(h)`` ends a move on entering ``h``
(contact with an enemy); ``can_end(h)`` says whether a move may finish on ``h`` (not on a
friend). The search is Dijkstra's, deterministic: among equally cheap routes the one with
fewer steps wins, then the first found in direction order, so the same board gives the same
paths every time.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.hexes import DIRECTIONS, Hex

StepCost = Callable[[Hex, Hex], float | None]
HexPredicate = Callable[[Hex], bool]

# Sums of fractional costs (0.1 + 0.2) must not fall just outside a budget they meet exactly.
_BUDGET_SLACK = 1e-9
_STEPS = tuple((d.q, d.r) for d in DIRECTIONS)


def never(_: Hex) -> bool:
    """Default ``stops``: no hex ends a move early."""
    return False


def always(_: Hex) -> bool:
    """Default ``can_end``: a move may finish anywhere it can reach."""
    return True


@dataclass(frozen=True)
class Reach:
    """The cheapest way found to a hex: its total cost and the hexes walked, ``start`` first."""

    cost: float
    path: tuple[Hex, ...]


def reachable(
    start: Hex,
    budget: float,
    step_cost: StepCost,
    *,
    stops: HexPredicate = never,
    can_end: HexPredicate = always,
) -> dict[Hex, Reach]:
    """Every hex a move from ``start`` can finish on within ``budget``, with its cheapest path.

    The start is always included (cost 0, path ``(start,)``) and is never subject to ``stops``.
    Hexes where ``can_end`` is false are passed through but left out of the result.
    """
    if not budget >= 0:
        raise ValueError(f"budget must be a number >= 0, got {budget!r}")
    order, cost, parent = _search(start, budget, step_cost, stops, goal=None)
    result: dict[Hex, Reach] = {}
    paths: dict[Hex, tuple[Hex, ...]] = {start: (start,)}
    for h in order:
        if h != start:
            paths[h] = (*paths[parent[h]], h)
        if h == start or can_end(h):
            result[h] = Reach(cost[h], paths[h])
    return result


def shortest_path(
    start: Hex,
    goal: Hex,
    step_cost: StepCost,
    *,
    stops: HexPredicate = never,
    budget: float = math.inf,
) -> Reach | None:
    """The cheapest way from ``start`` to ``goal`` within ``budget``, or None when there is none."""
    if not budget >= 0:
        raise ValueError(f"budget must be a number >= 0, got {budget!r}")
    _, cost, parent = _search(start, budget, step_cost, stops, goal=goal)
    if goal not in cost:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return Reach(cost[goal], tuple(reversed(path)))


def _search(
    start: Hex, budget: float, step_cost: StepCost, stops: HexPredicate, goal: Hex | None
) -> tuple[list[Hex], dict[Hex, float], dict[Hex, Hex]]:
    """Dijkstra from ``start``: hexes in the order they were settled, their costs and their parents.

    Stops early once ``goal`` is settled (when given); only settled hexes appear in the costs.
    """
    limit = budget + _BUDGET_SLACK
    best: dict[Hex, tuple[float, int]] = {start: (0.0, 0)}
    parent: dict[Hex, Hex] = {}
    settled: dict[Hex, float] = {}
    order: list[Hex] = []
    heap: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
    while heap:
        spent, steps, h = heapq.heappop(heap)
        if h in settled:
            continue
        settled[h] = spent
        order.append(h)
        if h == goal:
            break
        if h != start and stops(h):
            continue
        q, r = h.q, h.r
        for dq, dr in _STEPS:
            n = Hex(q + dq, r + dr)
            if n in settled:
                continue
            c = step_cost(h, n)
            if c is None:
                continue
            if not c >= 0:
                raise ValueError(f"step_cost({h!r}, {n!r}) returned {c!r}: costs must be >= 0 or None")
            total = spent + c
            if total > limit:
                continue
            key = (total, steps + 1)
            old = best.get(n)
            if old is None or key < old:
                best[n] = key
                parent[n] = h
                heapq.heappush(heap, (total, steps + 1, n))
    return order, settled, parent
