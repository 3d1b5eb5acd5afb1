"""Logging of refused input at a bounded rate: a peer sending thousands of bad messages costs a few lines.

Each kind of refusal logs its first ``burst`` messages in a window of ``every_s`` seconds, counts the
rest, and when the window ends logs one summary with the count and the last one held back. Every
line is clipped, so a 60 KiB bad value leaves a few hundred characters in the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

MAX_LINE_CHARS = 400
SUMMARY_EVERY_S = 5.0
BURST = 5


def clip(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


class LimitedLog:
    """One kind of refusal (e.g. "command refused"), logged at a bounded rate; call :meth:`flush` now and then
    so the summary comes even when the bad messages stopped."""

    def __init__(self, logger: logging.Logger, what: str, level: int = logging.WARNING, burst: int = BURST,
                 every_s: float = SUMMARY_EVERY_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.what = what
        self.level = level
        self.burst = burst
        self.every_s = every_s
        self.clock = clock
        self.total = 0
        self._window_start = clock()
        self._logged = 0
        self._held = 0
        self._last = ""

    def __call__(self, text: str) -> None:
        """Count one refusal and log it, unless this window's burst is spent."""
        self.flush()
        self.total += 1
        if self._logged < self.burst:
            self._logged += 1
            self.logger.log(self.level, "%s: %s", self.what, clip(text))
        else:
            self._held += 1
            self._last = text

    def flush(self) -> None:
        """End the window when its time is up, logging how many were held back."""
        now = self.clock()
        if now - self._window_start < self.every_s:
            return
        if self._held:
            self.logger.log(self.level, "%s: %d more in the last %.0f s (%d in all); the last: %s", self.what,
                            self._held, now - self._window_start, self.total, clip(self._last))
        self._window_start = now
        self._logged = self._held = 0
        self._last = ""
