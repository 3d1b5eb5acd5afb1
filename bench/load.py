"""A busy machine for benchmarks' ``--load``: one process that keeps a core busy while the bench runs.

The targets are for a machine with one other busy process (a browser, a build); a bench run with
``--load`` starts one such process beside itself and reports its figures with it, next to a quiet run.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

BURN = "while True: pass"


@contextmanager
def cpu_burner(enabled: bool = True) -> Iterator[None]:
    """Run one process spinning a core for as long as the block runs (nothing when ``enabled`` is False)."""
    if not enabled:
        yield
        return
    proc = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


def load_average() -> float | None:
    """One-minute load average: timings on a shared, busy machine are worth reading with it."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def machine() -> dict[str, Any]:
    """The machine a run was measured on: cores, processor model, Python, the load when the run started."""
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model or platform.machine(), "python": platform.python_version(),
            "load_1min_at_start": load_average()}
