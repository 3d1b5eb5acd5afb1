"""What a dice thread read, waiting for the service's loop to publish it (only the loop's thread touches the
sockets): a short queue, oldest first, the oldest dropped when the loop falls that far behind."""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

Result = TypeVar("Result")


class ResultsQueue(Generic[Result]):
    """Results put by one thread and taken by another."""

    def __init__(self, most: int = 8) -> None:
        self._results: deque[Result] = deque(maxlen=most)
        self._lock = threading.Lock()

    def put(self, result: Result) -> None:
        with self._lock:
            self._results.append(result)

    def take(self) -> list[Result]:
        """Every result not taken yet, oldest first."""
        with self._lock:
            out = list(self._results)
            self._results.clear()
        return out
