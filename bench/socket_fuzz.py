"""Benchmark: the engine's answers and heartbeats while each of its sockets is flooded with malformed messages.

A real ``hexa engine`` process (tutorial scenario, a fresh journal) follows one camera, which this script
plays: it binds the camera's PUB and snapshot sockets. A probe asks the engine a cheap question
(``snapshot`` of the fresh game) every 50 ms over the command socket and times each reply; a subscriber
times the engine's heartbeats (one a second). Phases, one after the other in the same run:

- **baseline**: nothing but the probe (the figures every other phase is compared with),
- **commands**: malformed commands on the engine's ROUTER (bad JSON, unknown commands, wrong types, extra
  frames, oversized ones now and then), each answered with an error,
- **camera feed**: malformed ``tracks``/``heartbeat`` messages on the camera PUB the engine subscribes to
  (random bytes, cut JSON, valid envelopes with wrong fields),
- **camera snapshot**: malformed snapshot replies sent to the engine's DEALER on the camera's snapshot socket,
- **publisher**: junk frames, subscriptions and unsubscriptions sent up the engine's PUB by an XSUB peer.

Each flood phase sends N messages (10⁵ by default) as fast as the sockets take them and lasts until the
engine has worked through them (its ``dropped`` count stops rising), then 2 s more. Reported per phase: the
probe's reply times (p50, p99, max; a probe unanswered at the end counts with its time so far) and the
heartbeats' lateness (gap minus the 1 s interval). Targets: p99 ≤ 100 ms, no reply over 1 s, no heartbeat
late by more than one interval. ``--load`` runs a CPU-burning process beside the engine for the whole run.

Usage: ``.venv/bin/python bench/socket_fuzz.py [--quick] [--load] [--count N]``; writes
``bench/results/socket_fuzz.json`` (``socket_fuzz_load.json`` with ``--load``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import zmq

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from engine import wire  # noqa: E402

PROBE_EVERY_S = 0.05
HEARTBEAT_S = 1.0  # the engine's default heartbeat interval
TARGET_P99_MS = 100.0
TARGET_MAX_MS = 1000.0
TARGET_LATE_S = HEARTBEAT_S  # a heartbeat may be late by at most one interval
FULL_COUNT = 100_000
QUICK_COUNT = 2_000
SETTLE_S = 2.0
DRAIN_TIMEOUT_S = 120.0
PHASES = ("baseline", "commands", "camera feed", "camera snapshot", "publisher")
ENDPOINTS = re.compile(r"publishing on (\S+), commands on (\S+)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


# ---------------------------------------------------------------------------------------------- what is sent


def _random_bytes(rng: random.Random) -> bytes:
    return rng.randbytes(rng.randint(0, 300))


def malformed_command(rng: random.Random) -> list[bytes]:
    kind = rng.randrange(9)
    if kind == 0:
        return [_random_bytes(rng)]
    if kind == 1:
        return [b'{"cmd": "snapshot", "id": ' + rng.randbytes(8)]  # cut short
    if kind == 2:
        return [json.dumps({"cmd": rng.choice(["nope", "", "x" * 100]), "id": rng.randint(0, 9)}).encode()]
    if kind == 3:
        return [json.dumps({"cmd": "action", "id": "f", "action": rng.choice([5, [], "move", {"kind": 3}])}).encode()]
    if kind == 4:
        return [json.dumps({"cmd": "snapshot", "id": [1, 2]}).encode()]
    if kind == 5:
        return [b"", b"{}", b"{}"]  # too many frames
    if kind == 6:
        return [json.dumps([{"cmd": "snapshot"}] * rng.randint(1, 20)).encode()]
    if kind == 7 and rng.random() < 0.01:
        return [b'{"cmd": "snapshot", "pad": "' + b"x" * (wire.MAX_REQUEST_BYTES + 10) + b'"}']  # oversized
    return [json.dumps({"cmd": "query", "what": rng.choice(["area", "?"]), "figure": rng.random()}).encode()]


def _tracks_body(rng: random.Random) -> dict[str, Any]:
    valid = wire.TracksMessage(1, time.time(), camera_id="fuzz", frame_index=1, captured_at=time.time())
    body: dict[str, Any] = json.loads(valid.to_frames()[1])
    key = rng.choice(sorted(body))
    body[key] = rng.choice([None, -1, "x", [], {}, 1e308, [{"id": "a"}]])
    return body


def malformed_camera(rng: random.Random) -> list[bytes]:
    topic = rng.choice([wire.TOPIC_TRACKS, wire.TOPIC_HEARTBEAT])
    kind = rng.randrange(5)
    if kind == 0:
        return [topic, _random_bytes(rng)]
    if kind == 1:
        return [topic, json.dumps(_tracks_body(rng)).encode()]
    if kind == 2:
        return [topic, json.dumps(_tracks_body(rng)).encode()[: rng.randint(1, 60)]]
    if kind == 3:
        return [topic]
    return [topic, b"{}", _random_bytes(rng)]


def malformed_subscription(rng: random.Random) -> list[bytes]:
    kind = rng.randrange(3)
    if kind == 0:
        return [_random_bytes(rng)]
    return [bytes([kind % 2]) + rng.randbytes(rng.randint(0, 40))]  # subscribe (1) or unsubscribe (0)


# ---------------------------------------------------------------------------------------------- what is measured


class Probe:
    """Asks ``snapshot`` every 50 ms on its own DEALER and times each reply, labelled with the phase."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], commands: str) -> None:
        self.dealer = context.socket(zmq.DEALER)
        self.dealer.setsockopt(zmq.LINGER, 0)
        self.dealer.connect(commands)
        self.phase = "warm-up"
        self.sent: dict[int, tuple[str, float]] = {}
        self.replies: dict[str, list[float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        n = 0
        next_at = time.monotonic()
        while not self._stop.is_set():
            wait = max(0.0, next_at - time.monotonic())
            if self.dealer.poll(int(wait * 1000), zmq.POLLIN):
                while True:
                    try:
                        payload = self.dealer.recv(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    now = time.monotonic()
                    request_id = json.loads(payload).get("id")
                    if isinstance(request_id, int) and request_id in self.sent:
                        phase, at = self.sent.pop(request_id)
                        self.replies.setdefault(phase, []).append(now - at)
                continue
            if time.monotonic() >= next_at:
                n += 1
                self.sent[n] = (self.phase, time.monotonic())
                self.dealer.send(wire.encode_request("snapshot", n))
                next_at += PROBE_EVERY_S
                if next_at < time.monotonic():  # never a burst to catch up
                    next_at = time.monotonic() + PROBE_EVERY_S

    def unanswered(self, phase: str, now: float) -> list[float]:
        return [now - at for p, at in list(self.sent.values()) if p == phase]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5.0)
        self.dealer.close(linger=0)


class Heartbeats:
    """The engine's heartbeats: arrival time, the phase then, and its count of refused input."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], pub: str) -> None:
        self.sub = context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_ENGINE_HEARTBEAT)
        self.sub.connect(pub)
        self.phase = "warm-up"
        self.seen: list[tuple[float, str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.sub.poll(50, zmq.POLLIN):
                continue
            frames = self.sub.recv_multipart()
            message = wire.decode(frames)
            if isinstance(message, wire.EngineHeartbeat):
                self.seen.append((time.monotonic(), self.phase, message.dropped))

    def dropped(self) -> int:
        return self.seen[-1][2] if self.seen else 0

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5.0)
        self.sub.close(linger=0)


# ---------------------------------------------------------------------------------------------- the run


class Camera:
    """This script as the engine's camera: the PUB it subscribes to and the snapshot ROUTER its DEALER asks."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]]) -> None:
        self.pub = context.socket(zmq.PUB)
        self.pub.setsockopt(zmq.SNDHWM, 0)  # queue every message: the engine is to receive them all
        self.pub.setsockopt(zmq.LINGER, 0)
        self.pub_endpoint = f"tcp://127.0.0.1:{free_port()}"
        self.pub.bind(self.pub_endpoint)
        self.snap = context.socket(zmq.ROUTER)
        self.snap.setsockopt(zmq.SNDHWM, 0)
        self.snap.setsockopt(zmq.LINGER, 0)
        self.snap_endpoint = f"tcp://127.0.0.1:{free_port()}"
        self.snap.bind(self.snap_endpoint)

    def engine_identity(self, timeout_s: float) -> bytes:
        """The engine's DEALER, from its snapshot request (left unanswered, so it keeps asking)."""
        if not self.snap.poll(int(timeout_s * 1000), zmq.POLLIN):
            raise RuntimeError("the engine never asked the camera for a snapshot")
        return self.snap.recv_multipart()[0]

    def close(self) -> None:
        self.pub.close(linger=0)
        self.snap.close(linger=0)


def start_engine(tmp: Path, camera: Camera) -> tuple[subprocess.Popen[str], str, str]:
    log = (tmp / "engine.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "engine", "--scenario", "tutorial", "--journal", str(tmp / "journal.sqlite"),
         "--vision", f"{camera.pub_endpoint},{camera.snap_endpoint}", "--pub", "tcp://127.0.0.1:*",
         "--commands", "tcp://127.0.0.1:*", "--log-level", "WARNING"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=log, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert process.stdout is not None
    for _ in range(20):
        found = ENDPOINTS.search(process.stdout.readline())
        if found:
            return process, found.group(1), found.group(2)
    process.kill()
    raise RuntimeError(f"the engine did not start: {(tmp / 'engine.log').read_text()}")


def flood(phase: str, count: int, context: zmq.Context[zmq.Socket[bytes]], camera: Camera, commands: str,
          pub: str, identity: bytes, rng: random.Random) -> tuple[float, list[zmq.Socket[bytes]]]:
    """Send ``count`` malformed messages to one socket; the seconds it took and the sockets to close once the
    engine has read them all (closing at once would drop what is still queued)."""
    started = time.monotonic()
    opened: list[zmq.Socket[bytes]] = []
    if phase == "commands":
        dealer = context.socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.setsockopt(zmq.RCVHWM, 100)  # the engine's error replies are not read: they may be dropped
        dealer.connect(commands)
        opened.append(dealer)
        for _ in range(count):
            dealer.send_multipart(malformed_command(rng))
    elif phase == "camera feed":
        for _ in range(count):
            camera.pub.send_multipart(malformed_camera(rng))
    elif phase == "camera snapshot":
        for _ in range(count):
            camera.snap.send_multipart([identity, b"", *malformed_camera(rng)])
    elif phase == "publisher":
        xsub = context.socket(zmq.XSUB)
        xsub.setsockopt(zmq.LINGER, 0)
        xsub.setsockopt(zmq.SNDHWM, 0)
        xsub.connect(pub)
        opened.append(xsub)
        for _ in range(count):
            xsub.send_multipart(malformed_subscription(rng))
    return time.monotonic() - started, opened


def wait_drained(heartbeats: Heartbeats, before: int, expected: int) -> int:
    """Until the engine counted ``expected`` more refused messages, or its count stops rising; returns the rise."""
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    last, still = heartbeats.dropped(), 0
    while time.monotonic() < deadline and heartbeats.dropped() - before < expected and still < 3:
        time.sleep(HEARTBEAT_S)
        now = heartbeats.dropped()
        still = still + 1 if now == last else 0
        last = now
    return heartbeats.dropped() - before


def phase_report(phase: str, probe: Probe, heartbeats: Heartbeats, ended: float) -> dict[str, Any]:
    times = probe.replies.get(phase, []) + probe.unanswered(phase, ended)
    arrivals = [t for t, p, _ in heartbeats.seen if p == phase]
    gaps = [b - a for a, b in itertools.pairwise(arrivals)]
    return {
        "probes": len(times), "unanswered": len(probe.unanswered(phase, ended)),
        "p50_ms": round(1000 * percentile(times, 0.50), 2), "p99_ms": round(1000 * percentile(times, 0.99), 2),
        "max_ms": round(1000 * max(times, default=0.0), 2),
        "heartbeats": len(arrivals), "heartbeat_max_gap_s": round(max(gaps, default=0.0), 3),
        "heartbeat_max_late_s": round(max((g - HEARTBEAT_S for g in gaps), default=0.0), 3),
    }


def run(count: int, baseline_s: float, settle_s: float, tmp: Path) -> dict[str, Any]:
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    camera = Camera(context)
    engine, pub, commands = start_engine(tmp, camera)
    probe = heartbeats = None
    phases: dict[str, Any] = {}
    try:
        identity = camera.engine_identity(60.0)
        heartbeats = Heartbeats(context, pub)
        probe = Probe(context, commands)
        while len(heartbeats.seen) < 2:  # the engine answers and beats before the clock starts
            time.sleep(0.1)
        rng = random.Random(27)
        for phase in PHASES:
            probe.phase = heartbeats.phase = phase
            before = heartbeats.dropped()
            started = time.monotonic()
            if phase == "baseline":
                time.sleep(baseline_s)
                sending_s, refused = 0.0, 0
            else:
                sending_s, opened = flood(phase, count, context, camera, commands, pub, identity, rng)
                refused = wait_drained(heartbeats, before, 0 if phase == "publisher" else count)
                time.sleep(settle_s)  # the probe and the heartbeats after the flood, and what the count missed
                for flooding in opened:
                    flooding.close(linger=0)
            ended = time.monotonic()
            phases[phase] = {"sent": 0 if phase == "baseline" else count, "sending_s": round(sending_s, 2),
                             "seconds": round(ended - started, 2), "engine_counted_refused": refused,
                             **phase_report(phase, probe, heartbeats, ended)}
            print(f"  {phase}: {phases[phase]}", flush=True)
        alive = engine.poll() is None
    finally:
        for part in (probe, heartbeats):
            if part is not None:
                part.close()
        engine.send_signal(signal.SIGTERM)
        try:
            engine.wait(20)
        except subprocess.TimeoutExpired:
            engine.kill()
        camera.close()
        context.term()
    return {"phases": phases, "engine_alive_at_end": alive, "engine_exit_code": engine.returncode}


def burner() -> subprocess.Popen[bytes]:
    """A CPU-bound process beside the engine (one core's worth of work)."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_COUNT} messages per socket, a 2 s baseline")
    parser.add_argument("--count", type=int, help=f"malformed messages per socket (default {FULL_COUNT})")
    parser.add_argument("--load", action="store_true", help="run a CPU-burning process beside the engine")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    count = args.count or (QUICK_COUNT if args.quick else FULL_COUNT)
    out = args.out or REPO / "bench" / "results" / ("socket_fuzz_load.json" if args.load else "socket_fuzz.json")
    load_start = os.getloadavg()[0]
    burning = burner() if args.load else None
    try:
        with tempfile.TemporaryDirectory(prefix="hexa-fuzz-") as tmp:
            print(f"{count} malformed messages per socket, a probe every {PROBE_EVERY_S * 1000:.0f} ms"
                  f"{', beside a CPU burner' if burning else ''}", flush=True)
            result = run(count, 2.0 if args.quick else 10.0, 0.5 if args.quick else SETTLE_S, Path(tmp))
    finally:
        if burning is not None:
            burning.kill()
            burning.wait()
    floods = [v for k, v in result["phases"].items() if k != "baseline"]
    worst = {"p99_ms": max(v["p99_ms"] for v in floods), "max_ms": max(v["max_ms"] for v in floods),
             "heartbeat_max_late_s": max(v["heartbeat_max_late_s"] for v in floods)}
    meets = (worst["p99_ms"] <= TARGET_P99_MS and worst["max_ms"] <= TARGET_MAX_MS
             and worst["heartbeat_max_late_s"] <= TARGET_LATE_S and result["engine_alive_at_end"])
    result.update({
        "quick": args.quick, "load": args.load, "messages_per_socket": count,
        "probe_every_ms": PROBE_EVERY_S * 1000, "heartbeat_s": HEARTBEAT_S,
        "targets": {"p99_ms": TARGET_P99_MS, "max_ms": TARGET_MAX_MS, "heartbeat_max_late_s": TARGET_LATE_S},
        "worst_flood": worst, "meets_target": None if args.quick else meets,
        "machine": {"nproc": os.cpu_count(), "cpu": platform.processor() or platform.machine(),
                    "python": platform.python_version(), "load_1min_at_start": round(load_start, 2),
                    "load_1min_at_end": round(os.getloadavg()[0], 2)},
    })
    print()
    print(f"{'phase':<17}{'sent':>8}{'refused':>9}{'probes':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
          f"{'hb late s':>11}")
    for name, v in result["phases"].items():
        print(f"{name:<17}{v['sent']:>8}{v['engine_counted_refused']:>9}{v['probes']:>8}{v['p50_ms']:>9.1f}"
              f"{v['p99_ms']:>9.1f}{v['max_ms']:>9.1f}{v['heartbeat_max_late_s']:>11.3f}")
    verdict = "not assessed (quick)" if args.quick else ("met" if meets else "NOT met")
    print(f"target p99 ≤ {TARGET_P99_MS:.0f} ms, max ≤ {TARGET_MAX_MS:.0f} ms, heartbeats late ≤ "
          f"{TARGET_LATE_S:.0f} s: {verdict}; engine alive at the end: {result['engine_alive_at_end']}")
    print(f"load average (1 min) {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end "
          "(the machine's other work shares its cores)")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
