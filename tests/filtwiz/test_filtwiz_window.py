"""Filtwiz's sight ruling in the real app window, against a real engine (its own process, under Xvfb)."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, check_guide_picture, run_window


@pytest.mark.window
def test_the_tablet_draws_the_line_the_gm_rules_on_with_the_hexes_it_only_touches() -> None:
    result = run_window("tests.filtwiz.filtwiz_window")
    checks = result["checks"]
    for check in ("the sight ruling asked, drawing the line and the two rocks it only touches",
                  "no GM named: the table rules, told which hexes the line touches", "the line ruled blocked",
                  "nothing left to rule on"):
        assert check in checks
    for name in ("filtwiz-sight-ruling", "filtwiz-sight-ruled"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    check_guide_picture("filtwiz-sight-ruling.png", "filtwiz-sight-ruling")
