"""The table's language switched on the Setup screen, in a real window against a real engine."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, run_window


@pytest.mark.window
def test_the_setup_screen_switches_english_and_japanese_without_losing_the_game() -> None:
    result = run_window("tests.app.window_scenario", "language", env={"HEXA_LANG": "en"})
    checks = " ".join(result["checks"])
    for needed in ("navigation and the Setup screen's buttons in Japanese at once", "the header in Japanese",
                   "the game goes on", "the app's texts back in English"):
        assert needed in checks, needed
    for name in ("language-ja-setup", "language-ja-play"):
        assert (SHOTS / f"{name}.png").exists(), name
