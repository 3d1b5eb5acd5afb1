"""Lost Worlds in the real app window, against a real engine serving the ruined tower (its own process, Xvfb)."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window


@pytest.mark.window
def test_the_tablet_shows_levels_pages_movement_points_reach_and_battle_ranges_broken_by_height() -> None:
    result = run_window("tests.lost_worlds.lw_window")
    checks = result["checks"]
    for check in ("every space's level on the board", "each level shaded its own way",
                  "the movement points left while moving", "each reachable space labelled with its cost while moving",
                  "the page each player opens, in the prompt panel", "his movement points left on screen",
                  "each reachable space labelled with its cost", "where height breaks a battle range, with the reason",
                  "a battle range that holds and the back space"):
        assert check in checks
    for name in ("lost-worlds-board", "lost-worlds-moving", "lost-worlds-combat"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    check_guide_picture("lost-worlds-tablet.png", "lost-worlds-combat")
