"""Why the d10s that bench/dice.py asks about are asked: one cause per die, and optionally its numeral crops.

Replays bench/dice.py's throws (same conditions, seeds and orders) and, for every flat d10 not read right,
records what the reader saw: no die found or several dice in one blob (merged, touching), the outline's
kind and its d10 fit, the numeral network's answer and margin over the turns it cut, and the doubt. With
``--crops DIR`` the crops of each asked d10 (every turn, and the true upright crop) are written as PNGs.

Usage: ``.venv/bin/python bench/dice_d10_why.py [--throws N] [--only CONDITION ...] [--crops DIR]``.
"""

from __future__ import annotations

import argparse
import collections
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from vision_corpus import progress

from engine.wire import DieDoubt, DieSeen
from vision.detection import MarkerDetector
from vision.dice.numerals import NumeralReader, load_numerals
from vision.dice.outline import Outline, numeral_turns
from vision.dice.reader import (
    MIN_D10_FIT,
    DiceReader,
    DieReading,
    die_outline,
    numeral_patch,
)
from vision.dice.segment import Blob
from vision.dice.top_face import TopFace
from vision.dice.tracking import DiceTrackerConfig
from vision.dice.tray_view import TrayView
from vision.synthetic.dice_scenes import CONDITIONS, READABLE, DiceScene, random_orders


class WatchedReader(DiceReader):
    """The reader, noting for each die it reads the outline, the numeral's crops and answer."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.notes: list[dict[str, Any]] = []

    def _read_die(self, image: np.ndarray, view: TrayView, blob: Blob, face: TopFace | None, count: int,
                  others: tuple[TopFace, ...] = ()) -> DieReading:
        reading = super()._read_die(image, view, blob, face, count, others)
        outline = die_outline(view, blob, face, others)
        at = face.centre_mm if face is not None else blob.centroid_mm
        self.notes.append({"at": at, "count": count, "others": len(others), "outline": outline,
                           "reading": reading, "view": view, "image": image})
        return reading


def cause(note: dict[str, Any] | None, die: DieSeen | None, numerals: NumeralReader, truth_value: int,
          up_deg: float) -> tuple[str, dict[str, Any]]:
    """One word for why this d10 was not read right, and the figures behind it."""
    if die is None or note is None:
        return "not found", {}
    reading: DieReading = note["reading"]
    outline: Outline = note["outline"]
    info: dict[str, Any] = {"doubt": str(reading.doubt), "kind": outline.kind, "d10_fit": outline.d10.overlap,
                            "d6_fit": outline.d6.overlap, "others": note["others"], "count": note["count"]}
    if note["count"] > 1:
        return "merged (touching)", info
    if reading.doubt is not None and str(reading.doubt).lower().endswith("outside"):
        return "outside", info
    if outline.kind == "d6":
        return "outline says d6" + (" (shared blob)" if note["others"] else ""), info
    if outline.d10.overlap < MIN_D10_FIT and reading.doubt is DieDoubt.UNREADABLE:  # (a lone die from above: 0.75)
        return "d10 fit < 0.8" + (" (shared blob)" if note["others"] else ""), info
    turns = numeral_turns(outline.d10)
    crops = [numeral_patch(note["view"], note["image"], outline.d10.centre_mm, t) for t in turns]
    guess = numerals.classify(crops)
    true_crop = numeral_patch(note["view"], note["image"], outline.d10.centre_mm, up_deg)
    true_scores = numerals.scores(true_crop)
    axis_off = min(abs((t - up_deg + 180.0) % 360.0 - 180.0) for t in turns)
    info.update(guess=guess.value, margin=guess.confidence, axis_off=round(axis_off, 1), turns=len(turns),
                true_turn_best=int(np.argmax(true_scores)), true_turn_p=round(float(true_scores[truth_value]), 3))
    info["crops"] = [*crops, true_crop]
    if axis_off > 25.0:
        return "axis missed", info
    if guess.value is None:
        return "numeral says not flat", info
    if guess.value != truth_value:
        return "numeral wrong (asked)", info
    return "margin too low", info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=40)
    parser.add_argument("--only", action="append", choices=list(READABLE))
    parser.add_argument("--crops", type=Path, help="write each asked d10's crops here as PNGs")
    parser.add_argument("--model", type=Path, nargs="+", help="the d10 numeral networks (default: the shipped ones)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    detector = MarkerDetector()
    numerals = load_numerals(args.model)
    assert numerals is not None
    names = list(CONDITIONS)
    chosen = [n for n in READABLE if not args.only or n in args.only]
    for i, name in enumerate(chosen):
        seed = 500 + names.index(name)
        scene = DiceScene(CONDITIONS[name], seed=seed)
        rng = np.random.default_rng(seed)
        causes: collections.Counter[str] = collections.Counter()
        d10s = 0
        for k in range(args.throws):
            orders = random_orders(rng, 5, 0.5)
            rest = scene.throw(orders, 6.0 * k)
            image, truth = scene.frame(rest + 0.3)
            reader = WatchedReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0), numerals=numerals)
            trays = reader.read(image, detector.detect(image), rest + 0.3)
            seen = trays[0].dice if trays else ()
            for real in truth:
                if real.kind != "d10" or real.cocked or real.touching or real.outside:
                    continue
                d10s += 1
                near = [d for d in seen if math.dist((d.x_mm, d.y_mm), (real.x_mm, real.y_mm)) < 15.0]
                mine = [d for d in near if min(truth, key=lambda t: math.dist((t.x_mm, t.y_mm), (d.x_mm, d.y_mm)))
                        is real]
                if len(mine) == 1 and mine[0].read and mine[0].value == real.value:
                    continue
                die = mine[0] if mine else None
                note = min(reader.notes, key=lambda n: math.dist(n["at"], (real.x_mm, real.y_mm)), default=None)
                if note is not None and math.dist(note["at"], (real.x_mm, real.y_mm)) > 15.0:
                    note = None
                why, info = cause(note, die, numerals, real.value, real.up_deg)
                if len(mine) > 1:
                    why = "seen twice"
                causes[why] += 1
                crops = info.pop("crops", [])
                print(f"{name} throw {k} d10 {real.value} at ({real.x_mm:.0f}, {real.y_mm:.0f}): {why} "
                      f"{ {k2: (round(v, 3) if isinstance(v, float) else v) for k2, v in info.items()} }")
                if args.crops and crops:
                    args.crops.mkdir(parents=True, exist_ok=True)
                    big = [cv2.resize(c, (105, 105), interpolation=cv2.INTER_NEAREST) for c in crops]
                    cv2.imwrite(str(args.crops / f"{name}_{k}_{real.value}_{why.split()[0]}.png"), np.hstack(big))
        print(f"{name}: {d10s} d10s, not read right: {sum(causes.values())} — {dict(causes)}")
        progress(i + 1, len(chosen), "conditions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
