"""Keep bench/engine_latency.py working: quick mode through real processes, checking the report's shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_engine_latency_bench_runs_quick_and_reports_both_variants(tmp_path: Path) -> None:
    out = tmp_path / "engine_latency.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "engine_latency.py"), "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "engine (table.view)" in done.stdout and "baseline plain forwarder" in done.stdout
    result = json.loads(out.read_text())
    assert result["quick"] is True and set(result["machine"]) == {"nproc", "cpu", "python"}
    assert (result["figures"], result["rate_hz"], result["tablets"]) == (60, 30.0, 3)
    stages = result["engine_stages_in_process"]
    assert {"decode tracks", "fuse, register, compare with the game", "total"} <= set(stages)
    assert all(0 <= s["p50_ms"] <= s["p95_ms"] for s in stages.values())
    for key in ("engine", "baseline_forwarder"):
        r = result[key]
        # Every tablet heard updates; how many depends on the machine's load (a busy engine merges camera frames).
        assert r["updates"] > 0 and 0 < r["delivered_share"] <= 1.1
        assert 0 < r["p50_ms"] <= r["p95_ms"] <= r["max_ms"]
    added = result["engine"]["p95_ms"] - result["baseline_forwarder"]["p95_ms"]
    assert result["engine_added_p95_ms"] == round(added, 3)
    assert isinstance(result["meets_target"], bool)
