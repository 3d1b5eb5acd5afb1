"""Benchmark the engine's board queries against straightforward baselines, in one run.

(a) Reachable hexes for a Fantasy Battle move (budget 3, and 8) with walls, obstacles, friends to
    pass and enemies whose contact stops a move: ``engine.cell_graph.CellGraph.reachable`` (the board's
    graph over integer cells, built once per board, given the position's enemies, contact and friends
    as cell sets: what the rule sets use; its answer makes each entry when read, so a second row times the
    query with every entry read, as the tablets' snapshot reads it), ``engine.pathfinding.reachable`` fed
    step costs, and fed the exits of each hex, against a breadth-first search over the whole map that
    copies the path list at every step.
(b) All-pairs line of sight between 60 figures (1,770 pairs) with walls, blocking hexes and the
    figures themselves as blockers: the bit-mask ``SightBoard`` built afresh (as after a move) and
    the general ``judge_sight`` with its per-offset cache, against the same judge with the cache
    emptied before every run (every line traced afresh).
(c) The same all-pairs query through a game: one ``SightBoard`` kept up to date while figures move
    and doors open and close (``SightBoard.update``), timing the first all-pairs query after each
    change and a repeat with nothing changed, against a board rebuilt after every change.
(d) The bundled scenarios' own boards through their rule sets — Fantasy Battle's maps, Filtwiz,
    levels (Lost Worlds), stacks (Laramie), zones (Tenkey's keypad mat): every figure's moves and
    targets as a tablet asks for them, the moves also through the reference search (each rule set's
    own step cost fed to ``engine.pathfinding.reachable``) as the baseline, answers compared.

Every variant's answers are checked against the baseline's. Targets: reachable p95 <= 0.5 ms
(budget 8); all-pairs sight <= 5 ms p95, the first query after a change <= 20 ms.

What the figures depend on, reported beside them (``depends_on``): the *first call* of each query in
this process (cold caches: line offsets traced, a board's masks built, the cell graph's first search)
apart from the warmed calls the percentiles hold; the same first calls in a *fresh process* (what a
measurement from outside, one query per process start, sees); the *process age* when each part ran; the
*garbage collector* (its runs, full ones apart, and the CPU time they took inside each part: the allocator's share);
and the *load* (``--load`` runs one CPU-burning process beside the bench, ``bench/load.py``). Usage:
``.venv/bin/python bench/engine_queries.py [--quick] [--load]``; prints a table and writes
``bench/results/engine_queries.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.engine_queries_report import (  # noqa: E402
    LOS_AFTER_CHANGE_TARGET_MS,
    LOS_TARGET_MS,
    REACH_TARGET_P95_MS,
    dependence,
    summary,
    table,
)
from bench.load import cpu_burner, load_average, machine  # noqa: E402
from engine.cell_graph import CellGraph  # noqa: E402
from engine.hexes import DIRECTIONS, Edge, Hex, Orientation, edge, from_offset  # noqa: E402
from engine.line_trace import trace_offset  # noqa: E402
from engine.lines import SightVerdict, judge_sight, sight_line  # noqa: E402
from engine.pathfinding import reachable  # noqa: E402
from engine.sight_board import SightBoard  # noqa: E402


@dataclass(frozen=True)
class World:
    """A seeded 40×40 map: obstacles, walls and two sides of figures."""

    cells: frozenset[Hex]
    obstacles: frozenset[Hex]
    walls: frozenset[Edge]
    figures: tuple[Hex, ...]
    sides: tuple[int, ...]


def make_world(seed: int, cols: int = 40, rows: int = 40, n_figures: int = 60, n_obstacles: int = 80,
               n_walls: int = 150) -> World:
    rng = random.Random(seed)
    cells = [from_offset(c, r, Orientation.FLAT) for c in range(cols) for r in range(rows)]
    cell_set = set(cells)
    obstacles = set(rng.sample(cells, n_obstacles))
    walls: set[Edge] = set()
    while len(walls) < n_walls:
        h = rng.choice(cells)
        n = h + DIRECTIONS[rng.randrange(6)]
        if n in cell_set:
            walls.add(edge(h, n))
    free = [h for h in cells if h not in obstacles]
    figures = tuple(rng.sample(free, n_figures))
    sides = tuple(i % 2 for i in range(n_figures))
    return World(frozenset(cells), frozenset(obstacles), frozenset(walls), figures, sides)


@dataclass(frozen=True)
class MoveRules:
    """Fantasy Battle movement for one mover, as the predicates both searches use."""

    step_cost: Callable[[Hex, Hex], float | None]
    exits: Callable[[Hex], tuple[tuple[Hex, float], ...]]
    stops: Callable[[Hex], bool]
    can_end: Callable[[Hex], bool]
    enemies: frozenset[Hex]  # the position as cell sets, for the board's graph
    contact: frozenset[Hex]
    friends: frozenset[Hex]


def move_rules(world: World, mover: int) -> MoveRules:
    side = world.sides[mover]
    enemies = {h for h, s in zip(world.figures, world.sides, strict=True) if s != side}
    friends = {h for h, s in zip(world.figures, world.sides, strict=True) if s == side} - {world.figures[mover]}
    open_cells = world.cells - world.obstacles - enemies
    contact = {n for e in enemies for n in e.neighbours() if edge(e, n) not in world.walls}
    # Built once per position, as a rule set would: where each hex may step to (walls and blocked hexes out).
    exits = {a: frozenset(b for b in a.neighbours() if b in open_cells and edge(a, b) not in world.walls)
             for a in world.cells}

    def step_cost(a: Hex, b: Hex) -> float | None:
        return 1.0 if b in exits.get(a, ()) else None

    # The same exits with their costs, neighbours in direction order, for reachable(exits=...).
    priced = {a: tuple((b, 1.0) for b in a.neighbours() if b in out) for a, out in exits.items()}

    def exits_of(h: Hex) -> tuple[tuple[Hex, float], ...]:
        return priced.get(h, ())

    return MoveRules(step_cost, exits_of, contact.__contains__, lambda h: h not in friends,
                     frozenset(enemies), frozenset(contact), frozenset(friends))


def board_graph(world: World) -> CellGraph:
    """The board's movement graph, built once per board: obstacles and walls (figures come per query)."""
    open_cells = world.cells - world.obstacles
    return CellGraph(world.cells, lambda a, b: 1.0 if b in open_cells and edge(a, b) not in world.walls else None)


