"""Race in the real app window, against a real engine serving race.toml (each run in its own process, under Xvfb)."""

from __future__ import annotations

import os

import pytest

from engine import rules
from tests.app.window_run import SHOTS, run_window
from tests.race.conftest import ROOT, race_env


@pytest.mark.window
def test_race_is_played_in_the_app_window() -> None:
    result = run_window("tests.race.race_window", env=race_env())
    assert "the exits drawn on M1, M3 and M5" in result["checks"] and "Dash dragged to D1" in result["checks"]
    for name in ("race-run", "race-board"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000


@pytest.mark.window
def test_race_on_squares_is_drawn_and_played_in_the_app_window() -> None:
    folders = os.pathsep.join(str(ROOT / "docs" / "examples" / name) for name in ("squares", "race"))
    result = run_window("tests.race.race_squares_window", env={rules.FOLDERS_VARIABLE: folders})
    assert "40 squares drawn" in result["checks"] and "Dash dragged to B1" in result["checks"]
    shot = SHOTS / "race-squares-board.png"
    assert shot.exists() and shot.stat().st_size > 10_000
