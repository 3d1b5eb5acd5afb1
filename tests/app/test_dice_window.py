"""The dice the camera reads, on the tablet's window: the proposal with its countdown and "that's wrong", the
question with face buttons for the die it could not read, a camera's word that its tray cannot be read, and the
Camera screen's switch between the camera's dice and the tablet's, against
a real engine hearing a real camera socket; at each window size a table sees (a phone, a tablet held either way, a
TV), the prompt shows whole, "Roll for me" included: nothing to scroll, no button cut."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window

SIZES = [("720", "1280"), ("800", "1280"), ("1280", "800"), ("1920", "1080")]


@pytest.mark.window
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["phone", "portrait", "landscape", "tv"])
def test_a_read_roll_and_a_question_on_the_tablet(width: str, height: str, lang: str) -> None:
    result = run_window("tests.app.window_dice", lang, env={"HEXA_TEST_WIDTH": width, "HEXA_TEST_HEIGHT": height})
    checks = result["checks"]
    size = f"{width}x{height}"
    for check in ("the proposal shown under the prompt's title", "a one-tap \"that's wrong\"", "the countdown runs",
                  "that's wrong: the reading is gone", "face buttons for the doubtful die", "the question says why",
                  "the tapped face taken; the Goblins' throw awaited", "the roll played",
                  "the log says the camera read it", "typing the faces stays available", "roll for me offered",
                  "the chances before the roll give way to the reading",
                  "the chances before the roll back for the new throw",
                  "a tray that cannot be read: said on the board's strip", "and gone once it reads again",
                  f"the read roll shows whole at {size}: nothing to scroll, no button cut",
                  f"the camera's question shows whole at {size}: nothing to scroll, no button cut",
                  "the Camera screen: dice camera, and the button to the other way",
                  "the engine takes the dice from the tablet now",
                  "the Camera screen: dice tablet, and the button to the other way",
                  "the engine takes the dice from the camera now"):
        assert check in checks
    suffix = ("" if lang == "en" else f"-{lang}") + ("" if size == "1280x800" else f"-{size}")
    for name in (f"dice-read{suffix}", f"dice-question{suffix}", f"dice-problem{suffix}", f"dice-mode-camera{suffix}",
                 f"dice-mode-tablet{suffix}"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    if lang == "en" and size == "1280x800":
        check_guide_picture("dice-read.png", "dice-read")
