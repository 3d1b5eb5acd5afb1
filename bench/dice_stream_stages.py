"""Where a rolling frame's cost goes: the reading thread's CPU time of each step of a stream's moving frames.

Each throw of a condition (``vision.synthetic.dice_scenes.CONDITIONS``, the seed ``bench/dice.py`` gives it) is read as
``bench/dice.py``'s stream reads it (``stream_costs``: one reader, 30 frames a second over the last ``STREAM_S`` before
the dice rest, the frame before them untimed); of the *moving* frames (no die read, not all settled) the CPU time of
each step is gathered by wrapping the functions that make it: the rectification (``TrayView.rectify``), the search for
blobs (``find_blobs``; of it, the check of the light on the paper, ``PaperMemory.reference_for``, and the pale dice
against the paper, ``off_paper``), the top faces (``top_faces``; ``left_out`` and ``lost_between`` for merged blobs),
the tracker, and the rest (the frame's total less those). It also counts the blobs found with the very box and pixels
of a blob of the frame before: a search that kept the last frame's results where the picture did not change could
reuse exactly those (noise flips a pixel or two of every blob's edge from frame to frame).

The wrappers cost about a microsecond a call; the totals are the frames' own thread times.

Usage: ``.venv/bin/python bench/dice_stream_stages.py [--quick] [--throws N] [--only CONDITION ...] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import cv2
import numpy as np
from dice import FPS, STREAM_S
from vision_corpus import machine, progress, write_result

from vision.detection import MarkerDetector
from vision.dice import paper_memory, reader, segment
from vision.dice.numerals import load_numerals
from vision.dice.tracking import DiceTracker
from vision.dice.tray_view import TrayView
from vision.synthetic.dice_scenes import CONDITIONS, DOUBTFUL, READABLE, DiceScene, random_orders

STEPS = ("rectify", "find_blobs", "light check", "off_paper", "top_faces", "merged", "tracker")
SEARCH = "find_blobs"  # the name the reader calls the blobs' search by (wrapped to keep what it found)
NESTED = {"light check": "find_blobs", "off_paper": "find_blobs"}  # counted within their parent as well


@contextmanager
def timed_steps(spent: dict[str, float]) -> Iterator[None]:
    """While inside, the thread time of each step (``STEPS``) is added to ``spent`` (seconds)."""
    targets: list[tuple[Any, str, str]] = [
        (TrayView, "rectify", "rectify"), (reader, "find_blobs", "find_blobs"),
        (paper_memory.PaperMemory, "reference_for", "light check"), (segment, "off_paper", "off_paper"),
        (reader, "top_faces", "top_faces"), (reader, "left_out", "merged"), (reader, "lost_between", "merged"),
        (DiceTracker, "update", "tracker")]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _step in targets]

    def wrap(function: Callable[..., Any], step: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[step] += time.thread_time() - start
        return timed

    for (owner, name, step), (_o, _n, function) in zip(targets, originals, strict=True):
        setattr(owner, name, wrap(function, step))
    try:
        yield
    finally:
        for owner, name, function in originals:
            setattr(owner, name, function)


def run_condition(name: str, throws: int, seed: int, detector: MarkerDetector, numerals: Any) -> dict[str, Any]:
    """The moving frames' total and per-step CPU ms (p50, mean) and the blobs kept exactly from frame to frame."""
    scene = DiceScene(CONDITIONS[name], seed=seed)
    rng = np.random.default_rng(seed)
    totals: list[float] = []
    steps: dict[str, list[float]] = {step: [] for step in STEPS}
    blobs = same = 0
    found: list[segment.Blob] = []  # the blobs of the frame's search (none when the settled dice were not searched)
    original = getattr(reader, SEARCH)  # the name the reader calls it by

    def keep(*args: Any, **kwargs: Any) -> list[segment.Blob]:
        found[:] = original(*args, **kwargs)
        return found

    for k in range(throws):
        orders = random_orders(rng, 5, 0.5 if name in READABLE else 0.0)
        rest = scene.throw(orders, 6.0 * k)
        markers = detector.detect(scene.frame(rest + 0.3)[0])
        stream_seed = (seed * 1000 + k) * 100  # as bench/dice.py's stream_costs draws each frame's noise
        dice_reader = reader.DiceReader(camera=scene.camera, numerals=numerals)
        frames = round(STREAM_S * FPS)
        first = rest - frames / FPS
        dice_reader.read(scene.frame(first, np.random.default_rng(stream_seed))[0], markers, first)
        before: set[tuple[tuple[int, int, int, int], bytes]] = set()
        for j in range(1, frames + 1):
            now = first + j / FPS
            image = scene.frame(now, np.random.default_rng(stream_seed + j))[0]
            spent: dict[str, float] = defaultdict(float)
            read_before = dice_reader.dice_read
            found.clear()
            setattr(reader, SEARCH, keep)
            try:
                with timed_steps(spent):
                    start = time.thread_time()
                    trays = dice_reader.read(image, markers, now)
                    cost = time.thread_time() - start
            finally:
                setattr(reader, SEARCH, original)
            seen = {(blob.box, blob.mask.tobytes()) for blob in found}
            if dice_reader.dice_read == read_before and not all(tray.settled for tray in trays):
                totals.append(cost * 1000.0)
                for step in STEPS:
                    steps[step].append(spent[step] * 1000.0)
                if found and before:
                    blobs += len(seen)
                    same += len(seen & before)
            before = seen
    rest_ms = [total - sum(steps[s][i] for s in STEPS if s not in NESTED) for i, total in enumerate(totals)]
    return {"frames": len(totals), "total": _spread(totals),
            "steps": {**{step: _spread(ms) for step, ms in steps.items()}, "rest": _spread(rest_ms)},
            "blobs_after_a_search": blobs, "blobs_as_before": same}


