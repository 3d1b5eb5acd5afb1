"""Dice reads that fail: logged at a bounded rate, and told to the players until a read succeeds again.

A tray whose every frame fails to read (a bug, or a tray seen in a way the reader was never shown) would otherwise
leave the tablet waiting for a roll that never comes while the camera's heartbeat says "ok", and fill the log with a
traceback per frame. Each place that reads trays (the dice thread, the loop for a finite source, a dice camera)
records each read here; the service's heartbeat carries :attr:`ReadFailures.problem` to the engine, which shows it
beside the camera's status on the tablet.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from engine.i18n import gettext_for

_ = gettext_for(__name__)

SUMMARY_EVERY_S = 30.0  # after the first failure's traceback, one line at most this often while reads still fail


def failure_text(error: BaseException) -> str:
    """A failed read's exception as one short line: its kind and message."""
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}"[:200] if text else type(error).__name__


class ReadFailures:
    """The reads of one tray reader since its last success; safe to record from one thread and read from another."""

    def __init__(self, logger: logging.Logger, what: str, every_s: float = SUMMARY_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.what, self.every_s, self.clock = logger, what, every_s, clock
        self.total = 0  # every failed read since the start
        self._lock = threading.Lock()
        self._streak = 0  # failed reads since the last success
        self._error = ""
        self._next_log = 0.0

    def failed(self, error: BaseException, frame: str) -> None:
        """Count a read of ``frame`` that raised ``error``: the first of a streak is logged with its traceback, then
        one line every ``every_s`` seconds."""
        now = self.clock()
        with self._lock:
            self.total += 1
            self._streak += 1
            self._error = failure_text(error)
            first, due = self._streak == 1, now >= self._next_log
            if first or due:
                self._next_log = now + self.every_s
            streak = self._streak
        if first:
            self.logger.error("%s: frame %s could not be read; skipped (please report this with the frame)",
                              self.what, frame, exc_info=error)
        elif due:
            self.logger.error("%s: %d frames in a row could not be read (last: %s)", self.what, streak,
                              failure_text(error))

    def read(self) -> None:
        """A read succeeded: the problem is over."""
        with self._lock:
            if self._streak:
                self.logger.info("%s: read again after %d frames that could not be", self.what, self._streak)
            self._streak, self._error = 0, ""

    @property
    def problem(self) -> str:
        """What to tell the players while reads fail (empty when the last read succeeded)."""
        with self._lock:
            streak, error = self._streak, self._error
        if not streak:
            return ""
        return _("the dice tray could not be read in {count} frames ({error}): type the faces on the tablet until it "
                 "reads again, and please report this with the camera's log", count=streak, error=error)
