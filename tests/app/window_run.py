"""Running a window scenario module in a process of its own under Xvfb (Kivy keeps global state) and reading its
one-line JSON result: what every real-window test does before checking what the scenario saw."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"


def png_size(path: Path) -> tuple[int, int]:
    """A PNG file's width and height, from its header."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def check_guide_picture(picture: str, shot: str) -> None:
    """The guide's ``docs/images/picture`` is a window picture like ``shot`` (the same size); where the run was asked
    to write the guides' pictures (HEXA_UPDATE_GUIDE_PICTURES=1) it is that very screenshot."""
    doc, made = ROOT / "docs" / "images" / picture, SHOTS / f"{shot}.png"
    assert png_size(doc) == png_size(made), f"{picture} is not a picture of the window as {shot} is"
    if os.environ.get("HEXA_UPDATE_GUIDE_PICTURES") == "1":
        assert doc.read_bytes() == made.read_bytes()


def run_window(module: str, *args: str, timeout_s: float = 240, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``python -m module args`` under Xvfb (or the desktop's display); its result, which must be ``ok``.

    Skips the test where there is no display at all, and fails with the scenario's error, the checks that passed
    and the end of the engine's log when the scenario failed."""
    base = [sys.executable, "-m", module, *args]
    if shutil.which("xvfb-run"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *base]
    elif os.environ.get("DISPLAY"):
        command = base
    else:
        pytest.skip("no display: install Xvfb (apt-get install xvfb) or run under a desktop session")
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout_s,
                          env={**os.environ, "KIVY_NO_ARGS": "1", **(env or {})})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"no result from {module} (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1])
    assert result["ok"], f"{result['error']}\nchecks passed: {result['checks']}\nengine: {result.get('engine_log')}"
    return result
