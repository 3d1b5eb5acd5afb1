"""Fantasy Battle movement, doors and turn order, each rule on a small map drawn in ASCII.

Uppercase letters are Red's figures, lowercase Blue's; Red plays first. See fb_tables.py.
"""

import pytest
from fb_tables import Choose, Move, Remove, Roll, h, labels, make_game

from engine.errors import IllegalActionError
from engine.prompts import PromptKind

# A zig-zag corridor: C2 - D2 - E2 - F2 - G2 (odd columns sit half a hex lower).
CORRIDOR = """
#   #   #   #   #
  #   #   #   #
#   K   F   .   #
  .   .   .   #
#   #   #   #   #
  #   #   #   b
"""


# The same corridor with K standing at D2, in front of the edge D2|E2.
AT_DOOR = """
#   #   #   #   #
  #   #   #   #
#   .   X   .   #
  .   K   .   #
#   #   #   #   #
  #   #   #   b
"""


def moves_after(game, figure: str, die: int) -> set[str]:
    game.apply(Choose(figure))
    game.apply(Roll((die,)))
    assert game.prompt.kind is PromptKind.MOVE
    return labels(game.prompt.moves)


def test_movement_roll_5_or_6_gives_three_hexes_else_two() -> None:
    assert moves_after(make_game(CORRIDOR), "K", 4) == {"C2", "B2", "D2"}
    assert moves_after(make_game(CORRIDOR), "K", 5) == {"C2", "B2", "D2", "F2"}


def test_movement_prompt_says_what_each_result_means_with_odds() -> None:
    game = make_game(CORRIDOR)
    game.apply(Choose("K"))
    p = game.prompt
    assert p.kind is PromptKind.ROLL and p.dice[0].sides == 6 and p.dice[0].figure == "K"
    assert "5–6 moves up to 3 hexes" in p.text and "1–4 up to 2" in p.text
    assert [c.probability for c in p.chances] == pytest.approx([2 / 6, 4 / 6])


def test_a_move_may_pass_a_friend_but_not_end_on_it() -> None:
    reach = make_game(CORRIDOR).reachable("K")
    assert h("E2") not in reach  # the friend's hex
    assert reach[h("F2")].path == (h("C2"), h("D2"), h("E2"), h("F2"))


def test_an_enemy_blocks_the_way_and_contact_stops_the_move() -> None:
    game = make_game(CORRIDOR.replace("F", "e"))
    assert moves_after(game, "K", 6) == {"C2", "B2", "D2"}  # D2 touches e: stop there
    game.apply(Move("K", h("D2")))
    assert game.prompt.kind is PromptKind.ROLL and "Combat" in game.prompt.text


def test_walls_block_movement_and_contact() -> None:
    game = make_game(CORRIDOR.replace("F", "e"), walls=["D2|E2"])
    assert moves_after(game, "K", 6) == {"C2", "B2", "D2"}
    game.apply(Move("K", h("D2")))
    # No contact through a wall: no combat, the next figure is asked for.
    assert game.prompt.kind is PromptKind.CHOOSE and game.prompt.option("end")


def test_not_moving_is_allowed() -> None:
    game = make_game(CORRIDOR)
    moves_after(game, "K", 3)
    game.apply(Move("K", h("C2")))
    assert game.state.figures["K"].hex == h("C2")
    assert game.history[-1].events[0].kind == "stayed"


def test_an_illegal_move_names_the_reason_and_the_legal_hexes() -> None:
    game = make_game(CORRIDOR)
    moves_after(game, "K", 2)
    with pytest.raises(IllegalActionError, match=r"taken by F.*Legal hexes: C2, B2, D2$"):
        game.apply(Move("K", h("E2")))
    with pytest.raises(IllegalActionError, match=r"3 hexes away.*may move 2"):
        game.apply(Move("K", h("F2")))
    with pytest.raises(IllegalActionError, match="cannot be entered"):
        game.apply(Move("K", h("C1")))
    assert game.prompt.kind is PromptKind.MOVE  # nothing changed


def test_doors_stop_a_move_and_open_next_turn() -> None:
    game = make_game(CORRIDOR.replace("F", "."), doors=["D2|E2"])
    assert moves_after(game, "K", 6) == {"C2", "B2", "D2"}
    game.apply(Move("K", h("D2")))  # red's only figure has acted: blue's turn
    game.apply(Choose("end"))
    # Red again: K starts in front of the door and may open it at once, then move normally.
    game.apply(Choose("K"))
    assert game.prompt.kind is PromptKind.CHOOSE and game.prompt.option("open:D2|E2")
    game.apply(Choose("open:D2|E2"))
    assert game.state.door(h("D2"), h("E2")) == "open"
    game.apply(Roll((6,)))
    assert {"E2", "F2", "G2"} <= labels(game.prompt.moves)


