"""What the engine keeps of the tray between the camera's frames: rolls taken once, never from before the prompt,
never in tablet mode or for the game master's prompt, and a proposal taken only when its countdown ran out."""

from __future__ import annotations

import pytest

from engine.actions import Choose, Roll
from engine.game import Game
from engine.scenario import load_scenario
from engine.service.dice_answers import DiceAnswers, DiceCommandError
from engine.wire import DieDoubt, DieKind, DieSeen, TraySeen


def tray(roll: int, *faces: int | None) -> TraySeen:
    """A settled tray of d6 (a face None: a cocked die)."""
    return TraySeen("tray", roll, True, tuple(
        DieSeen(i, DieKind.D6, f, 0.99 if f is not None else 0.0, 30.0 * i, 20.0, True,
                None if f is not None else DieDoubt.COCKED) for i, f in enumerate(faces)))


@pytest.fixture
def game() -> Game:
    return Game(load_scenario("tutorial"))  # the turn order first: Knights 1d6, then Goblins 1d6


def test_a_proposal_is_taken_when_its_countdown_ran_out_and_only_then(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=2.0)
    assert dice.take(game, tray(1, 4), now=10.0)
    assert dice.due(game, 10.5) is None  # one throw: the Goblins' is awaited
    assert dice.take(game, tray(2, 6), now=11.0)
    view = dice.view(game, 12.0)
    assert view is not None and view.state == "proposal" and view.values == (4, 6) and view.remaining_s == 1.0
    assert dice.due(game, 12.9) is None
    assert dice.due(game, 13.0) == Roll((4, 6), source="camera")
    assert dice.view(game, 13.0) is None and dice.due(game, 20.0) is None


def test_a_settled_roll_is_seen_once_and_dice_from_before_the_prompt_are_never_taken(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=0.0)
    dice.take(game, tray(1, 4), 0.0)
    dice.take(game, tray(2, 6), 0.0)
    game.apply(dice.due(game, 0.0) or Roll(()))
    assert not dice.take(game, tray(2, 6), 1.0)  # the same roll, frame after frame
    game.apply(Choose("done"))
    assert not dice.take(game, tray(3, 5), 2.0)  # thrown while a choice was asked: seen, not kept
    game.apply(Choose(game.prompt.options[0].id))
    assert game.prompt.dice  # a movement roll now
    assert not dice.take(game, tray(3, 5), 3.0) and dice.view(game, 3.0) is None
    assert dice.take(game, tray(4, 2), 4.0)
    assert dice.due(game, 4.0) == Roll((2,), source="camera")


def test_tablet_mode_takes_nothing_and_a_command_for_a_reading_not_shown_is_refused(game: Game) -> None:
    dice = DiceAnswers("tablet")
    assert not dice.take(game, tray(1, 4), 0.0) and dice.view(game, 0.0) is None
    with pytest.raises(DiceCommandError, match="no longer shown"):
        dice.command(game, {"op": "take", "tray": "tray", "roll": 1})
    assert dice.command(game, {"op": "mode", "mode": "camera"}) == ({"op": "mode", "mode": "camera"}, None)
    assert dice.take(game, tray(2, 4), 0.0)


def test_the_game_masters_prompt_is_never_answered_by_the_camera(game: Game) -> None:
    dice = DiceAnswers("camera")
    assert not dice.take(game, tray(1, 4), 0.0, gm_decides=True)


def test_an_undo_or_an_answer_typed_meanwhile_drops_the_reading(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=5.0)
    dice.take(game, tray(1, 4), 0.0)
    dice.take(game, tray(2, 6), 0.0)
    game.apply(Roll((1, 2)))  # typed on a tablet during the countdown
    assert dice.due(game, 10.0) is None and dice.view(game, 10.0) is None


def test_a_cocked_die_that_falls_flat_replaces_the_question_with_its_face(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=2.0)
    assert dice.take(game, tray(1, 4), 0.0)  # the Knights' 4; the Goblins' die lands cocked
    assert dice.take(game, tray(2, None), 1.0)
    question = dice.view(game, 1.0)
    assert question is not None and question.state == "question" and question.values == (4, None)
    assert not dice.take(game, tray(2, None), 1.1)  # the same reading again: nothing changes
    assert dice.take(game, tray(2, 3), 1.5)  # it fell flat: the same roll, read again
    proposal = dice.view(game, 1.5)
    assert proposal is not None and (proposal.state, proposal.values, proposal.roll) == ("proposal", (4, 3), 2)
    assert dice.due(game, 3.4) is None and dice.due(game, 3.5) == Roll((4, 3), source="camera")


def test_a_die_nudged_during_the_countdown_gives_its_new_face_and_a_new_countdown(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=2.0)
    dice.take(game, tray(1, 4), 0.0)
    dice.take(game, tray(2, 6), 1.0)
    assert dice.take(game, tray(2, 2), 2.5)  # knocked over before the countdown ran out: now it shows 2
    assert dice.due(game, 3.0) is None
    assert dice.due(game, 4.5) == Roll((4, 2), source="camera")


def test_a_face_a_player_tapped_stands_whatever_the_same_roll_reads_later(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=2.0)
    dice.take(game, tray(1, None), 0.0)
    assert dice.command(game, {"op": "faces", "tray": "tray", "roll": 1, "faces": [5]})[1] is None
    assert not dice.take(game, tray(1, 2), 1.0)
    view = dice.view(game, 1.0)
    assert view is not None and view.state == "partial" and view.values == (5, None)


def test_a_roll_no_longer_shown_is_not_read_again(game: Game) -> None:
    dice = DiceAnswers("camera", countdown_s=2.0)
    dice.take(game, tray(1, 4), 0.0)
    dice.take(game, tray(2, 6), 0.0)
    dice.command(game, {"op": "wrong", "tray": "tray", "roll": 2})
    assert not dice.take(game, tray(2, 5), 1.0) and dice.view(game, 1.0) is None
