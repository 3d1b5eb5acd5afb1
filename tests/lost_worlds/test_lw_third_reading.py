"""RULES.md §2's third reading, played through the engine: blocking by adjacency, falls onto characters, landings,
bodies moved while unconscious, the fall table's next-turn states, the side swing ban's spaces."""

from __future__ import annotations

from engine.game import Game
from engine.prompts import PromptKind
from engine.rules.lost_worlds import combat
from engine.rules.lost_worlds.condition import (
    DOWN,
    HELD,
    HP,
    MOVED,
    MP,
    NEXT_DOWN,
    NEXT_OFF_BALANCE,
    OFF_BALANCE,
    UNCONSCIOUS,
)
from tests.lost_worlds.tower import TOWER, changed, choose, foe, game, hero, options, roll, tower

# Two spaces on level 0 (A1, B1) among spaces on level 2.
SUNKEN = """
0   2   2
  0   2
2   2   2
  2   2
2   2   2
  2   2
"""


def levels_offered(g: Game, prefix: str) -> set[int]:
    """The levels of the spaces the prompt's options named ``prefix…`` lead to."""
    board = g.scenario.board
    return {board.level(board.from_label(o.removeprefix(prefix))) for o in options(g) if o.startswith(prefix)}


def play_to_next_turn(g: Game) -> None:
    """Answer every prompt with the quietest choice until the next turn's initiative roll."""
    for _ in range(60):
        if g.prompt.kind is PromptKind.ROLL:
            if "initiative" in g.prompt.text:
                return
            roll(g, *([1] * len(g.prompt.dice)))
            continue
        ids = options(g)
        choose(g, next(o for o in ("end", "keep", "pass", "stop") if o in ids) if set(ids) & {
            "end", "keep", "pass", "stop"} else ids[0])
    raise AssertionError("the turn did not end")


# -- 1. blocking ---------------------------------------------------------------------------------------------
def test_the_block_action_holds_an_adjacent_enemy_out_of_battle_range_only_by_height() -> None:
    g = game(tower(TOWER, (hero("B2", height=3), foe("C2"))))
    rules, state = g.rules, g.state
    h, f = state.figures["hero"], state.figures["foe"]
    assert not rules.spaces.in_range(h, f)  # type: ignore[attr-defined]  # height 3 below, 3 levels between
    assert "block-foe" in options(g)
    assert "push-foe" not in options(g)  # a push still needs battle range
    choose(g, "block-foe")
    assert g.state.figures["foe"].flag(HELD) and g.state.figures["hero"].values[MP] == 1


def test_no_block_action_on_an_enemy_two_spaces_away() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("C1"))))
    assert not [o for o in options(g) if o.startswith("block-")]


def test_a_down_enemy_does_not_block_a_character_entering_its_range() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("C1"))))
    g.state.figures["foe"].mark(DOWN, True)
    changed(g)
    choose(g, "to-B1")  # into the foe's battle range, not its back space
    assert g.prompt.figure == "hero" and g.prompt.side == "a"  # no block prompt for the foe


# -- 2. a fall into a character's space ------------------------------------------------------------------------
def test_a_fall_onto_a_character_on_the_same_level_gives_page_41_and_the_jump_table_and_lands_no_higher() -> None:
    g = game(tower(SUNKEN, (hero("A1"), foe("B1", hp=10))))
    choose(g, "push-foe")
    roll(g, 6)  # the foe falls
    assert options(g) == ["fall-A1"]  # the only space of its level or lower: the hero's
    choose(g, "fall-A1")
    assert "page 41" in g.prompt.text and g.prompt.side == "b"
    choose(g, "2")
    assert g.state.figures["foe"].values[HP] == 8
    assert g.prompt.kind is PromptKind.ROLL and "comes down on Hero" in g.prompt.text
    roll(g, 3)  # both off-balance
    assert g.state.figures["hero"].flag(OFF_BALANCE)
    assert options(g) == ["land-B1"]  # never up onto the level-2 spaces round the hero
    choose(g, "land-B1")
    assert g.scenario.board.label(g.state.figures["foe"].hex) == "B1"  # type: ignore[arg-type]


def test_a_character_falling_onto_another_below_lands_no_higher_than_the_one_it_fell_onto() -> None:
    s = tower(TOWER, (hero("B2", hp=10), foe("C2", hp=10)))
    g = game(s)
    choose(g, "hardpush-foe")  # B2 (level 0) next to C2 (level 3): the hero's height 4 reaches up
    roll(g, 5)  # +1: a fall
    choose(g, "fall-B2")  # onto the hero, 3 levels down
    assert g.state.figures["foe"].values[HP] == 7
    roll(g, 4)
    assert levels_offered(g, "land-") == {0} and "land-C2" not in options(g)  # not back up where it fell from


# -- 3. moved while unconscious ---------------------------------------------------------------------------------
def test_a_body_landing_unconscious_after_a_jump_rolls_no_recovery_that_turn() -> None:
    pal = {"name": "Pal", "side": "a", "at": "E3", "height": 4}
    s = tower(TOWER, (hero("C2", hp=2), pal, foe("B2", hp=10)))
    g = game(s)
    choose(g, "hero")
    choose(g, "onto-foe")
    roll(g, 5)  # a miss: down and 3 damage, unconscious
    assert g.state.figures["hero"].flag(UNCONSCIOUS)
    choose(g, "land-A2")
    moved = g.state.figures["hero"].flag(MOVED)
    for answer in ("end", "keep", "end", "keep"):  # the pal's move, the foe's
        choose(g, answer)
    assert "recovery table" not in g.prompt.text and "initiative" in g.prompt.text  # no roll: on to the next turn
    assert moved


