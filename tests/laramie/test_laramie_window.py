"""Laramie in the real app window, against a real engine serving laramie-station (its own process, under Xvfb)."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window


@pytest.mark.window
def test_the_tablet_shows_fronts_state_badges_stacks_and_every_targets_to_hit_number() -> None:
    result = run_window("tests.laramie.laramie_window")
    checks = result["checks"]
    for check in ("every figure drawn with its front", "every figure's state as a badge of a letter and a word",
                  "Gary and Jack drawn as a stack of two, Gary marked the hero",
                  "the stack's count and its list on screen",
                  "the stack lists both, with states", "the to-hit number with each modifier listed",
                  "why a target cannot be fired at", "a line to every enemy"):
        assert check in checks
    for name in ("laramie-board", "laramie-to-hit"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    check_guide_picture("laramie-tablet.png", "laramie-to-hit")
