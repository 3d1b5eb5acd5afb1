"""The report of bench/engine_queries.py: its table, the sentences under it and what the figures depend on."""

from __future__ import annotations

from typing import Any

REACH_TARGET_P95_MS = 0.5
LOS_TARGET_MS = 5.0
LOS_AFTER_CHANGE_TARGET_MS = 20.0


def table(result: dict[str, Any]) -> str:
    rows = [("query", "variant", "p50 ms", "p95 ms", "p50 CPU ms", "p95 CPU ms", "× baseline p50", "× baseline p95")]
    for reach in result["reachable"]:
        name = f"reachable, budget {reach['budget']}"
        slow = reach["baseline_bfs_path_copies"]
        for label, key in (("CellGraph.reachable", "cell_graph"), ("  … every entry read", "cell_graph_read_in_full"),
                           ("reachable(exits=…)", "reachable_exits"),
                           ("reachable(step_cost)", "reachable")):
            v = reach[key]
            rows.append((name, label, *_fmt(v), f"{slow['p50_ms'] / v['p50_ms']:.1f}",
                         f"{slow['p95_ms'] / v['p95_ms']:.1f}"))
        rows.append((name, "baseline BFS + path copies", *_fmt(slow), "1.0", "1.0"))
    s = result["sight"]
    name = f"sight, all {s['pairs']} pairs"
    base = s["baseline_uncached_judge"]
    for label, key in (("SightBoard (new board)", "sight_board"), ("judge_sight, cached", "general_judge_cached")):
        v = s[key]
        ratios = f"{base['p50_ms'] / v['p50_ms']:.1f}", f"{base['p95_ms'] / v['p95_ms']:.1f}"
        rows.append((name, label, *_fmt(v), *ratios))
    rows.append((name, "baseline judge_sight, uncached", *_fmt(base), "1.0", "1.0"))
    c = result["sight_changes"]
    name = f"sight in play, {c['changes']} changes"
    for label, key in (("kept board, nothing changed", "unchanged_repeat"),
                       ("kept board, first after a change", "first_query_after_change"),
                       ("  … after a figure moved", "after_move"), ("  … after a door", "after_door"),
                       ("board rebuilt after each change", "rebuilt_board")):
        if c[key] is not None:
            v = c[key]
            rows.append((name, label, *_fmt(v), f"{base['p50_ms'] / v['p50_ms']:.1f}",
                         f"{base['p95_ms'] / v['p95_ms']:.1f}"))
    for sc in result["scenarios"]:
        name = f"{sc['scenario']} ({sc['board']}, {sc['cells']} cells, {sc['figures']} figures)"
        ref, fast = sc["reachable_reference"], sc["reachable"]
        rows.append((name, "game.reachable(figure)", *_fmt(fast),
                     f"{ref['p50_ms'] / fast['p50_ms']:.1f}", f"{ref['p95_ms'] / fast['p95_ms']:.1f}"))
        rows.append((name, "… reference search (baseline)", *_fmt(ref), "1.0", "1.0"))
        rows.append((name, "rules.targets(figure)", *_fmt(sc["targets"]), "", ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(p: dict[str, float]) -> tuple[str, str, str, str]:
    return f"{p['p50_ms']:.3f}", f"{p['p95_ms']:.3f}", f"{p['cpu_p50_ms']:.3f}", f"{p['cpu_p95_ms']:.3f}"


def _assessment(quick: bool, wall_ok: bool, cpu_ok: bool) -> str:
    if quick:
        return "(quick sample: not assessed)"
    if wall_ok:
        return "met"
    return "met in CPU time, missed in wall time (busy machine?)" if cpu_ok else "MISSED"


def summary(result: dict[str, Any]) -> str:
    """Plain sentences under the table: answers checked, targets met or not."""
    quick, s = result["quick"], result["sight"]
    lines = [f"sight verdicts {s['verdicts']}, identical to the baseline's: {s['identical_to_baseline']}; "
             f"first SightBoard run (masks built): {s['sight_board_first_run_ms']:.1f} ms"]
    for r in result["reachable"]:
        t, plain, by_exit = r["cell_graph"], r["reachable"], r["reachable_exits"]
        lines.append(f"reachable budget {r['budget']} (board graph): p95 {t['p95_ms']:.3f} ms wall, "
                     f"{t['cpu_p95_ms']:.3f} ms CPU (target {REACH_TARGET_P95_MS} ms) "
                     f"{_assessment(quick, r['meets_target'], r['meets_target_in_cpu_time'])}"
                     f"{_miss(quick, t, REACH_TARGET_P95_MS)}; graph built once in {r['cell_graph_build_ms']:.1f} ms; "
                     f"with exits {by_exit['cpu_p95_ms']:.3f} ms, with step_cost {plain['cpu_p95_ms']:.3f} ms CPU p95; "
                     f"hexes, costs or paths different from the baseline's: {r['mismatches']} queries")
        if not quick and not r["meets_target_in_cpu_time"]:
            lines.append("  where the time goes: the search over integer cells (pure Python, layer by layer), then the "
                         "position's cell sets; each entry's path and Reach are made only when read")
    c = result["sight_changes"]
    u, f = c["unchanged_repeat"], c["first_query_after_change"]
    lines.append(f"all-pairs sight in play, {c['figures']} figures: nothing changed p95 {u['p95_ms']:.2f} ms wall, "
                 f"{u['cpu_p95_ms']:.2f} ms CPU (target {LOS_TARGET_MS} ms) "
                 f"{_assessment(quick, c['meets_target_unchanged'], c['meets_target_unchanged_in_cpu_time'])}"
                 f"{_miss(quick, u, LOS_TARGET_MS)}")
    lines.append(f"first all-pairs query after a change: p95 {f['p95_ms']:.2f} ms wall, {f['cpu_p95_ms']:.2f} ms CPU "
                 f"(target {LOS_AFTER_CHANGE_TARGET_MS} ms) "
                 f"{_assessment(quick, c['meets_target_after_change'], c['meets_target_after_change_in_cpu_time'])}"
                 f"{_miss(quick, f, LOS_AFTER_CHANGE_TARGET_MS)}; "
                 f"{c['new_offsets_per_change_mean']:.1f} line offsets traced afresh per change on average "
                 f"(~0.2 ms each); verdicts identical to the general judge's: {c['identical_to_general_judge']} "
                 f"({c['checked_positions']} positions checked)")
    b = s["sight_board"]
    for sc in result["scenarios"]:
        lines.append(f"{sc['scenario']} ({sc['ruleset']}): moves p95 {sc['reachable']['p95_ms']:.3f} ms wall, "
                     f"reference "
                     f"search {sc['reachable_reference']['p95_ms']:.3f} ms; answers different from the reference's: "
                     f"{sc['reachable_mismatches']} figures")
    lines.append(f"all-pairs sight on a board built afresh: p50 {b['p50_ms']:.1f} ms, p95 {b['p95_ms']:.1f} ms wall, "
                 f"p95 {b['cpu_p95_ms']:.1f} ms CPU")
    return "\n".join(lines)


def _miss(quick: bool, p: dict[str, float], target: float) -> str:
    """By how much a p95 misses its target, in wall and CPU time (empty when met, or in quick mode)."""
    if quick or p["p95_ms"] <= target:
        return ""
    return f" (over by {p['p95_ms'] - target:.2f} ms wall, {max(0.0, p['cpu_p95_ms'] - target):.2f} ms CPU)"


def dependence(result: dict[str, Any]) -> str:
    """What the figures above depend on: first calls (this process, a fresh one), process age, the collector."""
    fresh = result["fresh_process_first_calls"]
    r8 = result["reachable"][1]
    s, c = result["sight"], result["sight_changes"]
    rows = [("reachable, budget 8", r8["cell_graph_first_and_warm"], fresh.get("reachable_budget_8"), r8),
            ("all-pairs sight, new board", s["sight_board_first_and_warm"], fresh.get("all_pairs_sight_new_board"), s),
            ("all-pairs sight after a change", c["first_change_and_warm"],
             fresh.get("all_pairs_sight_after_a_change"), c)]
    lines = ["what the figures depend on (ms, wall / CPU):"]
    for name, fw, cold, part in rows:
        d = part["depends_on"]
        cold_text = f"{cold[0]:.2f} / {cold[1]:.2f}" if cold else "?"
        lines.append(f"  {name}: fresh process first call {cold_text}; this process first call "
                     f"{fw['first_call_ms']:.2f} / {fw['first_call_cpu_ms']:.2f}; warmed p50 {fw['warm_p50_ms']:.2f}, "
                     f"p95 {fw['warm_p95_ms']:.2f} / {fw['warm_cpu_p95_ms']:.2f}; process age "
                     f"{d['process_age_s_at_start']:.1f} s; garbage collector {d['gc_collections']} runs "
                     f"({d['gc_full_collections']} full), {d['gc_cpu_ms']:.0f} ms CPU of the part's "
                     f"{1000 * d['part_cpu_s']:.0f}")
    lines.append(f"  load: {'one CPU-burning process beside the bench' if result['load'] else 'none added'} "
                 f"(1-minute load {result['machine']['load_1min_at_start']} → "
                 f"{result['machine']['load_1min_at_end']})")
    return "\n".join(lines)
