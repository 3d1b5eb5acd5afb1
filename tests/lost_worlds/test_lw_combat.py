"""The combat phase, the fall check phase, recovery and the victory check, played through the engine."""

from __future__ import annotations

from engine.game import Game
from engine.hexes import direction_between
from engine.prompts import PromptKind
from engine.rules.lost_worlds.condition import DOWN, ESCAPED, HP, NEXT_DOWN, OFF_BALANCE, UNCONSCIOUS
from engine.rules.lost_worlds.spaces import facing_for_back
from engine.rules.lost_worlds.turn import experience
from tests.lost_worlds.tower import changed, choose, game, options, roll, tower

HILL = """
4   0   0
  0   0
0   0   0
  0   0
"""


def two(hero_at: str = "A1", foe_at: str = "B1", **foe: object) -> tuple[dict[str, object], ...]:
    return ({"name": "Dwarf", "side": "a", "at": hero_at, "height": 3, "hp": 12},
            {"name": "Troll", "side": "b", "at": foe_at, "height": 5, "hp": 14, **foe})


def face_each_other(g) -> None:  # type: ignore[no-untyped-def]
    """The dwarf and the troll look at each other: neither stands in the other's back space."""
    dwarf, troll = g.state.figures["dwarf"], g.state.figures["troll"]
    dwarf.facing = direction_between(dwarf.hex, troll.hex)
    troll.facing = direction_between(troll.hex, dwarf.hex)
    changed(g)


