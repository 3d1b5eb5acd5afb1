"""Fantasy Battle's turn flow on the shared mechanism: the log and prompt details a referee checked."""

import pytest
from fb_tables import Choose, Move, Remove, Roll, h, make_game

from engine.game import Game
from engine.prompts import PromptKind
from engine.scenario import load_scenario

CORRIDOR = """
#   #   #   #   #
  #   #   #   #
#   K   F   .   #
  .   .   .   #
#   #   #   #   #
  #   #   #   b
"""

# K (E2) next to e (F2), with e's only retreat hex G3 held by its friend f: a decisive battle follows a win by K.
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

DIAGONAL = """
A   .   .
  .   .
.   .   .
  .   .
.   .   .
  .   .
.   e   .
  .   .
"""

NO_VICTORY_YET = '[[victory]]\nside = "blue"\ntype = "kill"\nfigures = ["K"]\ntext = "K is down"\n'


def texts(game) -> list[str]:
    return [e.text for e in game.history[-1].events]


def test_the_turn_order_is_one_line_with_each_roll_next_to_its_roller() -> None:
    game = make_game(CORRIDOR, start=False)
    game.apply(Roll((2, 6)))
    order = [t for t in texts(game) if t.startswith("Turn order")]
    assert order == ["Turn order: red 2, blue 6 (rolled) — blue, red."]


def test_a_turn_order_tie_says_who_rolls_again() -> None:
    game = make_game(CORRIDOR, start=False)
    game.apply(Roll((4, 4)))
    assert texts(game) == ["Turn order: red 4, blue 4 (rolled) — a tie: red, blue roll again."]


def test_the_turn_order_prompt_has_odds() -> None:
    p = make_game(CORRIDOR, start=False).prompt
    assert [c.text for c in p.chances] == ["red goes first", "blue goes first"]
    assert sum(c.probability for c in p.chances) == pytest.approx(1.0)


def test_a_won_roll_off_says_the_shot_goes_ahead() -> None:
    game = make_game(DIAGONAL, kinds={"A": "archer"}, walls=["A2|B1"])
    game.apply(Choose("A>e"))
    game.apply(Roll((4, 3)))
    assert "Roll-off won: A may shoot." in texts(game)


def test_side_names_take_the_verb_that_agrees_with_them() -> None:
    game = make_game(CORRIDOR)  # sides named by their ids: "red" is singular
    game.apply(Choose("end"))
    assert texts(game)[0] == "red ends its turn."
    game = Game(load_scenario("tutorial"))
    game.apply(Roll((6, 2)))
    while game.prompt.option("end") is None:
        game.apply(Choose(game.prompt.options[-1].id))  # finish the ranged phase
    game.apply(Choose("end"))
    assert texts(game)[0] == "Knights end their turn."


def test_the_wizards_weakness_holds_in_a_decisive_battle() -> None:
    game = make_game(DECISIVE, kinds={"K": "wizard"})
    game.apply(Roll((4, 2)))  # the wizard K wins, e cannot fall back: decisive battle, K favoured
    p = game.prompt
    assert "wins on 5–6), blue rolls 1d6 for e (wins on 5–6)" in p.text
    game.apply(Roll((4, 5)))  # e reaches 5 against the wizard: e wins
    assert not game.state.figures["K"].alive and game.state.figures["e"].alive


def test_both_reaching_in_a_decisive_battle_with_a_wizard_the_higher_die_wins() -> None:
    game = make_game(DECISIVE, kinds={"K": "wizard"})
    game.apply(Roll((4, 2)))
    game.apply(Roll((5, 5)))  # equal dice: again
    assert "again" in game.prompt.note and game.state.figures["K"].alive
    game.apply(Roll((6, 5)))
    assert game.state.figures["K"].alive and not game.state.figures["e"].alive
    p = make_game(DECISIVE, kinds={"K": "wizard"})
    p.apply(Roll((4, 2)))
    assert sum(c.probability for c in p.prompt.chances) == pytest.approx(1.0)


def test_the_next_turn_is_announced_only_after_the_removal_is_confirmed() -> None:
    game = make_game(CORRIDOR.replace("F", "e"), victory=NO_VICTORY_YET)
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    game.apply(Move("K", h("D2")))
    game.apply(Roll((6, 2)))  # K kills e; K was red's only figure to move
    assert not any(t.startswith("Round 1: blue") for t in texts(game))
    assert game.prompt.kind is PromptKind.REMOVE
    game.apply(Remove("e"))
    assert texts(game)[0] == "e is off the table." and any(t.startswith("Round 1: blue") for t in texts(game))


def test_a_side_with_no_figures_left_is_skipped_with_a_word() -> None:
    game = make_game(CORRIDOR.replace("F", "e").replace("b", "#"), victory=NO_VICTORY_YET)
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    game.apply(Move("K", h("D2")))
    game.apply(Roll((6, 2)))
    game.apply(Remove("e"))
    assert "blue has no figures left: its turn is skipped." in texts(game)
    assert game.state.round == 2 and game.prompt.text.startswith("red")


def test_the_locked_door_prompt_warns_of_an_enemy_behind_the_door() -> None:
    at_door = CORRIDOR.replace("K", ".").replace("  .   .   .   #", "  .   K   .   #")
    game = make_game(at_door, locked=["D2|E2"])
    game.apply(Choose("K"))
    game.apply(Choose("unlock:D2|E2"))
    assert "an enemy behind the door means combat at once instead" in game.prompt.text
