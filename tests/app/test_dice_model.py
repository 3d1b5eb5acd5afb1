"""The tray's reading as the tablet holds it: which prompt it answers, its countdown, the commands it makes."""

from __future__ import annotations

import pytest

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.dice_model import dice_read
from companion_app.viewmodels.log_model import log_entries
from companion_app.viewmodels.prompt_model import PromptModel
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict


@pytest.fixture
def prompt() -> PromptModel:
    game = Game(load_scenario("goblins-treasure"))
    snapshot = game_snapshot(game)
    return PromptModel.from_snapshot(snapshot, build_board(scenario_to_dict(game.scenario, game.points()), snapshot))


def table(**dice: object) -> dict[str, object]:
    return {"dice": {"state": "proposal", "values": [5, 3], "text": "Read: 5 3", "tray": "tray", "roll": 2, "n": 0,
                     "missing": [], "countdown_s": 3.0, "remaining_s": 2.5, **dice}}


def test_a_proposal_counts_down_from_its_arrival_and_says_wrong_or_take(prompt: PromptModel) -> None:
    read = dice_read(table(), prompt, 0, now=100.0)
    assert read is not None and read.proposal and read.heading == "Read by the camera: 5 3"
    assert read.countdown_text(100.0) == "Taken in 3 s unless it is wrong"
    assert read.countdown_text(101.9) == "Taken in 1 s unless it is wrong"
    assert read.countdown_text(103.0) == "Taking it…" and read.left_s(110.0) == 0.0
    assert read.wrong() == {"op": "wrong", "tray": "tray", "roll": 2}
    assert read.take() == {"op": "take", "tray": "tray", "roll": 2}


def test_a_reading_for_another_prompt_or_none_shows_nothing(prompt: PromptModel) -> None:
    assert dice_read(table(n=4), prompt, 0, 0.0) is None  # read for a prompt the tablet has left
    assert dice_read(table(values=[5]), prompt, 0, 0.0) is None
    assert dice_read({"dice": None}, prompt, 0, 0.0) is None and dice_read(None, prompt, 0, 0.0) is None


def test_a_question_asks_a_tap_for_each_doubtful_die_and_sends_them_together(prompt: PromptModel) -> None:
    raw = table(state="question", values=[None, None], missing=[0, 1], countdown_s=None, remaining_s=None,
                text="I see 2 dice I can't read (cocked): reroll them or tap their faces.")
    read = dice_read(raw, prompt, 0, 0.0)
    assert read is not None and read.question and read.heading.startswith("I see 2 dice")
    assert [d.roller for d in read.missing] == ["adventurers", "goblins"] and read.countdown_text(0.0) == ""
    with pytest.raises(ValueError, match="shows 1 to 6"):
        read.tap(0, 7)
    assert read.tap(1, 2) is None
    assert read.tap(0, 6) == {"op": "faces", "tray": "tray", "roll": 2, "faces": [6, 2]}


def test_the_log_says_which_rolls_the_camera_read() -> None:
    entries = log_entries([
        {"n": 1, "action": {"kind": "roll", "values": [5, 3], "source": "camera"}, "text": "roll 5 3 @camera"},
        {"n": 2, "action": {"kind": "roll", "values": [4], "source": "camera+tablet"}, "text": "roll 4 @camera+tablet"},
        {"n": 3, "action": {"kind": "roll", "values": [2]}, "text": "roll 2"}])
    assert [e.heading for e in entries] == [
        "1. roll 5 3 @camera (read by the camera)",
        "2. roll 4 @camera+tablet (read by the camera, faces it could not read tapped)", "3. roll 2"]
