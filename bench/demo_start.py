"""Benchmark: ``hexa demo`` (the windowed demo) from its start to the app's first flipped frame showing the board.

The demo starts the camera service on the synthetic table and the engine, then opens the tablet app's window.
The app writes the wall-clock time of its first frame showing the board to the file named by
``HEXA_FIRST_BOARD_FRAME_FILE`` (set by this bench only). The demo's progress lines are timed as they arrive,
which splits the wait into its stages; the CPU time of every process of the demo (the demo with the app, the
camera service, the engine) is read from ``/proc`` at the first frame. Without a display an X server (Xvfb) is
started first, outside the timed part: a desktop has one already. Used by bench/startup.py (``demo_first_frame``);
run alone: ``.venv/bin/python bench/demo_start.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from companion_app.kivy_start import FIRST_BOARD_FRAME_VARIABLE  # noqa: E402

TARGET_S = 10.0
SCENARIO = "goblins-treasure"  # the demo's default
WAIT_S = 180.0
# The demo's progress lines (English, as the bench runs it) → the stage they start.
STAGES = (
    ("Starting the camera service", "camera_service_started_s"),
    ("Starting the engine", "camera_service_ready_s"),
    ("Camera service and engine are running", "engine_ready_s"),
    ("Opening the app", "app_opening_s"),
)


@contextmanager
def x_display() -> Iterator[str]:
    """The display to open the window on: this one, or an Xvfb started for the run (and stopped after it)."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x1024x24", "-nolisten",
                               "tcp"], pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as answer:
            number = answer.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start: install it (apt-get install xvfb)")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def session_cpu_s(session: int) -> dict[str, float]:
    """CPU seconds (user + system, all threads) of every live process of a session, by command name (Linux)."""
    per_name: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, rest = (entry / "stat").read_text().rsplit(")", 1)
            fields = rest.split()
            if int(fields[3]) != session:  # field 6 of stat: the session id
                continue
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        words = [w.decode(errors="replace") for w in cmdline if w]
        name = " ".join(words[words.index("engine") + 1:][:1]) if "engine" in words else head.split("(", 1)[1]
        per_name[name] = per_name.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return per_name


def time_demo(display: str, scenario: str = SCENARIO, extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """One ``hexa demo`` in a window: seconds from its start to each progress line and to the first board frame."""
    with tempfile.TemporaryDirectory(prefix="hexa-demo-start-") as tmp:
        marker = Path(tmp) / "first-frame"
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1", "DISPLAY": display,
               "HEXA_LANG": "en", FIRST_BOARD_FRAME_VARIABLE: str(marker), **(extra_env or {})}
        lines: list[tuple[float, str]] = []
        started = time.time()
        proc = subprocess.Popen([sys.executable, "-m", "engine", "demo", scenario], env=env, cwd=REPO, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append((time.time() - started, line.rstrip()))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            while not marker.exists() or not marker.read_text().strip():
                if proc.poll() is not None or time.time() - started > WAIT_S:
                    out = "\n".join(text for _, text in lines[-20:])
                    raise RuntimeError(f"hexa demo showed no board (exit {proc.poll()}):\n{out}")
                time.sleep(0.02)
            first_frame = float(marker.read_text()) - started
            cpu = session_cpu_s(proc.pid)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)  # the demo's own session: the demo, its camera service and engine
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            reader.join(2)
    result: dict[str, Any] = {"first_board_frame_s": round(first_frame, 3)}
    for prefix, key in STAGES:
        at = next((t for t, text in lines if text.startswith(prefix)), None)
        if at is not None:
            result[key] = round(at, 3)
    result["cpu_s"] = {name: round(s, 2) for name, s in sorted(cpu.items())}
    result["cpu_total_s"] = round(sum(cpu.values()), 2)
    return result


def app_import_profile(display: str) -> dict[str, Any]:
    """``-X importtime`` of the app's start path in the demo (its window module included), top-level packages."""
    from bench.startup import parse_importtime

    env = {**os.environ, "PYTHONPATH": str(REPO), "DISPLAY": display}
    code = ("from companion_app.kivy_start import prepare_kivy; prepare_kivy(); import companion_app.demo.cli; "
            "import companion_app.ui.app")
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env, capture_output=True, text=True,
                          timeout=WAIT_S, check=True)
    return parse_importtime(done.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--scenario", default=SCENARIO)
    args = parser.parse_args(argv)
    with x_display() as display:
        runs = [time_demo(display, args.scenario) for _ in range(args.runs)]
        imports = app_import_profile(display)
    print(json.dumps({"runs": runs, "imports": imports, "load": os.getloadavg()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
