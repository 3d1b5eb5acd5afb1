"""The third reading of RULES.md §5 (after independent referee games): lines judged both ways nudged with a
roll-off when they split, the lumber-yard exception for houses only, the stack check whatever the states,
suppressive fire on everyone in the hex but the shooter, the shooter's own walls, walls as cover to run to."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.hexes import DIRECTIONS, Hex, Orientation, from_label, to_label
from engine.lines import Sight
from engine.prompts import PromptKind
from engine.rules.laramie.fire import Shot
from engine.rules.laramie.rules import Laramie
from tests.laramie.town import choose, play, roll, set_unit, to_combat, town

SHOOTER = "C3"


def at(offset: Hex, origin: str = SHOOTER) -> str:
    """The label of the hex ``offset`` (axial) from ``origin`` on the test town."""
    return to_label(from_label(origin, Orientation.FLAT) + offset, Orientation.FLAT)


def side(a: Hex, b: Hex) -> str:
    return f"{at(a)}|{at(b)}"


def facing_to(offset: Hex) -> int:
    """The direction a figure faces to have ``offset`` straight ahead (as near as a hex side allows)."""
    return max(range(6), key=lambda d: offset.q * DIRECTIONS[d].q + offset.r * DIRECTIONS[d].r
               + offset.s * DIRECTIONS[d].s)


def duel(offset: Hex, units: dict[str, dict[str, Any]] | None = None, **kw: Any) -> Game:
    """Gary at C3 facing Jesse at C3 + ``offset``, Jesse facing back; combat begins with Gary."""
    back = facing_to(Hex(-offset.q, -offset.r))
    everyone = {"gary": {"side": "a", "at": SHOOTER, "facing": facing_to(offset), "combat": 8},
                "jesse": {"side": "b", "at": at(offset), "facing": back, "combat": 3}, **(units or {})}
    g = Game(town(everyone, **kw))
    to_combat(g)
    assert g.prompt.figure == "gary"
    return g


def shot(g: Game, target: str = "jesse") -> Shot:
    assert isinstance(g.rules, Laramie)
    return g.rules.normal(g.state, "gary", target)


# An outlaw in Gary's own hex, so that Gary has a go when Jesse cannot be shot.
BYSTANDER = {"tom": {"side": "b", "at": SHOOTER, "combat": 3}}


def ids(g: Game) -> list[str]:
    return [o.id for o in g.prompt.options]


# The line to C3 + (4, 1) passes through the corner shared by C3 + (1, 0), (2, 0) and (1, 1): nudged one way it
# crosses the side (1, 0)|(2, 0), nudged the other the sides (1, 0)|(1, 1) and (1, 1)|(2, 0).
THROUGH_A_CORNER = Hex(4, 1)
# The line to C3 + (1, 1) runs along the side shared by C3 + (1, 0) and C3 + (0, 1).
ALONG_A_SIDE = Hex(1, 1)


# -- 1. both ways nudged ----------------------------------------------------------------------------------------
def test_a_line_through_the_joint_of_two_walls_is_blocked_both_ways() -> None:
    g = duel(THROUGH_A_CORNER, BYSTANDER, fences=(side(Hex(1, 0), Hex(2, 0)), side(Hex(1, 0), Hex(1, 1))))
    s = shot(g)
    assert not s.allowed and not s.in_doubt and "blocked" in s.reason
    assert s.line.sight is Sight.BLOCKED
    assert "fire:jesse" not in ids(g) and "suppress:jesse:hit" not in ids(g)


def test_a_line_along_the_shared_side_of_two_houses_is_blocked_both_ways() -> None:
    g = duel(ALONG_A_SIDE, BYSTANDER, cells={at(Hex(1, 0)): "H", at(Hex(0, 1)): "H"})
    s = shot(g)
    assert not s.allowed and not s.in_doubt and s.line.sight is Sight.BLOCKED


def test_a_line_along_a_side_with_nothing_on_either_hand_is_clear() -> None:
    s = shot(duel(ALONG_A_SIDE))
    assert s.allowed and not s.in_doubt and s.line.sight is Sight.CLEAR and s.die_modifier == 0


def test_a_split_line_goes_to_a_1d10_roll_off_ties_roll_again_and_the_higher_chooses() -> None:
    g = duel(ALONG_A_SIDE, cells={at(Hex(1, 0)): "H"})  # one hand blocked, the other clear
    s = shot(g)
    assert s.allowed and s.in_doubt and s.line.sight is Sight.AMBIGUOUS
    assert sorted(r.allowed for r in s.readings) == [False, True]
    assert "roll off" in s.need()
    play(g, choose("fire:jesse"))
    p = g.prompt
    assert p.kind is PromptKind.ROLL and [d.sides for d in p.dice] == [10, 10]
    assert [d.roller for d in p.dice] == ["a", "b"]  # the two players: the shooter's side and the target's
    play(g, roll(4, 4))  # a tie rolls again
    assert g.prompt.kind is PromptKind.ROLL and "again" in g.prompt.text
    play(g, roll(8, 3))  # the shooter's side is higher and chooses
    p = g.prompt
    assert p.kind is PromptKind.CHOOSE and p.side == "a" and ids(g) == ["line_plus", "line_minus"]
    clear = next(o.id for o, r in zip(p.options, s.readings, strict=True) if r.allowed)
    play(g, choose(clear))
    assert g.prompt.kind is PromptKind.ROLL and "to hit" in g.prompt.text  # the shot is fired on that reading


def test_the_target_side_winning_the_roll_off_may_rule_the_line_blocked_and_the_unit_chooses_again() -> None:
    g = duel(ALONG_A_SIDE, {"joe": {"side": "b", "at": at(Hex(0, 2)), "combat": 3,
                                    "facing": facing_to(Hex(0, -1))}}, cells={at(Hex(1, 0)): "H"})
    s = shot(g)
    blocked = next(way for way, r in zip(("line_plus", "line_minus"), s.readings, strict=True) if not r.allowed)
    texts = play(g, choose("suppress:jesse:hit"), roll(2, 9))
    assert g.prompt.side == "b" and any("Outlaws to choose" in t for t in texts)
    texts = play(g, choose(blocked))
    assert any("blocked" in t and "chooses again" in t for t in texts)
    assert g.prompt.figure == "gary" and g.prompt.kind is PromptKind.CHOOSE
    assert not any(i.endswith(":jesse") or ":jesse:" in i for i in ids(g))  # the ruling holds for his go
    assert "fire:joe" in ids(g)
    play(g, choose("hold"))
    assert not any(k.startswith("laramie_line:") for k in g.state.rulings)  # his go is over: the line is open


# -- 2. the lumber-yard exception: houses only ------------------------------------------------------------------
def test_a_target_in_the_lumber_yard_beyond_the_lumber_yard_keeps_its_cover() -> None:
    g = duel(Hex(0, 4), cells={at(Hex(0, 2)): "L", at(Hex(0, 4)): "L"})
    mods = {m.name: m.value for m in shot(g).die_modifiers}
    assert mods["lumber yard on the line"] == 2 and mods["target in cover"] == 2


def test_a_target_in_the_station_beyond_the_lumber_yard_keeps_its_cover_and_one_in_a_house_does_not() -> None:
    station = duel(Hex(0, 4), cells={at(Hex(0, 2)): "L", at(Hex(0, 4)): "S"})
    assert shot(station).die_modifier == 4
    house = duel(Hex(0, 4), cells={at(Hex(0, 2)): "L", at(Hex(0, 4)): "H"})
    assert shot(house).die_modifier == 2 and "target in cover" not in {m.name for m in shot(house).die_modifiers}


# -- 3. the stack check after a close-quarters shot -------------------------------------------------------------
def test_a_miss_by_a_prone_shooter_at_close_quarters_checks_a_dashing_unit_of_the_stack() -> None:
    g = duel(Hex(0, 1), {"joe": {"side": "b", "at": at(Hex(0, 1)), "combat": 3, "facing": 2}},
             cells={SHOOTER: "H"})
    set_unit(g, "gary", state="prone")  # outside open ground: fires only at close quarters
    set_unit(g, "joe", state="dash")  # neither normal: not a close-quarters target of its own
    assert shot(g).allowed and not shot(g, "joe").allowed
    play(g, choose("fire:jesse"), roll(9))  # misses Jesse
    assert g.prompt.kind is PromptKind.ROLL and g.state.step.target == "joe"  # type: ignore[attr-defined]
    assert "Joe is hit by Gary: HP 2." in play(g, roll(2))


def test_the_stack_check_reaches_a_prone_unit_in_cover_too() -> None:
    g = duel(Hex(0, 3), {"joe": {"side": "b", "at": at(Hex(0, 3)), "combat": 3, "facing": 2}},
             cells={at(Hex(0, 3)): "H"})
    set_unit(g, "joe", state="prone")  # takes no normal fire of its own
    play(g, choose("fire:jesse"), roll(9))
    assert g.state.step.target == "joe"  # type: ignore[attr-defined]


# -- 4. the rest of the third reading ---------------------------------------------------------------------------
def test_suppressive_fire_is_received_by_everyone_in_the_hex_but_the_shooter_of_either_side() -> None:
    g = duel(Hex(0, 0), {"jack": {"side": "a", "at": SHOOTER, "combat": 2},
                         "joe": {"side": "b", "at": SHOOTER, "combat": 3}})
    play(g, choose("suppress:jesse:hit"))
    queue = g.state.step.queue  # type: ignore[attr-defined]
    assert set(queue) == {"jesse", "jack", "joe"} and queue[0] == "jesse"


def test_a_wall_on_the_shooters_own_sides_neither_blocks_nor_modifies_even_when_the_line_grazes_it() -> None:
    own = (side(Hex(0, 0), Hex(1, 0)), side(Hex(0, 0), Hex(0, 1)))  # both sides at the corner the line leaves by
    s = shot(duel(ALONG_A_SIDE, fences=own))
    assert s.allowed and not s.in_doubt and s.die_modifier == 0
    s = shot(duel(Hex(0, 2), fences=(side(Hex(0, 0), Hex(0, 1)),)))
    assert s.allowed and s.die_modifier == 0


def test_a_wall_between_the_shooter_and_an_adjacent_target_is_the_targets_obstacle() -> None:
    s = shot(duel(Hex(0, 1), fences=(side(Hex(0, 0), Hex(0, 1)),)))
    assert {m.name: m.value for m in s.die_modifiers}.get("obstacle (wall)") == 2


def test_a_wall_the_line_grazes_at_the_target_makes_the_obstacle_both_ways() -> None:
    # The line along a side reaches the target by a corner: a wall on each of the target's sides at that corner.
    target = ALONG_A_SIDE
    walls = (side(target, Hex(1, 0)), side(target, Hex(0, 1)))
    s = shot(duel(target, fences=walls))
    assert s.allowed and not s.in_doubt and {m.name for m in s.die_modifiers} >= {"obstacle (wall)"}


def test_both_ways_clear_with_different_modifiers_rolls_off_for_normal_fire_only() -> None:
    g = duel(ALONG_A_SIDE, cells={at(Hex(1, 0)): "L"})  # nudged one way past the lumber yard, the other not
    s = shot(g)
    assert s.in_doubt and all(r.allowed for r in s.readings)
    assert sorted(r.die_modifier for r in s.readings) == [0, 2]
    assert isinstance(g.rules, Laramie)
    assert not g.rules.suppressive(g.state, "gary", "jesse", use_damage=False).in_doubt
    play(g, choose("suppress:jesse:hit"))
    assert g.prompt.kind is PromptKind.CHOOSE and g.prompt.figure == "jesse"  # straight to the outcome


def test_a_suppressed_unit_in_the_open_runs_for_a_hex_at_a_wall_before_a_farther_house() -> None:
    g = Game(town({"jack": {"side": "a", "at": "J5", "combat": 3}, "jesse": {"side": "b", "at": "P8", "combat": 6}},
                  cells={"J9": "H"}, fences=("J2|J3",)))
    play(g, choose("normal"), choose("normal"))
    assert g.state.phase == "move" and g.prompt.figure == "jack"
    set_unit(g, "jack", state="suppressed_1")
    board = g.scenario.board
    wall_hex = board.from_label("J3")  # next to the wall: a place with a to-hit modifier, 2 hexes off
    assert g.prompt.moves and all(h.distance(wall_hex) == 1 for h in g.prompt.moves)