def to_combat(g, facing: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Both characters end their moves where they stand, keeping their back spaces."""
    if facing:
        face_each_other(g)
    for _ in range(2):
        choose(g, "end")
        choose(g, "keep")


def test_the_combat_prompt_names_each_page_and_the_dwarfs_plus_2() -> None:
    s = tower(HILL, two())
    g = game(s)
    to_combat(g)
    assert g.prompt.text == "Heroes: start a combat with an enemy in battle range?"
    assert options(g) == ["dwarf:troll", "pass"]
    events = choose(g, "dwarf:troll")
    text = g.prompt.text
    assert "Dwarf: open your book at page 57: the usual start" in text
    assert "Troll: open your book at page 57: the usual start" in text
    assert "Dwarf 3 + level 4 = 7" in text and "Troll 5 + level 0 = 5" in text and "+2 to the Dwarf" in text
    assert events[-1].data["pages"] == {"dwarf": 57, "troll": 57}


def test_the_page_follows_back_spaces_and_balance() -> None:
    s = tower(HILL, two())
    g = game(s)
    face_each_other(g)
    troll = g.state.figures["troll"]
    troll.facing = facing_for_back(troll.hex, s.board.from_label("A1"))  # type: ignore[arg-type]
    troll.mark(OFF_BALANCE, True)
    changed(g)
    to_combat(g, facing=False)
    choose(g, "dwarf:troll")
    assert "Dwarf: open your book at page 21: you are in the enemy's back space" in g.prompt.text
    assert "Troll: open your book at page 1: you are off-balance or down" in g.prompt.text


def test_at_most_three_book_rounds_then_the_falls_and_a_new_round() -> None:
    g = game(tower(HILL, two()))
    to_combat(g)
    choose(g, "dwarf:troll")
    for rnd in (1, 2, 3):
        assert f"book round {rnd} of 3" in g.prompt.text
        choose(g, "1")
        choose(g, "normal")
        choose(g, "2")
        choose(g, "off")
        if rnd < 3:
            assert options(g) == ["go-on", "stop"]
            choose(g, "go-on")
    state = g.state
    assert state.figures["dwarf"].values[HP] == 9 and state.figures["troll"].values[HP] == 8
    assert state.figures["troll"].flag(OFF_BALANCE)  # the next turn starts so
    # Both fought: fall checks in initiative order, the troll's with +1 for being off-balance.
    assert g.prompt.kind is PromptKind.ROLL and "Dwarf" in g.prompt.text
    roll(g, 3)
    assert "Troll" in g.prompt.text and "+1" in g.prompt.text
    roll(g, 2)
    assert "initiative" in g.prompt.text


def test_a_fall_check_of_six_lets_the_opponent_move_the_character_down_with_damage_per_level() -> None:
    g = game(tower(HILL, two()))
    to_combat(g)
    choose(g, "dwarf:troll")
    choose(g, "0")
    choose(g, "normal")
    choose(g, "0")
    choose(g, "normal")
    choose(g, "stop")
    roll(g, 6)  # the dwarf falls
    assert g.prompt.side == "b" and g.prompt.figure == "dwarf"
    assert set(options(g)) == {"fall-A2", "fall-B1"}  # B1 holds the troll: a fall onto it plays the jump table
    choose(g, "fall-A2")
    dwarf = g.state.figures["dwarf"]
    assert dwarf.values[HP] == 8 and dwarf.flag(NEXT_DOWN) and not dwarf.flag(DOWN)  # down from its next turn on
    roll(g, 1)  # the troll's fall check; the turn ends
    dwarf = g.state.figures["dwarf"]
    assert dwarf.flag(DOWN) and not dwarf.flag(NEXT_DOWN)


def test_a_fall_without_a_change_of_level_costs_the_points_on_page_41() -> None:
    flat = HILL.replace("4", "0")
    g = game(tower(flat, two()))
    to_combat(g)
    choose(g, "dwarf:troll")
    for pick in ("0", "normal", "0", "normal", "stop"):
        choose(g, pick)
    roll(g, 6)
    choose(g, "fall-A2")
    assert "page 41" in g.prompt.text
    choose(g, "3")
    assert g.state.figures["dwarf"].values[HP] == 9


def test_an_escape_ends_the_combat_and_allows_a_disengage_next_turn() -> None:
    g = game(tower(HILL.replace("4", "0"), two("A2", "B2")))
    to_combat(g)
    choose(g, "dwarf:troll")
    choose(g, "0")
    choose(g, "escaped")
    choose(g, "0")
    choose(g, "normal")
    assert g.state.figures["dwarf"].flag(ESCAPED)
    roll(g, 1)
    roll(g, 1)
    roll(g, 6, 1)
    assert [o for o in options(g) if o.startswith("disengage-")] == ["disengage-A1"]


def test_damage_to_zero_knocks_out_below_minus_four_kills() -> None:
    g = game(tower(HILL, two()))
    to_combat(g)
    choose(g, "dwarf:troll")
    choose(g, "12")  # the dwarf to 0: unconscious
    assert g.state.figures["dwarf"].flag(UNCONSCIOUS)
    choose(g, "19")  # the troll to -5: dead
    assert g.prompt.kind is PromptKind.REMOVE


def test_recovery_rolls_at_the_end_of_movement_with_the_coup_de_grace_bonus_and_never_for_undead() -> None:
    s = tower(HILL, (*two(), {"name": "Bones", "side": "b", "at": "E2", "height": 4, "abilities": ["undead"]}))
    g = Game(s)
    for fid in ("dwarf", "bones"):
        fig = g.state.figures[fid]
        fig.values[HP] = -2
        fig.mark(UNCONSCIOUS, True)
    g.state.figures["dwarf"].values["coup de grâce"] = 3
    changed(g)
    roll(g, 6, 1)
    choose(g, "end")  # the troll alone moves
    choose(g, "keep")
    p = g.prompt
    assert p.kind is PromptKind.ROLL and "Dwarf is unconscious at -2 hit points: roll 1d6 +3" in p.text
    assert [c.text for c in p.chances] == ["comes round", "dies"]
    assert p.chances[1].probability == 2 / 6  # 5+3 and 6+3 are 8: D
    roll(g, 1)  # 1 + 3 = 4: -2 hit points
    dwarf = g.state.figures["dwarf"]
    assert dwarf.values[HP] == -2 and dwarf.flag(UNCONSCIOUS)
    # No roll for the undead: straight on (to the victory check, where the heroes are all out of the fight).
    assert g.over and g.state.winner == "b"
    assert sum(1 for p in g.history for e in p.events if e.kind == "recovery") == 1


def test_victory_at_the_check_and_experience_shared_by_the_survivors() -> None:
    s = tower(HILL, two())
    g = game(s)
    to_combat(g)
    choose(g, "dwarf:troll")
    choose(g, "0")
    choose(g, "normal")
    choose(g, "14")  # the troll unconscious: out of the fight
    roll(g, 1)  # the dwarf's fall check; the troll is unconscious and rolls none
    assert g.over and g.state.winner == "a"
    assert experience(g.state, "a", 12) == {"dwarf": 12}
    assert experience(g.state, "a", 7) == {"dwarf": 7}


def test_experience_is_split_between_survivors_and_the_dead_get_none() -> None:
    s = tower(HILL, (*two(), {"name": "Elf", "side": "a", "at": "E2", "height": 4}))
    g = game(s)
    assert experience(g.state, "a", 12) == {"dwarf": 6, "elf": 6}
    g.state.figures["elf"].alive = False
    assert experience(g.state, "a", 12) == {"dwarf": 12}


PILLARS = """
0   #   0
  0   0
0   #   0
  0   0
"""


def test_the_obstacle_rules_name_the_manoeuvres_a_crowded_character_may_not_use() -> None:
    from engine.rules.lost_worlds.combat import restrictions

    s = tower(PILLARS.replace("#", "0"), two("B1", "D1"), drawing=PILLARS.replace("0", "."),
              options="obstacle_restrictions = true")
    g = game(s)
    rules = g.rules
    dwarf = g.state.figures["dwarf"]
    # B1 touches the pillars C1 and C2 (tall terrain): no side swing; the troll is not next to it.
    assert restrictions(rules, g.state, dwarf) == [  # type: ignore[arg-type]
        "no side swing (two or more tall things or friends in its battle range)"]
    g.state.put("troll", s.board.from_label("A2"))
    dwarf.facing = facing_for_back(dwarf.hex, s.board.from_label("A1"))  # type: ignore[arg-type]
    g.state.figures["troll"].values["hp"] = 0
    g.state.figures["troll"].mark(UNCONSCIOUS, True)
    g.state.put("troll", s.board.from_label("A1"))
    limits = restrictions(rules, g.state, dwarf)  # type: ignore[arg-type]
    assert "no jump back (an obstacle of a level or more in its back space)" in limits  # a body lies there


def test_without_the_option_the_combat_prompt_names_no_restrictions() -> None:
    g = game(tower(PILLARS.replace("#", "0"), two("B1", "A1"), drawing=PILLARS.replace("0", ".")))
    to_combat(g)
    choose(g, "dwarf:troll")
    assert "no side swing" not in g.prompt.text
