"""Dice settling on the synthetic table's tumbling renders: false settles, and readings taken while a die moves.

Each throw is rendered frame by frame at 30 fps on the table's own clock (from the throw to half a second after
the last die rests; :class:`vision.synthetic.dice_scenes.DiceScene`, the readable conditions) and read by two
dice readers side by side, frame after frame as the camera service reads them:

- **at settle** (the baseline): a die read in the frame that settles it (``read_after_s=None``),
- **read ahead** (the current rule): a die read once still for ``read_after_s``, reported once settled.

Both settle a die after ``settle_s`` of stillness. Per rule: **false settles** (the tray reported settled in a
frame before the truth has every die at rest), **readings of moving dice** (a die read in a frame in which the
truth has it still moving; with how far it still had to go, mm, and whether its top face still turned),
**misreads** (a settled die reported with another face than the truth and no doubt: a silent misread; a die with a
doubt is asked about on the tablet, counted apart) and the reading cost
of the frame that settles the dice (ms; what the read-ahead takes off the settle frame). Then the same throw is
read again as the camera service's loop reads a camera that keeps delivering 30 frames a second (the newest frame
when free, busy for its tag detection and dice reading as measured on this machine): **rest → published** (ms,
the dice message; the engine and the tablet add what ``bench/dice_latency.py`` measures). Usage:
``.venv/bin/python bench/dice_settling.py [--quick] [--throws N]``; writes ``bench/results/dice_settling.json``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.end_to_end import percentile  # noqa: E402
from bench.vision_corpus import machine, write_result  # noqa: E402
from vision.detection import MarkerDetector  # noqa: E402
from vision.dice.reader import DiceReader  # noqa: E402
from vision.dice.tracking import DiceTrackerConfig  # noqa: E402
from vision.synthetic.dice_scenes import CONDITIONS, READABLE, DiceScene, random_orders  # noqa: E402
from vision.synthetic.dice_tray import DieTruth  # noqa: E402

FPS = 30.0
AFTER_S = 0.5  # rendered after the last die rests
RULES: dict[str, DiceTrackerConfig] = {"at settle": DiceTrackerConfig(read_after_s=None),
                                       "read ahead": DiceTrackerConfig()}


class CountingReader(DiceReader):
    """A dice reader that keeps where (tray mm) it read a die, frame after frame (the caller empties ``read_at``)."""

    def __init__(self, camera: Any, tracker: DiceTrackerConfig) -> None:
        super().__init__(camera=camera, tracker=tracker)
        self.read_at: list[tuple[float, float]] = []

    def _read_die(self, image: Any, view: Any, blob: Any, *args: Any) -> Any:
        self.read_at.append(blob.centroid_mm)
        return super()._read_die(image, view, blob, *args)


@dataclass
class RuleCounts:
    """What one rule did over every throw."""

    throws: int = 0
    false_settles: int = 0
    moving_reads: int = 0
    moving_read_mm: list[float] = field(default_factory=list)
    turning_reads: int = 0
    dice: int = 0
    misreads: int = 0
    asked: int = 0  # settled dice reported with a doubt (the tablet asks): no misread, whatever value they carry
    settle_frames_after_rest: list[float] = field(default_factory=list)
    settle_frame_ms: list[float] = field(default_factory=list)
    details: list[str] = field(default_factory=list)  # every false settle and misread, to look at
    live_ms: list[float] = field(default_factory=list)  # rest → published, as the service's loop would (live_latency)

    def report(self) -> dict[str, Any]:
        return {"throws": self.throws, "false_settles": self.false_settles, "dice_settled": self.dice,
                "misreads": self.misreads, "asked": self.asked, "readings_of_moving_dice": self.moving_reads,
                "readings_of_turning_dice": self.turning_reads,
                "moving_read_max_mm_to_go": round(max(self.moving_read_mm, default=0.0), 2),
                "settled_frames_after_rest_p50": percentile(self.settle_frames_after_rest, 50),
                "settled_frames_after_rest_min": min(self.settle_frames_after_rest, default=0.0),
                "settle_frame_ms_p50": round(percentile(self.settle_frame_ms, 50), 1),
                "settle_frame_ms_p95": round(percentile(self.settle_frame_ms, 95), 1), "details": self.details,
                "rest_to_published_at_30fps_p50_ms": round(percentile(self.live_ms, 50), 1),
                "rest_to_published_at_30fps_p95_ms": round(percentile(self.live_ms, 95), 1)}


def nearest(truth: tuple[DieTruth, ...], x: float, y: float) -> DieTruth | None:
    best = min(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), (x, y)), default=None)
    return best if best is not None and math.dist((best.x_mm, best.y_mm), (x, y)) < 15.0 else None


def live_latency(scene: DiceScene, at: float, rest: float, detector: MarkerDetector,
                 config: DiceTrackerConfig) -> float:
    """Milliseconds from the rest to the settled tray published, as the camera service's loop would take it from a
    camera delivering 30 frames a second on the table's clock: when free, it takes the newest frame captured (the
    ones in between are dropped), and is busy for that frame's tag detection and dice reading, measured here."""
    reader = DiceReader(camera=scene.camera, tracker=config)
    clock = at
    while clock < rest + 2.0:
        k = math.floor(clock * FPS + 1e-9)  # the newest frame captured by now
        t = k / FPS
        image, _truth = scene.frame(t)
        start = time.perf_counter()
        trays = reader.read(image, detector.detect(image), t)
        clock = max(clock, t) + time.perf_counter() - start
        if trays and trays[0].settled and trays[0].dice:
            return 1000.0 * (clock - rest)
        clock = max(clock, (k + 1) / FPS)  # the next frame, once captured
    return math.nan


