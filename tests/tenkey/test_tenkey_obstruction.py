"""Movement obstruction: the original's examples with and without melee areas and Footwork."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.board.zones.board import keypad_board
from engine.hexes import Hex
from engine.rules.tenkey.obstruction import obstruction_points, obstruction_zones

BOARD = keypad_board()


def z(label: str) -> Hex:
    return BOARD.from_label(label)


def zs(labels: str) -> set[Hex]:
    return {z(c) for c in labels}


B_PATH = (z("7"), z("4"), z("1"))  # character B walks 7 → 4 → 1


def test_example_1_a_in_five_stops_b_at_four() -> None:
    assert obstruction_points(B_PATH) == (z("4"),)
    assert z("4") in obstruction_zones(BOARD, z("5"), set())


def test_example_2_a_in_six_cannot_reach_four_without_footwork() -> None:
    assert z("4") not in obstruction_zones(BOARD, z("6"), set())
    assert z("4") in obstruction_zones(BOARD, z("6"), set(), footwork=True)


def test_example_2_footwork_not_from_a_melee_area_nor_across_one() -> None:
    assert obstruction_zones(BOARD, z("6"), zs("6"), footwork=True) == zs("6")
    assert z("4") not in obstruction_zones(BOARD, z("6"), zs("5"), footwork=True)


def test_example_3_a_fighting_c_in_five_cannot_stop_b() -> None:
    assert obstruction_zones(BOARD, z("5"), zs("5")) == zs("5")


def test_example_4_footwork_d_in_six_cannot_cross_the_melee_in_five() -> None:
    assert z("4") not in obstruction_zones(BOARD, z("6"), zs("5"), footwork=True)


def test_example_5_after_stopping_b_in_five_a_cannot_stop_c_in_six() -> None:
    assert z("5") in obstruction_zones(BOARD, z("4"), set())  # B walks 8 → 5 → 2; A stops it at 5
    assert z("6") not in obstruction_zones(BOARD, z("5"), zs("5"))  # A and B now fight in 5


def test_footwork_is_exactly_ten_metres() -> None:
    assert obstruction_zones(BOARD, z("2"), set(), footwork=True) == zs("1235")
    assert obstruction_zones(BOARD, z("4"), set(), footwork=True) == zs("14567")
    assert obstruction_zones(BOARD, z("2"), set()) == zs("123")  # the restricted move: 3 m, sideways only


def test_a_zone_with_a_melee_area_is_obstructed_only_from_inside() -> None:
    assert z("4") not in obstruction_zones(BOARD, z("5"), zs("4"))


@given(st.sampled_from("123456789"), st.sets(st.sampled_from("123456789")), st.booleans())
def test_obstruction_reach_is_own_zone_and_shrinks_with_melee(at: str, melee: set[str], footwork: bool) -> None:
    fights = zs("".join(melee))
    reach = obstruction_zones(BOARD, z(at), fights, footwork)
    assert z(at) in reach
    assert reach <= obstruction_zones(BOARD, z(at), set(), footwork)
    assert obstruction_zones(BOARD, z(at), fights) <= obstruction_zones(BOARD, z(at), fights, footwork=True)
    assert all(h == z(at) or h not in fights for h in reach)
