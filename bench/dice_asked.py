"""Why dice are asked: for each die of a condition that is not read right, its doubt and how much of its top face
the camera really sees.

Replays ``bench/dice.py``'s throws (the same seeds), reads each frame, and for every die asked (or read
wrong) renders the scene again without the webcam's effects, once with every die and once with that die
alone: the share of its top face's pixels that differ is the share hidden behind other dice. A die whose top
face is hidden (``--hidden``, default a tenth) is rightly asked — the honest ceiling; the others are asked
because they could not be told apart (merged blobs) or read. (A flat die's top face is the highest part of it, and
no die stands higher than a d6's top, so from above the camera's rays to a top face pass over every other flat
die: only a d10's top, a millimetre lower, can lose a sliver to a d6. The renders agree: no asked oblique die
had any of its top face hidden.) ``--png DIR`` writes, for each asked die, the
picture around it and the rectified tray around it with the blobs' outlines and the top faces found.

Usage: ``.venv/bin/python bench/dice_asked.py [--only CONDITION ...] [--throws N] [--png DIR] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.wire import DieSeen
from vision.detection import MarkerDetector
from vision.dice.numerals import load_numerals
from vision.dice.reader import SEGMENT_PX_PER_MM, TOP_PLANE_MM, DiceReader, locate_in, segment_margin, visible_felt
from vision.dice.tracking import DiceTrackerConfig
from vision.dice.tray_view import Lens, find_tray
from vision.synthetic.dice_drawing import DiePose, draw_dice
from vision.synthetic.dice_models import solid
from vision.synthetic.dice_scenes import CONDITIONS, DOUBTFUL, READABLE, DiceScene, random_orders
from vision.synthetic.dice_tray import DieTruth

HIDDEN = 0.1
ROLLING_S = 0.3  # as bench/dice.py: the frame each reader sees first, this long before the dice rest
CHANGED_LEVELS = 12


def _top_polygon(pose: DiePose) -> np.ndarray:
    """The die's upward face's corners (table mm)."""
    body = solid(pose.kind)
    face = max(body.faces, key=lambda f: float((pose.rotation @ f.normal)[2]))
    return np.asarray(face.corners @ pose.rotation.T + np.array(pose.centre_mm), np.float64)


def hidden_share(scene: DiceScene, poses: tuple[DiePose, ...], index: int) -> float:
    """The share of die ``index``'s top face (in the picture) that other dice hide."""
    camera = scene.camera
    background = scene.renderer.background
    both = background.copy()
    draw_dice(both, camera, poses, scene.renderer.lamp_mm)
    alone = background.copy()
    draw_dice(alone, camera, (poses[index],), scene.renderer.lamp_mm)
    corners = camera.project(_top_polygon(poses[index]))
    mask = np.zeros(both.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 255, cv2.LINE_8, shift=4)
    inside = np.asarray(cv2.erode(mask, np.ones((3, 3), np.uint8))) > 0
    if not inside.any():
        return 1.0
    diff = cv2.absdiff(both, alone).max(axis=2)
    return float(np.count_nonzero(diff[inside] > CHANGED_LEVELS)) / float(np.count_nonzero(inside))


def _nearest(truth: tuple[DieTruth, ...], x: float, y: float) -> int:
    return min(range(len(truth)), key=lambda i: math.dist((truth[i].x_mm, truth[i].y_mm), (x, y)))


def _blob_of(blobs: list[Any], t: DieTruth, margin: float) -> int:
    """The index of the blob whose mask holds the die's centre (-1: none)."""
    for j, b in enumerate(blobs):
        x0, y0, w, h = b.box
        c = round((t.x_mm + margin) * SEGMENT_PX_PER_MM - 0.5) - x0
        r = round((t.y_mm + margin) * SEGMENT_PX_PER_MM - 0.5) - y0
        if 0 <= r < h and 0 <= c < w and b.mask[r, c]:
            return j
    return -1


