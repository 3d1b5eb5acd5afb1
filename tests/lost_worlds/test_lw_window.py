"""Lost Worlds in the real app window, against a real engine serving the ruined tower (its own process, Xvfb)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"


@pytest.mark.window
def test_the_tablet_shows_levels_pages_movement_points_reach_and_battle_ranges_broken_by_height() -> None:
    base = [sys.executable, "-m", "tests.lost_worlds.lw_window"]
    if shutil.which("xvfb-run"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *base]
    elif os.environ.get("DISPLAY"):
        command = base
    else:
        pytest.skip("no display: install Xvfb (apt-get install xvfb) or run under a desktop session")
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "KIVY_NO_ARGS": "1"})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"no result from the window scenario (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    result = json.loads(lines[-1])
    assert result["ok"], f"{result['error']}\nchecks passed: {result['checks']}\nengine: {result.get('engine_log')}"
    checks = result["checks"]
    for check in ("every space's level on the board", "each level shaded its own way",
                  "the movement points left while moving", "each reachable space labelled with its cost while moving",
                  "the page each player opens, in the prompt panel", "his movement points left on screen",
                  "each reachable space labelled with its cost", "where height breaks a battle range, with the reason",
                  "the battle range to the knight and his back space"):
        assert check in checks
    for name in ("lost-worlds-board", "lost-worlds-moving", "lost-worlds-combat"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    doc = ROOT / "docs" / "images" / "lost-worlds-tablet.png"
    assert doc.read_bytes() == (SHOTS / "lost-worlds-combat.png").read_bytes()
