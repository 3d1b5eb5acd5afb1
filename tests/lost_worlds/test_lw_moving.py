"""The movement phase, played through the engine: costs, runs, starred actions, spaces, blocking, the back space."""

from __future__ import annotations

import pytest

from engine.actions import Choose
from engine.errors import IllegalActionError
from engine.prompts import PromptKind
from engine.rules.lost_worlds.condition import DOWN, HELD, HP, MP, NEXT_DOWN, OFF_BALANCE, RAN
from engine.rules.lost_worlds.spaces import back_space, beyond
from tests.lost_worlds.tower import TOWER, changed, choose, foe, game, hero, label_of, options, roll, tower


def test_movement_points_are_the_height_and_a_move_costs_one() -> None:
    g = game(tower(TOWER, (hero("A1", height=3), foe("E3"))))
    assert "3 of 3 movement points left" in g.prompt.text
    assert label_of(g, "to-B1") == "move to B1 (level 0, 1 MP)"
    choose(g, "to-B1")
    assert g.state.figures["hero"].values[MP] == 2


def test_climbing_costs_one_per_level_and_replaces_the_move() -> None:
    g = game(tower(TOWER, (hero("B2"), foe("E3"))))
    assert label_of(g, "to-C2") == "climb to C2 (level 3, 3 MP)"
    choose(g, "to-C2")
    assert g.state.figures["hero"].values[MP] == 1
    assert "to-D1" not in options(g)  # 3 levels down cost 3


def test_two_or_more_levels_down_offer_the_forced_drop_and_its_table() -> None:
    g = game(tower(TOWER, (hero("C2", hp=12), foe("E3"))))
    assert "drop-B2" in options(g) and "to-B2" in options(g)
    choose(g, "drop-B2")
    p = g.prompt
    assert p.kind is PromptKind.ROLL and [o.label() for o in p.outcomes[0]] == [
        "1–2: lands safely", "3–4: lands off-balance", "5: lands and falls down",
        "6: lands, falls down and takes 1 damage per level dropped"]
    roll(g, 6)
    hero_state = g.state.figures["hero"]
    assert hero_state.flag(DOWN) and hero_state.values[HP] == 9


def test_a_run_adds_two_points_forbids_starred_actions_and_starts_the_combat_off_balance() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("E3"))))
    g.state.figures["hero"].mark(OFF_BALANCE, True)
    changed(g)
    assert "regain_balance" in options(g) and "run" in options(g)
    choose(g, "run")
    assert g.state.figures["hero"].values[MP] == 6
    assert "regain_balance" not in options(g) and "run" not in options(g)
    choose(g, "end")
    choose(g, "keep")
    assert g.state.figures["hero"].flag(OFF_BALANCE)


def test_a_starred_action_first_rules_out_the_run() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("E3"))))
    g.state.figures["hero"].mark(OFF_BALANCE, True)
    changed(g)
    choose(g, "regain_balance")
    assert "run" not in options(g)
    assert not g.state.figures["hero"].flag(OFF_BALANCE)


def test_never_a_run_two_turns_running() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("E3"))))
    choose(g, "run")
    choose(g, "end")
    choose(g, "keep")
    choose(g, "end")  # the foe
    choose(g, "keep")
    while g.prompt.kind is PromptKind.ROLL and "initiative" not in g.prompt.text:
        roll(g, 1)  # the hero's fall check after running
    roll(g, 6, 1)  # next round's initiative
    assert g.state.figures["hero"].flag("ran last turn") and not g.state.figures["hero"].flag(RAN)
    assert "run" not in options(g)


def test_enemies_block_their_space_unconscious_characters_block_nothing() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("B1"))))
    assert "to-B1" not in options(g)
    foe_state = g.state.figures["foe"]
    foe_state.values[HP] = 0
    foe_state.mark("unconscious", True)
    changed(g)
    assert "to-B1" in options(g)


