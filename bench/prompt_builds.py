"""Benchmark every prompt the engine builds, and every query a tablet may ask, on every bundled scenario.

Seeded auto games of each bundled scenario (``engine.autoplay``) are played to their end; before each
answer the bench times, on the position as it is then:

- **prompt**: the rule set's ``prompt(state)`` built afresh and turned into its wire form
  (``engine.snapshot.prompt_to_dict``): what the engine does after every action before it publishes;
- **publish**: the whole ``game.state`` body a change sends (state, prompt, threatened hexes);
- **queries**: each query the rule set declares (moves, targets, sight, areas …), asked about the prompt's
  figure (else a figure in play), its side, and a cell, as a tablet asks when a figure is tapped;
- **baseline**: a deep copy of the state, which every action pays anyway, measured in the same run, so the
  figures read as ratios on a machine of any speed.

Target: every prompt built in ≤ 5 ms p95 on every bundled scenario. Usage:
``.venv/bin/python bench/prompt_builds.py [--quick] [--seeds N] [--load]``; prints a table, writes
``bench/results/prompt_builds.json``, and ends with the line
``prompt builds p95: <scenario> X ms (worst of N scenarios)``.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load import cpu_burner, load_average, machine  # noqa: E402
from engine.autoplay import AutoPlayer  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.prompts import PromptKind  # noqa: E402
from engine.scenario import bundled_scenarios, load_scenario  # noqa: E402
from engine.snapshot import game_current, prompt_to_dict, query_to_dict  # noqa: E402

PROMPT_TARGET_P95_MS = 5.0
MEASURES = ("prompt", "publish", "queries", "baseline_state_copy")


def _timed(call: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call: on a busy machine the CPU time leaves out the waits for a core."""
    start, cpu = time.perf_counter(), time.thread_time()
    call()
    return (time.perf_counter() - start) * 1000.0, (time.thread_time() - cpu) * 1000.0


