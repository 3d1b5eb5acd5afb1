"""Benchmark the tablet app's board on a 30×30 hex map with 40 figures, under Xvfb, in one run.

(0) The floor: the whole window redrawn each frame with nothing changed (what this display costs), and
    where it goes: the same with the board taken out of the window, and with an empty window.
(a) Frame time while panning (a finger dragging the board): the app's way (geometry drawn once in map
    millimetres, a pan changes one matrix) against a straightforward baseline that rebuilds every
    canvas instruction each frame.
(b) Frame time while panning as engine updates arrive (a figure moves every 4th frame).
(c) Message → pixels: from a ``game.state`` message leaving a ZeroMQ PUB socket (a stand-in engine in
    this process, on loopback) through the app's network agent, session and board redraw to the
    flipped frame that shows it; the baseline redraws the whole board (tiles too) on each update.
(d) The same on the rule sets' own boards (``BOARDS``: levels, stacks, a zone mat): each bundled scenario
    is played by the auto player in the engine (as many seeded games as it takes), and the states after its
    moves are sent one after another, each once (as at a table, every state is new to the app), each window in
    a process of its own. The app's first ``WARM_UPDATES`` updates (its first prompts, fonts opened, widgets
    made) are timed apart, as a warm-up, and the rows after them are the app as it runs through a game.

Message → pixels is measured twice: *back to back* (the next message sent once the last one is shown: it may
arrive while the app still settles the last one, a prompt shrunk to its room in the frames after) and *at the
table's pace* (the next message sent once the app has drawn nothing for ``TABLE_GAP_S``, as at a table, where a
state follows a player's move).

Each frame row also gives the CPU the process spent per frame (p50, every thread: most of it is the software
rasteriser's), which the machine's other work sways much less than the intervals; the load average is
printed and kept with the results. Targets: 30 fps (frame p95 ≤ 33.3 ms) while panning and while updates
arrive; message → pixels p95 ≤ 50 ms. Usage: ``.venv/bin/python bench/app_frames.py [--quick]`` (runs each
window in a process of its own, under ``xvfb-run`` when there is no display); prints a table and writes
``bench/results/app_frames.json``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load import cpu_burner, load_average, machine  # noqa: E402

MAP_SIZE = 30
FIGURES = 40
# Message → pixels, split: the UI thread's, the network agent's and the process's CPU from the message put in the
# stand-in engine's outbox to the frame showing it, and when (after the send) the app had applied it and refreshed.
PARTS = ("ui_cpu", "agent_cpu", "process_cpu", "applied", "refreshed")
STUCK_S = 0.25  # message → pixels: a frame is asked for when an update has not been shown after this long
TABLE_GAP_S = 0.1  # at the table's pace: the next message once the app has drawn nothing for this long
WARM_UPDATES = 20  # message → pixels on the rule sets' boards: the app's first updates, timed apart (warm-up)
MOST_GAMES = 100  # games played at most to find states the app has not shown (then they are sent over again)


def synthetic_scenario() -> tuple[dict[str, Any], dict[str, Any]]:
    """A 30×30 flat-top map with rock, crates, water, walls and doors, 40 figures on two sides."""
    from engine.hexes import Hex, from_offset, to_label

    tiles, keys = [], []
    for col in range(MAP_SIZE):
        for row in range(MAP_SIZE):
            h = from_offset(col, row)
            terrain = "floor"
            if (col * 7 + row * 3) % 23 == 0:
                terrain = "blocking"
            elif (col * 5 + row) % 31 == 0:
                terrain = "low"
            elif 12 <= col <= 14 and 10 <= row <= 16:
                terrain = "water"
            tiles.append({"hex": [h.q, h.r], "label": to_label(h), "terrain": terrain, "level": (col // 10) % 2,
                          "tokens": ["treasure"] if (col, row) == (15, 15) else []})
            if terrain == "floor":
                keys.append(h)
    edges = []
    for i in range(2, MAP_SIZE - 2, 3):
        a = from_offset(i, 8)
        b = a + Hex(0, 1)
        edges.append({"a": [a.q, a.r], "b": [b.q, b.r], "label": "", "kind": ("wall", "door", "locked")[i % 3]})
    figures, state_figures = [], {}
    for n in range(FIGURES):
        side = "red" if n < FIGURES // 2 else "blue"
        h = keys[(n * 37) % len(keys)]
        fid = f"f{n}"
        figures.append({"id": fid, "name": f"Figure {n}", "marker": n, "side": side,
                        "kind": ("fighter", "archer", "wizard")[n % 3], "abilities": [], "start": [h.q, h.r],
                        "height_mm": 0.0})
        state_figures[fid] = {"id": fid, "side": side, "hex": [h.q, h.r], "alive": True, "on_table": True,
                              "facing": 0, "carrying": []}
    scenario = {
        "id": "bench-30x30", "name": "Benchmark 30×30", "description": "", "ruleset": "fantasy-battle",
        "options": {}, "points": {"red": 20, "blue": 20}, "victory": [],
        "sides": [{"id": "red", "name": "Red", "colour": "red"}, {"id": "blue", "name": "Blue", "colour": "blue"}],
        "players": [{"name": "Red", "sides": ["red"]}, {"name": "Blue", "sides": ["blue"]}],
        "figures": figures,
        "board": {"orientation": "flat", "hex_size_mm": 28.87, "origin_mm": [0.0, 0.0], "rotation_deg": 0.0,
                  "tiles": tiles, "edges": edges, "anchors": {}},
    }
    snapshot = {
        "state": {"scenario_id": "bench-30x30", "ruleset": "fantasy-battle", "figures": state_figures,
                  "doors": [], "tokens": {}, "round": 1, "turn_order": [0, 1], "active": 0, "phase": "movement",
                  "step": {"kind": "choose_figure"}, "turn_sets": {}, "pending_removals": [], "winner": None,
                  "serial": 0},
        "prompt": {"kind": "choose", "side": "red", "text": "Red: choose the next figure to move.", "figure": None,
                   "note": "", "dice": [], "outcomes": [], "chances": [], "options": [], "moves": []},
        "history": [],
        "threatened": {"red": [], "blue": []},
    }
    return scenario, snapshot


# The rule sets' own boards, for (d): scenario id → what its board has that the synthetic map has not.
BOARDS = {
    "lost-worlds-ruined-tower": "levels (Lost Worlds)",
    "laramie-station": "stacks, facing (Laramie)",
    "tenkey-skirmish": "a zone mat (Tenkey)",
    "goblins-treasure": "levels, doors (Fantasy Battle)",
}


def played_states(scenario_id: str, most: int) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], int]:
    """A bundled scenario's ``scenario`` message, its first snapshot and up to ``most`` snapshots after figures moved,
    from games the engine's auto player plays with seeds 1, 2, … (at most ``MOST_GAMES``; the messages a tablet gets,
    as the engine builds them), and how many games were played. Each snapshot is a state of its own, as at a table."""
    from engine.autoplay import AutoPlayer, Step, play_out
    from engine.game import Game
    from engine.scenario import bundled_scenarios, load_scenario_text
    from engine.snapshot import game_snapshot, scenario_to_dict

    def places(game: Game) -> dict[str, object]:
        return {fid: f.hex for fid, f in game.state.figures.items()}

    scenario = load_scenario_text(bundled_scenarios()[scenario_id], f"{scenario_id}.toml")
    first = json.loads(json.dumps(game_snapshot(Game(scenario))))
    states: list[dict[str, Any]] = []
    games = 0
    while games < MOST_GAMES and len(states) < most:
        games += 1
        game = Game(scenario)
        seen: list[dict[str, object]] = [places(game)]

        def kept(step: Step, game: Game = game, seen: list[dict[str, object]] = seen) -> None:
            now = places(game)  # kept: the states after a figure moved (a move, a push, a fall …)
            if now != seen[0] and len(states) < most:
                states.append(json.loads(json.dumps(game_snapshot(game))))
            seen[0] = now

        play_out(game, AutoPlayer(seed=games), on_step=kept)
    return json.loads(json.dumps(scenario_to_dict(scenario, Game(scenario).points()))), first, states, games


class StandInEngine(threading.Thread):
    """Answers ``snapshot`` on a ROUTER and publishes ``game.state`` updates on request, over loopback."""

    def __init__(self, scenario: dict[str, Any], snapshot: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        import zmq

        self.ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        self.pub = self.ctx.socket(zmq.PUB)
        self.router = self.ctx.socket(zmq.ROUTER)
        for s in (self.pub, self.router):
            s.setsockopt(zmq.LINGER, 0)
        self.pub_port = self.pub.bind_to_random_port("tcp://127.0.0.1")
        self.router_port = self.router.bind_to_random_port("tcp://127.0.0.1")
        self.scenario, self.snapshot = scenario, snapshot
        self.seq = 1
        self.outbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.sent_at: dict[int, float] = {}
        self.stop_flag = threading.Event()

    def run(self) -> None:
        import zmq

        from engine import wire

        poller = zmq.Poller()
        poller.register(self.router, zmq.POLLIN)
        started = beat_at = time.monotonic()
        try:
            while not self.stop_flag.is_set():
                if time.monotonic() - beat_at >= 1.0:  # like the real engine: a heartbeat every second
                    beat_at = time.monotonic()
                    self.seq += 1
                    beat = wire.EngineHeartbeat(self.seq, time.time(), "bench", 1, beat_at - started, 0, False)
                    self.pub.send_multipart(beat.to_frames())
                for _sock, _ in poller.poll(2):
                    frames = self.router.recv_multipart()
                    req = wire.parse_request(frames[-1])
                    fields = {"game_id": 1, "scenario": self.scenario, "game": self.snapshot, "last_seq": self.seq,
                              "revision": self.seq, "table": {}} if req.cmd == "snapshot" else {}
                    reply = wire.encode_reply(True, None, cmd=req.cmd, request_id=req.id, seq=self.seq,
                                              engine_run="bench", sent_at=time.time(), **fields)
                    self.router.send_multipart([*frames[:-1], reply])
                while True:
                    try:
                        snap = self.outbox.get_nowait()
                    except queue.Empty:
                        break
                    self.snapshot = snap  # a late joiner's snapshot is the newest state
                    self.seq += 1
                    msg = wire.GameStateMessage.whole(self.seq, time.time(), "bench", 1, self.seq, snap)
                    self.sent_at[snap["state"]["serial"]] = time.perf_counter()
                    self.pub.send_multipart(msg.to_frames())
        finally:
            self.pub.close(linger=0)
            self.router.close(linger=0)


def percentiles(values: list[float]) -> dict[str, float]:
    import numpy as np

    if not values:
        return {"n": 0, "p50_ms": 0.0, "p95_ms": 0.0, "mean_ms": 0.0}
    arr = np.array(values) * 1000.0
    return {"n": len(values), "p50_ms": round(float(np.percentile(arr, 50)), 3),
            "p95_ms": round(float(np.percentile(arr, 95)), 3), "mean_ms": round(float(arr.mean()), 3)}


def run_in_window(quick: bool, board_id: str | None = None, updates_only: bool = False,
                  maxfps: int | None = None, profile: Path | None = None) -> dict[str, Any]:
    """The frame rows on the synthetic map, or (``board_id``) message → pixels on a bundled scenario's board;
    ``profile``: the UI thread's cProfile statistics while message → pixels is measured, written there."""
    from companion_app.kivy_start import prepare_kivy

    prepare_kivy()  # the window as the app asks for it (no multisampling), and a quiet start
    from kivy.config import Config

    if maxfps is None:  # the frame rows measure a frame's cost: no cap; message → pixels is the app as it runs
        maxfps = 0 if board_id is None and not updates_only else Config.getint("graphics", "maxfps")
    Config.set("graphics", "maxfps", str(maxfps))  # 0: Kivy never sleeps, every frame drawn as soon as it can be
    Config.set("graphics", "width", "1280")
    Config.set("graphics", "height", "800")
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion_app.net.agent import NetworkAgent
    from companion_app.ui.app import HexaApp

    frames = 24 if quick else 300
    warm_updates = 4 if quick else WARM_UPDATES  # the app's first updates: its first prompts, texts and fonts
    states: list[dict[str, Any]] = []
    games = 0
    if board_id is None:
        scenario, snapshot = synthetic_scenario()
    else:
        # Enough states for the warm-up and the three message → pixels rows, each sent once.
        scenario, snapshot, states, games = played_states(board_id, 3 * (frames // 2) + warm_updates)
    engine = StandInEngine(scenario, snapshot)
    engine.start()
    app = HexaApp(NetworkAgent(f"tcp://127.0.0.1:{engine.pub_port}", f"tcp://127.0.0.1:{engine.router_port}"))
    result: dict[str, Any] = {}
    flips: list[float] = []
    cpu_at: list[float] = []  # the process's CPU time at each flip (all threads: the software rasteriser's too)
    shown_at: dict[int, float] = {}  # serial → time of the first flipped frame that showed it
    clocks_at: dict[int, tuple[float, ...]] = {}  # serial → the CPU clocks (see ``clocks``) when it was shown
    gc_pauses: list[float] = []  # the cycle collector's pauses (s), every thread's

    def clocks() -> tuple[float, ...]:
        """CPU seconds so far: the UI thread's, the network agent's, the whole process's (every thread)."""
        agent = app.agent._thread
        agent_cpu = (time.clock_gettime(time.pthread_getcpuclockid(agent.ident))
                     if agent is not None and agent.ident is not None else 0.0)
        return time.thread_time(), agent_cpu, time.process_time()

    def on_flip(*_: Any) -> None:
        now = time.perf_counter()
        flips.append(now)
        cpu_at.append(time.process_time())
        snap = app.session.snapshot
        if snap is not None and app._shown_revision == app.session.revision:
            serial = int(snap["state"]["serial"])
            if serial not in shown_at:
                shown_at[serial] = now
                clocks_at[serial] = clocks()

    gc_started = [0.0]

    def on_gc(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            gc_pauses.append(time.perf_counter() - gc_started[0])

    gc.callbacks.append(on_gc)

    Window.bind(on_flip=on_flip)

    def board() -> Any:
        return app.sm.get_screen("play").ids.board

    def update(serial: int) -> dict[str, Any]:
        snap: dict[str, Any]
        if states:  # the played game's next state (over again from its first move when all were sent)
            snap = json.loads(json.dumps(states[(serial - 1) % len(states)]))
            snap["state"]["serial"] = serial
            return snap
        snap = json.loads(json.dumps(snapshot))
        fig = snap["state"]["figures"][f"f{serial % FIGURES}"]
        fig["hex"] = [fig["hex"][0] + (1 if serial % 2 else -1), fig["hex"][1]]
        snap["state"]["serial"] = serial
        return snap

    phases = ["wait", "floor", "floor_no_board", "floor_empty", "pan", "pan_baseline", "pan_updates", "latency",
              "latency_table", "latency_baseline", "done"]
    if board_id is not None or updates_only:
        phases = ["wait", "warmup", "latency", "latency_table", "latency_baseline", "done"]
    taken_out: list[tuple[Any, Any, int]] = []  # (widget, parent, index) removed for a floor measurement

    def take_out(widget: Any) -> None:
        parent = widget.parent
        taken_out.append((widget, parent, parent.children.index(widget)))
        parent.remove_widget(widget)

    def put_back() -> None:
        while taken_out:
            widget, parent, index = taken_out.pop()
            if parent is Window:
                parent.add_widget(widget)  # the window takes no index
            else:
                parent.add_widget(widget, index=index)
    st: dict[str, Any] = {"phase": 0, "i": 0, "t0": 0, "serial": 0, "shown": {}, "full_redraw": False}

    def frame_times(start: int) -> list[float]:
        seg = flips[start:]
        return [b - a for a, b in itertools.pairwise(seg)]

    def frame_stats(start: int) -> dict[str, Any]:
        """Frame intervals' percentiles, and the CPU the process spent per frame (less swayed by other load)."""
        stats = percentiles(frame_times(start))
        cpu = [b - a for a, b in itertools.pairwise(cpu_at[start:])]
        stats["cpu_p50_ms"] = percentiles(cpu)["p50_ms"]
        return stats

    def tick(_dt: float) -> None:
        phase = phases[st["phase"]]
        b = board()
        if phase == "wait":
            if app.agent.state == "live" and app.session.board is not None and b.frames > 0:
                st["phase"] += 1
                st["t0"] = len(flips)
                st["i"] = 0
            return
        if phase in ("floor", "floor_no_board", "floor_empty"):  # nothing changes, every frame redrawn
            if st["i"] == 0 and phase != "floor":
                take_out(b if phase == "floor_no_board" else app.sm)
                st["t0"] = len(flips)
            Window.canvas.ask_update()
            st["i"] += 1
            if st["i"] >= frames:
                result[phase] = frame_stats(st["t0"] + 2)
                put_back()
                st["phase"] += 1
                st["t0"] = len(flips)
                st["i"] = 0
            return
        if phase in ("pan", "pan_baseline", "pan_updates"):
            step = 6.0 if (st["i"] // 30) % 2 == 0 else -6.0
            b.viewport.pan(step, step * 0.5)
            if phase == "pan_baseline":
                b._tiles_for = b._edges_drawn = b._figures_drawn = None  # the straightforward way: rebuild all
                b.show(app.session)
            b.update_matrix()
            if phase == "pan_updates" and st["i"] % 4 == 0:
                st["serial"] += 1
                engine.outbox.put(update(st["serial"]))
            st["i"] += 1
            if st["i"] >= frames:
                result[phase] = frame_stats(st["t0"] + 2)
                st["phase"] += 1
                st["t0"] = len(flips)
                st["i"] = 0
            return
        if phase in ("warmup", "latency", "latency_table", "latency_baseline"):
            st["full_redraw"] = phase == "latency_baseline"
            if phase == "latency" and "renders_at" not in st:  # what the board's renders filled from here on
                if profile is not None:
                    st["profiler"] = cProfile.Profile(time.thread_time)  # the UI thread's CPU, not the wall
                    st["profiler"].enable()
                p = b._layers.partial
                st["renders_at"] = (p.partial_renders, p.whole_renders, p.texels_rendered)
                st["flips_at"] = len(flips)
                st["gc_at"] = len(gc_pauses)
            pending = st.get("pending")
            if pending is not None:
                if pending not in shown_at:
                    # The app draws a frame when something on screen changed, as it does at the table; an update
                    # that changed nothing drawn is shown by the next frame asked for, after STUCK_S.
                    if pending in engine.sent_at and time.perf_counter() - engine.sent_at[pending] > STUCK_S:
                        Window.canvas.ask_update()
                    return
                sent = engine.sent_at[pending]
                st.setdefault(phase, []).append(shown_at[pending] - sent)
                ui0, agent0, proc0 = st["clocks_sent"]
                ui1, agent1, proc1 = clocks_at[pending]
                parts = st.setdefault(f"{phase}_parts", {k: [] for k in PARTS})
                for key, value in zip(PARTS, (ui1 - ui0, agent1 - agent0, proc1 - proc0,
                                              app.last_message_at - sent, app.last_refresh_at - sent), strict=True):
                    parts[key].append(value)
                st["pending"] = None
                st["i"] += 1
            if st["i"] >= (warm_updates if phase == "warmup" else frames // 2):
                result[phase] = percentiles(st.get(phase, []))
                result[phase]["max_ms"] = round(1000.0 * max(st.get(phase, [0.0])), 3)
                result[phase]["parts"] = {key: percentiles(values)
                                          for key, values in st.get(f"{phase}_parts", {}).items()}
                result[phase]["gc_pauses"] = percentiles(gc_pauses[st.get("gc_at", 0):])
                st["gc_at"] = len(gc_pauses)
                if phase == "latency":
                    if profile is not None:
                        st["profiler"].disable()
                        st["profiler"].dump_stats(str(profile))
                    p, (parts0, wholes0, texels0) = b._layers.partial, st["renders_at"]
                    size = int(p.fbo.size[0]) * int(p.fbo.size[1])
                    renders = p.partial_renders - parts0 + p.whole_renders - wholes0
                    # Frames drawn per update: each is a whole window for the rasteriser, whatever changed in it.
                    result["frames_per_update"] = round((len(flips) - st["flips_at"]) / max(1, st["i"]), 2)
                    result["board_texture"] = {  # the board's texture while message → pixels was measured
                        "texels": size, "renders": renders, "whole_renders": p.whole_renders - wholes0,
                        "share_per_render": round((p.texels_rendered - texels0) / max(1, size * renders), 4)}
                st["phase"] += 1
                st["i"] = 0
                return
            if st.get("pending") is None:
                if phase == "latency_table" and flips and time.perf_counter() - flips[-1] < TABLE_GAP_S:
                    return  # the app still drawing what the last message set off
                st["serial"] += 1
                st["pending"] = st["serial"]
                if st["full_redraw"]:
                    b._tiles_for = b._edges_drawn = b._figures_drawn = None
                message = update(st["serial"])
                st["clocks_sent"] = clocks()
                engine.outbox.put(message)
            return
        app.stop()

    def full_redraw_hook(*_: Any) -> None:
        if st["full_redraw"]:
            b = board()
            b._tiles_for = b._edges_drawn = b._figures_drawn = None

    Clock.schedule_interval(tick, 0)
    Clock.schedule_interval(full_redraw_hook, 0)
    try:
        app.run()
    finally:
        engine.stop_flag.set()
        engine.join(2)
    if board_id is None:
        result["map"] = {"hexes": MAP_SIZE * MAP_SIZE, "figures": FIGURES, "window": [1280, 800]}
    else:
        tiles = scenario["board"]["tiles"]
        result["map"] = {"scenario": board_id, "has": BOARDS.get(board_id, ""), "cells": len(tiles),
                         "figures": len(scenario["figures"]), "states": len(states), "games": games,
                         "sent_again": max(0, st["serial"] - len(states)), "window": [1280, 800]}
    return result


def print_parts(label: str, row: dict[str, Any]) -> None:
    """Where a message → pixels went (p50 / p95 ms): the CPU of the UI thread, the network agent and the process
    from the send to the frame showing it, the times the app had applied it and refreshed, the collector's pauses."""
    parts, pauses = row.get("parts"), row.get("gc_pauses", {})
    if not parts:
        return
    words = ", ".join(f"{key} {parts[key]['p50_ms']:.1f}/{parts[key]['p95_ms']:.1f}" for key in PARTS)
    print(f"{label}: {words}; collector pauses {pauses.get('n', 0)} (mean {pauses.get('mean_ms', 0):.1f} ms)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="few frames: keeps the script working in tests")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "app_frames.json")
    parser.add_argument("--load", action="store_true", help="run beside one CPU-burning process (bench/load.py)")
    parser.add_argument("--only", choices=["synthetic", *BOARDS], action="append",
                        help="measure this window only (repeatable): the synthetic map or a scenario's board")
    parser.add_argument("--updates-only", action="store_true",
                        help="on the synthetic map too, message → pixels only (no frame rows): a short run")
    parser.add_argument("--maxfps", type=int, default=None,
                        help="Kivy's frame cap (default: none for the frame rows, the frame's cost; the app's own, "
                             "Kivy's 60 with its free clock, for message → pixels with --updates-only and on "
                             "the boards; 0: none)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="write the UI thread's cProfile statistics during message → pixels to PATH.WINDOW.prof")
    parser.add_argument("--in-window", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--board", default=None, help=argparse.SUPPRESS)  # in a window: a bundled scenario's board
    args = parser.parse_args(argv)
    if args.in_window:  # one window's rows, written where the parent asked
        args.out.write_text(json.dumps(run_in_window(args.quick, args.board, args.updates_only, args.maxfps,
                                                     args.profile)) + "\n")
        return 0
    if not os.environ.get("DISPLAY") and not shutil.which("xvfb-run"):
        print("app_frames: needs a display; install Xvfb (apt-get install xvfb)", file=sys.stderr)
        return 2
    boards = ["laramie-station"] if args.quick else list(BOARDS)
    windows: list[str | None] = [None, *boards]
    if args.only:
        windows = [None if name == "synthetic" else name for name in args.only]
        boards = [name for name in args.only if name != "synthetic"]
    about = machine()
    with tempfile.TemporaryDirectory() as tmp, cpu_burner(args.load):
        parts: dict[str | None, dict[str, Any]] = {}
        for board_id in windows:  # each window in a process of its own: Kivy keeps global state
            part = Path(tmp) / f"{board_id or 'synthetic'}.json"
            cmd = [sys.executable, __file__, "--in-window", "--out", str(part)] + (["--quick"] if args.quick else [])
            cmd += ["--updates-only"] if args.updates_only else []
            cmd += ["--maxfps", str(args.maxfps)] if args.maxfps is not None else []
            cmd += ["--board", board_id] if board_id else []
            if args.profile is not None:
                cmd += ["--profile", str(args.profile.resolve()) + f".{board_id or 'synthetic'}.prof"]
            if not os.environ.get("DISPLAY"):
                cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *cmd]
            if subprocess.run(cmd, check=False).returncode != 0 or not part.exists():
                print(f"app_frames: the window for {board_id or 'the synthetic map'} failed", file=sys.stderr)
                return 1
            parts[board_id] = json.loads(part.read_text())
    res = parts.get(None, {})
    res["boards"] = {board_id: parts[board_id] for board_id in boards}
    res["quick"] = args.quick
    res["load"] = args.load
    res["maxfps"] = args.maxfps if args.maxfps is not None else "frame rows 0, message → pixels the app's own"
    res["clock"] = os.environ.get("KIVY_CLOCK", "free_all (the app's)")
    res["machine"] = {**about, "load_1min_at_end": load_average(), "display": "Xvfb + Mesa software GL",
                      "LP_NUM_THREADS": os.environ.get("LP_NUM_THREADS", "(Mesa's default: one per core)")}
    res["targets"] = {"frame_p95_ms": 33.3, "message_to_pixels_p95_ms": 50.0}
    rows = [("whole window redrawn, nothing changed", "floor"), ("  … the same without the board", "floor_no_board"),
            ("  … an empty window (clear and flip only)", "floor_empty"), ("pan (matrix only)", "pan"),
            ("pan, baseline: rebuild all", "pan_baseline"), ("pan while updates arrive", "pan_updates"),
            ("message → pixels (back to back)", "latency"), ("message → pixels at the table's pace", "latency_table"),
            ("message → pixels, baseline: rebuild all", "latency_baseline")]
    print(f"{'measure':50} {'n':>5} {'p50 ms':>9} {'p95 ms':>9} {'CPU/frame':>10}")
    for label, key in rows:
        r = res.get(key, {})
        cpu = f"{r['cpu_p50_ms']:>10.2f}" if "cpu_p50_ms" in r else f"{'':>10}"
        print(f"{label:50} {r.get('n', 0):>5} {r.get('p50_ms', 0):>9.2f} {r.get('p95_ms', 0):>9.2f} {cpu}")
    for label, key in (("message → pixels", "latency"), ("  … at the table's pace", "latency_table"),
                       ("  … baseline", "latency_baseline")):
        print_parts(label, res.get(key, {}))
    heading = "message → pixels on the rule sets' boards"
    print(f"\n{heading:50} {'n':>5} {'p50 ms':>9} {'p95 ms':>9} "
          f"{'baseline':>10}")
    for board_id, part in res["boards"].items():
        r, b, m = part.get("latency", {}), part.get("latency_baseline", {}), part.get("map", {})
        label = f"{board_id}: {m.get('has', '')}"
        print(f"{label:50} {r.get('n', 0):>5} {r.get('p50_ms', 0):>9.2f} {r.get('p95_ms', 0):>9.2f} "
              f"{b.get('p95_ms', 0):>10.2f}")
        pace = part.get("latency_table", {})
        paced = "  … at the table's pace"
        print(f"{paced:50} {pace.get('n', 0):>5} {pace.get('p50_ms', 0):>9.2f} "
              f"{pace.get('p95_ms', 0):>9.2f}")
        warm = part.get("warmup", {})
        warmed = "  … the app's first updates (warm-up, apart)"
        print(f"{warmed:50} {warm.get('n', 0):>5} {warm.get('p50_ms', 0):>9.2f} "
              f"{warm.get('p95_ms', 0):>9.2f}   max {warm.get('max_ms', 0):.1f}")
        print_parts("  split", r)
        print_parts("  split at the table's pace", pace)
        t = part.get("board_texture", {})
        print(f"  ({m.get('cells')} cells, {m.get('figures')} figures, {m.get('states')} states after moves, "
              f"from {m.get('games')} games; "
              f"baseline: p95 with the whole board redrawn per update; the board's texture {t.get('texels', 0):,} "
              f"texels, {t.get('share_per_render', 0):.0%} of it per render, {t.get('whole_renders', 0)} of "
              f"{t.get('renders', 0)} whole; {part.get('frames_per_update', 0)} frames drawn per update)")
    pan, base = res.get("pan", {}), res.get("pan_baseline", {})
    if pan.get("p50_ms") and base.get("p50_ms"):
        res["pan_speedup_p50"] = round(base["p50_ms"] / pan["p50_ms"], 2)
        print(f"pan speed-up over the baseline (p50): {res['pan_speedup_p50']}×")
    lat, lat_base = res.get("latency", {}), res.get("latency_baseline", {})
    if lat.get("p50_ms") and lat_base.get("p50_ms"):
        res["latency_ratio_p50"] = round(lat_base["p50_ms"] / lat["p50_ms"], 2)
    if not args.quick:
        for label, key, target in (("pan", "pan", 33.3), ("pan while updates arrive", "pan_updates", 33.3),
                                   ("message → pixels (back to back)", "latency", 50.0),
                                   ("message → pixels at the table's pace", "latency_table", 50.0)):
            if not res.get(key, {}).get("n"):
                continue  # not measured in this run (--updates-only, --only a board)
            p95 = res[key]["p95_ms"]
            verdict = "met" if p95 <= target else f"MISSED by {p95 - target:.1f} ms"
            print(f"{label}: p95 {p95:.1f} ms (target ≤ {target} ms) {verdict}")
        for board_id, part in res["boards"].items():
            for pace, key in (("back to back", "latency"), ("at the table's pace", "latency_table")):
                p95 = part.get(key, {}).get("p95_ms", 0.0)
                verdict = "met" if p95 <= 50.0 else f"MISSED by {p95 - 50.0:.1f} ms"
                print(f"message → pixels on {board_id}, {pace}: p95 {p95:.1f} ms (target ≤ 50.0 ms) {verdict}")
    floor, no_board, empty = (res.get(k, {}).get("p50_ms", 0.0) for k in ("floor", "floor_no_board", "floor_empty"))
    if floor:
        res["floor_share_p50"] = {"board": round(floor - no_board, 2), "rest_of_window": round(no_board - empty, 2),
                                  "clear_and_flip": round(empty, 2)}
        print(f"where a frame's {floor:.1f} ms go (p50): the board {floor - no_board:.1f} ms, the rest of the window "
              f"{no_board - empty:.1f} ms, clearing and flipping the window {empty:.1f} ms")
    res["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(f"load average at the end: {res['load_average']} (the machine's other work shares its cores)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
