"""d6s read from steep tray cameras beyond the bench's: every die read, its ray's angle, its blob, right or wrong.

Renders throws of five mixed dice (as ``bench/dice.py``) from tray cameras swept over ``--tilts`` (degrees from
vertical) and ``--distances`` (mm from the tray's middle), the picture's blur drawn from ``--blur`` and, for one
scene in ``--dim-share``, the dim room's light. Seeds start at ``--seed`` (keep them apart from the bench's, 500–508):
calibration is done here, the bench confirms. For every flat die it writes a JSON row (condition, throw, truth, what was
read, confidence, doubt, the ray's angle from vertical at the die, how many dice share its blob); it prints the wrong
reads surest first and the d6s right / asked / wrong per tray camera.

Usage: ``.venv/bin/python bench/dice_steep.py [--tilts 55 60 65 67.5 70] [--distances 360 405 450] [--throws N]
[--seed S] [--cocked] [--json FILE]``. A cocked die (``--cocked``) read with a value counts as wrong.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray
from vision_corpus import progress

from engine.wire import DieSeen
from vision.detection import DetectedMarker, MarkerDetector
from vision.dice.numerals import load_numerals
from vision.dice.reader import DiceReader, view_deg
from vision.dice.tracking import DiceTrackerConfig
from vision.dice.tray_view import Lens, find_tray
from vision.synthetic.dice_scenes import DiceCondition, DiceScene, random_orders
from vision.synthetic.dice_tray import DieOrder, DieTruth, HardCase
from vision.synthetic.effects import Effects

ROLLING_S = 0.3  # as bench/dice.py: the frame each reader sees first, this long before the dice rest
DIM = Effects(gain=0.35, noise_sigma=4.0)  # the bench's dim room


def scenes(tilts: list[float], distances: list[float], blur: tuple[float, float], dim_share: float, seed: int,
           hard: HardCase | None = None) -> list[tuple[str, DiceCondition, int]]:
    """One condition per tray camera and light (its blur drawn from the seed), each with a seed of its own."""
    rng = np.random.default_rng(seed)
    out = []
    for i, (tilt, distance) in enumerate((t, d) for t in tilts for d in distances):
        dim = rng.random() < dim_share
        sigma = float(rng.uniform(*blur))
        effects = Effects(gain=DIM.gain, noise_sigma=DIM.noise_sigma, blur_sigma_px=sigma) if dim else Effects(
            blur_sigma_px=sigma)
        name = f"{tilt:g}deg {distance:g}mm blur {sigma:.2f}{' dim' if dim else ''}"
        out.append((name, DiceCondition(name, tilt, distance, effects, hard or HardCase()), seed + 1 + i))
    return out


class ReadThrow(NamedTuple):
    """One throw of a sweep's camera at rest, as a fresh reader read it."""

    k: int
    scene: DiceScene
    image: NDArray[np.uint8]
    markers: list[DetectedMarker]
    truth: tuple[DieTruth, ...]
    reader: DiceReader
    seen: tuple[DieSeen, ...]


def read_throws(condition: DiceCondition, seed: int, throws: int, detector: MarkerDetector, numerals: Any,
                cocked_d10: bool = False) -> Iterator[ReadThrow]:
    """The ``throws`` of five mixed dice one tray camera sees (the camera's ``seed``), each at rest, read by a fresh
    reader that first saw it rolling, as bench/dice.py reads; ``cocked_d10``: the throw's last die (the one a cocked
    condition cocks) a d10."""
    scene = DiceScene(condition, seed=seed)
    rng = np.random.default_rng(seed)
    for k in range(throws):
        orders = random_orders(rng, 5)
        if cocked_d10:
            orders[-1] = DieOrder("d10", int(rng.integers(0, 10)))
        rest = scene.throw(orders, 6.0 * k)
        image, truth = scene.frame(rest + 0.3)
        markers = detector.detect(image)
        reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0), numerals=numerals)
        reader.prepare(scene.frame(rest - ROLLING_S, np.random.default_rng(seed + k))[0], markers)
        trays = reader.read(image, markers, rest + 0.3)
        yield ReadThrow(k, scene, image, markers, truth, reader, trays[0].dice if trays else ())


