"""Movement queries on the hex grid with terrain as functions: where a figure can go, and how.

Each rule set brings its own terrain: ``step_cost(a, b)`` prices one step (None forbids it:
wall, closed door, off-map, an enemy in ``b``); ``stops(h)`` ends a move on entering ``h``
(contact with an enemy); ``can_end(h)`` says whether a move may finish on ``h`` (not on a
friend). The search is Dijkstra's, deterministic: among equally cheap routes the one with
fewer steps wins, then the one found first (hexes leave the queue by cost, steps, then axial
coordinates; neighbours are tried in direction order), so the same board gives the same paths.
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
_Key = tuple[int, int]  # (q, r) of a hex inside the search
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
    origin = order[0]
    result: dict[Hex, Reach] = {start: Reach(0.0, (start,))}
    paths: dict[_Key, tuple[Hex, ...]] = {origin: (start,)}
    cache = _HEX_CACHE
    for key in order[1:]:
        h = cache.get(key) or _hex_at(*key)
        path = paths[key] = (*paths[parent[key]], h)
        if can_end(h):
            result[h] = Reach(cost[key], path)
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
    key = (goal.q, goal.r)
    if key not in cost:
        return None
    keys = [key]
    while keys[-1] in parent:
        keys.append(parent[keys[-1]])
    path = [start, *(_hex_at(*k) for k in reversed(keys[:-1]))]
    return Reach(cost[key], tuple(path))


def _hex_at(q: int, r: int) -> Hex:
    """A shared Hex for (q, r): the search keys its tables on plain tuples (hashed in C) and builds each
    Hex, which the predicates need, only once."""
    h = _HEX_CACHE.get((q, r))
    if h is None:
        if len(_HEX_CACHE) >= _HEX_CACHE_LIMIT:
            _HEX_CACHE.clear()
        h = _HEX_CACHE[(q, r)] = Hex(q, r)
    return h


_HEX_CACHE: dict[_Key, Hex] = {}
_HEX_CACHE_LIMIT = 1 << 17


def _search(
    start: Hex, budget: float, step_cost: StepCost, stops: HexPredicate, goal: Hex | None
) -> tuple[list[_Key], dict[_Key, float], dict[_Key, _Key]]:
    """Dijkstra from ``start``: (q, r) of hexes in the order they were settled, their costs and parents.

    Stops early once ``goal`` is settled (when given); only settled hexes appear in the costs.
    """
    limit = budget + _BUDGET_SLACK
    origin = (start.q, start.r)
    target = None if goal is None else (goal.q, goal.r)
    best: dict[_Key, tuple[float, int]] = {origin: (0.0, 0)}
    parent: dict[_Key, _Key] = {}
    settled: dict[_Key, float] = {}
    order: list[_Key] = []
    heap: list[tuple[float, int, _Key]] = [(0.0, 0, origin)]
    hex_at, cache, pop, push = _hex_at, _HEX_CACHE, heapq.heappop, heapq.heappush
    while heap:
        spent, steps, key = pop(heap)
        if key in settled:
            continue
        settled[key] = spent
        order.append(key)
        if key == target:
            break
        q, r = key
        h = start if key == origin else cache.get(key) or hex_at(q, r)
        if key != origin and stops(h):
            continue
        for dq, dr in _STEPS:
            nkey = (q + dq, r + dr)
            if nkey in settled:
                continue
            old = best.get(nkey)
            if old is not None and old <= (spent, steps + 1):
                continue  # costs are >= 0, so no step from here can beat what it already has
            n = cache.get(nkey) or hex_at(q + dq, r + dr)
            c = step_cost(h, n)
            if c is None:
                continue
            if not c >= 0:
                raise ValueError(f"step_cost({h!r}, {n!r}) returned {c!r}: costs must be >= 0 or None")
            total = spent + c
            if total > limit:
                continue
            rank = (total, steps + 1)
            if old is None or rank < old:
                best[nkey] = rank
                parent[nkey] = key
                push(heap, (total, steps + 1, nkey))
    return order, settled, parent
