"""The combat phase: melee arithmetic with rounding, simultaneous results, the penalty, surrender; stacks
(a miss checks the next unit, suppressive fire hits the whole stack); heroes' evasion; two shots."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.prompts import PromptKind
from engine.rules.laramie import melee
from tests.laramie.town import choose, fig, play, roll, set_unit, to_combat, town

OUTLAW = {"side": "b", "combat": 3, "facing": 2}


def fight(gary: dict[str, Any] | None = None, **outlaws: dict[str, Any]) -> Game:
    units = {"gary": {"side": "a", "at": "J1", "facing": 5, "combat": 8, **(gary or {})}}
    units.update({k: {**OUTLAW, **v} for k, v in outlaws.items()})
    g = Game(town(units))
    to_combat(g)
    assert g.prompt.figure == "gary"
    return g


def option_ids(g: Game) -> list[str]:
    return [o.id for o in g.prompt.options]


# -- melee ------------------------------------------------------------------------------------------------------
def test_strength_is_combat_plus_hp_plus_melee_over_three_rounded_down() -> None:
    assert melee.strength(7, 5, 4) == 5  # 16 / 3
    assert melee.strength(5, 4, 3) == 4  # 12 / 3
    assert melee.strength(3, 3, 2) == 2  # 8 / 3


def test_the_difference_is_taken_off_the_stronger_die_and_added_to_the_weaker() -> None:
    a = melee.Fighter("a", 7, 5, 4, penalised=False)  # strength 5
    b = melee.Fighter("b", 3, 3, 2, penalised=False)  # strength 2
    assert melee.die_modifier(a, b) == -3 and melee.die_modifier(b, a) == 3
    assert melee.kills(8, a, b) and not melee.kills(9, a, b)  # 8 − 3 = 5 kills
    assert melee.kills(2, b, a) and not melee.kills(3, b, a)  # 2 + 3 = 5 kills


def test_prone_or_suppressed_fighters_add_two() -> None:
    a = melee.Fighter("a", 5, 4, 3, penalised=True)
    b = melee.Fighter("b", 5, 4, 3, penalised=False)
    assert melee.die_modifier(a, b) == 2 and melee.die_modifier(b, a) == 0
    assert melee.kills(3, a, b) and not melee.kills(4, a, b)


def test_a_natural_1_always_kills_and_a_natural_10_never() -> None:
    weak = melee.Fighter("w", 0, 1, 0, penalised=True)
    strong = melee.Fighter("s", 10, 20, 10, penalised=False)
    assert melee.kills(1, weak, strong) and not melee.kills(10, strong, weak)


def test_melee_is_simultaneous_and_both_may_fall() -> None:
    g = fight(jesse={"at": "J1"})
    assert "melee:jesse" in option_ids(g) and "fire:jesse" in option_ids(g)  # same hex: fire or fight
    play(g, choose("melee:jesse"))
    assert g.prompt.kind is PromptKind.ROLL and [d.roller for d in g.prompt.dice] == ["a", "b"]
    texts = play(g, roll(1, 1))
    assert "Gary is killed in action." in texts and "Jesse is killed in action." in texts


def test_melee_results_follow_the_arithmetic() -> None:
    # Gary: (8 + 4 + 3) / 3 = 5; Jesse: (3 + 4 + 3) / 3 = 3, and prone: +2. Gary's die −2, Jesse's +2 +2.
    g = fight(jesse={"at": "J1"})
    set_unit(g, "jesse", state="prone")
    play(g, choose("melee:jesse"))
    assert "die -2" in g.prompt.text and "die +4" in g.prompt.text
    texts = play(g, roll(7, 2))  # 7 − 2 = 5 kills; 2 + 4 = 6 does not
    assert "Jesse is killed in action." in texts and fig(g, "gary").alive


def test_a_morale_broken_unit_attacked_in_melee_surrenders() -> None:
    g = fight(jesse={"at": "J1"})
    set_unit(g, "jesse", state="broken")
    assert "surrenders" in g.prompt.option("melee:jesse").label  # type: ignore[union-attr]
    texts = play(g, choose("melee:jesse"))
    assert "Jesse is taken prisoner: morale broken, it surrenders." in texts and not fig(g, "jesse").alive


# -- stacks -----------------------------------------------------------------------------------------------------
def test_a_miss_checks_the_next_unit_of_the_stack_and_a_hit_ends_the_check() -> None:
    g = fight(jesse={"at": "J5"}, joe={"at": "J5"}, tom={"at": "J5"})
    play(g, choose("fire:joe"))
    assert g.state.step.target == "joe"  # type: ignore[attr-defined]
    play(g, roll(9))  # misses Joe
    assert g.state.step.target == "jesse"  # type: ignore[attr-defined]  # then the scenario's order
    texts = play(g, roll(2))
    assert "Jesse is hit by Gary: HP 2." in texts
    assert g.prompt.kind is not PromptKind.ROLL or g.prompt.figure != "gary"  # Tom is not checked


def test_suppressive_fire_hits_the_whole_stack_each_outcome_read_from_the_table() -> None:
    g = fight(jesse={"at": "J5"}, joe={"at": "J5"}, tom={"at": "J6"})
    suppress = g.prompt.option("suppress:jesse:hit")
    assert suppress is not None and "(2 units)" in suppress.label and "hit value 6" in suppress.label
    assert g.prompt.option("suppress:jesse:damage") is not None
    play(g, choose("suppress:jesse:hit"))
    assert g.prompt.kind is PromptKind.CHOOSE and g.prompt.figure == "jesse"
    assert [o.id for o in g.prompt.options] == ["none", "suppressed_1", "suppressed_2", "hit"]
    play(g, choose("suppressed_2"))
    assert g.prompt.figure == "joe"
    play(g, choose("hit"))
    assert fig(g, "jesse").values["state"] == "suppressed_2" and fig(g, "joe").values["hp"] == 2
    assert fig(g, "tom").values["state"] == "normal"  # another hex


def test_a_prone_unit_in_cover_still_takes_suppressive_fire() -> None:
    g = Game(town({"gary": {"side": "a", "at": "J1", "facing": 5, "combat": 8},
                   "jesse": {**OUTLAW, "at": "J5"}}, cells={"J5": "H"}))
    to_combat(g)
    set_unit(g, "jesse", state="prone")
    assert "fire:jesse" not in option_ids(g) and "suppress:jesse:hit" in option_ids(g)


def test_two_shots_fire_twice_and_melee_is_not_a_second_shot() -> None:
    g = fight({"shots": 2}, jesse={"at": "J1"}, joe={"at": "J5"})
    play(g, choose("fire:joe"), roll(9))
    assert g.prompt.figure == "gary" and "shot 2 of 2" in g.prompt.text
    assert "melee:jesse" not in option_ids(g) and "suppress:joe:hit" in option_ids(g)


# -- heroes -----------------------------------------------------------------------------------------------------
def test_a_hero_evades_a_hit_on_his_combat_value_or_less_and_the_stack_check_ends() -> None:
    g = fight(jesse={"at": "J5", "hero": True}, joe={"at": "J5"})
    play(g, choose("fire:jesse"), roll(2))
    assert g.prompt.kind is PromptKind.ROLL and g.prompt.figure == "jesse" and "3 or less" in g.prompt.text
    texts = play(g, roll(3))
    assert "Jesse rolls 3: evades." in texts and fig(g, "jesse").values["hp"] == 4
    assert fig(g, "joe").values["hp"] == 4 and g.prompt.figure != "gary"


def test_a_hero_who_fails_to_evade_takes_the_hit() -> None:
    g = fight(jesse={"at": "J5", "hero": True})
    texts = play(g, choose("fire:jesse"), roll(2), roll(4))
    assert "Jesse rolls 4: does not evade." in texts and fig(g, "jesse").values["hp"] == 2


def test_a_hero_evades_suppressive_fire_too() -> None:
    g = fight(jesse={"at": "J5", "hero": True})
    play(g, choose("suppress:jesse:damage"), choose("suppressed_1"))
    assert g.prompt.kind is PromptKind.ROLL and g.prompt.figure == "jesse"
    play(g, roll(1))
    assert fig(g, "jesse").values["state"] == "normal"


def test_a_hit_to_zero_hp_kills_in_action() -> None:
    g = fight(jesse={"at": "J5", "hp": 2})
    texts = play(g, choose("fire:jesse"), roll(1))
    assert "Jesse is killed in action." in texts and g.prompt.kind is PromptKind.REMOVE
    assert g.state.winner == "a"  # the last enemy down (the default victory)
