"""Line drawing and sight lines: clear, blocked and ambiguous lines on small drawn maps."""

from __future__ import annotations

from itertools import pairwise

import pytest
from ascii_map import parse
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import DIRECTIONS, Edge, Hex, edge, hex_round, hexes_within
from engine.lines import Sight, SightLine, hex_line, judge_sight, judge_sight_strict_interior, sight_line

coords = st.integers(min_value=-30, max_value=30)
hexes = st.builds(Hex, coords, coords)
DIAGONALS = {DIRECTIONS[i] + DIRECTIONS[(i + 1) % 6] for i in range(6)}  # the directions of hex sides


def nothing(_: object) -> bool:
    return False


def judge(line: SightLine, blocking: set[Hex], walls: set[Edge] | None = None) -> tuple[Sight, object]:
    v = judge_sight(line, blocking.__contains__, (walls or set()).__contains__)
    return v.sight, v.blocker


def test_hex_line_along_a_row() -> None:
    assert hex_line(Hex(0, 0), Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    assert hex_line(Hex(2, 2), Hex(2, 2)) == [Hex(2, 2)]


def test_hex_line_nudges_split_a_line_along_an_edge() -> None:
    assert hex_line(Hex(0, 0), Hex(1, 1), +1) == [Hex(0, 0), Hex(0, 1), Hex(1, 1)]
    assert hex_line(Hex(0, 0), Hex(1, 1), -1) == [Hex(0, 0), Hex(1, 0), Hex(1, 1)]


def test_a_line_along_a_row_is_clear_and_touches_no_boundary() -> None:
    line = sight_line(Hex(0, 0), Hex(4, 0))
    assert line.plus == line.minus == tuple(Hex(q, 0) for q in range(5))
    assert not line.grazed_hexes and not line.grazed_edges
    assert judge(line, set()) == (Sight.CLEAR, None)
    # The shooter's and target's own hexes are never tested as blocking.
    assert judge(line, {Hex(0, 0), Hex(4, 0)}) == (Sight.CLEAR, None)


def test_lines_run_along_edges_exactly_in_the_six_side_directions() -> None:
    for h in hexes_within(Hex(0, 0), 7):
        line = sight_line(Hex(0, 0), h)
        along_a_side = any(h == d.scale(k) for d in DIAGONALS for k in range(1, 5))
        assert bool(line.along_edges) == along_a_side, h
        assert (line.plus != line.minus) == bool(line.grazed_hexes), h


def test_line_along_an_edge_grazes_the_two_hexes_beside_it() -> None:
    line = sight_line(Hex(0, 0), Hex(1, 1))
    assert line.crossed_hexes == {Hex(0, 0), Hex(1, 1)}
    assert line.grazed_hexes == {Hex(1, 0), Hex(0, 1)}
    assert line.along_edges == {edge(Hex(1, 0), Hex(0, 1))}
    assert edge(Hex(1, 0), Hex(0, 1)) in line.grazed_edges
    assert not line.crossed_edges  # every side it meets is touched only at a corner or run along


def test_a_wall_on_a_crossed_edge_blocks() -> None:
    line = sight_line(Hex(0, 0), Hex(3, 0))
    wall = edge(Hex(1, 0), Hex(2, 0))
    assert judge(line, set(), {wall}) == (Sight.BLOCKED, wall)
    # A wall on the side of the shooter's own hex counts too.
    own = edge(Hex(0, 0), Hex(1, 0))
    assert judge(line, set(), {own, wall}) == (Sight.BLOCKED, own)


def test_a_wall_along_the_line_is_ambiguous() -> None:
    line = sight_line(Hex(0, 0), Hex(2, 2))
    wall = edge(Hex(2, 1), Hex(1, 2))  # the second side the line runs along
    assert wall in line.along_edges
    assert judge(line, set(), {wall}) == (Sight.AMBIGUOUS, wall)
    strict = judge_sight_strict_interior(line, nothing, {wall}.__contains__)
    assert strict.sight is Sight.CLEAR


def test_blocking_hex_grazed_on_one_side_is_ambiguous_on_both_sides_blocked() -> None:
    board = parse(
        """
        S # .
        # T .
        . . .
        """
    )
    # Odd-q: S = Hex(0, 0), T = Hex(1, 1); the line runs along the side between the two '#'.
    line = sight_line(board.one("S"), board.one("T"))
    assert line.grazed_hexes == board.where("#")
    assert judge(line, {Hex(1, 0)}) == (Sight.AMBIGUOUS, Hex(1, 0))
    assert judge(line, {Hex(0, 1)}) == (Sight.AMBIGUOUS, Hex(0, 1))
    assert judge(line, board.where("#"))[0] is Sight.BLOCKED
    # Filtwiz: only touching the boundary, so the line is allowed in every case.
    assert judge_sight_strict_interior(line, board.where("#").__contains__, nothing).sight is Sight.CLEAR


def test_touching_a_corner_is_ambiguous_though_lerp_lines_miss_it() -> None:
    # From Hex(0, 0) to Hex(4, 1) the line passes exactly through the corner shared by Hex(1, 0),
    # Hex(2, 0) and Hex(1, 1): it touches Hex(1, 1) at that single point.
    line = sight_line(Hex(0, 0), Hex(4, 1))
    assert Hex(1, 1) in line.grazed_hexes
    assert Hex(1, 1) not in hex_line(Hex(0, 0), Hex(4, 1), +1) + hex_line(Hex(0, 0), Hex(4, 1), -1)
    assert judge(line, {Hex(1, 1)}) == (Sight.AMBIGUOUS, Hex(1, 1))
    # The side between Hex(1, 0) and Hex(2, 0) is only touched at its end: a wall there is ambiguous too.
    wall = edge(Hex(1, 0), Hex(2, 0))
    assert wall in line.grazed_edges
    assert judge(line, set(), {wall}) == (Sight.AMBIGUOUS, wall)
    assert judge_sight_strict_interior(line, {Hex(1, 1)}.__contains__, {wall}.__contains__).sight is Sight.CLEAR


def test_the_blocker_is_the_first_thing_from_the_shooter() -> None:
    # A column of flat-top hexes is a straight line through their centres.
    board = parse(
        """
        S .
        # .
        . .
        # .
        T .
        """
    )
    a, b = board.one("S"), board.one("T")
    walls = board.where("#")
    assert judge(sight_line(a, b), walls) == (Sight.BLOCKED, Hex(0, 1))
    assert judge(sight_line(b, a), walls) == (Sight.BLOCKED, Hex(0, 3))
    strict = judge_sight_strict_interior(sight_line(b, a), walls.__contains__, nothing)
    assert (strict.sight, strict.blocker) == (Sight.BLOCKED, Hex(0, 3))


def test_a_drawn_row_of_flat_top_hexes_zigzags_so_the_line_runs_along_sides() -> None:
    board = parse(
        """
        . * . * .
        S * . * T
        """
    )
    line = sight_line(board.one("S"), board.one("T"))
    assert line.grazed_hexes == board.where("*")
    assert len(line.along_edges) == 2


def test_blocked_on_both_sides_names_where_the_second_side_is_blocked() -> None:
    line = sight_line(Hex(0, 0), Hex(2, 2))
    # Hex(1, 0) blocks the plus side early; the minus side is blocked only at Hex(1, 2), later.
    first_plus, later_minus = Hex(1, 0), Hex(1, 2)
    assert first_plus in line.plus and later_minus in line.minus
    assert first_plus not in line.minus and later_minus not in line.plus
    assert judge(line, {first_plus, later_minus}) == (Sight.BLOCKED, later_minus)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes)