def test_friends_are_passed_unless_an_enemy_has_them_in_battle_range() -> None:
    s = tower(TOWER, (hero("A1"), {"name": "Friend", "side": "a", "at": "B1", "height": 4}, foe("E3")))
    g = game(s)
    choose(g, "hero")
    assert "to-B1" in options(g)
    choose(g, "to-B1")
    assert "end" not in options(g)  # one conscious character per space at the end of the move
    g2 = game(tower(TOWER, (hero("A1"), {"name": "Friend", "side": "a", "at": "B1", "height": 4}, foe("C1"))))
    choose(g2, "hero")
    assert "to-B1" not in options(g2)


def test_entering_battle_range_lets_the_enemy_block_unless_through_its_back_space() -> None:
    s = tower(TOWER, (hero("A1"), foe("C1")))
    g = game(s)
    choose(g, "to-B1")
    assert g.prompt.side == "b" and options(g) == ["block", "pass"]
    choose(g, "block")
    assert g.prompt.text.startswith("Hero's move is over")
    # Again, with the foe's back space at B1: no block.
    g = game(s)
    foe_state = g.state.figures["foe"]
    b1 = s.board.from_label("B1")
    from engine.rules.lost_worlds.spaces import facing_for_back
    foe_state.facing = facing_for_back(foe_state.hex, b1)  # type: ignore[arg-type]
    changed(g)
    assert back_space(foe_state) == b1
    choose(g, "to-B1")
    assert g.prompt.figure == "hero" and "end" in options(g)


def test_the_back_space_is_named_after_the_move_and_sets_the_facing() -> None:
    s = tower(TOWER, (hero("B2"), foe("E3")))
    g = game(s)
    choose(g, "end")
    assert "back-B1" in options(g) and options(g)[0] == "keep"
    choose(g, "back-B1")
    assert back_space(g.state.figures["hero"]) == s.board.from_label("B1")


def test_a_jump_over_a_pit_lands_beyond_with_a_run_and_off_balance() -> None:
    pit = """
2   2   2
  2   2
2   0   2
  2   2
2   2   2
  2   2
"""
    s = tower(pit, (hero("B2"), foe("E1")))
    g = game(s)
    b2, c2 = s.board.from_label("B2"), s.board.from_label("C2")
    land = s.board.label(beyond(b2, c2))
    assert f"jump-{land}" in options(g)
    choose(g, f"jump-{land}")
    h = g.state.figures["hero"]
    assert s.board.label(h.hex) == land and h.flag(RAN) and h.flag(OFF_BALANCE)  # type: ignore[arg-type]
    assert h.values[MP] == 4 + 2 - 2


def test_no_jump_over_a_character_taller_than_the_take_off() -> None:
    s = tower(TOWER.replace("3", "0"), (hero("B2"), {"name": "Friend", "side": "a", "at": "C2", "height": 4},
                                         foe("E1")))
    g = game(s)
    choose(g, "hero")
    over_friend = s.board.label(beyond(s.board.from_label("B2"), s.board.from_label("C2")))
    assert f"jump-{over_friend}" not in options(g)
    assert "jump-D3" in options(g)  # over the empty C3


def test_jumping_onto_an_enemy_from_above_rolls_the_table_and_lands_beside_it() -> None:
    s = tower(TOWER, (hero("C2"), foe("B2", hp=10)))
    g = game(s)
    assert "onto-foe" in options(g)
    choose(g, "onto-foe")
    roll(g, 1)  # off-balance jumper; the foe takes 2 and is down
    foe_state, h = g.state.figures["foe"], g.state.figures["hero"]
    assert foe_state.values[HP] == 8 and foe_state.flag(DOWN)
    assert all(o.startswith("land-") for o in options(g))
    choose(g, "land-A2")
    h = g.state.figures["hero"]
    assert s.board.label(h.hex) == "A2" and h.flag(OFF_BALANCE)  # type: ignore[arg-type]


def test_no_jump_onto_an_enemy_on_the_same_level() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("B1"))))
    assert "onto-foe" not in options(g)


