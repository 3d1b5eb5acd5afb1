"""Start the camera service on the synthetic table and the engine as child processes, and stop them.

Both run as ``python -m engine …`` (the ``hexa`` command) on free loopback ports, each with its output
in a log file. :meth:`DemoServices.start` waits until each answers a snapshot request, printing
progress for people; a child that dies is reported with the end of its log. :meth:`DemoServices.stop`
ends them (SIGTERM, then SIGKILL) on every way out, and on Linux a child also dies with its parent.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import zmq

from engine.i18n import N_, gettext_for
from engine.service.client import EngineClient
from vision.client import request_snapshot

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

STARTUP_TIMEOUT_S = 90.0  # the camera renders the table once and the first frames on a slow machine
PROGRESS_EVERY_S = 3.0


class DemoError(RuntimeError):
    """A service of the demo could not start or stopped; the text says which, why and what to do."""


def free_ports(count: int) -> list[int]:
    """``count`` distinct loopback TCP ports that were free a moment ago (all probed at once)."""
    with ExitStack() as stack:
        ports = []
        for _ in range(count):
            s = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            s.bind(("127.0.0.1", 0))
            ports.append(int(s.getsockname()[1]))
        return ports


@dataclass(frozen=True)
class DemoEndpoints:
    """The loopback endpoints of one demo run."""

    vision_pub: str
    vision_snapshot: str
    control: str
    engine_pub: str
    engine_commands: str
    hand: str  # the tablet's command port: the table hand proxy

    @classmethod
    def allocate(cls) -> DemoEndpoints:
        return cls(*(f"tcp://127.0.0.1:{p}" for p in free_ports(6)))


def port_of(endpoint: str) -> int:
    return int(endpoint.rsplit(":", 1)[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Linux: the child gets SIGTERM when the demo process dies, even by SIGKILL (no orphans)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class ChildProcess:
    """One service of the demo: its command, its log file, and a clear report if it fails."""

    def __init__(self, name: str, args: list[str], log_path: Path) -> None:
        self.name, self.log_path = name, log_path
        self._log = log_path.open("w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine", *args], stdout=self._log, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=_die_with_parent if sys.platform == "linux" else None)
        log.info("started %s (pid %d): hexa %s", name, self.proc.pid, " ".join(args))

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def check_alive(self) -> None:
        code = self.proc.poll()
        if code is not None:
            raise DemoError(_("the {service} stopped (exit code {code}). Its last output:\n{output}\nFix what it says, "
                              "or run it alone to see more.", service=_(self.name), code=code, output=self.log_tail()))

    def stop(self, timeout_s: float = 5.0) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                log.warning("%s did not stop within %.0f s: killing it", self.name, timeout_s)
                self.proc.kill()
                self.proc.wait(timeout_s)
        self._log.close()


class DemoServices:
    """The camera service (synthetic table, control socket, preview) and the engine of one demo."""

    def __init__(self, scenario: str, journal: str = ":memory:", fps: float = 15.0,
                 say: Callable[[str], None] = print, log_dir: Path | None = None, dice: str = "tablet",
                 dice_countdown_s: float = 1.0) -> None:
        self.scenario, self.journal, self.fps, self.say = scenario, journal, fps, say
        self.dice = dice  # the engine's --dice: "camera" takes the rolls it reads in the synthetic tray
        self.dice_countdown_s = dice_countdown_s
        self.endpoints = DemoEndpoints.allocate()
        self._tmp = tempfile.TemporaryDirectory(prefix="hexa-demo-") if log_dir is None else None
        self.log_dir = log_dir or Path(self._tmp.name if self._tmp else ".")
        self.children: list[ChildProcess] = []

    def __enter__(self) -> DemoServices:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def start(self, timeout_s: float = STARTUP_TIMEOUT_S) -> None:
        ep = self.endpoints
        vision = ChildProcess(N_("camera service"), [
            "vision", "--synthetic", self.scenario, "--control", ep.control, "--pub", ep.vision_pub,
            "--snapshot", ep.vision_snapshot, "--preview", "--fps", str(self.fps),
            *(["--dice"] if self.dice == "camera" else [])], self.log_dir / "vision.log")
        self.children.append(vision)
        self.say(_("Starting the camera service on the synthetic table ({scenario})…", scenario=self.scenario))
        self._wait(vision, _("the camera service to see the table"), timeout_s, self._vision_ready)
        engine = ChildProcess(N_("engine"), [
            "engine", "--scenario", self.scenario, "--journal", self.journal, "--new",
            "--vision", f"{ep.vision_pub},{ep.vision_snapshot}", "--pub", ep.engine_pub,
            "--commands", ep.engine_commands, "--save-dir", str(self.log_dir), "--dice", self.dice,
            "--dice-countdown", str(self.dice_countdown_s)],
            self.log_dir / "engine.log")
        self.children.append(engine)
        self.say(_("Starting the engine…"))
        self._wait(engine, _("the engine to answer"), timeout_s, self._engine_ready)
        self.say(_("Camera service and engine are running."))

    def _vision_ready(self) -> bool:
        return request_snapshot(self.endpoints.vision_snapshot, timeout_s=1.0).tracks is not None

    def _engine_ready(self) -> bool:
        client = EngineClient(self.endpoints.engine_pub, self.endpoints.engine_commands)
        try:
            return client.request("snapshot", timeout_s=1.0).ok
        finally:
            client.close()

    def _wait(self, child: ChildProcess, what: str, timeout_s: float, ready: Callable[[], bool]) -> None:
        start = time.monotonic()
        next_note = start + PROGRESS_EVERY_S
        while True:
            child.check_alive()
            try:
                if ready():
                    return
            except (TimeoutError, zmq.ZMQError):
                pass
            now = time.monotonic()
            if now - start > timeout_s:
                raise DemoError(_("gave up waiting for {what} after {seconds:.0f} s. Its last output:\n{output}\nThe "
                                  "machine may be very busy: close other programs and retry.", what=what,
                                  seconds=timeout_s, output=child.log_tail()))
            if now >= next_note:
                next_note = now + PROGRESS_EVERY_S
                self.say(_("  … waiting for {what} ({seconds:.0f} s)", what=what, seconds=now - start))
            time.sleep(0.2)  # between attempts; each attempt itself waits for an answer

    def check(self) -> None:
        """Raise :class:`DemoError` if a service has stopped."""
        for child in self.children:
            child.check_alive()

    def stop(self) -> None:
        for child in reversed(self.children):
            child.stop()
        self.children.clear()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
