"""The line pushed to either side (``SightLine.nudged_ways``) against a plain reference: the segment shifted by
a tiny exact distance and clipped against every hex near the cube-lerp line (tests/engine/nudged_reference.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import Edge, Hex, edge
from engine.lines import sight_line
from tests.engine.nudged_reference import nudged_way

offsets = st.builds(Hex, st.integers(-7, 7), st.integers(-7, 7)).filter(lambda h: h != Hex(0, 0))
starts = st.builds(Hex, st.integers(-5, 5), st.integers(-5, 5))


def side(aq: int, ar: int, bq: int, br: int) -> Edge:
    return edge(Hex(aq, ar), Hex(bq, br))


@settings(deadline=None, max_examples=150)  # no timing limits on a busy shared machine
@given(starts, offsets)
def test_the_two_nudged_ways_are_the_references_two_shifted_segments(start: Hex, offset: Hex) -> None:
    end = start + offset
    plus, minus = sight_line(start, end).nudged_ways
    assert {plus, minus} == {nudged_way(start, end, +1), nudged_way(start, end, -1)}


def test_a_line_along_a_side_splits_and_a_straight_one_does_not() -> None:
    plus, minus = sight_line(Hex(0, 0), Hex(1, 1)).nudged_ways  # along the side of (1, 0) and (0, 1)
    assert {plus, minus} == {(side(0, 0, 1, 0), Hex(1, 0), side(1, 0, 1, 1)),
                             (side(0, 0, 0, 1), Hex(0, 1), side(0, 1, 1, 1))}
    plus, minus = sight_line(Hex(0, 0), Hex(0, 3)).nudged_ways
    assert plus == minus
