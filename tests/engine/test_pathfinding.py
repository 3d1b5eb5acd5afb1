"""Movement queries drawn as maps: walls, friends to pass through, enemies whose contact stops a move."""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import pytest
from ascii_map import AsciiMap, parse
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import Hex, hexes_within
from engine.pathfinding import Reach, reachable, shortest_path


def fantasy_battle_move(board: AsciiMap, budget: float) -> dict[Hex, Reach]:
    """Move like Fantasy Battle: walls and enemies forbidden, contact with an enemy stops, friends passed."""
    enemies = board.where("E")
    in_contact = {n for e in enemies for n in e.neighbours()}
    friends = board.where("F")
    return reachable(
        board.one("S"),
        budget,
        board.step_cost(blocked="#E"),
        stops=in_contact.__contains__,
        can_end=lambda h: h not in friends,
    )


def test_walls_are_not_entered() -> None:
    board = parse(
        """
        . . . . .
        . # * * .
        . * S # .
        . . * . .
        """
    )
    assert set(fantasy_battle_move(board, 1)) == board.where("S*")


def test_start_is_always_reachable_at_no_cost() -> None:
    board = parse("S #")
    assert fantasy_battle_move(board, 0) == {Hex(0, 0): Reach(0.0, (Hex(0, 0),))}
    assert fantasy_battle_move(board, 3) == {Hex(0, 0): Reach(0.0, (Hex(0, 0),))}


def test_contact_with_an_enemy_ends_the_move() -> None:
    board = parse(
        """
        S *
        * *
        * E
        . .
        """
    )
    reach = fantasy_battle_move(board, 4)
    assert set(reach) == board.where("S*")
    # The hexes below the contact zone are in budget but only reachable through it.
    assert Hex(0, 3) not in reach and Hex(1, 3) not in reach


def test_friends_are_passed_through_but_never_finished_on() -> None:
    board = parse(
        """
        S
        F
        *
        *
        .
        """
    )
    reach = fantasy_battle_move(board, 3)
    assert set(reach) == board.where("S*")
    assert reach[Hex(0, 3)] == Reach(3.0, (Hex(0, 0), Hex(0, 1), Hex(0, 2), Hex(0, 3)))


def test_a_wall_forces_the_long_way_round() -> None:
    board = parse(
        """
        S # T
        . # .
        . . .
        """
    )
    found = shortest_path(board.one("S"), board.one("T"), board.step_cost())
    assert found == Reach(6.0, (Hex(0, 0), Hex(0, 1), Hex(0, 2), Hex(1, 2), Hex(2, 1), Hex(2, 0), Hex(2, -1)))
    assert shortest_path(board.one("S"), board.one("T"), board.step_cost(), budget=5) is None
    walled_in = parse("S # T")
    assert shortest_path(walled_in.one("S"), walled_in.one("T"), walled_in.step_cost()) is None


def test_costly_terrain_is_walked_round_when_that_is_cheaper() -> None:
    board = parse(
        """
        S # T
        . . .
        """
    )
    rough = board.where("#")

    def cost(a: Hex, b: Hex) -> float | None:
        if not board.on_map(b):
            return None
        return 4.0 if b in rough else 1.0

    around = (Hex(0, 0), Hex(0, 1), Hex(1, 1), Hex(2, 0), Hex(2, -1))
    assert shortest_path(board.one("S"), board.one("T"), cost) == Reach(4.0, around)
    assert reachable(board.one("S"), 4, cost)[board.one("T")].path == around
    assert board.one("T") not in reachable(board.one("S"), 3.5, cost)


def test_equal_costs_prefer_fewer_steps() -> None:
    start, side, target = Hex(0, 0), Hex(1, -1), Hex(1, 0)

    def cost(a: Hex, b: Hex) -> float | None:
        if {a, b} <= {start, side, target}:
            return 1.0 if (a, b) == (start, target) else 0.5
        return None

    assert shortest_path(start, target, cost) == Reach(1.0, (start, target))
    assert reachable(start, 1, cost)[target].path == (start, target)


def test_fractional_costs_that_meet_the_budget_exactly_are_within_it() -> None:
    def tenth(a: Hex, b: Hex) -> float | None:
        return 0.1 if b.r == 0 and b.q >= 0 else None

    assert Hex(3, 0) in reachable(Hex(0, 0), 0.3, tenth)


def test_bad_costs_and_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        reachable(Hex(0, 0), -1, lambda a, b: 1.0)
    with pytest.raises(ValueError, match="costs must be >= 0"):
        reachable(Hex(0, 0), 3, lambda a, b: -1.0)


def _bfs(start: Hex, budget: int, open_hexes: set[Hex]) -> dict[Hex, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if dist[h] == budget:
            continue
        for n in h.neighbours():
            if n in open_hexes and n not in dist:
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


AREA = list(hexes_within(Hex(0, 0), 6))


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(st.sets(st.sampled_from(AREA), max_size=40), st.integers(0, 7))
def test_unit_costs_match_breadth_first_search_and_paths_are_walkable(walls: set[Hex], budget: int) -> None:
    open_hexes = set(AREA) - walls - {Hex(0, 0)}

    def cost(a: Hex, b: Hex) -> float | None:
        return 1.0 if b in open_hexes else None

    reach = reachable(Hex(0, 0), budget, cost)
    assert {h: r.cost for h, r in reach.items()} == _bfs(Hex(0, 0), budget, open_hexes)
    for h, r in reach.items():
        assert r.path[0] == Hex(0, 0) and r.path[-1] == h
        assert len(r.path) == r.cost + 1
        assert all(a.distance(b) == 1 and b in open_hexes for a, b in pairwise(r.path))
    for h in sorted(reach)[::7]:
        assert shortest_path(Hex(0, 0), h, cost) == reach[h]
    assert reachable(Hex(0, 0), budget, cost) == reach  # same inputs, same paths


def test_a_step_cost_walks_the_boards_own_neighbours_when_given_them() -> None:
    """On a square grid (four neighbours) a budget of 2 reaches the diamond of 13 cells, not a hex's 19."""
    from engine.board import Cell

    def four(c: Cell) -> list[Cell]:
        return [Cell(c.q + 1, c.r), Cell(c.q, c.r + 1), Cell(c.q - 1, c.r), Cell(c.q, c.r - 1)]

    reach = reachable(Cell(0, 0), 2, lambda a, b: 1.0, neighbours=four)
    assert len(reach) == 13 and reach[Cell(1, 1)].cost == 2
    assert Cell(1, -1) not in reachable(Cell(0, 0), 1, lambda a, b: 1.0, neighbours=four)  # a hex neighbour
    assert Cell(1, -1) in reachable(Cell(0, 0), 1, lambda a, b: 1.0)
