"""What tells a cocked die from a flat one seen from a tray camera: the figures of every die the reader reads.

Replays ``bench/dice_steep.py``'s throws (the same cameras, seeds and orders) and, for every die the reader reads
with a top face found (alone in its blob or not; not dice asked as touching), notes its truth (kind, face, cocked),
the reading (kind, value, confidence, doubt) and the geometry: the ray's angle, the sides' sweep, both kinds' outline
fits, the top found in the blob (sides, fill, area; which of the reader's tests of a d6's top it passes), the face
found square in the die's own pixels around it (off the top found, side, squareness, fill), and, against the flat d6
and the flat d10 fitted to the die's part of the blob, the blob's spread along the ray from the nadir and across it
(:func:`spreads`), and where the top found lies against the fitted die's top (:func:`face_off`).
Writes one JSON row per die.

Usage: ``.venv/bin/python bench/dice_cocked_why.py --seed S [--cocked] [--tilts ...] [--throws N] [--only CAMERA
THROW ...] --json OUT`` (``--only``: pairs of a camera's index in the sweep and a throw, to look at single dice).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from dice_steep import add_sweep_arguments, read_throws, scenes
from vision_corpus import progress

from vision.detection import MarkerDetector
from vision.dice.numerals import load_numerals
from vision.dice.outline import Fit, flat_outline_px, top_centre
from vision.dice.reader import (
    READ_PX_PER_MM,
    SEGMENT_PX_PER_MM,
    TOP_PLANE_MM,
    DiceReader,
    DieReading,
    _around_face,
    _near_d6_top,
    _sides_sweep_mm,
    die_part,
    looks_like_d6_top,
    near_d6_size,
    segment_margin,
    view_deg,
)
from vision.dice.segment import Blob
from vision.dice.top_face import TopFace
from vision.dice.tray_view import TrayView
from vision.synthetic.dice_tray import DieTruth, HardCase

NOTES: list[dict[str, Any]] = []
_read_die = DiceReader._read_die


def _watched(self: DiceReader, image: np.ndarray, view: TrayView, blob: Blob, face: TopFace | None, count: int,
             others: tuple[TopFace, ...] = ()) -> DieReading:
    reading = _read_die(self, image, view, blob, face, count, others)
    if face is None or count > 1:
        return reading
    part, outline = die_part(view, blob, face, others)
    note: dict[str, Any] = {
        "at": face.centre_mm, "ray": round(view_deg(view, face.centre_mm), 2),
        "sweep": round(_sides_sweep_mm(view, face), 2), "d6": outline.d6.overlap, "d10": outline.d10.overlap,
        "face": [round(v, 2) for v in (*face.sides_mm, face.fill, face.area_mm2)],
        "others": len(others), "kind": str(reading.kind), "value": reading.value,
        "confidence": round(reading.confidence, 3), "doubt": str(reading.doubt)}
    patch, square = _around_face(view, image, face)()
    n = patch.shape[0]
    note["square"] = None if square is None else [
        round(math.hypot(square.centre_px[0] - n / 2.0, square.centre_px[1] - n / 2.0) / READ_PX_PER_MM, 2),
        round(square.side_px / READ_PX_PER_MM, 2), round(square.squareness(), 3), round(square.fill, 3)]
    note["top"] = [near_d6_size(face), looks_like_d6_top(face), _near_d6_top(face)]
    for fit in (outline.d6, outline.d10):
        note[f"spread_{fit.kind}"] = [round(v, 3) for v in spreads(view, part.blob, fit)]
        note[f"off_{fit.kind}"] = [round(v, 2) for v in face_off(view, part.blob, face, fit)]
    NOTES.append(note)
    return reading


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_sweep_arguments(parser, seed=9500)
    parser.add_argument("--cocked", action="store_true")
    parser.add_argument("--only", type=int, nargs="*", default=[], help="camera index, throw, … pairs")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    DiceReader._read_die = _watched  # type: ignore[method-assign]
    detector = MarkerDetector()
    numerals = load_numerals()
    chosen = scenes(args.tilts, args.distances, tuple(args.blur), args.dim_share, args.seed,
                    HardCase(cocked=True) if args.cocked else None)
    wanted = set(zip(args.only[::2], args.only[1::2], strict=True))
    rows: list[dict[str, Any]] = []
    for i, (name, condition, seed) in enumerate(chosen):
        if wanted and not any(c == i for c, _k in wanted):
            continue
        throws = max(k for c, k in wanted if c == i) + 1 if wanted else args.throws
        for thrown in read_throws(condition, seed, throws, detector, numerals):
            if wanted and (i, thrown.k) not in wanted:
                NOTES.clear()
                continue
            for note in NOTES:
                real = nearest_truth(thrown.truth, note["at"])
                if real is None:
                    continue
                rows.append({"camera": i, "condition": name, "throw": thrown.k, "true_kind": real.kind,
                             "true_value": real.value, "cocked": real.cocked, **note})
            NOTES.clear()
        progress(i + 1, len(chosen), "cameras")
        if args.json:
            Path(args.json).write_text(json.dumps(rows))
    return 0


def nearest_truth(truth: tuple[DieTruth, ...], at: tuple[float, float]) -> DieTruth | None:
    near = sorted(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), at))
    return near[0] if near and math.dist((near[0].x_mm, near[0].y_mm), at) < 15.0 else None


def face_off(view: TrayView, blob: Blob, face: TopFace, fit: Fit) -> tuple[float, ...]:
    """The found top face's centre off the fitted flat die's top centre, along the ray and across (mm); the blob's
    area over the flat outline's; the found top's length along the ray and across (mm)."""
    cam = view.camera_mm
    cx, cy = blob.centroid_mm
    r = math.hypot(cx - float(cam[0]), cy - float(cam[1]))
    ux, uy = (cx - float(cam[0])) / r, (cy - float(cam[1])) / r
    tx, ty = top_centre(fit)
    dx, dy = face.centre_mm[0] - tx, face.centre_mm[1] - ty
    hull = flat_outline_px(fit, cam, TOP_PLANE_MM, SEGMENT_PX_PER_MM, (0.0, 0.0))
    hull_mm2 = cv2.contourArea(hull.astype(np.float32) / 16.0) / SEGMENT_PX_PER_MM ** 2
    a = math.radians(face.angle_deg)
    along_side = abs(math.cos(a) * ux + math.sin(a) * uy)
    across_side = math.sqrt(max(0.0, 1.0 - along_side ** 2))
    s1, s2 = face.sides_mm
    return (dx * ux + dy * uy, -dx * uy + dy * ux, blob.area_mm2 / max(hull_mm2, 1e-6),
            s1 * along_side + s2 * across_side, s1 * across_side + s2 * along_side)


def spreads(view: TrayView, blob: Blob, fit: Fit) -> tuple[float, ...]:
    """The blob's spread along the ray from the nadir and across it, over the fitted flat die's outline's: standard
    deviations' ratios, and the 2nd-98th percentile extents' ratios."""
    margin = segment_margin(view)
    ppm = SEGMENT_PX_PER_MM
    cam = view.camera_mm
    pad = 30
    x0, y0, w, h = blob.box
    origin = (float(x0 - pad) - margin * ppm, float(y0 - pad) - margin * ppm)
    drawn = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.fillConvexPoly(drawn, flat_outline_px(fit, cam, TOP_PLANE_MM, ppm, origin), 1, cv2.LINE_8, shift=4)
    mask = np.zeros_like(drawn)
    mask[pad:pad + h, pad:pad + w] = blob.mask > 0
    cx, cy = blob.centroid_mm
    r = math.hypot(cx - float(cam[0]), cy - float(cam[1]))
    ux, uy = (cx - float(cam[0])) / r, (cy - float(cam[1])) / r
    out = []
    coords = []
    for m in (mask, drawn):
        ys, xs = np.nonzero(m)
        along = xs * ux + ys * uy
        across = -xs * uy + ys * ux
        coords.append((along, across))
    for k in (0, 1):
        b, f = coords[0][k], coords[1][k]
        out.append(float(b.std() / max(f.std(), 1e-6)))
        out.append(float(np.ptp(np.percentile(b, [2, 98])) / max(np.ptp(np.percentile(f, [2, 98])), 1e-6)))
    return tuple(out)


if __name__ == "__main__":
    raise SystemExit(main())
