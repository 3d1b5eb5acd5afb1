"""Benchmark: how long each service takes from process start to doing its job, and where the time goes.

- **engine serving**: ``hexa engine --scenario tutorial`` started → its first message on its PUB socket (a
  heartbeat or the game; it serves the tablets from then on);
- **camera service publishing**: ``hexa vision --synthetic`` (the demo table) started → its first
  ``heartbeat`` and its first ``tracks`` (a frame rendered, detected and published);
- the **baseline**, in the same run: ``python -c pass`` (the interpreter's own start on this machine now) and
  ``python -c "import numpy"``: on a loaded machine every figure grows, the ratios to these much less;
- **``hexa demo`` first frame**: the windowed demo started → the app's first flipped frame showing the board
  (bench/demo_start.py: the camera service, the engine and the app's window, under Xvfb when there is no
  display), with its stages and the CPU time of all its processes;
- the **imports** of each start path, measured with ``python -X importtime``: the total and the ten
  heaviest top-level packages (self time summed over their modules); the app's as the demo opens it.

Each start is run ``--runs`` times (median reported, wall time and the process's CPU time until then: on a
busy machine the CPU time is the code's own cost, the wall time adds the waits for a core). ``--load`` runs one
CPU-burning process beside (bench/load.py). Usage: ``.venv/bin/python bench/startup.py [--quick] [--load]``;
writes ``bench/results/startup.json``; its last line is ``start-up: engine X s, camera service Y s (…)``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load import cpu_burner, load_average, machine  # noqa: E402

TARGETS_S = {"engine_serving": 2.0, "camera_publishing": 3.0, "demo_first_frame": 10.0}
START_PATHS = {"engine": "engine.service.cli", "vision": "vision.cli"}
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")
WAIT_S = 120.0


def loopback() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of a command run to its end."""
    cpu, start = children_cpu_s(), time.perf_counter()
    subprocess.run([sys.executable, *args], env=env(), check=True, capture_output=True, timeout=WAIT_S)
    return time.perf_counter() - start, children_cpu_s() - cpu


def process_cpu_s(pid: int) -> float:
    """CPU seconds (user + system, all threads) a running process has used so far (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def time_until_published(args: list[str], pub_option: str, topics: dict[str, bytes]) -> dict[str, float]:
    """Start ``hexa`` with ``args`` and a fresh PUB endpoint; seconds from the start to the first message of each
    topic (``{name: topic prefix}``; an empty prefix: any message)."""
    import zmq

    pub = loopback()
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
    sub = context.socket(zmq.SUB)
    for topic in set(topics.values()):
        sub.setsockopt(zmq.SUBSCRIBE, topic)
    sub.connect(pub)  # before the process binds: ZeroMQ connects as soon as it does
    seen: dict[str, float] = {}
    start = time.perf_counter()
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, "-m", "engine", *args, pub_option, pub], env=env(), cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=log)
        try:
            while not set(topics) <= set(seen):
                if time.perf_counter() - start > WAIT_S or proc.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"hexa {args[0]} published {sorted(seen)} of {topics} "
                                       f"(exit {proc.poll()}):\n{log.read().decode(errors='replace')[-2000:]}")
                if sub.poll(20):
                    topic = sub.recv_multipart()[0]
                    for name, prefix in topics.items():
                        if (topic == prefix or not prefix) and name not in seen:
                            seen[name] = time.perf_counter() - start
                            seen[f"{name}_cpu"] = process_cpu_s(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            sub.close(linger=0)
    return seen


def import_profile(module: str) -> dict[str, Any]:
    """``python -X importtime -c 'import module'``: total milliseconds and the ten heaviest top-level packages."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], env=env(),
                          capture_output=True, text=True, timeout=WAIT_S, check=True)
    return parse_importtime(done.stderr)


def parse_importtime(text: str) -> dict[str, Any]:
    """Sum ``-X importtime`` lines: the whole (ms) and self time per top-level package, the ten heaviest."""
    per_package: Counter[str] = Counter()
    total_us = 0
    for line in text.splitlines():
        m = IMPORT_LINE.match(line)
        if m:
            total_us += int(m[1])
            per_package[m[4].split(".")[0]] += int(m[1])
    return {"total_ms": round(total_us / 1000, 1),
            "top10": [{"package": name, "ms": round(us / 1000, 1)} for name, us in per_package.most_common(10)]}


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3) if values else float("nan")


def time_demo_runs(runs: int) -> dict[str, Any]:
    """``hexa demo`` to its first board frame, ``runs`` times (bench/demo_start.py), and the app's import profile."""
    from bench.demo_start import STAGES, app_import_profile, time_demo, x_display

    with x_display() as display:
        demo = [time_demo(display) for _ in range(runs)]
        imports = app_import_profile(display)
    stages = [key for _, key in STAGES if any(key in d for d in demo)]
    return {"demo_first_frame_s": median([d["first_board_frame_s"] for d in demo]),
            "demo_first_frame_cpu_s": median([d["cpu_total_s"] for d in demo]),
            "demo_stages_s": {key: median([d[key] for d in demo if key in d]) for key in stages},
            "demo_samples": demo, "app_imports": imports}


