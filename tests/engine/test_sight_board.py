"""The bit-mask sight board must give exactly the verdicts of the general judges."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import Edge, Hex, edge, hexes_within
from engine.lines import Sight, judge_sight, judge_sight_strict_interior, sight_line
from engine.sight_board import SightBoard

AREA = list(hexes_within(Hex(3, -2), 7))
SIDES = sorted({edge(h, n) for h in AREA for n in h.neighbours()})


def _general(a: Hex, b: Hex, hexes: set[Hex], edges: set[Edge]) -> tuple[object, object]:
    line = sight_line(a, b)
    return (
        judge_sight(line, hexes.__contains__, edges.__contains__),
        judge_sight_strict_interior(line, hexes.__contains__, edges.__contains__),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.sampled_from(AREA), max_size=25),
    st.sets(st.sampled_from(SIDES), max_size=40),
    st.lists(st.tuples(st.sampled_from(AREA), st.sampled_from(AREA)), min_size=1, max_size=25),
)
def test_board_verdicts_equal_the_general_judges(
    hexes: set[Hex], edges: set[Edge], pairs: list[tuple[Hex, Hex]]
) -> None:
    board = SightBoard(hexes, edges)
    for a, b in pairs:
        loose, strict = _general(a, b, hexes, edges)
        assert board.judge(a, b) == loose, (a, b)
        assert board.judge_strict_interior(a, b) == strict, (a, b)


def test_dense_random_board_all_pairs_agree() -> None:
    rng = random.Random(7)
    hexes = set(rng.sample(AREA, 40))
    edges = set(rng.sample(SIDES, 60))
    figures = rng.sample(AREA, 25)
    board = SightBoard(hexes | set(figures), edges)
    seen = set()
    for a in figures:
        for b in figures:
            loose, strict = _general(a, b, hexes | set(figures), edges)
            assert board.judge(a, b) == loose
            assert board.judge_strict_interior(a, b) == strict
            seen.add(board.judge(a, b).sight)
    assert seen == set(Sight)  # the sample exercises every verdict


def test_ends_far_outside_the_blockers_fall_back_to_the_same_answer() -> None:
    board = SightBoard({Hex(0, 0)}, set(), margin=2)
    far = Hex(-30, 0)
    assert board.judge(far, Hex(30, 0)).sight is Sight.BLOCKED
    assert board.judge(far, Hex(30, 0)).blocker == Hex(0, 0)
    assert board.judge(Hex(-30, 5), Hex(30, 5)).sight is Sight.CLEAR


def test_from_predicates_reads_the_rule_sets_terrain() -> None:
    wall = edge(Hex(1, 0), Hex(2, 0))
    board = SightBoard.from_predicates(AREA, lambda h: h == Hex(0, 1), lambda e: e == wall)
    assert board.blocking_hexes == {Hex(0, 1)}
    assert board.blocking_edges == {wall}
    assert board.judge(Hex(0, 0), Hex(3, 0)).blocker == wall
    with pytest.raises(ValueError, match="margin"):
        SightBoard(set(), set(), margin=1)