def _spread(ms: list[float]) -> dict[str, float]:
    values = ms or [0.0]
    return {"p50": float(np.median(values)), "mean": float(np.mean(values)), "p95": float(np.percentile(values, 95))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two throws, to check the script works")
    parser.add_argument("--throws", type=int, help="throws streamed per condition (default 10, quick 2)")
    parser.add_argument("--only", action="append", choices=list(READABLE) + list(DOUBTFUL), metavar="CONDITION",
                        help="this condition (repeatable; default oblique65; each keeps bench/dice.py's seed)")
    parser.add_argument("--out", help="folder for the JSON result (default bench/results)")
    args = parser.parse_args(argv)
    throws = args.throws or (2 if args.quick else 10)
    cv2.setNumThreads(1)
    load_at_start = os.getloadavg()[0]
    detector, numerals = MarkerDetector(), load_numerals()
    names = list(READABLE) + list(DOUBTFUL)
    chosen = args.only or ["oblique65"]
    rows = {}
    for i, name in enumerate(chosen):
        rows[name] = run_condition(name, throws, 500 + names.index(name), detector, numerals)
        progress(i + 1, len(chosen), "conditions")
    print(f"\nmoving frames of a 30 fps stream, CPU ms on one core: p50 / mean ({throws} throws a condition)")
    print(f"{'step':14} " + " ".join(f"{name:>16}" for name in rows))
    for step in ("total", *STEPS, "rest"):
        cells = [r["total"] if step == "total" else r["steps"][step] for r in rows.values()]
        label = f"  of it {step}" if step in NESTED else step
        print(f"{label:14} " + " ".join(f"{c['p50']:7.2f} / {c['mean']:5.2f}" for c in cells))
    for name, r in rows.items():
        print(f"{name}: {r['frames']} moving frames; blobs with the box and pixels of one the frame before: "
              f"{r['blobs_as_before']} of {r['blobs_after_a_search']}")
    result = {"benchmark": "dice_stream_stages", "quick": args.quick, "throws_per_condition": throws,
              "conditions": rows, "machine": machine(),
              "load_average_1min": {"start": load_at_start, "end": os.getloadavg()[0]}}
    print(f"wrote {write_result('dice_stream_stages', result, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