def test_sight_lines_are_symmetric(a: Hex, b: Hex) -> None:
    there, back = sight_line(a, b), sight_line(b, a)
    assert there.crossed_hexes == back.crossed_hexes
    assert there.grazed_hexes == back.grazed_hexes
    assert there.crossed_edges == back.crossed_edges
    assert there.grazed_edges == back.grazed_edges
    assert set(there.plus) == set(back.minus)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes, hexes)
def test_sight_lines_are_translation_invariant(a: Hex, b: Hex, by: Hex) -> None:
    line, moved = sight_line(a, b), sight_line(a + by, b + by)
    assert moved.plus == tuple(h + by for h in line.plus)
    assert moved.grazed_hexes == {h + by for h in line.grazed_hexes}
    assert moved.crossed_edges == {edge(e.a + by, e.b + by) for e in line.crossed_edges}


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes)
def test_traces_are_connected_and_cover_the_lerp_line(a: Hex, b: Hex) -> None:
    line = sight_line(a, b)
    for trace in (line.plus, line.minus):
        assert trace[0] == a and trace[-1] == b
        assert all(x.distance(y) == 1 for x, y in pairwise(trace))
        assert len(trace) >= a.distance(b) + 1
    # Every lerp sample is on the line, so its hex is on one of the traces.
    assert set(hex_line(a, b, +1)) | set(hex_line(a, b, -1)) <= set(line.plus) | set(line.minus)
    assert line.crossed_hexes | line.grazed_hexes == set(line.plus) | set(line.minus)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes, st.sets(hexes, max_size=30), st.integers(0, 2**31))
