"""Normal fire: the range table, every target modifier, the state modifiers, the prone rules, the field of fire
and the line of sight (houses block, the lumber yard gives +2, walls at the target are an obstacle)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import Game
from engine.hexes import Hex
from engine.rules.laramie import dice
from engine.rules.laramie.fire import Shot, range_modifier
from engine.rules.laramie.rules import Laramie
from tests.laramie.town import fig, set_unit, town

DOWN, UP = 5, 2  # facings straight down and up a column of the flat map


def duel(shooter: str = "J1", target: str = "J5", *, shooter_facing: int = DOWN, target_facing: int = UP,
         **kw: Any) -> Game:
    return Game(town({"gary": {"side": "a", "at": shooter, "facing": shooter_facing},
                      "jesse": {"side": "b", "at": target, "facing": target_facing}}, **kw))


def shot(game: Game, shooter: str = "gary", target: str = "jesse") -> Shot:
    rules = game.rules
    assert isinstance(rules, Laramie)
    return rules.normal(game.state, shooter, target)


def die_mods(s: Shot) -> dict[str, int]:
    return {m.name: m.value for m in s.die_modifiers}


@pytest.mark.parametrize(("distance", "modifier"), [
    (0, -2), (1, -1), (2, 0), (5, 0), (8, 0), (9, 1), (12, 1), (15, 1), (16, None)])
def test_the_range_row_of_the_fire_table(distance: int, modifier: int | None) -> None:
    assert range_modifier(distance) == modifier


@pytest.mark.parametrize(("target", "modifier"), [("J2", -1), ("J3", 0), ("J9", 0)])
def test_a_shot_down_the_street_carries_its_range_modifier_and_nothing_else(target: str, modifier: int) -> None:
    s = shot(duel(target=target))
    assert s.allowed and s.die_modifier == modifier and s.hit_value == 6


def test_range_nine_to_fifteen_adds_one_and_beyond_fifteen_no_normal_shot() -> None:
    game = duel("A5", "J5", shooter_facing=0, target_facing=3)  # 9 columns apart on row 5 (zigzag)
    d = fig(game, "gary").hex.distance(fig(game, "jesse").hex)  # type: ignore[union-attr]
    assert d == 9 and die_mods(shot(game))["range 9"] == 1
    far = duel("A5", "R5", shooter_facing=0, target_facing=3)
    assert not shot(far).allowed and "out of range (17 hexes" in shot(far).reason


def test_a_target_in_a_house_has_cover_plus_two() -> None:
    s = shot(duel(cells={"J5": "H"}))
    assert die_mods(s)["target in cover"] == 2 and s.die_modifier == 2


def test_a_wall_at_the_target_is_an_obstacle_plus_two_one_at_the_shooter_nothing_one_between_blocks() -> None:
    assert die_mods(shot(duel(fences=("J4|J5",))))["obstacle (wall)"] == 2
    own = shot(duel(fences=("J1|J2",)))
    assert own.allowed and own.die_modifier == 0
    between = shot(duel(fences=("J2|J3",)))
    assert not between.allowed and between.line.blocked and "blocked" in between.reason


def test_a_wall_on_the_far_side_of_the_target_gives_nothing() -> None:
    s = shot(duel(fences=("J5|J6",)))  # the wall is behind the target, not on the line
    assert s.allowed and s.die_modifier == 0


def test_a_house_between_blocks_and_a_black_line_does_not() -> None:
    assert not shot(duel(cells={"J3": "H"})).allowed
    s = shot(duel(lines=("J2|J3",)))
    assert s.allowed and s.die_modifier == 0


def test_the_lumber_yard_on_the_line_adds_two_and_does_not_block() -> None:
    s = shot(duel(cells={"J3": "L"}))
    assert s.allowed and die_mods(s) == {"range 4": 0, "lumber yard on the line": 2}


def test_a_target_in_a_house_beyond_the_lumber_yard_gets_only_the_lumber_yards_two() -> None:
    s = shot(duel(cells={"J3": "L", "J5": "H"}))
    assert s.allowed and s.die_modifier == 2 and "target in cover" not in die_mods(s)


def test_a_target_not_facing_the_shooter_minus_two() -> None:
    s = shot(duel(target_facing=DOWN))  # its back to the shooter
    assert die_mods(s)["target not facing the shooter"] == -2 and s.die_modifier == -2
    assert shot(duel(target_facing=1)).die_modifier == 0  # 60° off: still facing him


def test_every_modifier_adds_up_and_the_tablet_lists_each() -> None:
    game = duel("J1", "J2", target_facing=DOWN, cells={"J2": "H"}, fences=("J1|J2",))
    s = shot(game)
    assert die_mods(s) == {"range 1": -1, "obstacle (wall)": 2, "target in cover": 2,
                           "target not facing the shooter": -2}
    assert s.need() == "1d10 +1 ≦ 6 (50%)"
    overlay = game.rules.query(game.state, "to_hit", "gary")
    (line,) = overlay.lines
    assert line.target == "jesse" and line.verdict == "clear"
    for text in ("1d10 +1 ≦ 6", "hit value +6", "range 1 -1", "obstacle (wall) +2", "target in cover +2",
                 "target not facing the shooter -2"):
        assert text in line.text
    assert overlay.cells[0].label == "≦6+1"


@pytest.mark.parametrize(("state", "value"), [("normal", 6), ("prone", 4), ("jump_prone", 3),
                                              ("suppressed_1", 4), ("suppressed_2", 3)])
def test_the_shooters_state_modifies_the_hit_value(state: str, value: int) -> None:
    game = duel()
    set_unit(game, "gary", state=state)
    s = shot(game)
    assert s.allowed and s.hit_value == value


@pytest.mark.parametrize("state", ["dash", "crawl", "broken"])
def test_dash_crawl_and_morale_broken_units_cannot_fire(state: str) -> None:
    game = duel()
    set_unit(game, "gary", state=state)
    assert not shot(game).allowed and "cannot fire" in shot(game).reason


def test_a_prone_shooter_outside_open_ground_fires_only_at_close_quarters() -> None:
    game = duel(cells={"J1": "H"})
    set_unit(game, "gary", state="prone")
    assert "only from open ground" in shot(game).reason
    set_unit(game, "jesse", at="J2")  # adjacent, the target normal
    assert shot(game).allowed
    set_unit(game, "jesse", state="prone")  # adjacent, neither normal
    assert not shot(game).allowed
    set_unit(game, "jesse", at="J1")  # the same hex: both prone may fire
    assert shot(game).allowed


def test_a_jump_prone_unit_in_cover_never_fires() -> None:
    game = duel("J1", "J1", cells={"J1": "H"})
    set_unit(game, "gary", state="jump_prone")
    assert not shot(game).allowed


def test_a_prone_target_outside_open_ground_takes_no_normal_fire_except_at_close_quarters() -> None:
    game = duel(cells={"J5": "H"})
    set_unit(game, "jesse", state="prone")
    assert "takes no normal fire" in shot(game).reason
    set_unit(game, "gary", at="J4")  # adjacent and the shooter normal
    assert shot(game).allowed
    set_unit(game, "jesse", state="crawl")  # crawling counts as prone
    assert shot(game).allowed
    set_unit(game, "jesse", state="jump_prone")  # no close-quarters exception
    assert not shot(game).allowed


def test_a_prone_target_behind_a_wall_is_immune_from_two_hexes() -> None:
    game = duel("J3", "J5", fences=("J4|J5",))
    set_unit(game, "jesse", state="prone")
    assert "immune" in shot(game).reason
    set_unit(game, "gary", at="J4")
    assert shot(game).allowed  # one hex away: not immune
    open_street = duel("J3", "J5")
    set_unit(open_street, "jesse", state="prone")
    assert shot(open_street).allowed  # prone in the open with no +2: a normal target


def test_the_field_of_fire_is_the_front_half() -> None:
    assert not shot(duel(shooter_facing=UP)).allowed
    assert "field of fire" in shot(duel(shooter_facing=UP)).reason
    game = duel("J5", "J5")
    at = fig(game, "gary").hex
    assert at is not None
    abeam = at + Hex(1, -2)  # exactly square to facing 0: inside
    label = game.scenario.board.label(abeam)
    set_unit(game, "gary", facing=0)
    set_unit(game, "jesse", at=label)
    assert shot(game).allowed
    set_unit(game, "jesse", at=game.scenario.board.label(at + Hex(0, -1)))  # behind facing 0's front half
    assert not shot(game).allowed


def test_a_natural_one_always_hits_and_a_natural_ten_always_misses() -> None:
    assert dice.succeeds(1, 9, 0) and not dice.succeeds(10, -9, 10)
    assert dice.succeeds(5, 0, 5) and not dice.succeeds(6, 0, 5)
    assert dice.chance(-20, 0) == 0.9 and dice.chance(20, 10) == 0.1