def run(name: str, condition: DiceCondition, seed: int, throws: int, detector: MarkerDetector, numerals: Any
        ) -> list[dict[str, Any]]:
    rows = []
    for k, scene, image, markers, truth, reader, seen in read_throws(condition, seed, throws, detector, numerals):
        view = find_tray(markers, scene.tray.spec, Lens.of(scene.camera, (image.shape[1], image.shape[0])))
        found = reader._trays["tray"].found
        for real in truth:
            near = [d for d in seen if math.dist((real.x_mm, real.y_mm), (d.x_mm, d.y_mm)) < 15.0]
            read = [d for d in near if d.read and d.value is not None]
            wrong = any(real.cocked or d.value != real.value or str(d.kind) != real.kind for d in read)
            in_blob = 0
            if found is not None:
                for blob, face, _n in found[2]:
                    if face is not None and math.dist(face.centre_mm, (real.x_mm, real.y_mm)) < 15.0:
                        in_blob = sum(1 for b, _f, _m in found[2] if b is blob)
            rows.append({"condition": name, "throw": k, "kind": real.kind, "value": real.value,
                         "hard": real.cocked or real.touching or real.outside,
                         "ray_deg": round(view_deg(view, (real.x_mm, real.y_mm)), 2) if view is not None else None,
                         "faces_in_blob": in_blob, "wrong": wrong,
                         "right": len(near) == 1 and bool(read) and not wrong,
                         "seen": [[str(d.kind), d.value, round(d.confidence, 3), str(d.doubt)] for d in near]})
    return rows


def add_sweep_arguments(parser: argparse.ArgumentParser, seed: int) -> None:
    """The options of a sweep over tray cameras: ``--tilts`` × ``--distances``, the pictures' ``--blur`` and
    ``--dim-share``, ``--throws`` per camera, the first ``--seed`` and the ``--json`` file for every die's row."""
    parser.add_argument("--tilts", type=float, nargs="*", default=[55.0, 60.0, 65.0, 67.5, 70.0])
    parser.add_argument("--distances", type=float, nargs="+", default=[360.0, 405.0, 450.0])
    parser.add_argument("--blur", type=float, nargs=2, default=[0.6, 1.2])
    parser.add_argument("--dim-share", type=float, default=0.33)
    parser.add_argument("--throws", type=int, default=20)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--json", help="file for every die's row")


def sweep(chosen: list[tuple[str, DiceCondition, int]], read: Callable[[str, DiceCondition, int], list[dict[str, Any]]],
          json_path: str | None) -> list[dict[str, Any]]:
    """Every die's row from each camera of ``chosen`` (``read`` renders and reads one), with progress; the rows so far
    written to ``json_path`` after each camera, so a long sweep stopped early keeps what it measured."""
    rows: list[dict[str, Any]] = []
    for i, (name, condition, seed) in enumerate(chosen):
        rows.extend(read(name, condition, seed))
        progress(i + 1, len(chosen), "cameras")
        if json_path:
            Path(json_path).write_text(json.dumps(rows))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_sweep_arguments(parser, seed=7000)
    parser.add_argument("--cocked", action="store_true", help="one die of each throw cocked (it must be asked)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    detector = MarkerDetector()
    numerals = load_numerals()
    chosen = scenes(args.tilts, args.distances, tuple(args.blur), args.dim_share, args.seed,
                    HardCase(cocked=True) if args.cocked else None)
    rows = sweep(chosen, lambda name, condition, seed: run(name, condition, seed, args.throws, detector, numerals),
                 args.json)
    wrong = sorted((r for r in rows if r["wrong"]), key=lambda r: -max(s[2] for s in r["seen"]))
    print("wrong reads, surest first:")
    for r in wrong:
        print(f"  {r['condition']:32} throw {r['throw']:3} {r['kind']} {r['value']}  ray {r['ray_deg']}°  "
              f"faces in blob {r['faces_in_blob']}  seen {r['seen']}")
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        if r["kind"] == "d6" and not r["hard"]:
            table[r["condition"]][0 if r["right"] else 2 if r["wrong"] else 1] += 1
    print(f"\n{'tray camera':32} {'d6 right':>9} {'asked':>6} {'wrong':>6}")
    for name, (right, asked, bad) in table.items():
        print(f"{name:32} {right:9d} {asked:6d} {bad:6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
