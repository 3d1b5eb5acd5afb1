"""Tenkey in the real app window, against a real engine serving tenkey-skirmish (its own process, under Xvfb)."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window


@pytest.mark.window
def test_the_tablet_shows_moves_ranges_blocked_routes_areas_and_lines_on_the_zone_mat() -> None:
    result = run_window("tests.tenkey.tenkey_window")
    checks = result["checks"]
    for check in ("the obstacle zone drawn with a pattern and its name", "both characters in 2 drawn apart, each named",
                  "a blocked route with its reason", "the area shaded on 5 and 6",
                  "the line through Bram catches Bram and Maud"):
        assert check in checks
    for name in ("tenkey-board", "tenkey-moves", "tenkey-range", "tenkey-area", "tenkey-line"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    check_guide_picture("tenkey-tablet.png", "tenkey-area")
