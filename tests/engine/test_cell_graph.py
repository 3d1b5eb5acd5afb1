"""The board graph's search must give exactly the reference search's answers: the same hexes, costs and paths,
on random boards and on every rule set's own board kind (levels, stacks, zones) in random positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cell_graph import CellGraph, CellGraphError
from engine.game import Game
from engine.hexes import Edge, Hex, edge, hexes_within
from engine.pathfinding import reachable
from engine.rules.filtwiz import moving as filtwiz_moving
from engine.rules.laramie import movement as laramie_movement
from engine.rules.laramie import terrain as laramie_terrain
from engine.rules.laramie import units as laramie_units
from engine.rules.lost_worlds import costed_reach as lw_reach
from engine.rules.tenkey import movement as tenkey_movement
from engine.scenario import load_scenario
from engine.state import GameState

AREA = sorted(hexes_within(Hex(1, -2), 5))
SIDES = sorted({edge(h, n) for h in AREA for n in h.neighbours() if n in AREA})


@settings(max_examples=60, deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([(1.0,), (1.0, 2.0), (0.5, 1.0, 3.0)]))
def test_the_graph_answers_like_the_reference_search_on_random_boards(seed: int, prices: tuple[float, ...]) -> None:
    rng = random.Random(seed)
    price = {(a, b): rng.choice(prices) for a in AREA for b in a.neighbours()}
    rock = set(rng.sample(AREA, rng.randrange(0, 20)))
    doors = {e: rng.choice(["open", "closed"]) for e in rng.sample(SIDES, 12)}

    def cost(a: Hex, b: Hex) -> float | None:
        if b not in AREA or b in rock or doors.get(edge(a, b)) == "closed":
            return None
        return price[a, b]

    graph = CellGraph(AREA, cost)
    graph.follow_edges(doors, cost)
    for _ in range(4):
        start = rng.choice(AREA)
        blocked = set(rng.sample(AREA, rng.randrange(0, 10)))
        stops = set(rng.sample(AREA, rng.randrange(0, 25)))
        keep_out = set(rng.sample(AREA, rng.randrange(0, 10)))
        budget = rng.choice([0, 1, 2.5, 4, 7, 30])
        want = reachable(start, budget, lambda a, b, blocked=blocked: None if b in blocked else cost(a, b),
                         stops=stops.__contains__, can_end=lambda h, out=keep_out: h not in out)
        assert graph.reachable(start, budget, blocked=blocked, stops=stops, keep_out=keep_out) == want
        assert [r.path for r in want.values()] == [r.path for r in graph.reachable(
            start, budget, blocked=blocked, stops=stops, keep_out=keep_out).values()]
        for e in rng.sample(sorted(doors), 3):  # doors opened and closed: only their cells are priced again
            doors[e] = "open" if doors[e] == "closed" else "closed"
        graph.follow_edges(doors, cost)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_the_answer_read_lazily_in_any_order_equals_the_eager_one(seed: int) -> None:
    """Entries are made when read: in any order, partly or twice, they are the reference's, and so are its
    length, its order, membership (of hexes passed but not finished on, off the board, not hexes at all)."""
    rng = random.Random(seed)
    rock = set(rng.sample(AREA, rng.randrange(0, 15)))
    graph = CellGraph(AREA, lambda a, b: None if b in rock else 1.0)
    start = rng.choice(AREA)
    blocked = set(rng.sample(AREA, rng.randrange(0, 8)))
    stops = set(rng.sample(AREA, rng.randrange(0, 20)))
    keep_out = set(rng.sample(AREA, rng.randrange(0, 20))) | {start, Hex(30, 30)}
    budget = rng.choice([0, 1, 3, 6, 30])
    want = reachable(start, budget, lambda a, b: None if b not in AREA or b in rock or b in blocked else 1.0,
                     stops=stops.__contains__, can_end=lambda h: h not in keep_out or h == start)
    got = graph.reachable(start, budget, blocked=blocked, stops=stops, keep_out=keep_out)
    shuffled = list(want)
    rng.shuffle(shuffled)
    for h in shuffled[: rng.randrange(0, len(shuffled) + 1)]:
        assert got[h] == want[h] and got[h].path == want[h].path
    assert len(got) == len(want) and list(got) == list(want)
    assert [(h, r.cost, r.path) for h, r in got.items()] == [(h, r.cost, r.path) for h, r in want.items()]
    for h in [*AREA, Hex(30, 30), Hex(-40, 2)]:
        assert (h in got) == (h in want)
        assert got.get(h) == want.get(h)
    assert "E4" not in got and None not in got
    with pytest.raises(KeyError):
        got[Hex(30, 30)]
    assert got == want and dict(got) == want


def test_a_start_off_the_graph_and_a_negative_cost() -> None:
    graph = CellGraph(AREA, lambda a, b: 1.0)
    outside = Hex(40, 40)
    assert graph.reachable(outside, 3) == {outside: reachable(outside, 3, lambda a, b: None)[outside]}
    with pytest.raises(CellGraphError, match="costs must be >= 0"):
        CellGraph(AREA, lambda a, b: -1.0)


def _shuffle(game: Game, rng: random.Random, doors: list[Edge]) -> GameState:
    """A random position: figures on random standable cells (stacks allowed), doors open or closed at random."""
    state = GameState.from_dict(game.state.to_dict())
    board = game.scenario.board
    cells = [c for c in board if board.terrain_kind(c).standable]
    for f in state.alive():
        if rng.random() < 0.8:
            state.put(f.id, rng.choice(cells))
    for e in doors:
        state.doors[e] = rng.choice(["open", "closed"])
    return state


def _positions(scenario: str, count: int, seed: int) -> tuple[Game, list[GameState]]:
    game = Game(load_scenario(scenario))
    board = game.scenario.board
    doors = sorted(board.doors()) if hasattr(board, "doors") else []
    rng = random.Random(seed)
    return game, [_shuffle(game, rng, doors) for _ in range(count)]


@pytest.mark.parametrize("scenario", ["captured-princess", "goblins-treasure", "tutorial"])
def test_fantasy_battle_moves_match_the_reference(scenario: str) -> None:
    game, states = _positions(scenario, 25, 1)
    rules = game.rules
    rng = random.Random(2)
    for state in states:
        for f in state.alive():
            budget = rng.choice([None, 1, 3, 8, 99])
            assert rules.reachable(state, f.id, budget) == rules.reachable_reference(state, f.id, budget)  # type: ignore[attr-defined]


def test_filtwiz_moves_match_the_reference() -> None:
    game, states = _positions("filtwiz-river-ambush", 25, 3)
    rules = game.rules
    rng = random.Random(4)
    for state in states:
        sit = rules.situation(state)  # type: ignore[attr-defined]
        for mover in sit.figures.values():
            allowance = rng.randrange(0, 9)
            assert filtwiz_moving.moves(sit, state, mover, allowance) == filtwiz_moving.moves_reference(
                sit, state, mover, allowance)


def test_lost_worlds_moves_on_levels_match_the_reference() -> None:
    game, states = _positions("lost-worlds-ruined-tower", 40, 5)
    for state in states:
        for f in state.alive():
            assert lw_reach.reach(game.rules, state, f.id) == lw_reach.reach_reference(  # type: ignore[arg-type]
                game.rules, state, f.id)  # type: ignore[arg-type]


def test_laramie_moves_with_stacks_match_the_reference() -> None:
    game, states = _positions("laramie-station", 25, 6)
    board = game.scenario.board

    def step(a: Hex, b: Hex) -> float | None:
        return 1.0 if laramie_terrain.can_step(board, a, b) else None  # type: ignore[arg-type]

    graph = CellGraph(board, step)
    compared = 0
    for state in states:
        for f in state.alive():
            if f.hex is None:
                continue
            for allowance in (1, 3, 6):
                assert graph.reachable(f.hex, allowance) == reachable(f.hex, allowance, step)
            if not laramie_movement.runs_for_cover(game.rules, f.hex, laramie_units.state_of(f)):  # type: ignore[arg-type]
                want = reachable(f.hex, laramie_units.rules_of(f).move, step)
                assert game.rules.reachable(state, f.id) == want
                compared += 1
    assert compared > 50


def test_tenkey_zone_moves_match_the_reference() -> None:
    game, states = _positions("tenkey-skirmish", 40, 7)
    board = game.scenario.board
    rng = random.Random(8)
    for state in states:
        for f in state.alive():
            if f.hex is None:
                continue
            fights = set(rng.sample(list(board), rng.randrange(0, 5)))
            metres = rng.choice([0, 5, 9, 10, 15, 20, 30, 60])
            fast = tenkey_movement.reach(board, f.hex, metres, stops=fights)  # type: ignore[arg-type]
            slow = tenkey_movement.reach(board, f.hex, metres, stops=fights.__contains__)  # type: ignore[arg-type]
            assert fast == slow
