"""Benchmark: a figure put down on the table → the tablet showing the judged move, through every real process.

The synthetic table (``hexa vision --synthetic … --control``: rendered camera frames at 30 fps, detected by
the camera service) → the engine service (``hexa engine --vision``) → the tablet app (``HexaApp`` under Xvfb
with software GL, 1280×800) on the stacks-and-facing test table (the Skirmish test rule set: every prompt
is one figure's move to a neighbouring hex, so every put-down is a judged move). This script is the hand:
it reads the prompt, tells the synthetic table's hand to carry the figure to a neighbouring hex, and times

- **put down**: the capture time of the first camera frame with the tag at rest on its new place (the
  hand's motion has ended; a real camera sees it up to one frame interval, 33 ms, later than it happens),
- **settled frame**: the capture time of the first ``tracks`` frame with the tag settled there (the tracker
  calls a tag settled once its poses agree and no hand moved beside it since the frame before, so a figure
  still in the hand is never judged),
- **tracks sent**: when the camera service published that frame,
- **game.state sent**: when the engine published the state with the move judged and played,
- **shown**: the first flipped frame of the tablet that shows the figure on its new hex.

Reports p50 and p95 of the whole and each stage's share, and how long before the put-down the engine sent
the ghost verdict (``provisional``: the figure still in the hand over its new hex). Usage:
``.venv/bin/python bench/end_to_end.py [--quick] [--moves N]``; writes ``bench/results/end_to_end.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import signal
import socket
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

TABLE = REPO / "tests" / "rulesets" / "skirmish" / "stacks.toml"
RULESETS = REPO / "tests" / "rulesets" / "skirmish"
START_S = 120.0  # rendering and detecting the first frames, the engine hearing them, the app going live
MOVE_TIMEOUT_S = 20.0
STAGES = (("put down → settled frame captured (tracker)", "down", "captured"),
          ("frame captured → tracks sent (camera service)", "captured", "tracks_sent"),
          ("tracks sent → game.state sent (engine)", "tracks_sent", "state_sent"),
          ("game.state sent → shown on the tablet (app)", "state_sent", "shown"))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def loopback() -> str:
    return f"tcp://127.0.0.1:{free_port()}"


# ------------------------------------------------------------------------------------------ the tablet process


def run_tablet(pub: str, router: str) -> int:
    """The tablet: the real app; prints one JSON line per figure hex shown on a flipped frame."""
    from companion_app.kivy_start import prepare_kivy

    prepare_kivy()  # the window as the app asks for it (no multisampling), and a quiet start
    from kivy.config import Config

    Config.set("graphics", "width", "1280")
    Config.set("graphics", "height", "800")
    from kivy.core.window import Window

    from companion_app.net.agent import NetworkAgent
    from companion_app.ui.app import HexaApp

    app = HexaApp(NetworkAgent(pub, router))
    shown: dict[str, Any] = {}

    def on_flip(*_: Any) -> None:
        now = time.time()
        snap = app.session.snapshot
        if snap is None or app._shown_revision != app.session.revision:
            return
        for fid, fig in snap["state"]["figures"].items():
            if shown.get(fid) != fig.get("hex"):
                shown[fid] = fig.get("hex")
                print(json.dumps({"figure": fid, "hex": fig.get("hex"), "shown_at": now,
                                  "live": app.agent.state == "live"}), flush=True)

    Window.bind(on_flip=on_flip)
    app.run()
    return 0


# ------------------------------------------------------------------------------------------ the hand and clocks


class Watch(threading.Thread):
    """Subscribes to the camera's ``tracks`` and the engine's ``game.state``, keeping what the timing needs."""

    def __init__(self, vision_pub: str, engine_pub: str) -> None:
        super().__init__(daemon=True)
        import zmq

        from engine import wire

        self.wire = wire
        self.ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        self.tracks = self.ctx.socket(zmq.SUB)
        self.tracks.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_TRACKS)
        self.tracks.connect(vision_pub)
        self.state = self.ctx.socket(zmq.SUB)
        self.state.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_GAME_STATE)
        self.state.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_TABLE_VIEW)
        self.state.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_TABLE)
        self.state.connect(engine_pub)
        self.lock = threading.Lock()
        self.frames: list[tuple[float, float, dict[int, tuple[float, float, str]]]] = []  # captured, sent, markers
        self.states: list[tuple[float, dict[str, Any], dict[str, Any]]] = []  # sent_at, figures, prompt
        self.placed: set[str] = set()  # figures the engine's table.view has seen on a hex
        self.ghosts: list[tuple[float, str, list[int]]] = []  # provisional verdicts: sent_at, figure, cell
        self.stop_flag = threading.Event()

    def run(self) -> None:
        import zmq

        poller = zmq.Poller()
        poller.register(self.tracks, zmq.POLLIN)
        poller.register(self.state, zmq.POLLIN)
        while not self.stop_flag.is_set():
            for sock, _ in poller.poll(50):
                message = self.wire.decode(sock.recv_multipart())
                with self.lock:
                    if isinstance(message, self.wire.TracksMessage):
                        self.frames.append((message.captured_at, message.sent_at,
                                            {m.id: (m.x_mm, m.y_mm, m.state) for m in message.markers}))
                        del self.frames[:-600]
                    elif isinstance(message, self.wire.GameStateMessage):
                        self.states.append((message.sent_at, message.state["figures"], message.prompt))
                    elif isinstance(message, self.wire.TableMessage) and message.provisional is not None:
                        self.ghosts.append((message.sent_at, message.provisional["figure"],
                                            message.provisional["to"]))
                    elif isinstance(message, self.wire.TableViewMessage):
                        self.placed = {f.figure for f in message.figures if f.figure and f.hex is not None}

    def newest_state(self) -> tuple[float, dict[str, Any], dict[str, Any]] | None:
        with self.lock:
            return self.states[-1] if self.states else None

    def at_rest(self, marker: int, x: float, y: float, after: float) -> float | None:
        """Capture time of the first frame after ``after`` with the tag within 1.5 mm of (x, y), in any state."""
        with self.lock:
            for captured, _, markers in self.frames:
                m = markers.get(marker)
                if captured >= after and m is not None and abs(m[0] - x) + abs(m[1] - y) < 1.5:
                    return captured
        return None

    def frame_rate(self) -> float:
        with self.lock:
            if len(self.frames) < 2:
                return 0.0
            return (len(self.frames) - 1) / max(1e-9, self.frames[-1][0] - self.frames[0][0])

    def settled_frame(self, marker: int, x: float, y: float, after: float) -> tuple[float, float] | None:
        """(captured, sent) of the first frame captured after ``after`` with the marker settled at (x, y)."""
        with self.lock:
            for captured, sent, markers in self.frames:
                m = markers.get(marker)
                if captured >= after and m is not None and m[2] == "settled" and abs(m[0] - x) + abs(m[1] - y) < 6:
                    return captured, sent
        return None

    def ghost_of(self, figure: str, cell: list[int], after: float) -> float | None:
        """When the engine first sent a provisional verdict for ``figure`` over ``cell`` (still in the hand)."""
        with self.lock:
            return next((sent for sent, f, c in self.ghosts if sent >= after and f == figure and c == cell), None)

    def state_with(self, figure: str, cell: list[int], after: float) -> float | None:
        with self.lock:
            for sent, figures, _ in self.states:
                if sent >= after and figures.get(figure, {}).get("hex") == cell:
                    return sent
        return None


class TabletOutput(threading.Thread):
    """Reads the tablet process's lines: when each figure's hex was first shown."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        super().__init__(daemon=True)
        self.process = process
        self.lock = threading.Lock()
        self.shown: list[dict[str, Any]] = []

    def run(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue
            with self.lock:
                self.shown.append(item)

    def shown_at(self, figure: str, cell: list[int], after: float) -> float | None:
        with self.lock:
            for item in self.shown:
                if item["figure"] == figure and item["hex"] == cell and item["shown_at"] >= after:
                    return float(item["shown_at"])
        return None

    def live(self) -> bool:
        with self.lock:
            return any(item["live"] for item in self.shown)


def end_group(process: subprocess.Popen[Any]) -> None:
    """End a child and everything it started (its own session): SIGTERM, then SIGKILL for whatever is left."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10.0)
    time.sleep(1.0)  # xvfb-run takes its display down after the app
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(5.0)


def wait_for(what: str, found: Any, timeout_s: float, logs: list[Path]) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.005)
    tails = "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-2000:]}" for p in logs if p.exists())
    raise TimeoutError(f"waited {timeout_s:.0f} s for {what}\n{tails}")


def percentile(values: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(np.asarray(values), q)) if values else 0.0


def run(moves: int, tmp: Path) -> dict[str, Any]:
    from engine.hexes import Hex, hex_distance
    from engine.scenario import load_scenario
    from vision.synthetic.control import TableControlClient

    env = {**os.environ, "PYTHONPATH": str(REPO), "HEXA_RULESETS": str(RULESETS), "PYTHONUNBUFFERED": "1"}
    from engine import rules

    os.environ["HEXA_RULESETS"] = str(RULESETS)
    rules.reload_plugins()
    scenario = load_scenario(str(TABLE))
    markers = {f.id: f.marker_id for f in scenario.figures}
    vision_pub, vision_snap, control = loopback(), loopback(), loopback()
    engine_pub, engine_commands = loopback(), loopback()
    logs = [tmp / "vision.log", tmp / "engine.log", tmp / "tablet.log"]
    procs: list[subprocess.Popen[Any]] = []

    def start(cmd: list[str], log: Path, **kw: Any) -> subprocess.Popen[Any]:
        # Each in a session of its own, so that ending it ends its children too (xvfb-run's Xvfb and app).
        p = subprocess.Popen(cmd, cwd=REPO, env=env, stderr=open(log, "w"), start_new_session=True,  # noqa: SIM115
                             **kw)
        procs.append(p)
        return p

    try:
        start([sys.executable, "-m", "engine", "vision", "--synthetic", str(TABLE), "--pub", vision_pub,
               "--snapshot", vision_snap, "--fps", "30", "--control", control], logs[0], stdout=subprocess.DEVNULL)
        start([sys.executable, "-m", "engine", "engine", "--scenario", str(TABLE), "--journal",
               str(tmp / "journal.sqlite"), "--new", "--pub", engine_pub, "--commands", engine_commands,
               "--vision", f"{vision_pub},{vision_snap}", "--log-level", "WARNING"], logs[1],
              stdout=subprocess.DEVNULL)
        tablet_cmd = [sys.executable, str(Path(__file__).resolve()), "--tablet", engine_pub, engine_commands]
        if not os.environ.get("DISPLAY"):
            tablet_cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *tablet_cmd]
        tablet = TabletOutput(start(tablet_cmd, logs[2], stdout=subprocess.PIPE, text=True))
        tablet.start()
        watch = Watch(vision_pub, engine_pub)
        watch.start()
        hand = TableControlClient(control, timeout_s=START_S)
        hand.markers()  # the table is up
        wait_for("the tablet to go live", tablet.live, START_S, logs)
        wait_for("a game.state from the engine", watch.newest_state, START_S, logs)
        wait_for("the engine seeing every figure on its hex", lambda: watch.placed >= set(markers), START_S, logs)
        time.sleep(1.0)  # first sight taken (facings, hysteresis) before the first move
        samples: list[dict[str, float]] = []
        for n in range(moves):
            _, figures, prompt = wait_for("a move prompt", watch.newest_state, MOVE_TIMEOUT_S, logs)
            fid = prompt["figure"]
            here = Hex(*figures[fid]["hex"])
            taken = {tuple(f["hex"]) for f in figures.values() if f.get("hex") is not None}
            options = [Hex(*m["hex"]) for m in prompt["moves"] if hex_distance(Hex(*m["hex"]), here) == 1]
            free = [h for h in options if (h.q, h.r) not in taken] or options
            to = free[n % len(free)]
            x, y = scenario.layout.hex_to_mm(to)
            asked = time.time()
            hand.place(markers[fid], x, y, 0.0)
            cell = [to.q, to.r]
            shown = wait_for(f"{fid} shown on {cell}", lambda: tablet.shown_at(fid, cell, asked),  # noqa: B023
                             MOVE_TIMEOUT_S, logs)
            state_sent = watch.state_with(fid, cell, asked)
            down = watch.at_rest(markers[fid], x, y, asked)
            frame = None if down is None else watch.settled_frame(markers[fid], x, y, down)
            if state_sent is None or frame is None or down is None:
                continue
            sample = {"down": down, "captured": frame[0], "tracks_sent": frame[1], "state_sent": state_sent,
                      "shown": shown}
            ghost = watch.ghost_of(fid, cell, asked)
            if ghost is not None:
                sample["ghost_sent"] = ghost
            samples.append(sample)
            print(f"  … move {n + 1}/{moves}: {fid} to {cell}, {1000 * (shown - down):.0f} ms", file=sys.stderr,
                  flush=True)
            # the next prompt: the state after this move
            wait_for("the next prompt", lambda: (s := watch.newest_state()) is not None and s[0] >= state_sent,  # noqa: B023
                     MOVE_TIMEOUT_S, logs)
        hand.close()
        rate = watch.frame_rate()
        watch.stop_flag.set()
    finally:
        for p in reversed(procs):
            end_group(p)
    total = [1000 * (s["shown"] - s["down"]) for s in samples]
    stages = {}
    for label, a, b in STAGES:
        values = [1000 * (s[b] - s[a]) for s in samples]
        stages[label] = {"p50_ms": round(percentile(values, 50), 2), "p95_ms": round(percentile(values, 95), 2),
                         "mean_ms": round(sum(values) / max(1, len(values)), 2)}
    mean_total = sum(total) / max(1, len(total))
    for v in stages.values():
        v["share_of_mean"] = round(v["mean_ms"] / mean_total, 3) if mean_total else 0.0
    ghosts = [1000 * (s["ghost_sent"] - s["down"]) for s in samples if "ghost_sent" in s]
    return {"moves_timed": len(samples), "moves_asked": moves, "camera_fps_measured": round(rate, 1),
            "ghost_verdicts": {"moves_with_one": len(ghosts),
                               "sent_after_put_down_p50_ms": round(percentile(ghosts, 50), 2),
                               "sent_after_put_down_p95_ms": round(percentile(ghosts, 95), 2)},
            "total": {"p50_ms": round(percentile(total, 50), 2), "p95_ms": round(percentile(total, 95), 2),
                      "max_ms": round(max(total, default=0.0), 2)},
            "stages": stages, "samples": samples}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 moves, to keep the script working")
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "end_to_end.json")
    parser.add_argument("--tablet", nargs=2, metavar=("PUB", "ROUTER"), help=argparse.SUPPRESS)  # internal
    args = parser.parse_args(argv)
    if args.tablet:
        return run_tablet(*args.tablet)
    if not os.environ.get("DISPLAY") and not shutil.which("xvfb-run"):
        print("end_to_end: the tablet needs a display; install Xvfb (apt-get install xvfb)", file=sys.stderr)
        return 2
    moves = 4 if args.quick else args.moves
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="hexa-e2e-") as tmp:
        result = run(moves, Path(tmp))
    result.update({"quick": args.quick, "machine": {"nproc": os.cpu_count(), "python": platform.python_version(),
                                                    "load_1min_at_start": round(load, 2),
                                                    "load_1min_at_end": round(os.getloadavg()[0], 2)}})
    t = result["total"]
    print(f"figure put down → tablet shows the judged move: p50 {t['p50_ms']:.0f} ms, p95 {t['p95_ms']:.0f} ms "
          f"({result['moves_timed']} of {moves} moves timed; the synthetic camera delivered "
          f"{result['camera_fps_measured']:.1f} frames/s of 30)")
    g = result["ghost_verdicts"]
    print(f"a ghost verdict (the figure still in the hand over its new hex) was sent in {g['moves_with_one']} of "
          f"{result['moves_timed']} moves, p50 {g['sent_after_put_down_p50_ms']:.0f} ms, p95 "
          f"{g['sent_after_put_down_p95_ms']:.0f} ms after the put-down frame (negative: before it)")
    print(f"{'stage':50} {'p50 ms':>8} {'p95 ms':>8} {'share':>7}")
    for label, v in result["stages"].items():
        print(f"{label:50} {v['p50_ms']:>8.1f} {v['p95_ms']:>8.1f} {100 * v['share_of_mean']:>6.0f}%")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
