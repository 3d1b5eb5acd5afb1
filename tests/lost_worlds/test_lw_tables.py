"""Every row of the rule document's tables, read through the rules (the chart file is checked against the original)."""

from __future__ import annotations

import pytest

from engine.hexes import Hex, direction_between
from engine.rules.lost_worlds import chart
from engine.rules.lost_worlds.combat import start_page
from engine.rules.lost_worlds.condition import DOWN, OFF_BALANCE
from engine.rules.lost_worlds.falling import fall_modifier
from engine.rules.lost_worlds.recovery import recover
from engine.rules.lost_worlds.throwing import damage
from engine.state import FigureState

# The movement chart: (id, cost, starred) as the original prints it.
CHART = [
    ("move", 1, False), ("turn", 0, False), ("climb", 1, False), ("forced_drop", 1, False), ("jump_onto", 1, False),
    ("block", 2, True), ("crawl", 2, True), ("lie_down", 0, False), ("stand_up", 2, True),
    ("regain_balance", 1, True), ("pick_up", 1, True), ("drop", 0, False), ("throw", 2, True),
    ("carry_large", 1, False), ("examine", 2, True), ("push_object", 2, False), ("push_enemy", 2, False),
    ("coup_de_grace", 0, True),
]


@pytest.mark.parametrize(("action", "cost", "starred"), CHART)
def test_the_movement_chart(action: str, cost: int, starred: bool) -> None:
    assert chart.cost(action) == cost
    assert chart.starred(action) is starred


def test_the_chart_extras() -> None:
    assert chart.action("climb").per_level
    assert chart.action("coup_de_grace").all_points
    assert chart.run_bonus() == 2
    assert chart.cost("hard_push") == chart.cost("push_enemy") + 2
    assert {"run", "jump", "disengage"} <= set(chart.actions())


@pytest.mark.parametrize(("die", "effect"), [(1, "safe"), (2, "safe"), (3, "off_balance"), (4, "off_balance"),
                                             (5, "down"), (6, "down_hurt")])
def test_forced_drop_table(die: int, effect: str) -> None:
    assert chart.lookup("forced_drop", die).values["jumper"] == effect


@pytest.mark.parametrize(("die", "jumper", "target", "damage", "drops"), [
    (1, "off_balance", "down", 2, False), (2, "off_balance", "off_balance", 0, True),
    (3, "off_balance", "off_balance", 0, False), (4, "off_balance", "off_balance", 0, False),
    (5, "down_hurt", "safe", 0, False), (6, "down_hurt", "safe", 0, False),
])
def test_jump_onto_an_enemy_table(die: int, jumper: str, target: str, damage: int, drops: bool) -> None:
    row = chart.lookup("jump_onto", die).values
    assert (row["jumper"], row["target"], row["target_damage"], row["target_drops_weapon"]) == \
        (jumper, target, damage, drops)


@pytest.mark.parametrize(("total", "result"), [(1, "nothing"), (2, "nothing"), (3, "nothing"), (4, "off_balance"),
                                               (5, "off_balance"), (6, "fall"), (7, "fall"), (9, "fall")])
def test_fall_table(total: int, result: str) -> None:
    assert chart.lookup("fall", total).values["result"] == result


def test_fall_modifiers() -> None:
    fig = FigureState("x", "a", Hex(0, 0))
    assert fall_modifier(fig) == 0
    fig.mark(OFF_BALANCE, True)
    assert fall_modifier(fig) == 1
    assert fall_modifier(fig, hard_pushed=True) == 2
    fig.mark(OFF_BALANCE, None)
    fig.mark(DOWN, True)
    assert fall_modifier(fig) == 2
    assert fall_modifier(fig, hard_pushed=True) == 3


# The recovery table exactly as the original prints it: rows hit points 0 … -4, columns die 0- … 8+.
RECOVERY = {
    0: [6, 6, 4, 2, 0, 0, -1, -2, -3],
    -1: [6, 4, 2, 0, -1, -1, -2, -3, -4],
    -2: [4, 2, 0, -1, -2, -2, -3, -4, None],
    -3: [2, 1, -1, -2, -3, -3, -4, None, None],
    -4: [1, -1, -2, -3, -4, -4, None, None, None],
}


@pytest.mark.parametrize("hp", sorted(RECOVERY))
def test_recovery_table_row(hp: int) -> None:
    assert [recover(hp, die) for die in range(9)] == RECOVERY[hp]


def test_recovery_die_is_clamped_to_0_and_8() -> None:
    assert recover(0, -3) == recover(0, 0) == 6
    assert recover(-1, 11) == recover(-1, 8) == -4
    assert recover(-2, 9) is None  # a coup de grâce's +3 on a 6


@pytest.mark.parametrize(("weapon", "reach"), [("club", 2), ("dagger", 3), ("hand axe", 3), ("rock", 4),
                                               ("spear", 4)])
def test_effective_ranges(weapon: str, reach: int) -> None:
    assert chart.effective_ranges()[weapon] == reach


def test_thrown_damage_is_page_19_points_plus_the_ranged_modifier_less_one_beyond_effective_range() -> None:
    assert damage(3, 1, beyond=False) == 4
    assert damage(3, 1, beyond=True) == 3
    assert damage(0, 0, beyond=True) == 0  # never below nothing


# -- the combat-start table, each row and its priority over those below ------------------------------------------
def pair(me_back_to_opponent: bool = False, opponent_back_to_me: bool = False) -> tuple[FigureState, FigureState]:
    me, opp = FigureState("me", "a", Hex(0, 0)), FigureState("opp", "b", Hex(1, 0))
    toward = direction_between(me.hex, opp.hex)  # type: ignore[arg-type]
    me.facing = (toward + 3) % 6 if me_back_to_opponent else toward
    opp.facing = toward if opponent_back_to_me else (toward + 3) % 6
    return me, opp


def test_page_57_otherwise() -> None:
    assert start_page(*pair()) == (57, "the usual start")


def test_page_19_the_opponent_off_balance() -> None:
    me, opp = pair()
    opp.mark(OFF_BALANCE, True)
    assert start_page(me, opp)[0] == 19


def test_page_41_the_opponent_down_before_off_balance() -> None:
    me, opp = pair()
    opp.mark(DOWN, True)
    opp.mark(OFF_BALANCE, True)
    assert start_page(me, opp)[0] == 41


def test_page_21_you_in_the_opponents_back_space_before_its_state() -> None:
    me, opp = pair(opponent_back_to_me=True)
    assert start_page(me, opp) == (21, "you are in the enemy's back space")
    opp.mark(DOWN, True)
    assert start_page(me, opp)[0] == 21


def test_page_23_the_opponent_in_your_back_space_before_yours_in_its() -> None:
    me, opp = pair(me_back_to_opponent=True, opponent_back_to_me=True)
    assert start_page(me, opp) == (23, "the enemy is in your back space")


@pytest.mark.parametrize("state", [OFF_BALANCE, DOWN])
def test_page_1_you_off_balance_or_down_comes_first(state: str) -> None:
    me, opp = pair(me_back_to_opponent=True, opponent_back_to_me=True)
    opp.mark(DOWN, True)
    me.mark(state, True)
    assert start_page(me, opp)[0] == 1


def test_the_table_is_in_the_originals_priority_order() -> None:
    assert [p for _, p, _ in chart.start_pages()] == [1, 23, 21, 41, 19, 57]
