"""What the engine keeps of the tray between the camera's frames: rolls taken once, never from before the prompt,
never in tablet mode or for the game master's prompt, and a proposal taken only when its countdown ran out."""

from __future__ import annotations

import pytest

from engine.actions import Choose, Roll
from engine.game import Game
from engine.scenario import load_scenario
from engine.service.dice_answers import DiceAnswers, DiceCommandError
from engine.wire import DieKind, DieSeen, TraySeen


def tray(roll: int, *faces: int) -> TraySeen:
    return TraySeen("tray", roll, True, tuple(DieSeen(i, DieKind.D6, f, 0.99, 30.0 * i, 20.0, True)
                                              for i, f in enumerate(faces)))


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
