"""Keep bench/app_frames.py working: run it in quick mode under Xvfb and check the report's shape (never timing)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.window
def test_app_frames_bench_runs_quick(tmp_path: Path) -> None:
    if not (shutil.which("xvfb-run") or os.environ.get("DISPLAY")):
        pytest.skip("no display: install Xvfb (apt-get install xvfb) to run the app benchmark")
    out = tmp_path / "app_frames.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "app_frames.py"), "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "message → pixels" in done.stdout and "pan (matrix only)" in done.stdout
    result = json.loads(out.read_text())
    assert result["quick"] is True
    assert result["map"] == {"hexes": 900, "figures": 40, "window": [1280, 800]}
    for key in ("floor", "pan", "pan_baseline", "pan_updates", "latency", "latency_table", "latency_baseline"):
        r = result[key]
        assert r["n"] > 0, key
        assert 0 < r["p50_ms"] <= r["p95_ms"], key
    assert result["targets"] == {"frame_p95_ms": 33.3, "message_to_pixels_p95_ms": 50.0}
    # message → pixels split: the UI thread's, the network agent's and the process's CPU, when it was applied and shown
    parts = result["latency"]["parts"]
    assert set(parts) == {"ui_cpu", "agent_cpu", "process_cpu", "applied", "refreshed"}
    assert all(parts[key]["n"] == result["latency"]["n"] for key in parts)
    assert 0 < parts["applied"]["p50_ms"] <= parts["refreshed"]["p50_ms"]  # each update applied, then refreshed
    assert result["load"] is False and "load_1min_at_end" in result["machine"]
    assert "ui_cpu" in done.stdout
    board = result["boards"]["laramie-station"]  # a rule set's own board (stacks), its states from a played game
    assert board["map"]["states"] > 0 and board["map"]["figures"] > 0
    for key in ("latency", "latency_table", "latency_baseline"):
        assert board[key]["n"] > 0 and 0 < board[key]["p50_ms"] <= board[key]["p95_ms"], key
    # the app's first updates are timed apart, and every update measured is a state the app had not shown
    assert board["warmup"]["n"] == 4 and board["warmup"]["max_ms"] > 0
    assert board["map"]["sent_again"] == 0 and board["map"]["games"] >= 1
    assert "message → pixels on the rule sets' boards" in done.stdout
