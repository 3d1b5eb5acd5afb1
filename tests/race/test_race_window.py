"""Race in the real app window, against a real engine serving race.toml (each run in its own process, under Xvfb)."""

from __future__ import annotations

import pytest

from tests.app.window_run import SHOTS, run_window
from tests.race.conftest import race_env


@pytest.mark.window
def test_race_is_played_in_the_app_window() -> None:
    result = run_window("tests.race.race_window", env=race_env())
    assert "the exits drawn on M1, M3 and M5" in result["checks"] and "Dash dragged to D1" in result["checks"]
    for name in ("race-run", "race-board"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
