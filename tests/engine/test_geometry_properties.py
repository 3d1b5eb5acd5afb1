"""Properties every hex geometry must keep: a true metric, lines of the right length, rotations, layouts."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import Hex, Orientation, hex_distance
from engine.layout import Layout
from engine.lines import hex_line

coords = st.integers(min_value=-200, max_value=200)
hexes = st.builds(Hex, coords, coords)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes)
def test_distance_is_zero_exactly_for_the_same_hex_and_symmetric(a: Hex, b: Hex) -> None:
    assert (hex_distance(a, b) == 0) == (a == b)
    assert hex_distance(a, b) == hex_distance(b, a) >= 0


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes, st.sampled_from([+1, -1]))
def test_a_line_has_distance_plus_one_hexes_each_next_to_the_last(a: Hex, b: Hex, nudge: int) -> None:
    line = hex_line(a, b, nudge)
    assert len(line) == hex_distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    assert all(hex_distance(x, y) == 1 for x, y in pairwise(line))


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes)
def test_a_nudge_is_a_fixed_direction_so_walking_back_visits_the_same_hexes(a: Hex, b: Hex) -> None:
    for nudge in (+1, -1):
        assert hex_line(b, a, nudge) == hex_line(a, b, nudge)[::-1]


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, hexes, st.integers(0, 5))
def test_rotations_about_the_origin_preserve_distance(a: Hex, b: Hex, turns: int) -> None:
    ra, rb = a, b
    for _ in range(turns):
        ra, rb = ra.rotate_left(), rb.rotate_left()
    assert hex_distance(ra, rb) == hex_distance(a, b)
    assert hex_distance(a.rotate_right(), b.rotate_right()) == hex_distance(a, b)
    assert a.rotate_left().rotate_right() == a


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(
    hexes,
    st.sampled_from(list(Orientation)),
    st.floats(1.0, 100.0),
    st.floats(-1e4, 1e4),
    st.floats(-1e4, 1e4),
    st.floats(-720.0, 720.0),
)
def test_layout_round_trips_for_any_orientation_and_rotation(
    h: Hex, orientation: Orientation, size: float, ox: float, oy: float, rotation: float
) -> None:
    layout = Layout(orientation, size, (ox, oy), rotation)
    assert layout.mm_to_hex(*layout.hex_to_mm(h)) == h


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(hexes, st.sampled_from(list(Orientation)), st.floats(-720.0, 720.0))
def test_rotating_the_layout_sixty_degrees_is_a_hex_rotation(h: Hex, orientation: Orientation, rotation: float) -> None:
    # Turning the map by +60° on the table (clockwise, y down) moves each hex where rotate_right takes it.
    base = Layout(orientation, 20.0, (5.0, -3.0), rotation)
    turned = Layout(orientation, 20.0, (5.0, -3.0), rotation + 60.0)
    x, y = turned.hex_to_mm(h)
    assert base.mm_to_hex(x, y) == h.rotate_right()
