"""The demo in a real window under Xvfb (own process): the app comes up on the table hand and a drag is judged by
the engine through the camera."""

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
@pytest.mark.parametrize(("scenario", "shots"), [("goblins-treasure", ("demo", "demo-camera")),
                                                 ("tenkey-skirmish", ("demo-tenkey-skirmish",
                                                                      "demo-tenkey-skirmish-camera"))])
def test_demo_window_drag_is_judged_through_the_camera(scenario: str, shots: tuple[str, str]) -> None:
    """The hex map, and the zone mat: a figure dragged on the tablet is moved on the table and judged from it."""
    base = [sys.executable, "-m", "tests.demo.window_demo", scenario]
    if shutil.which("xvfb-run"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *base]
    elif os.environ.get("DISPLAY"):
        command = base
    else:
        pytest.skip("no display: install Xvfb (apt-get install xvfb) or run under a desktop session")
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "KIVY_NO_ARGS": "1"})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"no result from the demo window (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    result = json.loads(lines[-1])
    assert result["ok"], f"{result['error']}\nchecks passed: {result['checks']}"
    assert any(c.startswith("dragged ") and "the camera saw it" in c for c in result["checks"])
    assert "the camera preview of the synthetic table is shown" in result["checks"]
    for name in shots:
        shot = SHOTS / f"{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000
