"""Start a real engine service (``python -m engine engine``) on free loopback ports, for window tests and the bench."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def end_process(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a child, killing it if it does not stop within 5 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class EngineProcess:
    """A real engine with a scenario and a journal in a temporary folder; stop() ends it."""

    def __init__(self, scenario: str = "goblins-treasure", extra: list[str] | None = None) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="hexa-app-test-")
        self.scenario = scenario
        self.extra = list(extra or [])
        self.pub = f"tcp://127.0.0.1:{free_port()}"
        self.commands = f"tcp://127.0.0.1:{free_port()}"
        self.journal = Path(self.tmp.name) / "journal.sqlite"
        self.log_path = Path(self.tmp.name) / "engine.log"
        self._log = open(self.log_path, "a")  # noqa: SIM115 - kept open for the process's life
        self._kept_log: str | None = None  # the log as it was when stop() removed the folder
        self.proc = self._start(new=True)

    def _start(self, new: bool) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "engine", "engine", "--scenario", self.scenario, "--journal", str(self.journal),
               "--pub", self.pub, "--commands", self.commands, "--save-dir", self.tmp.name, *self.extra]
        if new:
            cmd.append("--new")
        return subprocess.Popen(cmd, cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def halt(self) -> None:
        """End the engine process (the journal stays, so :meth:`restart` resumes the game)."""
        end_process(self.proc)

    def restart(self) -> None:
        self.halt()
        self.proc = self._start(new=False)

    def stop(self) -> None:
        """End the engine and remove its folder; its log stays readable (:meth:`log_text`), for a failed test."""
        self.halt()
        self._log.close()
        self._kept_log = self.log_text()
        self.tmp.cleanup()

    def log_text(self) -> str:
        if self._kept_log is not None:
            return self._kept_log
        try:
            return self.log_path.read_text()
        except OSError:
            return ""


class VisionProcess:
    """The camera service on the synthetic table of a scenario, publishing tracks and preview JPEGs."""

    def __init__(self, scenario: str = "goblins-treasure", preview_fps: float = 4.0, control: bool = False) -> None:
        self.pub = f"tcp://127.0.0.1:{free_port()}"
        self.snapshot = f"tcp://127.0.0.1:{free_port()}"
        self.control = f"tcp://127.0.0.1:{free_port()}" if control else None  # the synthetic table's hand
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - kept open for the process's life
        cmd = [sys.executable, "-m", "engine", "vision", "--synthetic", scenario, "--pub", self.pub,
               "--snapshot", self.snapshot, "--preview", str(preview_fps), "--fps", "5"]
        if self.control is not None:
            cmd += ["--control", self.control]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        end_process(self.proc)
        self.log.close()

    def log_text(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")