def baseline_reachable(start: Hex, budget: int, rules: MoveRules) -> dict[Hex, tuple[int, list[Hex]]]:
    """Breadth-first search over the whole map, each queue entry carrying its own copy of the path."""
    seen = {start}
    found: dict[Hex, tuple[int, list[Hex]]] = {}
    queue: deque[list[Hex]] = deque([[start]])
    while queue:
        path = queue.popleft()
        h = path[-1]
        found[h] = (len(path) - 1, path)
        if h != start and rules.stops(h):
            continue
        for n in h.neighbours():
            if n not in seen and rules.step_cost(h, n) is not None:
                seen.add(n)
                queue.append([*path, n])
    return {h: v for h, v in found.items() if v[0] <= budget and (h == start or rules.can_end(h))}


Sample = tuple[float, float]  # (wall ms, CPU ms) of one measured call


def clock() -> Sample:
    return time.perf_counter(), time.process_time()


def since(start: Sample) -> Sample:
    """Wall and CPU milliseconds since ``start``: on a busy shared machine the CPU time shows the code's
    own cost while the wall time also holds the waits for a core."""
    wall, cpu = clock()
    return (wall - start[0]) * 1e3, (cpu - start[1]) * 1e3


def percentiles(samples: list[Sample]) -> dict[str, float]:
    wall = np.asarray([w for w, _ in samples])
    cpu = np.asarray([c for _, c in samples])
    return {"p50_ms": float(np.percentile(wall, 50)), "p95_ms": float(np.percentile(wall, 95)),
            "mean_ms": float(wall.mean()), "cpu_p50_ms": float(np.percentile(cpu, 50)),
            "cpu_p95_ms": float(np.percentile(cpu, 95)), "n": int(wall.size)}


class GcWatch:
    """Counts the garbage collector's runs (all, and full ones) and the CPU time they take, per part of the bench."""

    def __init__(self) -> None:
        self.collections, self.full, self.ms, self._t0 = 0, 0, 0.0, 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.process_time()
        else:
            self.collections += 1
            self.full += info.get("generation") == 2
            self.ms += (time.process_time() - self._t0) * 1e3


GC = GcWatch()


