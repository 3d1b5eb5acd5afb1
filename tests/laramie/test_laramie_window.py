"""Laramie in the real app window, against a real engine serving laramie-station (its own process, under Xvfb)."""

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
def test_the_tablet_shows_fronts_state_badges_stacks_and_every_targets_to_hit_number() -> None:
    base = [sys.executable, "-m", "tests.laramie.laramie_window"]
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
    for check in ("every figure drawn with its front", "every figure's state as a badge of a letter and a word",
                  "Gary and Jack drawn as a stack of two, Gary marked the hero",
                  "the stack's count and its list on screen",
                  "the stack lists both, with states", "the to-hit number with each modifier listed",
                  "why a target cannot be fired at", "a line to every enemy"):
        assert check in checks
    for name in ("laramie-board", "laramie-to-hit"):
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
    doc = ROOT / "docs" / "images" / "laramie-tablet.png"
    assert doc.read_bytes() == (SHOTS / "laramie-to-hit.png").read_bytes()
