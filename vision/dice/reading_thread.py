"""The trays in the table camera's own frames, read on a thread of their own while the service's loop goes on with
the tags (``hexa vision --dice`` on a live camera).

The frame that first reads a roll costs 60–170 ms of one core (every die's outline fitted, its face found, a d10's
numeral classified; ``bench/dice.py``), once per roll. Read in the loop, it held back that frame's tags and the next
frame's, so a figure put down just after a roll was judged that much later. Here the loop hands over each frame with the
tags it found (:meth:`TrayReadingThread.offer`); the thread reads the newest one handed over (older ones not read yet
are dropped, as the live loop drops frames it cannot keep up with: the dice tracker counts stillness on the frames'
clock, not their number) and the loop publishes what it read (:meth:`TrayReadingThread.take`), since only the loop's
thread may touch the sockets. A finite source (a video file, images, the fast synthetic table) is still read frame by
frame in the loop, so every frame's dice are read.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from engine.wire import TraySeen
from vision.detection import DetectedMarker
from vision.dice.read_failures import ReadFailures
from vision.dice.reader import DiceReader
from vision.dice.results_queue import ResultsQueue
from vision.sources import Frame

log = logging.getLogger(__name__)

WAIT_S = 0.05  # how long the thread waits for a frame before it looks whether it was stopped


@dataclass(frozen=True, slots=True)
class TraysRead:
    """What the reader found in one frame, with the cost and each die's centre in the frame's pixels."""

    frame: Frame
    trays: list[TraySeen]
    dice_ms: float
    dice_px: dict[tuple[str, int], tuple[float, float]]


class TrayReadingThread:
    """Reads the newest frame offered until :meth:`stop`; results wait in a short queue."""

    def __init__(self, reader: DiceReader) -> None:
        self.reader = reader
        self._offered: tuple[Frame, list[DetectedMarker]] | None = None
        self._results: ResultsQueue[TraysRead] = ResultsQueue()
        self._wake = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dice-reader", daemon=True)
        self.dropped = 0  # frames offered and replaced by a newer one before they were read
        self.failures = ReadFailures(log, "dice")

    def start(self) -> TrayReadingThread:
        self._thread.start()
        return self

    def offer(self, frame: Frame, detected: list[DetectedMarker]) -> None:
        """Hand over a frame and the tags found in it; a frame offered before and not read yet is dropped."""
        with self._wake:
            if self._offered is not None:
                self.dropped += 1
            self._offered = (frame, detected)
            self._wake.notify()

    def _next(self) -> tuple[Frame, list[DetectedMarker]] | None:
        with self._wake:
            if self._offered is None:
                self._wake.wait(WAIT_S)
            offered, self._offered = self._offered, None
        return offered

    def _run(self) -> None:
        while not self._stop.is_set():
            offered = self._next()
            if offered is None:
                continue
            frame, detected = offered
            start = time.perf_counter()
            try:
                trays = self.reader.read(frame.image, detected, frame.monotonic)
                px = {(t.tray, d.track_id): self.reader.pixel_of(t.tray, d.x_mm, d.y_mm) for t in trays for d in t.dice}
            except Exception as exc:
                self.failures.failed(exc, frame.name or str(frame.index))
                continue
            self.failures.read()
            self._results.put(TraysRead(frame, trays, (time.perf_counter() - start) * 1000.0, px))

    def take(self) -> list[TraysRead]:
        """Every frame read and not taken yet, oldest first."""
        return self._results.take()

    def stop(self) -> None:
        self._stop.set()
        with self._wake:
            self._wake.notify()
        self._thread.join(timeout=2.0)
