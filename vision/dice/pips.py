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


@dataclass(frozen=True, slots=True)
class PipReading:
    value: int | None
    confidence: float
    spots: int


def _layouts(value: int) -> list[NDArray[np.float64]]:
    pattern = np.array(PIPS[value], dtype=np.float64) * PIP_SPOT
    turned = pattern[:, ::-1] * np.array([1.0, -1.0])
    return [pattern, turned]


def _layout_error(spots: NDArray[np.float64], layout: NDArray[np.float64]) -> float:
    """The worst distance between a spot and its place, for the best pairing of spots with places."""
    if len(layout) != len(spots):
        return math.inf
    best = math.inf
    for order in itertools.permutations(range(len(layout))):
        worst = float(np.max(np.linalg.norm(spots - layout[list(order)], axis=1)))
        best = min(best, worst)
        if best < 0.05:
            break
    return best


def count_pips(patch: Image, px_per_mm: float, face_mm: float = D6_SIDE_MM) -> PipReading:
    """Read the face centred in ``patch`` (BGR, squared to its sides, ``px_per_mm``)."""
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    n = gray.shape[0]
    c = n / 2.0
    half_px = face_mm / 2.0 * px_per_mm
    inner = round(half_px * 0.86)
    lo, hi = max(0, round(c - inner)), min(n, round(c + inner))
    face = gray[lo:hi, lo:hi]
    if face.size == 0:
        return PipReading(None, 0.0, 0)
    level = float(np.median(face))
    low, high = (float(v) for v in np.percentile(face, (2, 98)))
    spread = high - low
    dark_pips = high - level < level - low  # the face's own colour is the majority: pips are the other end
    if spread < 25.0:
        return PipReading(None, 0.0, 0)
    step = max(18.0, spread * 0.4)
    contrasting = (face < level - step) if dark_pips else (face > level + step)
    spots_mask = cv2.morphologyEx(contrasting.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, _labels, stats, centroids = cv2.connectedComponentsWithStats(spots_mask, connectivity=8)
    pip_area = math.pi * (PIP_RADIUS * half_px) ** 2
    spots = []
    stray = 0
    for label in range(1, count):
        area = float(stats[label, cv2.CC_STAT_AREA])
        ratio = area / pip_area
        if PIP_AREA_RANGE[0] <= ratio <= PIP_AREA_RANGE[1]:
            x, y = centroids[label]
            spots.append(((x + lo - c + 0.5) / half_px, (y + lo - c + 0.5) / half_px))
        elif ratio > 0.12:
            stray += 1
    if not 1 <= len(spots) <= 6:
        return PipReading(None, 0.0, len(spots))
    points = np.array(spots)
    error = min(_layout_error(points, layout) for layout in _layouts(len(spots)))
    confidence = max(0.0, 1.0 - error / LAYOUT_TOLERANCE)
    if stray:
        confidence *= 0.5
    return PipReading(len(spots), round(confidence, 3), len(spots))
