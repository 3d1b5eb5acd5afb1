"""Tenkey in the real app window, against a real engine serving tenkey-skirmish (its own process, under Xvfb)."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window


@pytest.mark.window
def test_the_tablet_shows_moves_ranges_blocked_routes_areas_and_lines_on_the_zone_mat() -> None:
    result = run_window("tests.tenkey.tenkey_window")
    checks = result["checks"]
    for check in ("the obstacle zone drawn with a pattern and its name", "both characters in 2 drawn apart, each named",
                  "landscape: every query button's text on one line at 18 px or more (cramped: [])",
                  "portrait: every query button's text on one line at 18 px or more (cramped: [])",
                  "a blocked route with its reason", "the area shaded on 5 and 6",
                  "the line through Bram catches Bram and Maud"):
        assert check in checks
    for name in ("tenkey-board", "tenkey-moves", "tenkey-range", "tenkey-area", "tenkey-line", "tenkey-portrait"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    check_guide_picture("tenkey-tablet.png", "tenkey-area")


@pytest.mark.window
def test_every_query_button_reads_on_one_line_in_japanese_either_way_up() -> None:
    """The six query buttons in Japanese, landscape then portrait (the window turned in the same run): each text on
    one line at the readable size (English landscape is checked in the run above)."""
    result = run_window("tests.tenkey.tenkey_window", "query-rows", env={"HEXA_LANG": "ja"})
    checks = result["checks"]
    for where in ("ja 1280x800", "ja 800x1280"):
        assert any(c.startswith(f"{where}: every query button's text on one line") for c in checks), where
    for name in ("tenkey-ja-board", "tenkey-ja-portrait"):
        assert (SHOTS / f"{name}.png").exists(), name