def test_a_character_knocked_out_by_the_fall_a_push_caused_rolls_no_recovery_that_turn() -> None:
    s = tower(TOWER, (hero("B2"), foe("C2", hp=2), foe("E3", name="Other")))
    g = game(s)
    choose(g, "hardpush-foe")
    roll(g, 5)  # +1: a fall
    choose(g, "fall-D2")  # 3 levels down, 3 damage: unconscious as it lands
    assert g.state.figures["foe"].flag(UNCONSCIOUS)
    for answer in ("end", "keep", "end", "keep"):  # the hero's move ends, then the other monster's
        choose(g, answer)
    assert "recovery table" not in g.prompt.text and "initiative" in g.prompt.text


# -- 4. the fall table's next-turn states ----------------------------------------------------------------------
def test_off_balance_from_the_fall_table_waits_for_the_next_turn_so_a_second_push_adds_nothing() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("B1"))))
    choose(g, "push-foe")
    roll(g, 4)  # the next turn starts off-balance
    assert not g.state.figures["foe"].flag(OFF_BALANCE)
    choose(g, "push-foe")
    assert "+1" not in g.prompt.text
    assert g.state.figures["foe"].flag(NEXT_OFF_BALANCE)
    roll(g, 1)
    play_to_next_turn(g)
    f = g.state.figures["foe"]
    assert f.flag(OFF_BALANCE) and not f.flag(NEXT_OFF_BALANCE)


def test_down_from_a_fall_waits_for_the_next_turn() -> None:
    g = game(tower(TOWER, (hero("A1"), foe("B1", hp=10))))
    choose(g, "push-foe")
    roll(g, 6)
    choose(g, "fall-C1")
    choose(g, "1")  # page 41: no change of level
    f = g.state.figures["foe"]
    assert not f.flag(DOWN) and f.flag(NEXT_DOWN)
    play_to_next_turn(g)
    assert g.state.figures["foe"].flag(DOWN)


# -- 5. jumping onto an enemy -----------------------------------------------------------------------------------
def test_a_jump_onto_an_enemy_costs_one_and_lands_beside_it_never_back_up() -> None:
    s = tower(TOWER, (hero("C2"), foe("B2", hp=10)))
    g = game(s)
    choose(g, "onto-foe")
    roll(g, 3)  # both off-balance
    assert levels_offered(g, "land-") == {0} and "land-C2" not in options(g)
    choose(g, "land-A2")
    assert g.state.figures["hero"].values[MP] == 3
    assert "onto-foe" not in options(g)  # beside it on its level: no second jump from there


def test_no_jump_onto_an_enemy_with_nowhere_to_land_beside_it() -> None:
    well = """
1   1   1
  1   1
1   3   1
  0   1
1   1   1
  1   1
"""
    g = game(tower(well, (hero("C2"), foe("B2"))))  # the foe at the bottom of a one-space well
    assert "onto-foe" not in options(g)
    g = game(tower(well.replace("  0   1\n1   1   1", "  0   1\n1   0   1"), (hero("C2"), foe("B2"))))
    assert "onto-foe" in options(g)  # C3 beside it is on its level


# -- 6. the side swing ban -------------------------------------------------------------------------------------
CLIFFS = """
0   0   0
  2   0
0   2   0
  0   0
0   0   0
  0   0
"""
RUBBLE_ON_C2 = """
.   .   .
  .   .
.   o   .
  .   .
.   .   .
  .   .
"""


def no_side_swing(g: Game, fid: str) -> bool:
    limits = combat.restrictions(g.rules, g.state, g.state.figures[fid])  # type: ignore[arg-type]
    return any("no side swing" in text for text in limits)


def test_a_cliff_counts_as_tall_terrain_whatever_low_obstacle_stands_on_it() -> None:
    # B2 (level 0) has two neighbours 2 levels up: B1, and C2 with rubble on it. Height 2: both are tall.
    s = tower(CLIFFS, (hero("B2", height=2), foe("E3")), drawing=RUBBLE_ON_C2, options="obstacle_restrictions = true")
    assert no_side_swing(game(s), "hero")


def test_each_space_counts_once_for_the_side_swing() -> None:
    # One cliff (B1, 2 levels above a height-2 hero) with a friend on it, and rubble nowhere: one space, no ban.
    friend = {"name": "Friend", "side": "a", "at": "B1", "height": 4}
    one_cliff = CLIFFS.replace("0   2   0", "0   0   0")
    g = game(tower(one_cliff, (hero("B2", height=2), friend, foe("E3")), options="obstacle_restrictions = true"))
    assert not no_side_swing(g, "hero")
    # A friend in battle range on a second space makes two.
    pal = {"name": "Pal", "side": "a", "at": "A2", "height": 2}
    g = game(tower(one_cliff, (hero("B2", height=2), friend, pal, foe("E3")), options="obstacle_restrictions = true"))
    assert no_side_swing(g, "hero")