def run(name: str, throws: int, seed: int, png: Path | None, hidden_at: float) -> list[dict[str, Any]]:
    scene = DiceScene(CONDITIONS[name], seed=seed)
    rng = np.random.default_rng(seed)
    detector = MarkerDetector()
    numerals = load_numerals()
    rows: list[dict[str, Any]] = []
    for k in range(throws):
        orders = random_orders(rng, 5, 0.5 if name in READABLE else 0.0)
        rest = scene.throw(orders, 6.0 * k)
        image, truth = scene.frame(rest + 0.3)
        poses, _hands = scene.tray.at(rest + 0.3)
        markers = detector.detect(image)
        reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0), numerals=numerals)
        # As bench/dice.py: the reader first sees the throw still rolling (the pose and the paper's colour from there).
        reader.prepare(scene.frame(rest - ROLLING_S, np.random.default_rng(seed + k))[0], markers)
        trays = reader.read(image, markers, rest + 0.3)
        seen: tuple[DieSeen, ...] = trays[0].dice if trays else ()
        view = find_tray(markers, scene.tray.spec, Lens.of(scene.camera, (image.shape[1], image.shape[0])))
        assert view is not None
        margin = segment_margin(view)
        rectified = view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin)
        kept = reader._trays["tray"].found  # what the reader found (with the paper colour it kept), to draw
        found = kept[2] if kept is not None else locate_in(rectified, view, visible_felt(view))[0]
        per_die: list[list[DieSeen]] = [[] for _ in truth]
        for die in seen:
            i = _nearest(truth, die.x_mm, die.y_mm)
            if math.dist((truth[i].x_mm, truth[i].y_mm), (die.x_mm, die.y_mm)) < 15.0:
                per_die[i].append(die)
        # Which blob each true die lies in (its top face's centre in the blob's mask).
        blobs: list[Any] = []
        for blob, _f, _n in found:
            if all(blob is not b for b in blobs):
                blobs.append(blob)

        where = [_blob_of(blobs, t, margin) for t in truth]
        for i, (real, dice) in enumerate(zip(truth, per_die, strict=True)):
            read = [d for d in dice if d.read]
            right = len(dice) == 1 and bool(read) and read[0].value == real.value and str(read[0].kind) == real.kind
            if right or real.cocked or real.touching or real.outside:
                continue
            wrong = any(d.value != real.value or str(d.kind) != real.kind for d in read)
            share = hidden_share(scene, poses, i)
            mates = [j for j in range(len(truth)) if j != i and where[j] == where[i] and where[i] >= 0]
            faces_in_blob = sum(1 for b, f, _n in found if where[i] >= 0 and b is blobs[where[i]] and f is not None)
            counts = [n for b, _f, n in found if where[i] >= 0 and b is blobs[where[i]]]
            if wrong:
                cause = "wrong"
            elif share >= hidden_at:
                cause = "a: top face hidden"
            elif mates:
                cause = "b: merged, faces visible"
            else:
                cause = "c: other"
            row = {"condition": name, "throw": k, "die": i, "kind": real.kind, "value": real.value,
                   "cause": cause, "hidden": round(share, 3), "mates": len(mates), "faces_in_blob": faces_in_blob,
                   "counts": counts, "seen": [f"{d.kind} {d.value} {d.doubt} {d.confidence:.2f}" for d in dice]}
            rows.append(row)
            if png is not None:
                _dump(png, row, image, rectified, view, real, found, margin)
    return rows


def _dump(folder: Path, row: dict[str, Any], image: np.ndarray, rectified: np.ndarray, view: Any, real: DieTruth,
          found: list[Any], margin: float) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{row['condition']}_{row['throw']:03d}_{row['die']}_{row['cause'][0]}"
    px = view.project(np.array([[real.x_mm, real.y_mm, TOP_PLANE_MM]]))[0]
    x, y = int(px[0]), int(px[1])
    crop = image[max(0, y - 120):y + 120, max(0, x - 160):x + 160]
    cv2.imwrite(str(folder / f"{stem}_photo.png"), cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
    s = SEGMENT_PX_PER_MM
    cx, cy = round((real.x_mm + margin) * s), round((real.y_mm + margin) * s)
    out = rectified.copy()
    for blob, face, n in found:
        x0, y0, _w, _h = blob.box
        contours, _hier = cv2.findContours(blob.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        cv2.drawContours(out, contours, -1, (0, 0, 255), 1, offset=(x0, y0))
        if face is not None:
            fx, fy = (face.centre_mm[0] + margin) * s, (face.centre_mm[1] + margin) * s
            box = cv2.boxPoints(((fx, fy), (face.sides_mm[0] * s, face.sides_mm[1] * s), face.angle_deg))
            cv2.polylines(out, [np.round(box).astype(np.int32)], True, (255, 0, 255) if n > 1 else (255, 255, 0), 1)
    cv2.circle(out, (cx, cy), 2, (0, 255, 255), -1)
    crop = out[max(0, cy - 70):cy + 70, max(0, cx - 70):cx + 70]
    cv2.imwrite(str(folder / f"{stem}_tray.png"), cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=40)
    parser.add_argument("--only", action="append", choices=list(READABLE) + list(DOUBTFUL), metavar="CONDITION")
    parser.add_argument("--png", help="folder for pictures of each asked die")
    parser.add_argument("--hidden", type=float, default=HIDDEN, help="share of a top face hidden to count it hidden")
    parser.add_argument("--json", help="file for every asked die's row")
    parser.add_argument("--seed", type=int, help="another seed than the bench's (500 + the condition's place), to "
                        "look at dice kept apart from the bench's")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    names = list(READABLE) + list(DOUBTFUL)
    chosen = args.only or ["oblique45", "oblique55", "oblique65"]
    rows: list[dict[str, Any]] = []
    for name in chosen:
        seed = 500 + names.index(name) if args.seed is None else args.seed
        part = run(name, args.throws, seed, Path(args.png) if args.png else None, args.hidden)
        rows.extend(part)
        causes = Counter((r["kind"], r["cause"]) for r in part)
        print(name, dict(sorted(causes.items())))
        doubts = Counter((r["kind"], r["cause"][0], tuple(s.split()[2] for s in r["seen"]) or ("unseen",))
                         for r in part)
        for key, n in sorted(doubts.items()):
            print("   ", key, n)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
