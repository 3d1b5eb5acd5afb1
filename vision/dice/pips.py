"""Count a d6's pips on its top face, seen straight from above and turned square to the patch.

The face's colour is its median; pips are the spots of the contrasting colour (darker on a light die,
lighter on a dark one) of about a pip's size. The count is believed only when the spots sit where a die's
pips sit for that count (the standard layouts, in either quarter turn): a glare spot, a chipped pip or a
side face's pips make the layout wrong, and the die is then a question, never a guess.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.faces import D6_SIDE_MM, PIP_RADIUS, PIP_SPOT, PIPS

Image = NDArray[np.uint8]
PIP_AREA_RANGE = (0.35, 2.2)  # a spot's area relative to a pip's
LAYOUT_TOLERANCE = 0.32  # a spot this far from its layout place (in half sides) is not that layout
SPOT_SPREAD = (0.85 * PIP_SPOT, 1.25 * PIP_SPOT)  # the pips' offset from the centre, in half sides
MAX_ELONGATION = 1.8  # a pip, even blurred, is round: a patch longer than this is a streak, not a pip
SPLIT_DOUBT = 0.85  # a count that needed a patch split into two pips is this much less sure
MAX_SHIFT = 0.35  # the spots' centre may lie this far from where the face was found (in half sides)


@dataclass(frozen=True, slots=True)
class PipReading:
    value: int | None
    confidence: float
    spots: int


def _layouts(value: int) -> list[NDArray[np.float64]]:
    pattern = np.array(PIPS[value], dtype=np.float64)
    turned = pattern[:, ::-1] * np.array([1.0, -1.0])
    return [pattern, turned]


def _layout_error(spots: NDArray[np.float64], layout: NDArray[np.float64]) -> float:
    """The worst distance between a spot and its place, for the best pairing of spots with places; the
    layout's spread is fitted to the spots' within ``SPOT_SPREAD`` (dice makers set their pips apart
    differently, and a face's outline measures a little large or small)."""
    if len(layout) != len(spots):
        return math.inf
    best = math.inf
    for order in itertools.permutations(range(len(layout))):
        places = layout[list(order)]
        norm = float(np.sum(places * places))
        if norm > 0:
            spread = float(np.clip(np.sum(spots * places) / norm, *SPOT_SPREAD))
            places = places * spread
        worst = float(np.max(np.linalg.norm(spots - places, axis=1)))
        best = min(best, worst)
        if best < 0.05:
            break
    return best


def _spots(gray: NDArray[np.uint8], centre: tuple[float, float], half_px: float
           ) -> tuple[list[tuple[float, float]], int, int] | None:
    """Pip-sized spots of the face's contrasting colour within the face around ``centre`` (pixels), as
    offsets from it in half sides; how many other contrasting patches there were; how many patches were
    split into two pips. None: a blank face."""
    n = gray.shape[0]
    inner = half_px * 0.86
    x0, y0 = max(0, round(centre[0] - inner)), max(0, round(centre[1] - inner))
    x1, y1 = min(n, round(centre[0] + inner)), min(n, round(centre[1] + inner))
    face = gray[y0:y1, x0:x1]
    if face.size == 0:
        return None
    level = float(np.median(face))
    low, high = (float(v) for v in np.percentile(face, (2, 98)))
    if high - low < 25.0:
        return None
    dark_pips = high - level < level - low  # the face's own colour is the majority: pips are the other end
    step = max(18.0, (high - low) * 0.4)
    contrasting = (face < level - step) if dark_pips else (face > level + step)
    spots_mask = cv2.morphologyEx(contrasting.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots_mask, connectivity=8)
    pip_area = math.pi * (PIP_RADIUS * half_px) ** 2
    spots = []
    stray = split = 0
    for label in range(1, count):
        ratio = float(stats[label, cv2.CC_STAT_AREA]) / pip_area
        x, y = centroids[label]
        bx, by, bw, bh = (int(v) for v in stats[label, :4])
        cut = bx == 0 or by == 0 or bx + bw == face.shape[1] or by + bh == face.shape[0]
        if cut and ratio > 0.12:
            # A spot cut by the window: the face is not where the window was put. It still moves the window
            # (the spots' mean is the face's centre), and leaves the count in doubt unless it then lies inside.
            stray += 1
            if ratio >= PIP_AREA_RANGE[0]:
                spots.append(((x + x0 + 0.5 - centre[0]) / half_px, (y + y0 + 0.5 - centre[1]) / half_px))
        elif PIP_AREA_RANGE[0] <= ratio <= PIP_AREA_RANGE[1]:
            pair = _two_pips(labels == label, ratio)
            if pair is None and _elongation(labels[by:by + bh, bx:bx + bw] == label) > MAX_ELONGATION:
                stray += 1  # a streak (a marbled die's swirl, a scratch), not a round pip
            elif pair is None:
                spots.append(((x + x0 + 0.5 - centre[0]) / half_px, (y + y0 + 0.5 - centre[1]) / half_px))
            else:
                split += 1
                for px, py in pair:
                    spots.append(((px + x0 + 0.5 - centre[0]) / half_px, (py + y0 + 0.5 - centre[1]) / half_px))
        elif ratio > 0.12:
            stray += 1
    return spots, stray, split


def _elongation(component: NDArray[np.bool_]) -> float:
    """How much longer than wide a patch is (the square root of its spread's eigenvalues' ratio)."""
    ys, xs = np.nonzero(component)
    if len(xs) < 3:
        return 1.0
    values = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(np.float64)))
    return math.sqrt(float(values[1]) / max(float(values[0]), 0.25))


