"""A camera that is not there: one clear line, no flood of OpenCV's own warnings, retries; a bad name exits."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import zmq

from calibration.board_spec import BoardSpec
from calibration.calibration_file import CalibrationQuality, CalibrationRecord, save_calibration
from calibration.camera_model import CameraModel
from engine import wire
from vision.client import TracksSubscriber
from vision.grabber import RECONNECTING, LatestFrameGrabber
from vision.sources import CameraSource, Frame, SourceError

ROOT = Path(__file__).resolve().parents[2]
MISSING = 7  # a webcam index that no machine running the tests has
pytestmark = pytest.mark.skipif(Path(f"/dev/video{MISSING}").exists(), reason=f"this machine has /dev/video{MISSING}")


@pytest.fixture
def calibration(camera: CameraModel, tmp_path: Path) -> Path:
    quality = CalibrationQuality(0.2, 0.3, 0.01, 12, "good")
    return save_calibration(CalibrationRecord(camera, BoardSpec(), quality), tmp_path / "calibration.json")


def test_opening_a_missing_camera_prints_nothing_of_opencvs_own(capfd: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        with pytest.raises(SourceError, match=f"camera {MISSING} cannot be opened"):
            CameraSource(MISSING)
    assert capfd.readouterr().err == ""


class _Lines:
    """Collects a process's stderr lines on a thread, so the test can wait for one without blocking."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert proc.stderr is not None
        self._thread = threading.Thread(target=lambda: self.lines.extend(proc.stderr or ()), daemon=True)
        self._thread.start()

    def wait_for(self, text: str, timeout_s: float = 60.0) -> str:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if text in line:
                    return line
            self._thread.join(0.05)
        pytest.fail(f"no stderr line with {text!r} within {timeout_s} s; got {self.lines}")

    def finish(self) -> list[str]:
        self._thread.join(10.0)
        return self.lines


def test_the_cli_says_once_that_the_camera_is_missing_while_it_retries(calibration: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "engine", "vision", "--camera", str(MISSING), "--calibration",
                             str(calibration), "--pub", "tcp://127.0.0.1:*", "--snapshot", "tcp://127.0.0.1:*"],
                            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    stderr = _Lines(proc)
    try:
        line = stderr.wait_for("hexa vision: publishing on ")
        endpoint, snapshot = line.split("publishing on ", 1)[1].split(" (snapshots on ")
        sub = TracksSubscriber(endpoint, snapshot.split(")")[0], context, topics=(wire.TOPIC_HEARTBEAT,))
        try:
            # Three "reconnecting" heartbeats (one a second) span at least two further attempts to open it.
            beats = 0
            deadline = time.monotonic() + 60.0
            while beats < 3 and time.monotonic() < deadline:
                beat = sub.receive(1.0)
                if isinstance(beat, wire.Heartbeat) and beat.status == "reconnecting":
                    beats += 1
            assert beats == 3
        finally:
            sub.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30.0) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10.0)
        context.term()
    lines = [line.rstrip() for line in stderr.finish()]
    missing = [line for line in lines if f"camera {MISSING} cannot be opened" in line]
    assert len(missing) == 1, lines
    assert not [line for line in lines if "OpenCV" in line or "VIDEOIO" in line or "WARN:" in line], lines
    assert len(lines) <= 5, lines  # publishing on… (twice), cannot be opened…, perhaps a first-run compile note


@pytest.mark.parametrize("name", ["abc", "no/such/video.mp4"])
def test_a_camera_name_that_is_nothing_is_an_error_not_a_retry_loop(name: str, calibration: Path) -> None:
    try:
        done = subprocess.run([sys.executable, "-m", "engine", "vision", "--camera", name, "--calibration",
                               str(calibration), "--no-publish"], cwd=ROOT, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"--camera {name} was retried instead of refused")
    assert done.returncode == 2
    assert f"--camera {name!r} is neither a camera index nor an existing device or file" in done.stderr
    assert "Traceback" not in done.stderr


class _Dud:
    """A device that opens but never delivers a frame (e.g. a webcam's metadata node)."""

    live = True
    name = "camera 1"

    def read(self) -> Frame | None:
        raise SourceError("camera 1 stopped delivering frames (unplugged?). Waiting for it to come back.")

    def close(self) -> None:
        pass


def test_a_device_that_opens_but_gives_no_frames_is_reported_once(caplog: pytest.LogCaptureFixture) -> None:
    opens = 0

    def open_dud() -> _Dud:
        nonlocal opens
        opens += 1
        return _Dud()

    caplog.set_level(logging.INFO, logger="vision.grabber")
    grabber = LatestFrameGrabber(open_dud, retry_s=0.01).start()
    try:
        deadline = time.monotonic() + 10.0
        while opens < 5 and time.monotonic() < deadline:
            grabber.latest(timeout=0.05)
    finally:
        grabber.stop()
    assert opens >= 5
    assert grabber.status == RECONNECTING
    messages = [r.getMessage() for r in caplog.records if r.name == "vision.grabber"]
    assert len(messages) == 1 and "stopped delivering frames" in messages[0], messages
