"""Keep bench/prompt_builds.py working: a tiny run, its report and its last line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_prompt_builds_bench_reports_every_measure_and_ends_with_the_worst_scenario(tmp_path: Path) -> None:
    out = tmp_path / "prompt_builds.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "prompt_builds.py"), "--quick", "--seeds", "1", "--max-steps", "12",
         "--scenario", "tutorial", "--scenario", "tenkey-skirmish", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    result = json.loads(out.read_text())
    worst = result["worst"]
    assert re.fullmatch(r"prompt builds p95: (\S+) (\d+\.\d\d) ms \(worst of 2 scenarios\)", last), last
    assert last.split()[3] == worst["scenario"] and float(last.split()[4]) == round(worst["p95_ms"], 2)
    assert result["quick"] is True and result["target_met"] is None and "not assessed" in done.stdout
    assert {"nproc", "cpu", "python", "load_1min_at_start", "load_1min_at_end"} <= set(result["machine"])
    assert [r["scenario"] for r in result["scenarios"]] == ["tenkey-skirmish", "tutorial"]
    for row in result["scenarios"]:
        for measure in ("prompt", "publish", "queries", "baseline_state_copy"):
            m = row[measure]
            assert m["n"] > 0 and 0 < m["p50_ms"] <= m["p95_ms"] <= m["max_ms"], (row["scenario"], measure, m)
            assert 0 <= m["cpu_p50_ms"] <= m["cpu_p95_ms"]
        assert row["prompt"]["n"] == row["publish"]["n"] <= 13  # one per position, the last one included
    assert max(r["prompt"]["p95_ms"] for r in result["scenarios"]) == worst["p95_ms"]
