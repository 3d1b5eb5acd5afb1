"""The dice the camera reads, on the tablet's window: the proposal with its countdown and "that's wrong", and the
question with face buttons for the die it could not read, against a real engine hearing a real camera socket."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window


@pytest.mark.window
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_read_roll_and_a_question_on_the_tablet(lang: str) -> None:
    result = run_window("tests.app.window_dice", lang)
    checks = result["checks"]
    for check in ("the proposal shown under the prompt's title", "a one-tap \"that's wrong\"", "the countdown runs",
                  "that's wrong: the reading is gone", "face buttons for the doubtful die", "the question says why",
                  "the tapped face taken; the Goblins' throw awaited", "the roll played",
                  "the log says the camera read it", "typing the faces stays available"):
        assert check in checks
    suffix = "" if lang == "en" else f"-{lang}"
    for name in (f"dice-read{suffix}", f"dice-question{suffix}"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    if lang == "en":
        check_guide_picture("dice-read.png", "dice-read")
