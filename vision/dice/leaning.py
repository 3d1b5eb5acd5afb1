"""A d6 leaning on something (cocked), told from a flat one by where its blob lies around its top face.

Rectified on the plane of the top faces, a flat cube is its top face swept towards the point under the camera
(the nadir) by its sides' sweep (:func:`vision.dice.top_face.sweep_mm`), nothing more: taking that sweep away
leaves a square of the face's size, and no part of the blob lies beyond the square swept so. A leaning cube
turns one side up beside its top face, in whichever direction it leans: seen from above, what is left once the
sweep is taken away is the top face and that side, no longer square (:func:`leans_from_above`); and beside the
top face found in the pixels (:mod:`vision.dice.face_square`), the blob runs on beyond the swept square by a
side's strip (:func:`beyond_swept_face_mm2`). A die leaning towards the camera hides its sides and shows its top
face nearly whole, but no longer square on the top faces' plane: foreshortened along its lean, stretched by its
height across the picture; its corner pips (a 4, 5 or 6) then make an oblong where a flat face's make a square
(:func:`pip_rectangle`). Any of these makes the die a question, never a reading.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.face_square import FaceSquare
from vision.dice.faces import D6_SIDE_MM, PIP_RADIUS
from vision.dice.parts import parts
from vision.dice.segment import Blob
from vision.dice.top_face import TopFace

# Seen from above (a die's sides sweep less than SIDES_SEEN_MM, the reader's), the top left once the sweep is taken
# away from a flat d6's blob came out square to 0.897 at the least (lone flat d6s of bench/dice.py, 200 throws from
# above in plain light, glare and dim light and 200 cocked throws, where that top was clean and a face's size); the
# leaning d6s read before this test left 0.862–0.887.
FLAT_SQUARENESS = 0.89
CLEAN_TOP = 0.85  # … a top that fills its rectangle this well (a ragged one says nothing)
FACE_AREA_SHARE = 1.17  # … and at least this many d6 faces big (a top cut short, by blur, is a flat die's too)
# Beyond the top face found in the pixels swept towards the nadir (widened by BEYOND_ROOM_MM for blur and the
# square's error), flat d6s showed at most 24 mm² of blob (a glossy die's highlight, bench/dice.py); a leaning d6's
# upturned side is a strip of 16 × 5–8 mm.
BEYOND_ROOM_MM = 2.0
MAX_BEYOND_MM2 = 35.0
# The rectangle of a 4's, 5's or 6's outer pips, seen from above: on lone flat d6s of bench/dice.py its short side
# came out 0.907 of its long one at the least (a glossy 6, a highlight on a pip), where its long side was a layout's
# (SPAN_MM, about the 8 mm between opposite corner pips' centres; a pip merged with its neighbour, or a side's pip
# taken in, gives another); a leaning d6 read before this test made 0.85 (another, leaning towards the camera, made
# 0.91: as a glossy flat 6, and still read).
FLAT_PIPS = 0.88
SPAN_MM = (7.9, 10.0)
# From a tray camera (a die's sides seen), a d6 leaning towards the camera shows its top face nearly whole and its
# corner pips stretched along its lean: rendered cocked d6s at 55° read as 6s made oblongs of 0.65–0.70 over
# 11.9–12.6 mm; flat 4s, 5s and 6s at 55° and 65° (614 of them, seeds apart from the bench's) 0.97 at the least over
# 8.07–8.28 mm (at 65° a flat 6 beside a d10 made 0.57 over 12.8 mm, a numeral's stroke taken for a pip: 7.2 mm
# across, where the leaning ones kept 8.1–8.3; at 45° a flat 5 made 0.72 over 9.5 mm, a pip found amiss). The long
# side of a leaning face's oblong may reach this far.
ANGLED_SPAN_MM = 14.0
INK_SHARE = 0.6  # a pixel is a pip's when it departs from the face's body this far towards the strongest pip
MIN_CONTRAST = 40.0  # grey levels: a face whose pips depart less says nothing


def leans_from_above(face: TopFace) -> bool:
    """Whether the top left of a lone d6's blob, seen from above, is a flat die's top face and a leaning die's
    upturned side beside it: clean, as big as a face at least, and not square."""
    return (face.fill >= CLEAN_TOP and face.area_mm2 >= FACE_AREA_SHARE * D6_SIDE_MM ** 2
            and face.squareness() < FLAT_SQUARENESS)


def square_in_tray(square: FaceSquare, face: TopFace, patch_mm: float, px_per_mm: float
                   ) -> list[tuple[float, float]]:
    """The corners (tray mm) of a face ``square`` found in the patch of ``patch_mm`` cut around the top ``face`` at
    ``px_per_mm``, turned square to its sides (its top towards the face's side direction, as the reader cuts it)."""
    a = math.radians(face.angle_deg)
    ux, uy = math.cos(a), math.sin(a)
    rx, ry = -uy, ux
    half = patch_mm / 2.0
    box = cv2.boxPoints((square.centre_px, square.sides_px, square.angle_deg))
    out = []
    for i, j in box:
        right, up = float(i) / px_per_mm - half, half - float(j) / px_per_mm
        out.append((face.centre_mm[0] + right * rx + up * ux, face.centre_mm[1] + right * ry + up * uy))
    return out


def beyond_swept_face_mm2(blob: Blob, corners_mm: list[tuple[float, float]], nadir_mm: tuple[float, float],
                          sweep: float, px_per_mm: float, margin_mm: float) -> float:
    """How much of ``blob`` (mm²) lies beyond the top face with these corners (tray mm) swept ``sweep`` mm towards
    the nadir, widened by ``BEYOND_ROOM_MM``: none for a flat die."""
    cx = sum(p[0] for p in corners_mm) / len(corners_mm)
    cy = sum(p[1] for p in corners_mm) / len(corners_mm)
    r = math.hypot(nadir_mm[0] - cx, nadir_mm[1] - cy)
    ux, uy = ((nadir_mm[0] - cx) / r, (nadir_mm[1] - cy) / r) if r > 1e-6 else (0.0, 0.0)
    points = corners_mm + [(x + sweep * ux, y + sweep * uy) for x, y in corners_mm]
    x0, y0 = blob.box[0], blob.box[1]
    px = np.array([[((x + margin_mm) * px_per_mm - 0.5 - x0) * 16.0, ((y + margin_mm) * px_per_mm - 0.5 - y0) * 16.0]
                   for x, y in points], np.float32)
    hull = cv2.convexHull(np.round(px).astype(np.int32))
    drawn = np.zeros(blob.mask.shape, np.uint8)
    cv2.fillConvexPoly(drawn, hull, 1, cv2.LINE_8, shift=4)
    k = 2 * round(BEYOND_ROOM_MM * px_per_mm) + 1
    room: NDArray[np.uint8] = np.asarray(cv2.dilate(drawn, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))),
                                         np.uint8)
    beyond = (blob.mask > 0) & (room == 0)
    return float(np.count_nonzero(beyond)) / px_per_mm ** 2