def run(runs: int) -> dict[str, Any]:
    baseline = {"python_pass": [time_command(["-c", "pass"]) for _ in range(runs)],
                "import_numpy": [time_command(["-c", "import numpy"]) for _ in range(runs)]}
    engine, vision = [], []
    with tempfile.TemporaryDirectory(prefix="hexa-startup-") as tmp:
        for k in range(runs):
            journal = str(Path(tmp) / f"journal{k}.sqlite")
            engine.append(time_until_published(
                ["engine", "--scenario", "tutorial", "--journal", journal, "--new", "--commands", loopback(),
                 "--log-level", "WARNING"], "--pub", {"serving": b""}))
            vision.append(time_until_published(
                ["vision", "--synthetic", "--snapshot", loopback(), "--fps", "10"],
                "--pub", {"heartbeat": b"heartbeat", "tracks": b"tracks"}))
    out: dict[str, Any] = {
        "baseline": {name: {"wall_s": median([w for w, _ in v]), "cpu_s": median([c for _, c in v])}
                     for name, v in baseline.items()},
        "engine_serving_s": median([e["serving"] for e in engine]),
        "camera_heartbeat_s": median([v["heartbeat"] for v in vision]),
        "camera_publishing_s": median([v["tracks"] for v in vision]),
        "engine_serving_cpu_s": median([e["serving_cpu"] for e in engine]),
        "camera_publishing_cpu_s": median([v["tracks_cpu"] for v in vision]),
        "runs": runs, "samples": {"engine": engine, "vision": vision},
        "imports": {name: import_profile(module) for name, module in START_PATHS.items()},
    }
    demo = time_demo_runs(runs)
    out["imports"]["app"] = demo.pop("app_imports")
    out.update(demo)
    base = out["baseline"]["python_pass"]["wall_s"]
    out["ratio_to_python_start"] = {k: round(out[k] / base, 1) for k in
                                    ("engine_serving_s", "camera_heartbeat_s", "camera_publishing_s",
                                     "demo_first_frame_s")}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of each, to keep the script working")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--load", action="store_true", help="run beside one busy process (bench/load.py)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "startup.json")
    args = parser.parse_args(argv)
    about = machine()
    with cpu_burner(args.load):
        result = run(1 if args.quick else args.runs)
    about["load_1min_at_end"] = load_average()
    result.update({"quick": args.quick, "load": args.load, "machine": about, "targets_s": TARGETS_S})
    b = result["baseline"]
    print(f"{about['cpu']}, {about['nproc']} cores, load {about['load_1min_at_start']} → {about['load_1min_at_end']}"
          f"{', beside one CPU-burning process' if args.load else ''}; median of {result['runs']} run(s)")
    print(f"baseline: python -c pass {b['python_pass']['wall_s']:.2f} s ({b['python_pass']['cpu_s']:.2f} s CPU), "
          f"import numpy {b['import_numpy']['wall_s']:.2f} s ({b['import_numpy']['cpu_s']:.2f} s CPU)")
    for name, imports in result["imports"].items():
        top = ", ".join(f"{t['package']} {t['ms']:.0f}" for t in imports["top10"])
        print(f"imports of hexa {name}: {imports['total_ms']:.0f} ms; heaviest (ms): {top}")
    r = result["ratio_to_python_start"]
    print(f"engine serving {result['engine_serving_s']:.2f} s ({r['engine_serving_s']}× python start; "
          f"{result['engine_serving_cpu_s']:.2f} s CPU), camera heartbeat {result['camera_heartbeat_s']:.2f} s, first "
          f"tracks {result['camera_publishing_s']:.2f} s ({r['camera_publishing_s']}×; "
          f"{result['camera_publishing_cpu_s']:.2f} s CPU)")
    stages = ", ".join(f"{key.removesuffix('_s').replace('_', ' ')} {s:.2f}"
                       for key, s in sorted(result["demo_stages_s"].items(), key=lambda item: item[1]))
    print(f"hexa demo: first board frame {result['demo_first_frame_s']:.2f} s ({r['demo_first_frame_s']}× python "
          f"start; {result['demo_first_frame_cpu_s']:.2f} s CPU of all its processes; stages (s from the start): "
          f"{stages})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"start-up: engine {result['engine_serving_s']:.2f} s (target {TARGETS_S['engine_serving']:.0f}), "
          f"camera service {result['camera_publishing_s']:.2f} s (target {TARGETS_S['camera_publishing']:.0f}), "
          f"hexa demo first frame {result['demo_first_frame_s']:.2f} s (target {TARGETS_S['demo_first_frame']:.0f}), "
          f"python -c pass {b['python_pass']['wall_s']:.2f} s, load {about['load_1min_at_start']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
