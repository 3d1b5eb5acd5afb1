"""Throws seen on sparse frames: does the tray's roll go up once per throw when the camera service sees only a
frame every so often (a reader that falls behind a live camera takes the newest frame and the rest are gone)?

One tray, throws one after the other with the dice of the last throw still lying there (the synthetic hand takes
them up as it throws, as a player does), each seen by the table's camera on the table's own clock: the frames a
reader gets every ``gap`` seconds (at a random phase), up to a second after the last die rests. Per gap: throws
whose roll went up once (**right**), not at all (**missed**: the game would wait for a throw it did not see) or
more than once (**extra**: a roll taken for the next prompt without a throw), and throws whose settled dice were
not the throw's faces (read with a value other than the truth), and how many of the dice were read.

Usage: ``.venv/bin/python bench/dice_sparse.py [--throws N] [--gaps 0.033 0.2 0.4 0.6] [--seed S] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.vision_corpus import machine  # noqa: E402
from vision.detection import MarkerDetector  # noqa: E402
from vision.dice.reader import DiceReader  # noqa: E402
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene, random_orders  # noqa: E402

AFTER_S = 1.0  # frames are taken this long after the last die rests
PAUSE_S = 1.5  # between one throw's rest and the next throw


def run_gap(gap: float, throws: int, seed: int, condition: str, detector: MarkerDetector) -> dict[str, Any]:
    scene = DiceScene(CONDITIONS[condition], seed=seed)
    reader = DiceReader(camera=scene.camera)
    rng = np.random.default_rng(seed)
    t = float(rng.uniform(0.0, gap))
    counts = {"right": 0, "missed": 0, "extra": 0, "wrong_faces": 0, "dice": 0, "dice_read": 0}
    details = []
    at = 0.5
    roll = 0
    for n in range(throws):
        orders = random_orders(rng, int(rng.integers(1, 4)))
        rest = scene.throw(orders, at)
        before = roll
        seen: tuple[Any, ...] = ()
        while t < rest + AFTER_S:
            if t >= at - PAUSE_S / 2:
                image, _truth = scene.frame(t)
                trays = reader.read(image, detector.detect(image), t)
                if trays:
                    roll = trays[0].roll
                    seen = trays[0].dice if trays[0].settled else ()
            t += gap
        went_up = roll - before
        key = "right" if went_up == 1 else "missed" if went_up == 0 else "extra"
        counts[key] += 1
        truth = sorted((d.kind, d.value) for d in scene.tray.truth(rest + AFTER_S))
        read = sorted((str(d.kind), d.value) for d in seen if d.value is not None)
        wrong = [r for r in read if r not in truth]
        counts["dice"] += len(truth)
        counts["dice_read"] += len(read)
        if wrong:
            counts["wrong_faces"] += 1
        if key != "right" or wrong:
            details.append(f"throw {n}: {key} (roll +{went_up}), truth {truth}, read {read}")
        at = rest + PAUSE_S
    return {"gap_s": gap, "throws": throws, **counts, "details": details}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--throws", type=int, default=20, help="throws per gap (default 20)")
    parser.add_argument("--gaps", type=float, nargs="+", default=[1 / 30, 0.2, 0.4, 0.6],
                        help="seconds between the frames the reader gets (default 0.033 0.2 0.4 0.6)")
    parser.add_argument("--seed", type=int, default=4100, help="the first seed (each gap its own)")
    parser.add_argument("--condition", default="plain", choices=list(CONDITIONS), help="the bench's condition")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    detector = MarkerDetector()
    results = []
    for i, gap in enumerate(args.gaps):
        result = run_gap(gap, args.throws, args.seed + i, args.condition, detector)
        results.append(result)
        print(f"gap {gap:6.3f} s  right {result['right']:3d}  missed {result['missed']:3d}  extra {result['extra']:3d}"
              f"  wrong faces {result['wrong_faces']:3d}  dice read {result['dice_read']} of {result['dice']}",
              flush=True)
        for line in result["details"]:
            print("   ", line, flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps({"machine": machine(), "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
