"""Cocked and flat d10s against a flat d10's outline and top face: what could tell a leaning d10 from a flat one.

Renders throws of five mixed dice (as ``bench/dice_steep.py``; with ``--cocked`` one die of each throw cocked, with
``--cocked-d10`` that die a d10) from tray cameras swept over ``--tilts`` and ``--distances`` and, with ``--table``,
from the table's camera (tilt 15°, as ``bench/dice.py``'s default). For every die alone in its patch whose top face
the reader found (a d10, or a cocked die of either kind) it writes a JSON row: the truth (kind, face, cocked), the
ray's angle from vertical (``ray_deg``), how many top faces share its blob, what the reader read there (``seen``),
and the candidate quantities, each measured against the flat d10 the reader fits to the die
(:func:`vision.dice.reader.die_part`):

- ``d10_fit``, ``d6_fit``: the outlines' overlap with the die's part of its blob (intersection over union);
- ``beyond_mm2``, ``empty_mm2``: the part beyond the fitted flat d10's outline grown by ``ROOM_MM``, and that outline
  shrunk by ``ROOM_MM`` left empty by the part (:func:`beyond_flat_d10`);
- ``kite_edges``: along the edges of the kite where the fitted flat d10's top face lies (on its plane, the best of
  the turns the numeral is read at), the share of points across which the colour steps by ``MIN_STEP`` of the
  face's, and the same in grey (:func:`kite_edges`): a flat d10's top face shows its edges all round;
- ``numeral``: what the numeral network reads along the fitted outline's axes and on the face cut out all round
  (value, None for "not a flat d10"; margin), the two readings the reader chooses from (:func:`numeral_paths`).

It prints, per kind of die (cocked or flat, alone in its blob or merged), the quantities' ranges and how many were
read with a value, and every cocked die read with a value. Seeds start at ``--seed``: calibrate on seeds kept apart
from those a rule is confirmed on (``bench/dice.py``: 500–508; ``bench/dice_steep.py``: 7400, 7600).

Usage: ``.venv/bin/python bench/dice_d10_lean.py [--tilts ...] [--distances ...] [--throws N] [--seed S] [--cocked]
[--cocked-d10] [--table] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import cv2
import numpy as np
from dice_steep import add_sweep_arguments, read_throws, scenes, sweep
from numpy.typing import NDArray

from vision.detection import MarkerDetector
from vision.dice.faces import DIE_HEIGHT_MM
from vision.dice.merged import Part
from vision.dice.numerals import SCAN_TURNS, NumeralReader, load_numerals
from vision.dice.outline import Fit, flat_outline_px, numeral_turns, resting_corners
from vision.dice.reader import (
    SEGMENT_PX_PER_MM,
    SIDES_SEEN_MM,
    TOP_PLANE_MM,
    die_part,
    numeral_patch,
    segment_margin,
    view_deg,
)
from vision.dice.top_face import sweep_mm
from vision.dice.tray_view import TrayView
from vision.synthetic.dice_scenes import DiceCondition
from vision.synthetic.dice_tray import HardCase
from vision.synthetic.effects import Effects

ROOM_MM = 1.0  # the fitted outline grown (for what lies beyond) and shrunk (for what is empty) by this much
PAD_PX = 16  # the blob's box padded so: the fitted outline may reach beyond it
KITE_PATCH_MM = 26.0  # the square cut around a fitted d10's axis on its top face's plane
KITE_PX_PER_MM = 6.0
EDGE_REACH_MM = 1.2  # either side of a kite's edge, where the top face's colour and its neighbour's are taken
EDGE_ENDS = 0.2  # each edge's ends (this share of it) left out: corners are rounded and blurred
EDGE_STEP_MM = 0.5
MIN_STEP = 0.12  # an edge is where the colour steps by this share of the top face's brightest channel


def beyond_flat_d10(part: Part, fit: Fit, camera_mm: NDArray[np.float64], plane_mm: float, px_per_mm: float,
                    margin_mm: float) -> tuple[float, float]:
    """How much of the die's ``part`` of its blob (mm², its shared pixels left out) lies beyond the flat d10's
    outline ``fit`` grown by ``ROOM_MM``, and how much of that outline shrunk by ``ROOM_MM`` the part leaves empty."""
    blob = part.blob
    pad = PAD_PX
    mask = cv2.copyMakeBorder((blob.mask > 0).astype(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    counted = np.ones(mask.shape, np.uint8)
    if part.shared is not None:
        counted = (cv2.copyMakeBorder(part.shared, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0) == 0
                   ).astype(np.uint8)
    x0, y0 = blob.box[0], blob.box[1]
    origin = (float(x0 - pad) - margin_mm * px_per_mm, float(y0 - pad) - margin_mm * px_per_mm)
    drawn = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(drawn, flat_outline_px(fit, camera_mm, plane_mm, px_per_mm, origin), 1, cv2.LINE_8, shift=4)
    k = 2 * round(ROOM_MM * px_per_mm) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    grown = cv2.dilate(drawn, disc)
    shrunk = cv2.erode(drawn, disc)
    beyond = (mask > 0) & (grown == 0) & (counted > 0)
    empty = (shrunk > 0) & (mask == 0) & (counted > 0)
    return float(np.count_nonzero(beyond)) / px_per_mm ** 2, float(np.count_nonzero(empty)) / px_per_mm ** 2


def kite_edges(patch: NDArray[np.uint8], kite_px: NDArray[np.float64]) -> tuple[float, float]:
    """The share of points along the edges of the kite ``kite_px`` (patch pixels, in order round it) across which
    ``patch`` (cut at ``KITE_PX_PER_MM`` on the top face's plane) steps by ``MIN_STEP`` of the face's brightest
    channel: in any channel, and in grey."""
    smooth = cv2.GaussianBlur(patch, (0, 0), 1.0).astype(np.float32)
    h, w = smooth.shape[:2]
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, np.round(kite_px * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    body = np.median(smooth[inside > 0], axis=0) if inside.any() else np.zeros(3, np.float32)
    step = MIN_STEP * max(float(body.max()), 40.0)
    centre = kite_px.mean(axis=0)
    reach = EDGE_REACH_MM * KITE_PX_PER_MM
    colour, grey, total = 0, 0, 0
    for i in range(len(kite_px)):
        a, b = kite_px[i], kite_px[(i + 1) % len(kite_px)]
        along = b - a
        length = float(np.hypot(*along))
        normal = np.array([along[1], -along[0]]) / max(length, 1e-6)
        if float((a - centre) @ normal) < 0:
            normal = -normal
        count = max(2, int(length * (1 - 2 * EDGE_ENDS) / (EDGE_STEP_MM * KITE_PX_PER_MM)))
        for t in np.linspace(EDGE_ENDS, 1 - EDGE_ENDS, count):
            p = a + t * along
            pin, pout = p - reach * normal, p + reach * normal
            if not all(0 <= q[0] < w - 1 and 0 <= q[1] < h - 1 for q in (pin, pout)):
                continue
            cin = cv2.getRectSubPix(smooth, (1, 1), (float(pin[0]), float(pin[1])))[0, 0]
            cout = cv2.getRectSubPix(smooth, (1, 1), (float(pout[0]), float(pout[1])))[0, 0]
            total += 1
            colour += int(float(np.abs(cin - cout).max()) >= step)
            grey += int(abs(float(cin.mean()) - float(cout.mean())) >= step)
    return colour / max(total, 1), grey / max(total, 1)


def kite_edges_of(view: TrayView, image: NDArray[np.uint8], fit: Fit) -> tuple[float, float]:
    """:func:`kite_edges` at the best of the turns the fitted d10's numeral is read at (from an angle, where the
    outline gives the axis surely, its best axis both ways up)."""
    corners = resting_corners("d10")
    kite = corners[corners[:, 2] > corners[:, 2].max() - 0.01, :2]
    cam = view.camera_mm
    patch = view.patch(image, fit.centre_mm, DIE_HEIGHT_MM["d10"], KITE_PATCH_MM, KITE_PX_PER_MM, (0.0, -1.0))
    sides = sweep_mm(math.dist(fit.centre_mm, (float(cam[0]), float(cam[1]))), TOP_PLANE_MM, float(cam[2]))
    turns = numeral_turns(fit) if sides < SIDES_SEEN_MM else [fit.turn_deg, fit.turn_deg + 180.0]
    best = (0.0, 0.0)
    for turn_deg in turns:
        a = math.radians(turn_deg)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        kite_px = (kite @ turn.T + KITE_PATCH_MM / 2) * KITE_PX_PER_MM - 0.5
        hull = cv2.convexHull(kite_px.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        got = kite_edges(patch, hull)
        best = (max(best[0], got[0]), max(best[1], got[1]))
    return best


def numeral_paths(view: TrayView, image: NDArray[np.uint8], fit: Fit, numerals: NumeralReader | None
                  ) -> list[Any]:
    """What the numeral network reads along the fitted outline's axes and on the face cut out all round (value or
    None for "not a flat d10", margin), as :meth:`vision.dice.reader.DiceReader._read_numeral` asks it."""
    if numerals is None:
        return []
    axes = numerals.classify([numeral_patch(view, image, fit.centre_mm, up) for up in numeral_turns(fit)])
    scan = numerals.classify_scan([numeral_patch(view, image, fit.centre_mm, up) for up in SCAN_TURNS])
    return [axes.value, round(axes.confidence, 3), scan.value, round(scan.confidence, 3)]


def run(name: str, condition: DiceCondition, seed: int, throws: int, cocked_d10: bool, detector: MarkerDetector,
        numerals: NumeralReader | None) -> list[dict[str, Any]]:
    rows = []
    for k, _scene, image, _markers, truth, reader, seen in read_throws(condition, seed, throws, detector, numerals,
                                                                        cocked_d10):
        state = reader._trays["tray"]
        view, found = state.view, state.found
        if view is None or found is None:
            continue
        cam = view.camera_mm
        for blob, face, count in found[2]:
            if face is None or count > 1:
                continue
            real = min(truth, key=lambda t: math.dist((t.x_mm, t.y_mm), face.centre_mm))
            if math.dist((real.x_mm, real.y_mm), face.centre_mm) > 15.0 or not (real.kind == "d10" or real.cocked):
                continue
            if real.touching or real.outside:
                continue
            others = tuple(f for b, f, _n in found[2] if b is blob and f is not None and f is not face)
            part, outline = die_part(view, blob, face, others)
            beyond, empty = beyond_flat_d10(part, outline.d10, cam, TOP_PLANE_MM, SEGMENT_PX_PER_MM,
                                            segment_margin(view))
            near = [d for d in seen if math.dist((real.x_mm, real.y_mm), (d.x_mm, d.y_mm)) < 15.0]
            rows.append({"condition": name, "throw": k, "kind": real.kind, "value": real.value,
                         "cocked": real.cocked, "ray_deg": round(view_deg(view, face.centre_mm), 2),
                         "faces_in_blob": 1 + len(others), "d10_fit": outline.d10.overlap,
                         "d6_fit": outline.d6.overlap, "outline_kind": outline.kind,
                         "beyond_mm2": round(beyond, 1), "empty_mm2": round(empty, 1),
                         "kite_edges": [round(v, 3) for v in kite_edges_of(view, image, outline.d10)],
                         "numeral": numeral_paths(view, image, outline.d10, numerals),
                         "seen": [[str(d.kind), d.value if d.read else None, round(d.confidence, 3), str(d.doubt)]
                                  for d in near]})
    return rows


def _read(row: dict[str, Any]) -> bool:
    return any(s[1] is not None for s in row["seen"])


def summary(rows: list[dict[str, Any]]) -> None:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        who = f"{'cocked' if r['cocked'] else 'flat'} {r['kind']} {'lone' if r['faces_in_blob'] == 1 else 'merged'}"
        groups.setdefault(who, []).append(r)
    print(f"{'dice':20} {'n':>4} {'read':>4}  {'d10 fit':>11}  {'beyond mm²':>10}  {'empty mm²':>10}  "
          f"{'kite edges':>9}")
    for who, group in sorted(groups.items()):
        spans = []
        for key, f in (("d10_fit", "{:.2f}"), ("beyond_mm2", "{:.0f}"), ("empty_mm2", "{:.0f}"),
                       ("kite_edges", "{:.2f}")):
            values = [r[key][0] if isinstance(r[key], list) else r[key] for r in group]
            spans.append(f"{f.format(min(values))}–{f.format(max(values))}")
        print(f"{who:20} {len(group):4d} {sum(map(_read, group)):4d}  {spans[0]:>11}  {spans[1]:>10}  {spans[2]:>10}  "
              f"{spans[3]:>9}")
    print("\ncocked dice read with a value:")
    for r in rows:
        if r["cocked"] and _read(r):
            print(f"  {r['condition']:32} throw {r['throw']:3} {r['kind']} {r['value']} ray {r['ray_deg']}° "
                  f"fit {r['d10_fit']} beyond {r['beyond_mm2']} empty {r['empty_mm2']} edges {r['kite_edges']} "
                  f"seen {r['seen']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_sweep_arguments(parser, seed=8100)
    parser.add_argument("--cocked", action="store_true", help="one die of each throw cocked")
    parser.add_argument("--cocked-d10", action="store_true", help="… and that die a d10")
    parser.add_argument("--table", action="store_true", help="the table's camera too (tilt 15°, as bench/dice.py)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    detector = MarkerDetector()
    numerals = load_numerals()
    hard = HardCase(cocked=args.cocked or args.cocked_d10)
    chosen = scenes(args.tilts, args.distances, tuple(args.blur), args.dim_share, args.seed, hard)
    if args.table:
        chosen.append(("table camera 15deg", DiceCondition("table", 15.0, None, Effects(), hard), args.seed + 999))
    rows = sweep(chosen, lambda name, condition, seed: run(name, condition, seed, args.throws, args.cocked_d10,
                                                            detector, numerals), args.json)
    summary(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
