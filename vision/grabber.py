"""A capture thread that keeps only the newest frame of a live source and reconnects on failure.

A slow frame never builds a queue: the service always gets the latest picture. When the source
fails (camera unplugged) the thread says so once, keeps trying to reopen it every
``retry_s`` seconds without repeating itself (one log line per change of problem), and says so
again when frames flow once more. A device that opens but delivers nothing counts as failing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from engine.i18n import gettext_for
from vision.sources import Frame, FrameSource, SourceError

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

OK, RECONNECTING, ENDED = "ok", "reconnecting", "ended"


class LatestFrameGrabber:
    """Runs ``open_source()`` and reads it on a background thread; :meth:`latest` hands out new frames."""

    def __init__(self, open_source: Callable[[], FrameSource], retry_s: float = 1.0, name: str = "camera") -> None:
        self._open = open_source
        self.retry_s = retry_s
        self.name = name
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._taken = -1
        self._sequence = 0
        self.status = RECONNECTING
        self.detail = "starting"
        self.dropped = 0
        self.reconnects = 0
        self._said = ""  # the last problem logged; "" once frames flow
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"grab-{name}", daemon=True)

    def start(self) -> LatestFrameGrabber:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout)

    def latest(self, timeout: float) -> Frame | None:
        """The newest frame not handed out yet, waiting up to ``timeout`` seconds; None if none came."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._sequence == self._taken or self._frame is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._stop.is_set() or self.status == ENDED:
                    return None
                self._cond.wait(remaining)
            self._taken = self._sequence
            return self._frame

    def _set_status(self, status: str, detail: str) -> None:
        with self._cond:
            self.status, self.detail = status, detail
            self._cond.notify_all()

    def _trouble(self, problem: str) -> None:
        """Report a failure: logged when it differs from the last one said, so a retry loop says it once."""
        if problem != self._said:
            log.error("%s", _("{problem}; retrying every {seconds:g} s", problem=problem.rstrip("."),
                              seconds=self.retry_s))
            self._said = problem
        self._set_status(RECONNECTING, problem)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                source = self._open()
            except SourceError as exc:
                self._trouble(str(exc))
                self._stop.wait(self.retry_s)
                continue
            try:
                self._pump(source)
            except SourceError as exc:
                self._trouble(str(exc))
                self._stop.wait(self.retry_s)
            except Exception as exc:  # a driver error must not silently end the capture thread
                log.exception("%s failed unexpectedly; reopening it", source.name)
                self._said = ""
                self._set_status(RECONNECTING, f"{source.name} failed: {exc}")
                self._stop.wait(self.retry_s)
            finally:
                source.close()
            if self.status == ENDED:
                return

    def _pump(self, source: FrameSource) -> None:
        while not self._stop.is_set():
            frame = source.read()
            if frame is None:
                log.info("%s ended", source.name)
                self._set_status(ENDED, f"{source.name} ended")
                return
            if self.status != OK:  # frames flow (again): that is what "ok" means, not merely opened
                if self._said:
                    self.reconnects += 1
                    log.warning("%s", _("{name} is back; frames flowing again", name=source.name))
                    self._said = ""
                self._set_status(OK, source.name)
            with self._cond:
                if self._sequence != self._taken and self._frame is not None:
                    self.dropped += 1  # the service had not taken the previous one: it is stale now
                self._frame = frame
                self._sequence += 1
                self._cond.notify_all()