def _two_pips(component: NDArray[np.bool_], ratio: float) -> tuple[tuple[float, float], ...] | None:
    """Two neighbouring pips that a soft picture ran together (twice a pip's area, twice as long as wide):
    their centres, a quarter of the patch's length either side of its middle; None for one round pip."""
    if ratio < 1.45:
        return None
    ys, xs = np.nonzero(component)
    points = np.stack([xs, ys], axis=1).astype(np.float64)
    mean = points.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov((points - mean).T))
    if values[0] <= 0 or values[1] / values[0] < 2.2:
        return None
    axis = vectors[:, 1]
    half = math.sqrt(3.0 * values[1]) / 2.0  # a uniform bar's half length is √(3·var): the pips sit mid-way
    a, b = mean + axis * half, mean - axis * half
    return (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))


def _sharpest_channel(patch: Image, half_px: float) -> NDArray[np.uint8]:
    """The grey image, or the colour channel in which the face's middle spans the widest range (red pips on a
    black die, yellow on green: their brightness is close, one channel tells them apart)."""
    n = patch.shape[0]
    inner = max(1, round(half_px * 0.7))
    middle = patch[max(0, n // 2 - inner):n // 2 + inner, max(0, n // 2 - inner):n // 2 + inner]
    gray = np.asarray(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), np.uint8)
    if middle.size == 0:
        return gray
    low, high = np.percentile(middle.reshape(-1, 3), (2, 98), axis=0)
    spans = high - low
    k = int(np.argmax(spans))
    gray_low, gray_high = np.percentile(cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY), (2, 98))
    if spans[k] > 1.25 * (gray_high - gray_low):
        return np.ascontiguousarray(patch[:, :, k])
    return gray


def count_pips(patch: Image, px_per_mm: float, face_mm: float = D6_SIDE_MM) -> PipReading:
    """Read the face near the centre of ``patch`` (BGR, squared to its sides, ``px_per_mm``).

    Every standard layout is symmetric about the face's centre, so the spots' mean is the face's centre:
    the window is moved there (twice at most) when the patch was cut a little off the face.
    """
    half_px = face_mm / 2.0 * px_per_mm
    gray = _sharpest_channel(patch, half_px)
    start = centre = (gray.shape[1] / 2.0, gray.shape[0] / 2.0)
    found = _spots(gray, centre, half_px)
    for _step in range(2):
        if found is None or not found[0]:
            break
        mx, my = (float(v) for v in np.mean(np.array(found[0]), axis=0))
        if math.hypot(mx, my) < 0.08:
            break
        centre = (centre[0] + mx * half_px, centre[1] + my * half_px)
        found = _spots(gray, centre, half_px)
    if found is None:
        return PipReading(None, 0.0, 0)
    spots, stray, split = found
    if not 1 <= len(spots) <= 6:
        return PipReading(None, 0.0, len(spots))
    points = np.array(spots)
    error = min(_layout_error(points, layout) for layout in _layouts(len(spots)))
    confidence = max(0.0, 1.0 - error / LAYOUT_TOLERANCE)
    # Following the spots' centre must not wander off the face's centre: any lone spot (a glare) is
    # centred on itself and would pass for a 1. A contrasting patch that is no pip (a glare spot merged with
    # a pip, a scratch) leaves the count in doubt.
    shift = math.hypot(centre[0] - start[0], centre[1] - start[1]) / half_px
    if stray or shift > MAX_SHIFT:
        confidence = 0.0
    if split:
        confidence *= SPLIT_DOUBT  # two pips told apart in one patch: a pip and a swirl beside it look so too
    return PipReading(len(spots), round(confidence, 3), len(spots))