def test_strict_interior_is_never_ambiguous_and_blocks_no_more_than_fantasy_battle(
    a: Hex, b: Hex, blocking: set[Hex], seed: int
) -> None:
    line = sight_line(a, b)
    inner = line.crossed_hexes - {a, b}
    blocking = blocking | ({sorted(inner)[seed % len(inner)]} if inner and seed % 3 == 0 else set())
    strict = judge_sight_strict_interior(line, blocking.__contains__, nothing)
    loose = judge_sight(line, blocking.__contains__, nothing)
    assert strict.sight is not Sight.AMBIGUOUS
    assert (strict.sight is Sight.BLOCKED) == bool(inner & blocking)
    if strict.sight is Sight.BLOCKED:
        assert loose.sight is Sight.BLOCKED


def _depth(p: tuple[float, float, float], h: Hex) -> float:
    """How far point p (cube coordinates) lies inside hex h's cell: > 0 inside, 0 on its boundary."""
    x, y, z = p[0] - h.q, p[1] - h.r, p[2] - h.s
    return 1 - max(x - y, y - x, y - z, z - y, z - x, x - z)


def _check_against_samples(radius: int, samples: int) -> None:
    """Sample each line finely in floating point: a hex with a point well inside is crossed; a hex only
    ever touched (depth ~0, never positive) is grazed. A line to (q, r, s) meets corners only at t = k/g
    with g dividing gcd(q - r, q - s) <= 2 × radius, so ``samples`` divisible by 1 … 2 × radius hits them."""
    for target in hexes_within(Hex(0, 0), radius):
        if target == Hex(0, 0):
            continue
        line = sight_line(Hex(0, 0), target)
        deepest: dict[Hex, float] = {}
        for i in range(samples + 1):
            t = i / samples
            p = (t * target.q, t * target.r, t * target.s)
            centre = hex_round(p[0], p[1])
            for h in (centre, *centre.neighbours()):
                deepest[h] = max(deepest.get(h, -1.0), _depth(p, h))
        crossed = {h for h, d in deepest.items() if d > 1e-3}
        touched = {h for h, d in deepest.items() if -1e-9 <= d <= 1e-9}
        assert crossed == line.crossed_hexes, target
        assert touched == line.grazed_hexes, target


def test_traces_agree_with_densely_sampled_geometry() -> None:
    _check_against_samples(radius=3, samples=2520)


@pytest.mark.slow
def test_traces_agree_with_densely_sampled_geometry_on_longer_lines() -> None:
    _check_against_samples(radius=6, samples=27720)  # lcm(1 … 12)