def run_throw(scene: DiceScene, orders: Any, at: float, detector: MarkerDetector,
              counts: dict[str, RuleCounts], where: str) -> None:
    """Render one throw and read it with every rule, frame by frame."""
    rest = scene.throw(orders, at)
    first, last = math.ceil(at * FPS), math.ceil((rest + AFTER_S) * FPS)
    final = scene.frame(rest + AFTER_S)[1]
    readers = {name: CountingReader(scene.camera, config) for name, config in RULES.items()}
    settled_at: dict[str, int] = {}
    for k in range(first, last + 1):
        t = k / FPS
        image, truth = scene.frame(t)
        markers = detector.detect(image)
        for name, reader in readers.items():
            reader.read_at.clear()
            start = time.perf_counter()
            trays = reader.read(image, markers, t)
            ms = (time.perf_counter() - start) * 1000.0
            c = counts[name]
            for x, y in reader.read_at:  # the dice read in this frame: were they still moving?
                d = nearest(truth, x, y)
                if d is not None and not d.settled:
                    end = final[truth.index(d)]  # the same die at rest (the truth lists the dice in throw order)
                    to_go = math.dist((d.x_mm, d.y_mm), (end.x_mm, end.y_mm))
                    turning = abs((d.up_deg - end.up_deg + 180) % 360 - 180) > 1.0
                    c.moving_reads += 1
                    c.moving_read_mm.append(to_go)
                    c.turning_reads += int(turning)
                    if to_go > 1.0 or turning:
                        c.details.append(f"{where}: a {d.kind} read {to_go:.1f} mm from its rest"
                                         f"{', still turning' if turning else ''}, {math.ceil(rest * FPS) - k} "
                                         f"frame(s) before the last die rests")
            tray = trays[0] if trays else None
            if tray is None or not tray.settled or name in settled_at:
                continue
            settled_at[name] = k
            c.settle_frame_ms.append(ms)
            c.settle_frames_after_rest.append(k - math.ceil(rest * FPS))
            if not all(d.settled for d in truth):
                c.false_settles += 1
                c.details.append(f"{where}: settled {math.ceil(rest * FPS) - k} frame(s) before the last die rests")
            for die in tray.dice:
                real = nearest(truth, die.x_mm, die.y_mm)
                c.dice += 1
                c.asked += int(die.doubt is not None)
                if die.value is not None and die.doubt is None and (real is None or real.value != die.value):
                    c.misreads += 1
                    c.details.append(f"{where}: {die.kind} read {die.value}, truth "
                                     f"{real and (real.kind, real.value)}; {len(tray.dice)} dice read, "
                                     f"{len(truth)} thrown")
    for name in readers:
        counts[name].throws += 1
        # the same throw again (the tray's dice move on the table's clock), read as the live service would
        counts[name].live_ms.append(live_latency(scene, at, rest, detector, RULES[name]))


def main(argv: list[str] | None = None) -> int:
    import cv2

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one throw in two conditions")
    parser.add_argument("--throws", type=int, default=4, help="throws per readable condition")
    parser.add_argument("--out", help="results folder (default bench/results)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    conditions = ("plain", "oblique55") if args.quick else READABLE
    throws = 1 if args.quick else args.throws
    counts = {name: RuleCounts() for name in RULES}
    detector = MarkerDetector()
    for c, name in enumerate(conditions):
        scene = DiceScene(CONDITIONS[name], seed=c)
        rng = np.random.default_rng(c)
        for k in range(throws):
            run_throw(scene, random_orders(rng, int(rng.integers(1, 5))), 3.0 * k, detector, counts, f"{name} #{k}")
        print(f"  {name}: {throws} throws", file=sys.stderr, flush=True)
    result = {"quick": args.quick, "conditions": list(conditions), "throws_per_condition": throws, "fps": FPS,
              "rules": {name: c.report() for name, c in counts.items()}, "machine": machine()}
    for name, r in result["rules"].items():
        print(f"{name}: {r['false_settles']} false settles in {r['throws']} throws, {r['misreads']} misreads of "
              f"{r['dice_settled']} dice ({r['asked']} asked), {r['readings_of_moving_dice']} readings of moving "
              f"dice (at most "
              f"{r['moving_read_max_mm_to_go']} mm to go, {r['readings_of_turning_dice']} turning); settled "
              f"{r['settled_frames_after_rest_p50']:.0f} frames after the rest (p50); the settle frame costs "
              f"p50 {r['settle_frame_ms_p50']} ms, p95 {r['settle_frame_ms_p95']} ms; rest → published with a "
              f"30 fps camera "
              f"p50 {r['rest_to_published_at_30fps_p50_ms']} ms, p95 {r['rest_to_published_at_30fps_p95_ms']} ms")
    print(f"wrote {write_result('dice_settling', result, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