def pip_rectangle(patch: NDArray[np.uint8], value: int, px_per_mm: float) -> tuple[float, float] | None:
    """The short side over the long side, and the long side (mm), of the least rectangle round the ``value`` pips
    nearest the middle of ``patch`` (a d6's top face seen from above, ``px_per_mm``, its pips dark or light); None
    when so many pips are not found."""
    gray = np.asarray(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), np.float32)
    n = gray.shape[0]
    c = n // 2
    reach = round(2.0 * px_per_mm)
    body = float(np.median(gray[c - reach:c + reach, c - reach:c + reach]))
    pip_px = math.pi * (PIP_RADIUS * D6_SIDE_MM / 2.0 * px_per_mm) ** 2
    best: tuple[float, list[tuple[float, float]]] | None = None
    for sign in (1.0, -1.0):  # dark pips, light pips
        departs = (body - gray) * sign
        peak = float(np.percentile(departs, 99.5))
        if peak < MIN_CONTRAST:
            continue
        ink = np.asarray(departs > INK_SHARE * peak, np.uint8)
        count, _labels, stats, centroids = parts(ink)
        spots = sorted((math.dist((float(centroids[k][0]), float(centroids[k][1])), (c, c)),
                        (float(centroids[k][0]), float(centroids[k][1])))
                       for k in range(1, count) if 0.15 * pip_px <= stats[k, cv2.CC_STAT_AREA] <= 1.6 * pip_px)
        if len(spots) >= value:
            spread = sum(d for d, _p in spots[:value])
            if best is None or spread < best[0]:
                best = (spread, [p for _d, p in spots[:value]])
    if best is None:
        return None
    (_x, _y), (w, h), _a = cv2.minAreaRect(np.array(best[1], np.float32))
    return min(w, h) / max(w, h, 1e-6), max(w, h) / px_per_mm


def leans_by_pips(patch: NDArray[np.uint8], value: int, px_per_mm: float, angled: bool = False) -> bool:
    """Whether a d6 read as ``value`` shows its corner pips in an oblong (:func:`pip_rectangle`): from above, one of a
    face's layout (``SPAN_MM``); from an angle (``angled``: the die's sides seen), one stretched along its lean beyond
    a layout (up to ``ANGLED_SPAN_MM``) that keeps a layout's width across (a pip of another die or a numeral's stroke
    taken in makes a narrower one; an oblong of a layout's size there is a pip found amiss, not a lean)."""
    if value not in (4, 5, 6):
        return False
    rectangle = pip_rectangle(patch, value, px_per_mm)
    if rectangle is None:
        return False
    ratio, span = rectangle
    if angled:
        return ratio < FLAT_PIPS and SPAN_MM[1] < span <= ANGLED_SPAN_MM and ratio * span >= SPAN_MM[0]
    return ratio < FLAT_PIPS and SPAN_MM[0] <= span <= SPAN_MM[1]
