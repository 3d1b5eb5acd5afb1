"""Keep bench/socket_fuzz.py working: run it on a tiny count and check its report's shape (never its timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_socket_fuzz_bench_reports_every_socket_and_the_baseline(tmp_path: Path) -> None:
    out = tmp_path / "socket_fuzz.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "socket_fuzz.py"), "--quick", "--count", "50", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "not assessed (quick)" in done.stdout  # quick mode never claims the target
    result = json.loads(out.read_text())
    assert result["quick"] is True and result["load"] is False and result["meets_target"] is None
    assert result["messages_per_socket"] == 50 and result["probe_every_ms"] == 50
    assert {"nproc", "cpu", "python", "load_1min_at_start", "load_1min_at_end"} <= set(result["machine"])
    assert list(result["phases"]) == ["baseline", "commands", "camera feed", "camera snapshot", "publisher"]
    assert result["engine_alive_at_end"] is True
    for name, phase in result["phases"].items():
        assert phase["sent"] == (0 if name == "baseline" else 50)
        assert phase["probes"] > 0 and phase["probes"] >= phase["unanswered"]
        assert 0 < phase["p50_ms"] <= phase["p99_ms"] <= phase["max_ms"]
        assert phase["heartbeat_max_late_s"] <= phase["heartbeat_max_gap_s"]
    for name in ("camera feed", "camera snapshot"):  # the engine read and refused the malformed camera messages
        assert result["phases"][name]["engine_counted_refused"] > 0
    assert set(result["worst_flood"]) == {"p99_ms", "max_ms", "heartbeat_max_late_s"}
