"""Race in the real app window, against a real engine serving race.toml (each run in its own process, under Xvfb)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.race.conftest import ROOT, race_env

SHOTS = ROOT / "artifacts" / "screenshots"


@pytest.mark.window
def test_race_is_played_in_the_app_window() -> None:
    base = [sys.executable, "-m", "tests.race.race_window"]
    if shutil.which("xvfb-run"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *base]
    elif os.environ.get("DISPLAY"):
        command = base
    else:
        pytest.skip("no display: install Xvfb (apt-get install xvfb) or run under a desktop session")
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "KIVY_NO_ARGS": "1", **race_env()})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"no result from the window scenario (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    result = json.loads(lines[-1])
    assert result["ok"], f"{result['error']}\nchecks passed: {result['checks']}\nengine: {result.get('engine_log')}"
    assert "the exits drawn on M1, M3 and M5" in result["checks"] and "Dash dragged to D1" in result["checks"]
    for name in ("race-run", "race-board"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
