"""Hex coordinate basics: labels, offsets, rings."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hexes import (
    Hex,
    Orientation,
    direction_between,
    from_label,
    from_offset,
    hex_round,
    hexes_within,
    ring,
    to_label,
    to_offset,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)


def test_labels_name_columns_then_rows() -> None:
    assert to_label(Hex(0, 0)) == "A1"
    assert from_label("E4") == from_offset(4, 3)
    assert from_label("e4") == from_label("E4")
    assert to_label(from_label("AB12")) == "AB12"


@pytest.mark.parametrize("bad", ["", "4E", "E", "E0", "E-1", "É4"])
def test_bad_labels_are_refused_with_the_expected_form(bad: str) -> None:
    with pytest.raises(ValueError, match=r"E4|numbered from 1"):
        from_label(bad)


@given(st.integers(0, 80), st.integers(0, 80), st.sampled_from(list(Orientation)))
def test_offset_round_trip(col: int, row: int, orientation: Orientation) -> None:
    assert to_offset(from_offset(col, row, orientation), orientation) == (col, row)


@given(hexes, st.integers(0, 6))
def test_ring_has_six_r_hexes_all_at_distance_r(center: Hex, radius: int) -> None:
    r = ring(center, radius)
    assert len(r) == max(1, 6 * radius)
    assert len(set(r)) == len(r)
    assert all(center.distance(h) == radius for h in r)


@given(hexes, st.integers(0, 5))
def test_hexes_within_counts_the_hexagonal_number(center: Hex, radius: int) -> None:
    inside = list(hexes_within(center, radius))
    assert len(inside) == 3 * radius * (radius + 1) + 1
    assert all(center.distance(h) <= radius for h in inside)


@given(hexes)
def test_rounding_a_centre_gives_the_hex(h: Hex) -> None:
    assert hex_round(h.q + 0.3, h.r - 0.2) == h
    assert hex_round(float(h.q), float(h.r)) == h


def test_direction_between_neighbours_only() -> None:
    assert direction_between(Hex(0, 0), Hex(1, 0)) == 0
    with pytest.raises(ValueError):
        direction_between(Hex(0, 0), Hex(2, 0))


def test_edges_are_unordered_pairs_of_neighbours() -> None:
    from engine.hexes import edge

    a, b = Hex(2, 3), Hex(3, 3)
    assert edge(a, b) == edge(b, a)
    assert edge(a, b).other(a) == b
    with pytest.raises(ValueError, match="not neighbours"):
        edge(a, Hex(5, 5))
