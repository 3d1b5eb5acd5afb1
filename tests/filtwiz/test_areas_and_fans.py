"""Range, "within N hexes of a chosen hex" and fans on drawn maps (odd-q, flat-top: S the user, T the chosen
hex, * the hexes expected)."""

from __future__ import annotations

import math

import pytest

from engine.hexes import DIRECTIONS, Hex, Orientation, hex_distance, hexes_within
from engine.layout import Layout
from engine.rules.filtwiz import fans, ranges
from tests.engine.ascii_map import parse


def test_range_one_reaches_the_neighbouring_hexes_only() -> None:
    m = parse(
        """
        . . . . .
        . * * * .
        . * S * .
        . . * . .
        . . . . .
        """
    )
    assert ranges.hexes_in_range(m.one("S"), 1, m.cells) - {m.one("S")} == m.where("*")
    assert not ranges.in_range(m.one("S"), Hex(4, 0), 1)


def test_within_two_hexes_of_a_chosen_hex_is_the_hex_and_two_rings_clipped_to_the_map() -> None:
    m = parse(
        """
        . * . . . .
        * * * * . .
        * T * * . .
        * * * * . .
        * * * . . .
        . . . . . .
        """
    )
    assert ranges.area_around(m.one("T"), 2, m.cells) == m.where("*T")
    assert len(ranges.area_around(Hex(10, 10), 3, set(hexes_within(Hex(10, 10), 9)))) == 37


def test_an_area_takes_in_three_scattered_enemies() -> None:
    # The original's figure 1-1: "within 3 hexes of the chosen hex" catches all three enemies.
    m = parse(
        """
        . . . . . . . .
        . E . . . . . .
        . . . . T . . E
        . . . . . . . .
        . . . . E . . .
        """
    )
    area = ranges.area_around(m.one("T"), 3, m.cells)
    assert m.where("E") <= area


def test_a_fan_of_range_two_covers_four_hexes() -> None:
    # Towards direction 0 (+q, the lower right neighbour in odd-q drawings from an even column).
    m = parse(
        """
        . . . . .
        . . . . .
        . . S * *
        . . . * *
        . . . . .
        """
    )
    covered = fans.fan(m.one("S"), 0, 2, m.cells)
    assert covered == m.where("*")
    assert len(covered) == 4


@pytest.mark.parametrize(("reach", "size"), [(0, 0), (1, 1), (2, 4), (3, 7), (4, 12), (5, 17)])
def test_fan_sizes_on_an_open_board(reach: int, size: int) -> None:
    board = set(hexes_within(Hex(0, 0), 8))
    for d in range(6):
        assert len(fans.fan(Hex(0, 0), d, reach, board)) == size


def test_the_fans_edges_run_through_hex_centres_which_count_as_inside() -> None:
    user = Hex(2, 3)
    board = set(hexes_within(user, 6))
    for d in range(6):
        left, right = DIRECTIONS[d] + DIRECTIONS[(d + 1) % 6], DIRECTIONS[d] + DIRECTIONS[(d - 1) % 6]
        fan = fans.fan(user, d, 4, board)
        for k in (1, 2):  # centres on the 30° lines at distance 2 and 4
            assert user + left.scale(k) in fan and user + right.scale(k) in fan
        # the neighbours 60° off the fan's axis are outside
        assert user + DIRECTIONS[(d + 1) % 6] not in fan and user + DIRECTIONS[(d - 1) % 6] not in fan


def test_six_fans_cover_the_ring_once_except_the_shared_edge_hexes() -> None:
    user = Hex(0, 0)
    board = set(hexes_within(user, 4))
    counts: dict[Hex, int] = {}
    for d in range(6):
        for h in fans.fan(user, d, 4, board):
            counts[h] = counts.get(h, 0) + 1
    assert set(counts) == board - {user}
    on_edges = {h for h, n in counts.items() if n == 2}
    assert all(len(fans.directions_towards(user, h)) == 2 for h in on_edges)
    assert all(hex_distance(user, h) % 2 == 0 for h in on_edges)  # the 30° lines meet centres every other ring


def test_a_fan_is_clipped_to_the_map_and_leaves_out_the_user() -> None:
    m = parse(
        """
        S * .
        . . .
        """
    )
    covered = fans.fan(m.one("S"), 0, 3, m.cells)
    assert m.one("S") not in covered
    assert covered <= set(m.cells)


def test_a_chosen_hex_gives_the_fans_direction() -> None:
    user = Hex(0, 0)
    for d, step in enumerate(DIRECTIONS):
        assert fans.direction_towards(user, user + step.scale(3)) == d
    assert fans.directions_towards(user, Hex(1, 1)) == (0, 5)  # on the border of two fans
    with pytest.raises(ValueError, match="opens away"):
        fans.direction_towards(user, user)
    with pytest.raises(ValueError, match="0 to 5"):
        fans.fan(user, 6, 2, {user})


def _angle_deg(a: tuple[float, float], b: tuple[float, float]) -> float:
    dot = a[0] * b[0] + a[1] * b[1]
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / (math.hypot(*a) * math.hypot(*b))))))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_the_exact_fan_is_the_60_degree_sector_measured_on_the_table(orientation: str) -> None:
    """Independent check in floating point on the real hex layout: within 30° of the axis (edges included)."""
    layout = Layout.from_flat_width(Orientation(orientation), 50.0)
    user = Hex(3, -1)
    board = set(hexes_within(user, 9))
    ux, uy = layout.hex_to_mm(user)
    for d in range(6):
        nx, ny = layout.hex_to_mm(user + DIRECTIONS[d])
        axis = (nx - ux, ny - uy)
        for reach in (1, 2, 5, 8):
            expected = set()
            for h in board:
                if h == user or hex_distance(user, h) > reach:
                    continue
                hx, hy = layout.hex_to_mm(h)
                if _angle_deg(axis, (hx - ux, hy - uy)) <= 30.0 + 1e-7:
                    expected.add(h)
            assert fans.fan(user, d, reach, board) == expected, (orientation, d, reach)
