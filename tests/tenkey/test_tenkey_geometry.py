"""The original's worked examples of movement, range, blocking, areas and lines, and what the rules imply."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.board.zones.board import keypad_board
from engine.hexes import Hex
from engine.rules.tenkey import areas, lines, movement, ranged
from engine.rules.tenkey.geometry import walk_m

BOARD = keypad_board()
KEYS = "123456789"
zone = st.sampled_from(KEYS)


def z(label: str) -> Hex:
    return BOARD.from_label(label)


def names(zones: object) -> str:
    return "".join(sorted(BOARD.label(h) for h in zones))  # type: ignore[attr-defined]


def route_names(routes: tuple[tuple[Hex, ...], ...]) -> set[str]:
    return {"".join(BOARD.label(h) for h in r) for r in routes}


# -- movement ------------------------------------------------------------------------------------------
def test_two_to_five_needs_ten_metres_and_nine_is_not_enough() -> None:
    assert movement.reach(BOARD, z("2"), 10)[z("5")].cost == 10
    assert z("5") not in movement.reach(BOARD, z("2"), 9)


def test_two_to_eight_needs_twenty_and_four_or_six_thirteen() -> None:
    assert movement.reach(BOARD, z("2"), 20)[z("8")].cost == 20
    nineteen = movement.reach(BOARD, z("2"), 19)
    assert z("8") not in nineteen
    assert nineteen[z("4")].cost == nineteen[z("6")].cost == 13


def test_one_to_nine_needs_twenty_six() -> None:
    assert movement.reach(BOARD, z("1"), 26)[z("9")].cost == 26
    assert z("9") not in movement.reach(BOARD, z("1"), 25)


def test_nine_metres_never_change_row() -> None:
    for start in KEYS:
        assert {h.r for h in movement.reach(BOARD, z(start), 9)} == {z(start).r}


def test_no_diagonal_moves() -> None:
    assert movement.reach(BOARD, z("1"), 12).keys() == {z("1"), z("2"), z("3"), z("4")}


def test_a_melee_area_stops_a_move_that_enters_it() -> None:
    far = movement.reach(BOARD, z("7"), 25, stops=lambda h: h == z("4"))
    assert z("4") in far and z("1") not in far  # 7→4→1 stops at 4; round by 8, 5 and 2 takes 26 m
    around = movement.reach(BOARD, z("7"), 26, stops=lambda h: h == z("4"))
    assert [BOARD.label(h) for h in around[z("1")].path] == ["7", "8", "5", "2", "1"]


@given(zone, zone, st.integers(0, 40))
def test_reach_is_the_walk_price_on_an_open_mat(a: str, b: str, metres: int) -> None:
    far = movement.reach(BOARD, z(a), metres)
    assert (z(b) in far) == (walk_m(z(a), z(b)) <= metres)
    if z(b) in far:
        assert far[z(b)].cost == walk_m(z(a), z(b)) == walk_m(z(b), z(a))


# -- ranged range --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("a", "b", "metres"), [
    ("2", "8", 20), ("1", "5", 10), ("1", "6", 13), ("1", "9", 23), ("5", "5", 0), ("1", "2", 10), ("4", "5", 10),
    ("1", "3", 6), ("1", "7", 20), ("1", "8", 20), ("7", "3", 23),
])
def test_ranged_range(a: str, b: str, metres: int) -> None:
    assert ranged.range_m(BOARD, z(a), z(b)) == metres


def test_one_to_nine_never_passes_two_diagonals() -> None:
    routes = route_names(ranged.cheapest_routes(BOARD, z("1"), z("9")))
    assert "159" not in routes
    assert {"1569", "1589", "1269", "1489"} <= routes  # the original's four
    assert names(ranged.shot(BOARD, z("1"), z("9"), lambda h: False).between) == "24568"


def test_one_to_six_has_two_cheapest_routes() -> None:
    assert route_names(ranged.cheapest_routes(BOARD, z("1"), z("6"))) == {"156", "126"}


def test_two_to_eight_is_blocked_by_five_unless_hawk_eye() -> None:
    blocked = ranged.shot(BOARD, z("2"), z("8"), lambda h: h == z("5"))
    assert blocked.blocked and blocked.blockers == (z("5"),)
    seen = ranged.shot(BOARD, z("2"), z("8"), lambda h: h == z("5"), hawk_eye=True)
    assert not seen.blocked and seen.range_m == 20


@pytest.mark.parametrize("cover", ["5", "2"])
def test_one_to_six_is_blocked_by_either_route(cover: str) -> None:
    assert ranged.shot(BOARD, z("1"), z("6"), lambda h: h == z(cover)).blocked


@pytest.mark.parametrize("cover", ["2", "4", "5", "6", "8"])
def test_one_to_nine_is_blocked_by_any_route(cover: str) -> None:
    assert ranged.shot(BOARD, z("1"), z("9"), lambda h: h == z(cover)).blocked


def test_one_to_nine_is_clear_past_three_and_seven() -> None:
    assert not ranged.shot(BOARD, z("1"), z("9"), lambda h: h in {z("3"), z("7")}).blocked


@pytest.mark.parametrize(("a", "b"), [("1", "2"), ("1", "4"), ("1", "5"), ("5", "6"), ("5", "5")])
def test_own_and_adjacent_zones_are_never_blocked(a: str, b: str) -> None:
    assert not ranged.shot(BOARD, z(a), z(b), lambda h: True).blocked


@given(zone, zone)
def test_range_and_blocking_are_symmetric(a: str, b: str) -> None:
    assert ranged.range_m(BOARD, z(a), z(b)) == ranged.range_m(BOARD, z(b), z(a))
    there = ranged.shot(BOARD, z(a), z(b), lambda h: False).between
    back = ranged.shot(BOARD, z(b), z(a), lambda h: False).between
    assert set(there) == set(back)


@given(zone, zone)
def test_range_never_exceeds_the_walk_and_thirty_metres_reach_anywhere(a: str, b: str) -> None:
    metres = ranged.range_m(BOARD, z(a), z(b))
    assert metres <= max(walk_m(z(a), z(b)), 10)
    assert metres <= 30


@given(zone, zone)
def test_every_route_costs_the_range(a: str, b: str) -> None:
    for route in ranged.cheapest_routes(BOARD, z(a), z(b)):
        diagonals = sum(1 for x, y in itertools.pairwise(route) if x.q != y.q and x.r != y.r)
        assert diagonals <= 1
        assert route[0] == z(a) and route[-1] == z(b)


# -- areas ---------------------------------------------------------------------------------------------
def test_radius_three_is_one_zone() -> None:
    assert areas.area(BOARD, z("5"), 3).zones == (z("5"),)


def test_radius_five_from_two_at_five_chooses_a_side() -> None:
    a = areas.area(BOARD, z("5"), 5)
    assert a.needs_side and names(a.sides) == "46"
    assert names(areas.with_side(a, z("6"))) == "56"
    assert names(areas.with_side(a, z("4"))) == "45"


def test_radius_five_at_an_edge_has_one_side() -> None:
    a = areas.area(BOARD, z("4"), 5)
    assert not a.needs_side and names(a.zones) == "45"


def test_radius_six_from_two_at_five_is_four_five_six() -> None:
    assert names(areas.area(BOARD, z("5"), 6).zones) == "456"


def test_radius_six_from_one_at_four_is_four_five() -> None:
    assert names(areas.area(BOARD, z("4"), 6).zones) == "45"


def test_radius_seven_is_the_gms_ruling() -> None:
    a = areas.area(BOARD, z("5"), 7)
    assert a.gm_rules and names(a.zones) == "456"
    assert not areas.area(BOARD, z("5"), 6).gm_rules


@given(zone, st.floats(0, 30))
def test_areas_stay_in_the_row_and_grow_with_the_radius(centre: str, radius: float) -> None:
    a = areas.area(BOARD, z(centre), radius)
    assert z(centre) in a.zones and all(h.r == z(centre).r for h in a.zones)
    bigger = areas.area(BOARD, z(centre), radius + 3)
    assert len(bigger.zones) + int(bigger.needs_side) >= len(a.zones)


# -- lines ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("caster", "target", "covered"), [
    ("2", "8", "258"), ("5", "2", "25"), ("2", "6", "26"), ("1", "9", "159"), ("1", "3", "123"),
    ("2", "1", "12"), ("7", "1", "147"), ("9", "5", "159"),
])
def test_line_examples(caster: str, target: str, covered: str) -> None:
    assert names(lines.line(BOARD, z(caster), z(target))) == covered


@pytest.mark.parametrize(("caster", "target"), [("1", "6"), ("1", "8"), ("2", "7"), ("2", "9")])
def test_never_a_knights_line(caster: str, target: str) -> None:
    assert not lines.on_a_line(z(caster), z(target))
    with pytest.raises(ValueError, match="knight"):
        lines.line(BOARD, z(caster), z(target))


def test_a_line_in_ones_own_zone_needs_a_direction() -> None:
    with pytest.raises(ValueError, match="direction"):
        lines.line(BOARD, z("5"), z("5"))
    assert names(lines.line(BOARD, z("5"), z("5"), "up")) == "58"


@given(zone, zone)
def test_lines_start_at_the_caster_pass_the_target_and_never_go_behind(caster: str, target: str) -> None:
    if caster == target or not lines.on_a_line(z(caster), z(target)):
        return
    covered = lines.line(BOARD, z(caster), z(target))
    assert covered[0] == z(caster) and z(target) in covered
    d = [walk_m(z(caster), h) for h in covered]
    assert d == sorted(d)


@given(zone, zone, st.sets(zone), st.sets(zone))
def test_more_cover_never_clears_a_shot_and_hawk_eye_is_never_blocked(a: str, b: str, cover: set[str],
                                                                      more: set[str]) -> None:
    some = {z(x) for x in cover}
    every = some | {z(x) for x in more}
    blocked = ranged.shot(BOARD, z(a), z(b), some.__contains__).blocked
    assert not blocked or ranged.shot(BOARD, z(a), z(b), every.__contains__).blocked
    assert not ranged.shot(BOARD, z(a), z(b), every.__contains__, hawk_eye=True).blocked
    between = set(ranged.shot(BOARD, z(a), z(b), lambda h: False).between)
    assert blocked == bool(between & some)
    assert z(a) not in between and z(b) not in between


@given(zone, zone)
def test_a_line_is_the_same_through_any_zone_it_covers(caster: str, target: str) -> None:
    if caster == target or not lines.on_a_line(z(caster), z(target)):
        return
    covered = lines.line(BOARD, z(caster), z(target))
    for other in covered[1:]:
        assert lines.line(BOARD, z(caster), other) == covered
