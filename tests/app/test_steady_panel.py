"""The play panel's undo button and header keep their heights from move to move (a real window)."""

from __future__ import annotations

import pytest

from tests.app.window_run import run_window


@pytest.mark.window
def test_the_undo_button_takes_two_lines_and_the_header_keeps_its_height() -> None:
    result = run_window("tests.app.window_steady_panel")
    button, two_lines = result["button"], result["button"]["two_lines"]
    heights = {button[k]["height"] for k in ("short", "long", "long_ja", "short_again")}
    assert len(heights) == 1, button  # the same height for a word and for a long sentence
    for key in ("long", "long_ja"):  # a long action cut short to two lines, marked as cut
        assert button[key]["text_height"] <= two_lines + 0.5, button[key]
        assert button[key]["shown"].endswith("…") and len(button[key]["shown"]) > 8, button[key]
    assert button["short"]["shown"] == "Undo" and button["short"]["text_height"] < two_lines  # not padded out
    header = result["header"]
    assert header["short_after"] == header["long"], header  # a shorter turn's words: the panel does not move up
    assert header["short_wide"] < header["long"], header  # another width: it fits its text again