def _at(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentiles(values: list[tuple[float, float]]) -> dict[str, float]:
    """p50, p95 and max of wall time, and p50 and p95 of CPU time (ms)."""
    if not values:
        return {"n": 0, "p50_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0, "cpu_p50_ms": 0.0, "cpu_p95_ms": 0.0}
    wall, cpu = sorted(v[0] for v in values), sorted(v[1] for v in values)
    return {"n": len(wall), "p50_ms": round(_at(wall, 0.5), 4), "p95_ms": round(_at(wall, 0.95), 4),
            "max_ms": round(wall[-1], 4), "cpu_p50_ms": round(_at(cpu, 0.5), 4), "cpu_p95_ms": round(_at(cpu, 0.95), 4)}


def _query_calls(game: Game, rng: random.Random) -> list[Callable[[], Any]]:
    """The queries a tablet asks on this position: each declared kind about the subject it takes."""
    prompt = game.prompt
    alive = [f for f in game.state.alive() if f.hex is not None]
    figure = prompt.figure if prompt.figure in game.state.figures and game.state.figures[prompt.figure].alive \
        else (rng.choice(alive).id if alive else None)
    side = prompt.side or (game.state.figures[figure].side if figure else None)
    cells = list(game.scenario.board)
    calls: list[Callable[[], Any]] = []
    for kind in game.rules.queries:
        subject = {"figure": figure, "side": side,
                   "cell": game.scenario.label(rng.choice(cells)) if cells else None}.get(kind.about)
        if subject is not None:
            calls.append(functools.partial(query_to_dict, game, kind.name, subject))
    return calls


def _time_game(game: Game, seed: int, max_steps: int, times: dict[str, list[tuple[float, float]]]) -> tuple[float, str]:
    """Play one seeded auto game, timing every position; the slowest prompt's CPU ms and where it was."""
    player, rng = AutoPlayer(seed=seed), random.Random(seed)
    slowest: tuple[float, str] = (0.0, "")
    for _ in range(max_steps):
        state = game.state
        build = _timed(lambda: prompt_to_dict(game.rules.prompt(state), game.scenario))  # noqa: B023
        times["prompt"].append(build)
        if build[1] > slowest[0]:
            slowest = (build[1], f"seed {seed}, action {len(game.history) + 1}: {game.prompt.text[:70]}")
        times["publish"].append(_timed(lambda: game_current(game)))
        times["queries"].extend(_timed(call) for call in _query_calls(game, rng))
        times["baseline_state_copy"].append(_timed(lambda: copy.deepcopy(state)))  # noqa: B023
        if game.prompt.kind is PromptKind.GAME_OVER:
            break
        game.apply(player.choose(game))
    return slowest


def play_scenario(scenario_id: str, seeds: list[int], max_steps: int) -> dict[str, Any]:
    times: dict[str, list[tuple[float, float]]] = {m: [] for m in MEASURES}
    slowest = max(_time_game(Game(load_scenario(scenario_id)), seed, max_steps, times) for seed in seeds)
    games = len(seeds)
    out: dict[str, Any] = {"scenario": scenario_id, "ruleset": load_scenario(scenario_id).ruleset, "games": games}
    out.update({m: percentiles(v) for m, v in times.items()})
    base = out["baseline_state_copy"]["cpu_p95_ms"] or 1e-9
    out["prompt_cpu_p95_over_baseline"] = round(out["prompt"]["cpu_p95_ms"] / base, 2)
    out["slowest_prompt"] = slowest[1]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="2 seeds and 60 actions a game: checks the bench runs")
    p.add_argument("--seeds", type=int, default=None, help="auto games per scenario (default 10, quick 2)")
    p.add_argument("--max-steps", type=int, default=None, help="actions a game at most (default 1000, quick 60)")
    p.add_argument("--load", action="store_true", help="run one CPU-burning process beside the bench")
    p.add_argument("--scenario", action="append", help="only this bundled scenario (repeatable)")
    p.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "prompt_builds.json")
    args = p.parse_args(argv)
    seeds = list(range(1, (args.seeds or (2 if args.quick else 10)) + 1))
    max_steps = args.max_steps or (60 if args.quick else 1000)
    scenarios = sorted(args.scenario or bundled_scenarios())
    info = machine()
    rows = []
    with cpu_burner(args.load):
        for sid in scenarios:
            rows.append(play_scenario(sid, seeds, max_steps))
    info["load_1min_at_end"] = load_average()
    print("ms; wall time, CPU time in brackets")
    print(f"{'scenario':26} {'prompt p50':>16} {'prompt p95':>16} {'publish p95':>16} {'queries p95':>16} "
          f"{'copy p95 (base)':>16} {'cpu p95/base':>12}")

    def both(m: dict[str, float]) -> str:
        return f"{m['p95_ms']:7.2f} ({m['cpu_p95_ms']:6.2f})"

    for r in rows:
        print(f"{r['scenario']:26} {r['prompt']['p50_ms']:7.2f} ({r['prompt']['cpu_p50_ms']:6.2f}) "
              f"{both(r['prompt'])} {both(r['publish'])} {both(r['queries'])} {both(r['baseline_state_copy'])} "
              f"{r['prompt_cpu_p95_over_baseline']:12.1f}")
    worst = max(rows, key=lambda r: r["prompt"]["p95_ms"])
    met = all(r["prompt"]["p95_ms"] <= PROMPT_TARGET_P95_MS for r in rows)
    verdict = "not assessed (quick)" if args.quick else ("met" if met else "MISSED")
    print(f"target: every prompt built <= {PROMPT_TARGET_P95_MS:g} ms p95 on every bundled scenario: {verdict}"
          + (" (beside a CPU-burning process)" if args.load else ""))
    result = {"benchmark": "prompt_builds", "quick": args.quick, "load": args.load, "seeds": seeds,
              "max_steps": max_steps, "machine": info, "target_p95_ms": PROMPT_TARGET_P95_MS,
              "target_met": None if args.quick else met, "scenarios": rows,
              "worst": {"scenario": worst["scenario"], "p95_ms": worst["prompt"]["p95_ms"]}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"prompt builds p95: {worst['scenario']} {worst['prompt']['p95_ms']:.2f} ms (worst of {len(rows)} scenarios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