def test_doors_stay_open_unless_the_scenario_says_otherwise() -> None:
    for stays, expected in ((True, "open"), (False, "closed")):
        game = make_game(AT_DOOR.replace("X", "."), doors=["D2|E2"], options=f"doors_stay_open = {str(stays).lower()}")
        game.apply(Choose("K"))
        game.apply(Choose("open:D2|E2"))
        game.apply(Roll((6,)))
        game.apply(Move("K", h("B2")))  # walks away from the doorway; Red's turn ends
        assert game.state.door(h("D2"), h("E2")) == expected


def test_opening_a_door_onto_an_enemy_starts_combat_and_ends_the_move() -> None:
    game = make_game(AT_DOOR.replace("X", "e"), doors=["D2|E2"])
    game.apply(Choose("K"))
    game.apply(Choose("open:D2|E2"))
    p = game.prompt
    assert p.kind is PromptKind.ROLL and len(p.dice) == 2 and "Combat" in p.text
    assert [e.kind for e in game.history[-1].events][:2] == ["door_opened", "ambush"]


def test_locked_door_needs_4_to_6() -> None:
    start = AT_DOOR.replace("X", ".")
    game = make_game(start, locked=["D2|E2"])
    game.apply(Choose("K"))
    assert game.prompt.option("unlock:D2|E2")
    game.apply(Choose("unlock:D2|E2"))
    assert game.prompt.kind is PromptKind.ROLL and "4–6 opens" in game.prompt.text
    game.apply(Roll((3,)))
    assert game.state.door(h("D2"), h("E2")) == "locked"
    assert game.state.figures["K"].hex == h("D2")
    assert game.prompt.kind is PromptKind.CHOOSE and game.prompt.option("K") is None  # its move ended

    game = make_game(start, locked=["D2|E2"])
    game.apply(Choose("K"))
    game.apply(Choose("unlock:D2|E2"))
    game.apply(Roll((4,)))
    assert game.state.door(h("D2"), h("E2")) == "open"
    assert game.prompt.kind is PromptKind.ROLL and "moves up to" in game.prompt.text


def test_turn_order_ties_reroll_among_the_tied() -> None:
    game = make_game(CORRIDOR, start=False)
    assert game.prompt.kind is PromptKind.ROLL and len(game.prompt.dice) == 2
    game.apply(Roll((4, 4)))
    assert "Tie" in game.prompt.text
    game.apply(Roll((2, 5)))
    assert game.state.turn_order == [1, 0]  # blue rolled higher
    assert "blue" in game.prompt.text


def test_dice_answers_are_checked() -> None:
    game = make_game(CORRIDOR, start=False)
    with pytest.raises(IllegalActionError, match="needs 2 die result"):
        game.apply(Roll((4,)))
    with pytest.raises(IllegalActionError, match="7 is not a result of a 6-sided die"):
        game.apply(Roll((7, 1)))
    with pytest.raises(IllegalActionError, match="answer with the die results"):
        game.apply(Choose("end"))
    game.apply(Roll((6, 1)))
    with pytest.raises(IllegalActionError, match="'Q' is not offered here; choose one of: F, K, end"):
        game.apply(Choose("Q"))


def test_the_turn_passes_when_every_figure_acted_and_rounds_count() -> None:
    game = make_game(CORRIDOR.replace("F", "."))
    moves_after(game, "K", 1)
    game.apply(Move("K", h("B2")))
    assert "blue" in game.prompt.text  # red had one figure
    game.apply(Choose("end"))
    assert game.state.round == 2 and "red" in game.prompt.text


def test_removal_is_confirmed_before_play_goes_on() -> None:
    game = make_game(CORRIDOR.replace("F", "e").replace("b", "#"))
    moves_after(game, "K", 6)
    game.apply(Move("K", h("D2")))
    game.apply(Roll((6, 2)))  # K kills e
    p = game.prompt
    assert p.kind is PromptKind.REMOVE and p.figure == "e" and "E2" in p.text
    with pytest.raises(IllegalActionError, match="first take e off the table"):
        game.apply(Choose("end"))
    game.apply(Remove("e"))
    assert game.prompt.kind is PromptKind.GAME_OVER and game.state.winner == "red"


def test_undo_restores_the_state_before_the_last_action() -> None:
    game = make_game(CORRIDOR)
    before = game.state.to_dict()
    game.apply(Choose("K"))
    game.apply(Roll((5,)))
    game.undo()
    game.undo()
    assert game.state.to_dict() == before
