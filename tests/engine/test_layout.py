"""Hex ↔ table millimetre layout: round trips, tile sizes, shared corners."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import DIRECTIONS, Hex, Orientation, edge
from engine.layout import Layout

coords = st.integers(min_value=-50, max_value=50)
hexes = st.builds(Hex, coords, coords)
layouts = st.builds(
    Layout,
    st.sampled_from(list(Orientation)),
    st.floats(min_value=5.0, max_value=80.0),
    st.tuples(st.floats(-2000.0, 2000.0), st.floats(-2000.0, 2000.0)),
    st.floats(-360.0, 360.0),
)


def _dist(p: tuple[float, float], q: tuple[float, float]) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def test_flat_top_neighbour_lies_down_right_and_pointy_top_neighbour_lies_right() -> None:
    flat = Layout.from_flat_width(Orientation.FLAT, 50.0)
    x, y = flat.hex_to_mm(Hex(1, 0))
    assert x == pytest.approx(50.0 * math.sqrt(3) / 2)
    assert y == pytest.approx(25.0)  # y grows downwards on the table
    pointy = Layout.from_flat_width(Orientation.POINTY, 50.0)
    assert pointy.hex_to_mm(Hex(1, 0)) == pytest.approx((50.0, 0.0))
    assert pointy.hex_to_mm(Hex(0, 1)) == pytest.approx((25.0, 50.0 * math.sqrt(3) / 2))


def test_origin_places_the_first_hex_and_rotation_turns_clockwise_on_the_table() -> None:
    layout = Layout(Orientation.POINTY, 10.0, origin_mm=(100.0, 200.0), rotation_deg=90.0)
    assert layout.hex_to_mm(Hex(0, 0)) == pytest.approx((100.0, 200.0))
    # East neighbour turned 90° clockwise (y down) ends up straight below the origin.
    assert layout.hex_to_mm(Hex(1, 0)) == pytest.approx((100.0, 200.0 + layout.across_flats_mm))


def test_across_flats_is_the_tile_width() -> None:
    layout = Layout.from_flat_width(Orientation.FLAT, 43.3)
    assert layout.across_flats_mm == pytest.approx(43.3)
    assert layout.size_mm == pytest.approx(43.3 / math.sqrt(3))


@pytest.mark.parametrize("bad", [0.0, -3.0, math.nan, math.inf])
def test_bad_sizes_are_refused_with_the_field_named(bad: float) -> None:
    with pytest.raises(ValueError, match="size_mm"):
        Layout(Orientation.FLAT, bad)
    with pytest.raises(ValueError, match="across_flats_mm"):
        Layout.from_flat_width(Orientation.FLAT, bad)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(layouts, hexes)
def test_hex_centre_round_trips(layout: Layout, h: Hex) -> None:
    assert layout.mm_to_hex(*layout.hex_to_mm(h)) == h
    fq, fr = layout.mm_to_fractional(*layout.hex_to_mm(h))
    assert fq == pytest.approx(h.q, abs=1e-6)
    assert fr == pytest.approx(h.r, abs=1e-6)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(layouts, hexes, st.floats(0.0, 0.95), st.floats(0.0, 360.0))
def test_points_inside_a_hex_map_back_to_it(layout: Layout, h: Hex, frac: float, angle_deg: float) -> None:
    # Within the inscribed circle (radius across_flats / 2) every point belongs to the hex.
    cx, cy = layout.hex_to_mm(h)
    radius = frac * layout.across_flats_mm / 2
    a = math.radians(angle_deg)
    assert layout.mm_to_hex(cx + radius * math.cos(a), cy + radius * math.sin(a)) == h


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(layouts, hexes)
def test_corners_are_size_from_the_centre_and_a_side_apart(layout: Layout, h: Hex) -> None:
    centre = layout.hex_to_mm(h)
    corners = layout.corners_mm(h)
    assert len(corners) == 6
    for i, c in enumerate(corners):
        assert _dist(c, centre) == pytest.approx(layout.size_mm)
        assert _dist(c, corners[(i + 1) % 6]) == pytest.approx(layout.size_mm)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(layouts, hexes, st.integers(0, 5))
def test_neighbouring_centres_are_across_flats_apart(layout: Layout, h: Hex, direction: int) -> None:
    d = _dist(layout.hex_to_mm(h), layout.hex_to_mm(h.neighbour(direction)))
    assert d == pytest.approx(layout.across_flats_mm)


@settings(deadline=None)  # timing limits fail spuriously on a busy shared machine
@given(layouts, hexes, st.integers(0, 5))
def test_edge_endpoints_are_corners_of_both_hexes(layout: Layout, h: Hex, direction: int) -> None:
    other = h + DIRECTIONS[direction]
    p1, p2 = layout.edge_mm(edge(h, other))
    assert _dist(p1, p2) == pytest.approx(layout.size_mm)
    for end in (p1, p2):
        for owner in (h, other):
            assert min(_dist(end, c) for c in layout.corners_mm(owner)) == pytest.approx(0.0, abs=1e-6)
    # The shared side's midpoint is halfway between the two centres.
    ca, cb = layout.hex_to_mm(h), layout.hex_to_mm(other)
    mid = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
    assert _dist(mid, ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2)) == pytest.approx(0.0, abs=1e-6)