def test_a_push_makes_the_enemy_roll_the_fall_table_at_once_and_the_pusher_picks_the_space() -> None:
    s = tower(TOWER, (hero("B2"), foe("C2", hp=10, height=5)))
    g = game(s)
    # B2 (level 0) to C2 (level 3): the hero's height 4 exceeds 3, so they are in range.
    choose(g, "hardpush-foe")
    p = g.prompt
    assert p.side == "b" and "+1" in p.text
    roll(g, 5)  # 5 + 1 = 6: a fall
    assert g.prompt.side == "a" and "fall-D2" in options(g)
    choose(g, "fall-D2")
    foe_state = g.state.figures["foe"]
    assert foe_state.values[HP] == 7 and foe_state.flag(NEXT_DOWN)  # 3 levels; down from its next turn on
    assert g.state.figures["hero"].values[MP] == 0


def test_a_thrown_weapon_reaches_height_plus_two_and_one_more_per_level_lower() -> None:
    wide = """
3   0   0   0   0
  0   0   0   0
"""
    s = tower(wide, (hero("A1", height=2, weapons=["dagger"]), foe("I1")))
    g = game(s)
    # A1 to I1 is 8 columns away along the row: 8 spaces; height 2 + 2 + 3 levels lower = 7.
    assert not [o for o in options(g) if o.startswith("throw-")]
    g.state.put("foe", s.board.from_label("H1"))
    changed(g)
    assert "throw-dagger-foe" in options(g)
    choose(g, "throw-dagger-foe")
    choose(g, "hit")
    assert "-1 beyond the effective range" in g.prompt.text
    choose(g, "3")
    foe_state = g.state.figures["foe"]
    assert foe_state.values[HP] == 12 - 2 and foe_state.flag(OFF_BALANCE)
    assert "dagger" not in g.state.figures["hero"].carrying and list(g.state.tokens) == ["dagger#1"]


def test_a_blocked_character_may_only_regain_balance() -> None:
    s = tower(TOWER, (hero("A1"), foe("B1")))
    g = game(s)
    choose(g, "block-foe")
    choose(g, "end")
    choose(g, "keep")
    foe_state = g.state.figures["foe"]
    assert foe_state.flag(HELD)
    assert options(g) == ["end"]


def test_the_coup_de_grace_takes_every_point_and_adds_three_to_recovery() -> None:
    s = tower(TOWER, (hero("A1"), foe("B1")))
    g = game(s)
    foe_state = g.state.figures["foe"]
    foe_state.values[HP] = 0
    foe_state.mark("unconscious", True)
    changed(g)
    choose(g, "to-B1")
    choose(g, "coup-foe")
    assert g.state.figures["hero"].values[MP] == 0 and g.state.figures["foe"].values["coup de grâce"] == 3


def test_a_refused_choice_names_what_is_offered() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("E3"))))
    with pytest.raises(IllegalActionError, match="not offered"):
        g.apply(Choose("to-E3"))


def test_a_weapon_is_dropped_on_any_space_in_battle_range_and_picked_up_from_ones_own() -> None:
    s = tower(TOWER, (hero("A1", weapons=["dagger"]), foe("E3")))
    g = game(s)
    assert {"dropw-dagger-A1", "dropw-dagger-B1", "dropw-dagger-A2"} <= set(options(g))
    choose(g, "dropw-dagger-B1")
    assert g.state.tokens == {"dagger#1": s.board.from_label("B1")}
    assert not [o for o in options(g) if o.startswith("pickup-")]
    choose(g, "to-B1")
    choose(g, "pickup-dagger#1")
    assert g.state.figures["hero"].carrying == ["dagger"] and not g.state.tokens


def test_each_space_entered_in_an_enemys_battle_range_lets_it_block_again() -> None:
    from engine.rules.lost_worlds.spaces import facing_for_back

    s = tower(TOWER.replace("3", "0"), (hero("A1"), foe("B2")))
    g = game(s)
    foe_state = g.state.figures["foe"]
    foe_state.facing = facing_for_back(foe_state.hex, s.board.from_label("C3"))  # type: ignore[arg-type]
    changed(g)
    choose(g, "to-B1")
    assert options(g) == ["block", "pass"]
    choose(g, "pass")
    choose(g, "to-A2")  # still in its range, another space of it
    assert options(g) == ["block", "pass"]
