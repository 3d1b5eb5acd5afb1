"""A normal start of the tablet app prints a few lines and none that look like an error; --verbose shows Kivy's own."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.app.engine_process import EngineProcess
from tests.app.window_run import ROOT

MOST_LINES = 5  # a few; Kivy alone used to print about 80, with tracebacks
LOOKS_LIKE_AN_ERROR = re.compile(r"Traceback|Error|CRITICAL|Exception", re.IGNORECASE)


def start_app(*options: str, env: dict[str, str] | None = None) -> tuple[dict[str, object], list[str]]:
    """Start the app against a real engine until it shows the board; its result and its stderr lines."""
    if not shutil.which("xvfb-run"):
        pytest.skip("no Xvfb: install the 'xvfb' package to run the window tests")
    engine = EngineProcess()
    try:
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", sys.executable, "-m",
                   "tests.app.window_quiet_start", "--engine", "127.0.0.1",
                   "--pub-port", engine.pub.rsplit(":", 1)[1], "--command-port", engine.commands.rsplit(":", 1)[1],
                   "--size", "1280x800", *options]
        clean = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_") and k != "HEXA_DEBUG"}
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180,
                              env={**clean, **(env or {})})
    finally:
        engine.stop()
    results = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert results, f"the app gave no result (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    result = json.loads(results[-1])
    assert result["ok"], f"{result['error']}\n{proc.stderr[-3000:]}"
    return result, proc.stderr.splitlines()


@pytest.mark.window
@pytest.mark.parametrize("how", ["hexa app", "hexa demo"])
def test_a_normal_start_prints_a_few_lines_and_no_error(how: str) -> None:
    _, lines = start_app(*(["--as-demo"] if how == "hexa demo" else []))
    assert len(lines) <= MOST_LINES, f"{len(lines)} lines on stderr:\n" + "\n".join(lines)
    alarming = [line for line in lines if LOOKS_LIKE_AN_ERROR.search(line)]
    assert not alarming, "start-up lines that look like an error:\n" + "\n".join(alarming)


@pytest.mark.window
@pytest.mark.parametrize("how", ["--verbose", "HEXA_DEBUG"])
def test_verbose_or_hexa_debug_shows_all_of_kivys_start_up(how: str) -> None:
    options, env = (["--verbose"], None) if how == "--verbose" else ([], {"HEXA_DEBUG": "1"})
    _, lines = start_app(*options, env=env)
    text = "\n".join(lines)
    assert "Window" in text and "Provider: sdl2" in text, text[-3000:]  # Kivy's INFO lines are back
    assert len(lines) > MOST_LINES
