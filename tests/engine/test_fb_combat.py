"""Fantasy Battle melee: forced combat, re-rolls, kills, retreat, advance, decisive battle, wizards."""

import pytest
from fb_tables import Choose, Move, Remove, Roll, h, labels, make_game

from engine.prompts import PromptKind

# K (E2) stands next to e (F2) when Red's turn begins: a forced combat.
FIELD = """
.   .   .   .   .
  .   .   .   .
.   .   K   .   .
  .   .   e   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   z
"""


def test_a_figure_next_to_an_enemy_at_turn_start_must_fight_and_cannot_move() -> None:
    game = make_game(FIELD.replace(".   .   .   .   .\n  .   .   .   .\n", ".   .   .   .   .\n  L   .   .   .\n", 1))
    p = game.prompt
    assert p.kind is PromptKind.ROLL and p.dice[0].figure == "K" and p.dice[1].figure == "e"
    game.apply(Roll((2, 2)))
    assert game.prompt.note.startswith("Tie")
    game.apply(Roll((3, 5)))  # e wins: K falls back
    assert game.prompt.kind is PromptKind.CHOOSE  # K's retreat hex, or e's advance
    while game.prompt.kind is PromptKind.CHOOSE and game.prompt.figure in ("K", "e"):
        game.apply(Choose(game.prompt.options[0].id))
    # Only L may still move: K fought this turn.
    assert game.prompt.option("K") is None and game.prompt.option("L") is not None


def test_equal_dice_reroll_and_a_six_kills_outright() -> None:
    game = make_game(FIELD)
    p = game.prompt
    assert "kills on 6" in p.text
    assert sum(c.probability for c in p.chances) == pytest.approx(1.0)
    game.apply(Roll((6, 6)))
    assert "roll again" in game.prompt.note
    game.apply(Roll((2, 6)))
    assert not game.state.figures["K"].alive
    assert game.prompt.kind is PromptKind.REMOVE and game.prompt.figure == "K"


def test_the_loser_falls_back_to_a_hex_two_away_from_the_winner_and_its_owner_chooses() -> None:
    game = make_game(FIELD)
    game.apply(Roll((5, 2)))
    p = game.prompt
    assert p.kind is PromptKind.CHOOSE and p.figure == "e" and p.side == "blue"
    assert {o.id for o in p.options} == {"F3", "G2", "G3"}
    game.apply(Choose("G3"))
    assert game.state.figures["e"].hex == h("G3")
    p = game.prompt
    assert p.figure == "K" and {o.id for o in p.options} == {"advance", "stay"}
    game.apply(Choose("advance"))
    assert game.state.figures["K"].hex == h("F2")


def test_a_single_retreat_hex_is_taken_without_asking() -> None:
    game = make_game("""
.   .   .   .   .
  .   .   .   .
.   .   K   #   .
  .   .   e   .
.   .   .   .   .
  .   .   #   .
.   .   .   .   .
  .   .   .   z
""")
    game.apply(Roll((5, 2)))
    assert game.state.figures["e"].hex == h("G3")
    assert game.prompt.option("advance") is not None


def test_no_retreat_next_to_an_enemy() -> None:
    # Red's L at H2 touches G2 and G3, so e can only fall back to F3.
    game = make_game("""
.   .   .   .   .
  .   .   .   .
.   .   K   .   .
  .   .   e   L
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   z
""")
    game.apply(Roll((5, 2)))
    assert game.state.figures["e"].hex == h("F3")


def test_cornered_by_walls_the_loser_dies() -> None:
    game = make_game(FIELD, walls=["F2|F3", "F2|G2", "F2|G3"])
    game.apply(Roll((5, 2)))
    assert not game.state.figures["e"].alive
    assert any("nowhere to fall back" in e.text for e in game.history[-1].events)


DECISIVE = """
.   .   .   .   .
  .   .   .   .
.   .   K   #   .
  .   .   e   .
.   .   .   f   .
  .   .   #   .
.   .   .   .   .
  .   .   .   z
"""


