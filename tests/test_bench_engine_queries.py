"""Keep bench/engine_queries.py working: run it in quick mode and check its answers and report shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_engine_queries_bench_runs_quick_and_agrees_with_its_baselines(tmp_path: Path) -> None:
    out = tmp_path / "engine_queries.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "engine_queries.py"), "--quick", "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "baseline BFS + path copies" in done.stdout and "SightBoard" in done.stdout
    result = json.loads(out.read_text())
    assert result["quick"] is True
    assert {"nproc", "cpu", "python"} <= set(result["machine"])
    assert [r["budget"] for r in result["reachable"]] == [3, 8]
    for r in result["reachable"]:
        assert r["mismatches"] == 0  # same reachable hexes and costs as breadth-first search
        assert r["queries"] > 0
        for key in ("reachable", "baseline_bfs_path_copies"):
            assert 0 < r[key]["p50_ms"] <= r[key]["p95_ms"]
            assert 0 <= r[key]["cpu_p50_ms"] <= r[key]["cpu_p95_ms"]
    sight = result["sight"]
    assert sight["identical_to_baseline"] is True  # bit masks and cache give the uncached verdicts
    assert sight["pairs"] == sight["figures"] * (sight["figures"] - 1) // 2
    assert sum(sight["verdicts"].values()) == sight["pairs"]
    assert set(sight["verdicts"]) == {"clear", "blocked", "ambiguous"}
    for key in ("sight_board", "general_judge_cached", "baseline_uncached_judge"):
        assert 0 < sight[key]["p50_ms"] <= sight[key]["p95_ms"]
        assert 0 <= sight[key]["cpu_p50_ms"] <= sight[key]["cpu_p95_ms"]
    assert "not assessed" in done.stdout  # quick mode never claims a target
    for r in result["reachable"]:
        assert 0 < r["reachable_exits"]["p50_ms"] <= r["reachable_exits"]["p95_ms"]
    changes = result["sight_changes"]
    assert changes["identical_to_general_judge"] is True  # kept up to date move by move, same verdicts
    assert changes["checked_positions"] > 0 and changes["moves"] + changes["doors"] == changes["changes"]
    for key in ("first_query_after_change", "unchanged_repeat", "rebuilt_board"):
        assert 0 < changes[key]["p50_ms"] <= changes[key]["p95_ms"]
    boards = {s["board"] for s in result["scenarios"]}
    assert {"HexBoard", "ZoneBoard"} <= boards  # the bundled hex maps and the keypad zone mat
    # what the figures depend on: the first call apart from the warmed ones, in this process and in a fresh one,
    # the process age and the garbage collector's share of each part, the load
    assert result["load"] is False
    fresh = result["fresh_process_first_calls"]
    for key in ("reachable_budget_8", "all_pairs_sight_new_board", "all_pairs_sight_after_a_change"):
        wall, cpu = fresh[key]
        assert wall > 0 and cpu >= 0
    for part, key in ((result["reachable"][1], "cell_graph_first_and_warm"), (sight, "sight_board_first_and_warm"),
                      (changes, "first_change_and_warm")):
        split = part[key]
        assert split["first_call_ms"] > 0 and 0 < split["warm_p50_ms"] <= split["warm_p95_ms"]
        depends = part["depends_on"]
        assert depends["process_age_s_at_start"] > 0 and depends["gc_collections"] >= depends["gc_full_collections"]
        assert 0 <= depends["gc_cpu_ms"] <= 1000 * depends["part_cpu_s"] + 1
    assert "what the figures depend on" in done.stdout and "fresh process first call" in done.stdout
