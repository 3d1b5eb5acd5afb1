"""Keep bench/end_to_end.py working: the synthetic table, camera service, engine and tablet app as real processes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="the tablet app needs Xvfb")
def test_end_to_end_bench_times_every_stage_of_a_put_down_move(tmp_path: Path) -> None:
    out = tmp_path / "end_to_end.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "end_to_end.py"), "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["quick"] is True and result["moves_timed"] > 0
    total = result["total"]
    assert 0 < total["p50_ms"] <= total["p95_ms"]
    assert len(result["stages"]) == 4
    for sample in result["samples"]:  # the stages follow each other: put down, settled, sent, judged, shown
        assert sample["down"] <= sample["captured"] <= sample["tracks_sent"] <= sample["state_sent"] <= sample["shown"]
