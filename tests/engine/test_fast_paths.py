"""The fast paths must give exactly the plain answers: a sight board kept up to date move by move equals the
general judges on the position it has reached, and a search fed exits equals one fed step costs."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import Edge, Hex, edge, hexes_within
from engine.lines import judge_sight, judge_sight_strict_interior, sight_line
from engine.pathfinding import TerrainArgumentError, reachable
from engine.sight_board import SightBoard, SightBoardError

AREA = list(hexes_within(Hex(2, -1), 6))
SIDES = sorted({edge(h, n) for h in AREA for n in h.neighbours()})


def _plain(a: Hex, b: Hex, hexes: set[Hex], edges: set[Edge]) -> tuple[object, object]:
    line = sight_line(a, b)
    return (judge_sight(line, hexes.__contains__, edges.__contains__),
            judge_sight_strict_interior(line, hexes.__contains__, edges.__contains__))


@settings(max_examples=25, deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(st.integers(min_value=0, max_value=10**6))
def test_a_board_updated_move_by_move_judges_like_a_fresh_one(seed: int) -> None:
    rng = random.Random(seed)
    hexes = set(rng.sample(AREA, rng.randrange(0, 30)))
    edges = set(rng.sample(SIDES, rng.randrange(0, 40)))
    figures = rng.sample([h for h in AREA if h not in hexes], 8)
    board = SightBoard(hexes | set(figures), edges, margin=3)
    for _ in range(6):
        for a in figures:  # every pair asked (and remembered) before the position changes
            for b in figures:
                assert (board.judge(a, b), board.judge_strict_interior(a, b)) == _plain(
                    a, b, hexes | set(figures), edges)
        change = rng.randrange(3)
        if change == 0:  # a figure moves to a free hex, sometimes far outside the grid laid out so far
            i = rng.randrange(len(figures))
            free = [h for h in AREA if h not in hexes and h not in figures] + [Hex(rng.randrange(20, 40), -3)]
            new = rng.choice(free)
            board.update(block=[new], clear=[figures[i]])
            figures[i] = new
        elif change == 1:  # a door opens or closes
            side = rng.choice(SIDES)
            board.update(**({"clear": [side]} if side in edges else {"block": [side]}))
            edges ^= {side}
        else:  # rubble falls, a hedge burns
            h = rng.choice([h for h in AREA if h not in figures])
            board.update(**({"clear": [h]} if h in hexes else {"block": [h]}))
            hexes ^= {h}
    assert board.blocking_hexes == hexes | set(figures) and board.blocking_edges == edges


def test_an_update_cannot_block_and_clear_the_same_hex() -> None:
    board = SightBoard({Hex(0, 0)}, set())
    with pytest.raises(SightBoardError, match="both blocked and cleared"):
        board.update(block=[Hex(1, 0)], clear=[Hex(1, 0)])


def _exits_and_costs(seed: int) -> tuple[Hex, dict[Hex, tuple[tuple[Hex, float], ...]], set[Hex], set[Hex]]:
    """A random map with walls, closed hexes and costs 0.5–3 per hex entered; stops and friends."""
    rng = random.Random(seed)
    cells = set(AREA)
    closed = set(rng.sample(AREA, 15))
    walls = set(rng.sample(SIDES, 25))
    price = {h: rng.choice((0.5, 1.0, 1.0, 2.0, 3.0)) for h in AREA}
    exits = {a: tuple((b, price[b]) for b in a.neighbours()
                      if b in cells and b not in closed and edge(a, b) not in walls) for a in AREA}
    start = rng.choice([h for h in AREA if h not in closed])
    return start, exits, set(rng.sample(AREA, 6)), set(rng.sample(AREA, 6))


@settings(max_examples=40, deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([0.0, 1.0, 2.5, 4.0, 9.0]))
def test_exits_find_the_same_moves_and_paths_as_step_costs(seed: int, budget: float) -> None:
    start, exits, stop_at, friends = _exits_and_costs(seed)
    costs = {(a, b): c for a, out in exits.items() for b, c in out}

    def step_cost(a: Hex, b: Hex) -> float | None:
        return costs.get((a, b))

    plain = reachable(start, budget, step_cost, stops=stop_at.__contains__, can_end=lambda h: h not in friends)
    fast = reachable(start, budget, exits=lambda h: exits.get(h, ()), stops=stop_at.__contains__,
                     can_end=lambda h: h not in friends)
    assert list(fast.items()) == list(plain.items())  # same hexes, costs, paths, in the same order


def test_a_search_needs_exactly_one_kind_of_terrain() -> None:
    with pytest.raises(TerrainArgumentError, match="either step_cost or exits"):
        reachable(Hex(0, 0), 3)
    with pytest.raises(TerrainArgumentError, match="not both"):
        reachable(Hex(0, 0), 3, lambda a, b: 1.0, exits=lambda h: ())


@settings(max_examples=40, deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([0.0, 0.5, 1.0, 3.0]),
       st.sampled_from([0.0, 2.0, 4.0, 40.0]), st.booleans())
def test_layer_by_layer_search_equals_the_heap_search_when_steps_cost_the_same(
    seed: int, cost: float, budget: float, with_goal: bool
) -> None:
    from engine.pathfinding import _dijkstra, _layers

    start, exits, stop_at, _ = _exits_and_costs(seed)
    same = {a: tuple((b, cost) for b, _ in out) for a, out in exits.items()}
    costs = {(a, b): c for a, out in same.items() for b, c in out}
    goal = random.Random(seed).choice(AREA) if with_goal else None
    for step_cost, by_exits in ((lambda a, b: costs.get((a, b)), None), (None, lambda h: same.get(h, ()))):
        layered = _layers(start, budget, step_cost, stop_at.__contains__, goal, by_exits)
        assert layered == _dijkstra(start, budget, step_cost, stop_at.__contains__, goal, by_exits)
    # One step priced differently: the layers give way to the heap (or finish first, within the budget).
    mixed = {**same, start: tuple((b, cost + 1.0) for b, _ in same[start])}
    mixed_exits = lambda h: mixed.get(h, ())  # noqa: E731
    layered = _layers(start, budget, None, stop_at.__contains__, goal, mixed_exits)
    plain = _dijkstra(start, budget, None, stop_at.__contains__, goal, mixed_exits)
    assert layered is None or layered == plain