def process_age_s() -> float:
    """Seconds since this process started (from /proc; since the bench module loaded elsewhere)."""
    try:
        start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return round(uptime - start_ticks / os.sysconf("SC_CLK_TCK"), 2)
    except (OSError, ValueError, IndexError):
        return round(time.perf_counter() - _LOADED, 2)


_LOADED = time.perf_counter()


def depends(run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run one part of the bench and add what its figures depend on: process age, the collector's share."""
    age, runs, full, ms, cpu = process_age_s(), GC.collections, GC.full, GC.ms, time.process_time()
    out = run()
    out["depends_on"] = {"process_age_s_at_start": age, "gc_collections": GC.collections - runs,
                         "gc_full_collections": GC.full - full, "gc_cpu_ms": round(GC.ms - ms, 2),
                         "part_cpu_s": round(time.process_time() - cpu, 2)}
    return out


def first_and_warm(samples: list[Sample]) -> dict[str, Any]:
    """The first call apart (cold caches), the warmed calls after it as percentiles."""
    warm = percentiles(samples[1:] or samples)
    return {"first_call_ms": round(samples[0][0], 3), "first_call_cpu_ms": round(samples[0][1], 3),
            "warm_p50_ms": warm["p50_ms"], "warm_p95_ms": warm["p95_ms"], "warm_cpu_p95_ms": warm["cpu_p95_ms"]}


def fresh_process_first_calls(seed: int) -> dict[str, Any]:
    """Each query's first call in a new process (as one query timed per process start from outside sees it)."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--first-calls", "--seed", str(seed)],
                          capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    if done.returncode != 0:
        return {"error": done.stderr[-500:]}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def first_calls(seed: int) -> dict[str, Any]:
    """The first call of each query in this (new) process, wall and CPU ms."""
    world = make_world(seed)
    rules = move_rules(world, 0)
    out: dict[str, Any] = {"process_age_s": process_age_s()}
    t0 = clock()
    graph = board_graph(world)
    out["cell_graph_build"] = since(t0)
    t0 = clock()
    graph.reachable(world.figures[0], 8, blocked=rules.enemies, stops=rules.contact, keep_out=rules.friends)
    out["reachable_budget_8"] = since(t0)
    pairs = all_pairs(world, len(world.figures))
    t0 = clock()
    board = SightBoard(world.obstacles | set(world.figures), world.walls)
    [board.judge(a, b) for a, b in pairs]
    out["all_pairs_sight_new_board"] = since(t0)
    figures = list(world.figures)
    free = sorted(world.cells - world.obstacles - set(figures), key=lambda h: (h.q, h.r))
    t0 = clock()
    board.update(block=[free[0]], clear=[figures[0]])
    figures[0] = free[0]
    [board.judge(figures[i], figures[j]) for i in range(len(figures)) for j in range(i + 1, len(figures))]
    out["all_pairs_sight_after_a_change"] = since(t0)
    return {k: ([round(x, 3) for x in v] if isinstance(v, tuple) else v) for k, v in out.items()}


def progress(message: str) -> None:
    print(f"  … {message}", file=sys.stderr, flush=True)


def bench_reachable(world: World, budget: int, repeats: int, movers: int) -> dict[str, Any]:
    ours: list[Sample] = []
    by_exits: list[Sample] = []
    by_graph: list[Sample] = []
    read_in_full: list[Sample] = []
    base: list[Sample] = []
    mismatches = 0
    all_rules = [move_rules(world, i) for i in range(movers)]  # built once per position, as a rule set would
    t0 = clock()
    graph = board_graph(world)
    built = since(t0)
    for rep in range(repeats):
        for i, rules in enumerate(all_rules):
            start = world.figures[i]
            t0 = clock()
            got = reachable(start, budget, rules.step_cost, stops=rules.stops, can_end=rules.can_end)
            ours.append(since(t0))
            t0 = clock()
            fast_got = reachable(start, budget, exits=rules.exits, stops=rules.stops, can_end=rules.can_end)
            by_exits.append(since(t0))
            t0 = clock()
            graph_got = graph.reachable(start, budget, blocked=rules.enemies, stops=rules.contact,
                                        keep_out=rules.friends)
            by_graph.append(since(t0))
            t0 = clock()  # the same query with every entry read, as the snapshot for the tablets reads it
            every = list(graph.reachable(start, budget, blocked=rules.enemies, stops=rules.contact,
                                         keep_out=rules.friends).values())  # each Reach made, with its path
            read_in_full.append(since(t0))
            t1 = clock()
            want = baseline_reachable(start, budget, rules)
            base.append(since(t1))
            if rep == 0 and ({h: r.cost for h, r in got.items()} != {h: float(c) for h, (c, _) in want.items()}
                             or fast_got != got or graph_got != got or every != list(got.values())):
                mismatches += 1
    plain, by_exit, fast, slow = percentiles(ours), percentiles(by_exits), percentiles(by_graph), percentiles(base)
    return {
        "budget": budget, "queries": len(ours), "reachable": plain, "reachable_exits": by_exit,
        "cell_graph": fast, "cell_graph_read_in_full": percentiles(read_in_full), "cell_graph_build_ms": built[0],
        "cell_graph_first_and_warm": first_and_warm(by_graph),
        "baseline_bfs_path_copies": slow,
        "ratio_p50": slow["p50_ms"] / fast["p50_ms"], "ratio_p95": slow["p95_ms"] / fast["p95_ms"],
        "mismatches": mismatches, "target_p95_ms": REACH_TARGET_P95_MS,
        "meets_target": fast["p95_ms"] <= REACH_TARGET_P95_MS,
        "meets_target_in_cpu_time": fast["cpu_p95_ms"] <= REACH_TARGET_P95_MS,
        "exits_meets_target_in_cpu_time": by_exit["cpu_p95_ms"] <= REACH_TARGET_P95_MS,
        "step_cost_meets_target_in_cpu_time": plain["cpu_p95_ms"] <= REACH_TARGET_P95_MS,
    }


def all_pairs(world: World, n_figures: int) -> list[tuple[Hex, Hex]]:
    f = world.figures[:n_figures]
    return [(f[i], f[j]) for i in range(len(f)) for j in range(i + 1, len(f))]


def bench_sight(world: World, repeats: int, baseline_repeats: int, n_figures: int) -> dict[str, Any]:
    pairs = all_pairs(world, n_figures)
    blocking_hexes = world.obstacles | set(world.figures)
    hex_blocks, edge_blocks = blocking_hexes.__contains__, world.walls.__contains__

    def general() -> list[SightVerdict]:
        return [judge_sight(sight_line(a, b), hex_blocks, edge_blocks) for a, b in pairs]

    def board() -> list[SightVerdict]:
        sb = SightBoard(blocking_hexes, world.walls)  # a fresh board, as after every move
        return [sb.judge(a, b) for a, b in pairs]

    def timed(run: Callable[[], list[SightVerdict]]) -> tuple[Sample, list[SightVerdict]]:
        t0 = clock()
        out = run()
        return since(t0), out

    base_ms: list[Sample] = []
    reference: list[SightVerdict] = []
    for k in range(baseline_repeats):
        progress(f"sight baseline (every line traced afresh) run {k + 1}/{baseline_repeats}")
        trace_offset.cache_clear()
        ms, reference = timed(general)
        base_ms.append(ms)
    cold_board_ms, cold_out = timed(board)  # offsets traced, but board masks not yet built
    identical = cold_out == reference
    general_ms: list[Sample] = []
    board_ms: list[Sample] = []
    for k in range(repeats):
        if k % 10 == 0:
            progress(f"sight run {k + 1}/{repeats}")
        ms, out = timed(general)
        general_ms.append(ms)
        identical &= out == reference
        ms, out = timed(board)
        board_ms.append(ms)
        identical &= out == reference
    base, gen, fast = percentiles(base_ms), percentiles(general_ms), percentiles(board_ms)
    counts: dict[str, int] = {}
    for v in reference:
        counts[v.sight.value] = counts.get(v.sight.value, 0) + 1
    return {
        "figures": n_figures, "pairs": len(pairs), "verdicts": counts, "identical_to_baseline": identical,
        "baseline_uncached_judge": base, "general_judge_cached": gen, "sight_board": fast,
        "sight_board_first_run_ms": cold_board_ms[0],
        "sight_board_first_and_warm": first_and_warm([cold_board_ms, *board_ms]),
        "ratio_p50": base["p50_ms"] / fast["p50_ms"], "ratio_p95": base["p95_ms"] / fast["p95_ms"],
        "general_ratio_p50": base["p50_ms"] / gen["p50_ms"],
        "target_ms": LOS_TARGET_MS, "meets_target_p50": fast["p50_ms"] <= LOS_TARGET_MS,
        "meets_target_p95": fast["p95_ms"] <= LOS_TARGET_MS,
        "meets_target_p95_in_cpu_time": fast["cpu_p95_ms"] <= LOS_TARGET_MS,
    }


def bench_sight_changes(world: World, changes: int, seed: int, check_every: int) -> dict[str, Any]:
    """All-pairs sight through a game: figures move, doors open and close; one board kept up to date.

    After each change: the first all-pairs query (``SightBoard.update`` and the queries; verdicts of lines
    the change cannot touch are remembered), then the same query again with nothing changed, and a board
    rebuilt from scratch for comparison. Every ``check_every`` changes all verdicts are checked against
    the general judge on the position reached.
    """
    rng = random.Random(seed)
    figures = list(world.figures)
    walls = set(world.walls)
    doors = sorted(world.walls)[::5]  # a fifth of the walls are doors that open and close
    kept = SightBoard(world.obstacles | set(figures), walls)

    def pairs_now() -> list[tuple[Hex, Hex]]:
        return [(figures[i], figures[j]) for i in range(len(figures)) for j in range(i + 1, len(figures))]

    [kept.judge(a, b) for a, b in pairs_now()]
    masks = sb_masks()
    first: dict[str, list[Sample]] = {"move": [], "door": []}
    in_order: list[Sample] = []  # the same, in the order the changes came
    again: list[Sample] = []
    rebuilt: list[Sample] = []
    new_offsets: list[int] = []
    identical, checks = True, 0
    free = sorted(world.cells - world.obstacles, key=lambda h: (h.q, h.r))
    for k in range(changes):
        if k % 10 == 0:
            progress(f"sight after a change {k + 1}/{changes}")
        known = len(masks)
        if rng.random() < 0.7:
            kind, i = "move", rng.randrange(len(figures))
            taken = set(figures)
            new = rng.choice([h for h in free if h not in taken])
            t0 = clock()
            kept.update(block=[new], clear=[figures[i]])
            figures[i] = new
            out = [kept.judge(a, b) for a, b in pairs_now()]
        else:
            kind, door = "door", rng.choice(doors)
            t0 = clock()
            if door in walls:
                kept.update(clear=[door])
                walls.discard(door)
            else:
                kept.update(block=[door])
                walls.add(door)
            out = [kept.judge(a, b) for a, b in pairs_now()]
        first[kind].append(since(t0))
        in_order.append(first[kind][-1])
        new_offsets.append(len(masks) - known)
        t0 = clock()
        repeat = [kept.judge(a, b) for a, b in pairs_now()]
        again.append(since(t0))
        t0 = clock()
        fresh = SightBoard(world.obstacles | set(figures), walls)
        rebuilt_out = [fresh.judge(a, b) for a, b in pairs_now()]
        rebuilt.append(since(t0))
        identical &= out == repeat == rebuilt_out
        if k % check_every == 0:
            blocking = world.obstacles | set(figures)
            want = [judge_sight(sight_line(a, b), blocking.__contains__, walls.__contains__) for a, b in pairs_now()]
            identical &= out == want
            checks += 1
    after = percentiles(first["move"] + first["door"])
    unchanged = percentiles(again)
    return {
        "changes": changes, "figures": len(figures), "pairs": len(pairs_now()),
        "moves": len(first["move"]), "doors": len(first["door"]),
        "first_query_after_change": after, "after_move": percentiles(first["move"]),
        "first_change_and_warm": first_and_warm(in_order),
        "after_door": percentiles(first["door"]) if first["door"] else None,
        "unchanged_repeat": unchanged, "rebuilt_board": percentiles(rebuilt),
        "new_offsets_per_change_mean": sum(new_offsets) / len(new_offsets),
        "identical_to_general_judge": identical, "checked_positions": checks,
        "target_unchanged_p95_ms": LOS_TARGET_MS, "target_after_change_ms": LOS_AFTER_CHANGE_TARGET_MS,
        "meets_target_unchanged": unchanged["p95_ms"] <= LOS_TARGET_MS,
        "meets_target_unchanged_in_cpu_time": unchanged["cpu_p95_ms"] <= LOS_TARGET_MS,
        "meets_target_after_change": after["p95_ms"] <= LOS_AFTER_CHANGE_TARGET_MS,
        "meets_target_after_change_in_cpu_time": after["cpu_p95_ms"] <= LOS_AFTER_CHANGE_TARGET_MS,
    }


def sb_masks() -> dict[Any, Any]:
    """The shared per-offset mask table of 64-wide grids (a 40×40 map's), to count offsets traced."""
    from engine import sight_board

    return sight_board._MASKS.setdefault(64, {})


def reference_moves(game: Any) -> Callable[[str], Any]:
    """The rule set's moves through the reference search (its ``reachable_reference``: its own step cost fed to
    ``pathfinding.reachable``); where it has none, ``reachable`` is that search already."""
    rules, state = game.rules, game.state

    def reference(fid: str) -> Any:
        got = rules.reachable_reference(state, fid)
        return rules.reachable(state, fid) if got is None else got
    return reference


def bench_scenarios(repeats: int) -> list[dict[str, Any]]:
    """Every bundled scenario through its rule set: each figure's moves (and through the reference search) and
    targets, as a tablet asks."""
    from engine.game import Game
    from engine.scenario import bundled_scenarios, load_scenario

    out = []
    for sid in sorted(bundled_scenarios()):
        game = Game(load_scenario(sid))
        figures = [f.id for f in game.state.alive() if f.hex is not None]
        reference = reference_moves(game)
        moves: list[Sample] = []
        slow: list[Sample] = []
        targets: list[Sample] = []
        mismatches = 0
        for rep in range(repeats):
            for fid in figures:
                t0 = clock()
                got = game.reachable(fid)
                moves.append(since(t0))
                t0 = clock()
                want = reference(fid)
                slow.append(since(t0))
                if rep == 0 and got != want:
                    mismatches += 1
                t0 = clock()
                game.rules.targets(game.state, fid)
                targets.append(since(t0))
        board = game.scenario.board
        out.append({"scenario": sid, "ruleset": game.scenario.ruleset, "board": type(board).__name__,
                    "cells": len(list(board)), "figures": len(figures), "reachable": percentiles(moves),
                    "reachable_reference": percentiles(slow), "reachable_mismatches": mismatches,
                    "targets": percentiles(targets)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repetitions, to check the script works")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--load", action="store_true", help="run beside one CPU-burning process (bench/load.py)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "engine_queries.json")
    parser.add_argument("--first-calls", action="store_true", help=argparse.SUPPRESS)  # internal: a fresh process
    args = parser.parse_args(argv)
    if args.first_calls:
        print(json.dumps(first_calls(args.seed)))
        return 0
    world = make_world(args.seed)
    # Quick mode checks the script and the answers on a smaller sample; its timings mean little.
    reach_repeats, movers, sight_repeats, baseline_repeats, sighted, changes, check_every, scenario_repeats = (
        (1, 12, 3, 1, 24, 6, 3, 1) if args.quick else (10, len(world.figures), 40, 7, len(world.figures), 120, 20, 20)
    )
    about = machine()
    print(f"{about['cpu']}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {about['load_1min_at_start']}{', beside one CPU-burning process' if args.load else ''}")
    print(f"40×40 map, {len(world.figures)} figures, {len(world.obstacles)} obstacles, {len(world.walls)} walls, "
          f"seed {args.seed}{' (quick)' if args.quick else ''}")
    with cpu_burner(args.load):
        progress("each query's first call in a fresh process")
        fresh = fresh_process_first_calls(args.seed)
        reach = []
        for budget in (3, 8):
            progress(f"reachable, budget {budget}")
            reach.append(depends(lambda b=budget: bench_reachable(world, b, reach_repeats, movers)))  # type: ignore[misc]
        result: dict[str, Any] = {
            "benchmark": "engine_queries", "quick": args.quick, "seed": args.seed, "load": args.load,
            "machine": about, "fresh_process_first_calls": fresh,
            "map": {"cols": 40, "rows": 40, "figures": len(world.figures), "obstacles": len(world.obstacles),
                    "walls": len(world.walls)},
            "reachable": reach,
            "sight": depends(lambda: bench_sight(world, sight_repeats, baseline_repeats, sighted)),
        }
        progress("sight in play (figures moving, doors opening)")
        result["sight_changes"] = depends(lambda: bench_sight_changes(world, changes, args.seed, check_every))
        progress("bundled scenarios through their rule sets")
        result["scenarios"] = bench_scenarios(scenario_repeats)
    result["machine"]["load_1min_at_end"] = load_average()
    print(table(result))
    print(summary(result))
    print(dependence(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