def test_a_friend_in_the_way_means_a_decisive_battle() -> None:
    game = make_game(DECISIVE)
    game.apply(Roll((5, 2)))
    p = game.prompt
    assert p.kind is PromptKind.ROLL and "Decisive battle" in p.text and p.dice[0].figure == "K"
    assert [c.probability for c in p.chances] == pytest.approx([10 / 14, 4 / 14])
    game.apply(Roll((4, 5)))  # neither reaches its number: again
    assert "again" in game.prompt.note
    game.apply(Roll((5, 6)))  # both reach: again
    assert "again" in game.prompt.note
    game.apply(Roll((1, 6)))  # only the other side reaches its 6
    assert not game.state.figures["K"].alive and game.state.figures["e"].alive


def test_decisive_battle_favours_the_previous_winner_on_5() -> None:
    game = make_game(DECISIVE)
    game.apply(Roll((5, 2)))
    game.apply(Roll((5, 3)))
    assert game.state.figures["K"].alive and not game.state.figures["e"].alive


def test_a_friend_on_a_hex_that_would_not_qualify_anyway_means_death() -> None:
    # f stands on the only open retreat hex G3, but G3 also touches Red's L: e dies, no decisive battle.
    game = make_game("""
.   .   .   .   .
  .   .   .   .
.   .   K   #   .
  .   .   e   .
.   .   .   f   .
  .   .   #   L
.   .   .   .   .
  .   .   .   z
""")
    game.apply(Choose("K"))  # K and L both began next to an enemy: K fights first
    game.apply(Roll((5, 2)))
    assert not game.state.figures["e"].alive


def test_wizards_die_in_melee_on_5_or_6() -> None:
    game = make_game(FIELD, kinds={"e": "wizard"})
    assert "K kills on 5–6" in game.prompt.text
    game.apply(Roll((5, 2)))
    assert not game.state.figures["e"].alive


def test_when_both_dice_reach_their_killing_number_the_higher_die_kills() -> None:
    game = make_game(FIELD, kinds={"e": "wizard"})
    game.apply(Roll((5, 6)))  # K reaches 5 (vs wizard), e reaches 6: higher wins
    assert not game.state.figures["K"].alive and game.state.figures["e"].alive


def test_choosing_among_several_adjacent_enemies() -> None:
    game = make_game(FIELD.replace("  .   .   .   .\n.   .   K", "  .   .   g   .\n.   .   K", 1))
    p = game.prompt
    assert p.kind is PromptKind.CHOOSE and {o.id for o in p.options} == {"e", "g"}
    game.apply(Choose("g"))
    assert game.prompt.dice[1].figure == "g"


def test_each_figure_initiates_one_combat_a_turn_and_an_advance_next_to_another_enemy_does_not_fight() -> None:
    # K beats e and advances to F2, which touches g at G2: no second combat.
    game = make_game("""
.   .   .   .   .
  .   .   .   .
.   .   K   g   .
  .   .   e   .
.   .   .   .   .
  .   .   .   .
""")
    game.apply(Roll((5, 2)))
    assert {o.id for o in game.prompt.options} == {"F3", "G3"}  # G2 holds e's friend
    game.apply(Choose("F3"))
    events = game.apply(Choose("advance"))
    assert game.state.figures["K"].hex == h("F2")
    assert "combat" not in [e.kind for e in events]
    assert game.state.active == 1  # Red had no one else: Blue's turn


def test_combat_on_contact_after_a_move_and_the_mover_attacks() -> None:
    game = make_game("""
.   .   .   .   .
  .   .   .   .
.   K   .   .   .
  .   .   e   .
""")
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    assert "E2" in labels(game.prompt.moves)  # E2 touches e: it can be entered …
    assert "G2" not in labels(game.prompt.moves)  # … but not passed through
    game.apply(Move("K", h("E2")))
    p = game.prompt
    assert p.kind is PromptKind.ROLL and p.dice[0].figure == "K" and p.dice[1].figure == "e"


def test_a_kill_in_combat_asks_for_the_figure_to_be_taken_off() -> None:
    game = make_game(FIELD)
    game.apply(Roll((6, 1)))
    assert game.prompt.kind is PromptKind.REMOVE
    game.apply(Remove("e"))
    assert game.state.figures["e"].on_table is False
