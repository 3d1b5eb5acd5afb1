"""A camera of its own for the dice tray (``hexa vision --dice-camera SOURCE``).

It reads its newest frames on its own threads (a :class:`vision.grabber.LatestFrameGrabber` and a reader),
finds the tray's tags and reads the dice; the service's loop takes the results with :meth:`DiceCamera.take`
and publishes them, since only that loop's thread may touch the sockets.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from engine.wire import TraySeen
from vision.detection import Detector
from vision.dice.read_failures import ReadFailures
from vision.dice.reader import DiceReader
from vision.dice.results_queue import ResultsQueue
from vision.grabber import ENDED, LatestFrameGrabber
from vision.sources import FrameSource

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TraysInFrame:
    """What the dice camera saw in one frame."""

    frame_index: int
    captured_at: float
    trays: list[TraySeen]


class DiceCamera:
    """Reads the trays seen by one source until :meth:`stop`; results wait in a short queue."""

    def __init__(self, open_source: Callable[[], FrameSource], detector: Detector, reader: DiceReader,
                 camera_id: str = "0:dice", retry_s: float = 1.0) -> None:
        self.detector, self.reader, self.camera_id = detector, reader, camera_id
        self._grabber = LatestFrameGrabber(open_source, retry_s, name="dice-camera")
        self._results: ResultsQueue[TraysInFrame] = ResultsQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dice-camera-reader", daemon=True)
        self.frames = 0
        self.failures = ReadFailures(log, "dice camera")

    def start(self) -> DiceCamera:
        self._grabber.start()
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            frame = self._grabber.latest(timeout=0.05)
            if frame is None:
                if self._grabber.status == ENDED:
                    return
                continue
            if frame.error:
                continue
            try:
                trays = self.reader.read(frame.image, self.detector.detect(frame.image), frame.monotonic)
            except Exception as exc:
                self.failures.failed(exc, str(frame.index))
                continue
            self.failures.read()
            self.frames += 1
            if trays:
                self._results.put(TraysInFrame(frame.index, frame.captured_at, trays))

    def take(self) -> list[TraysInFrame]:
        """Every result not taken yet, oldest first."""
        return self._results.take()

    def stop(self) -> None:
        self._stop.set()
        self._grabber.stop()
        self._thread.join(timeout=2.0)
