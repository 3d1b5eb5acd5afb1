"""A die's kind and turn from its outline: the blob is matched against the outline each solid would make.

A die is convex, so the camera sees it as the convex hull of its corners: each corner at its height above
the mat, projected from the camera onto the plane the tray is rectified on. For a d6 (turned 0–90°) and a
d10 resting on a face (turned 0–360°), the corners are placed so that the outline's centroid falls on the
blob's, and the turn whose outline overlaps the blob best (intersection over union) wins. The d10's turn
gives the axis its top face's kite lies along, the numeral printed along it (its top towards the kite's
apex); a d10 is centrally symmetric, so seen from above the outline tells the axis surely, the apex's end
only weakly: the numeral is read both ways up. The two kinds' overlaps tell a d6 from a d10 by the
outline alone, so a glossy top face cannot make a d10 pass for a d6; when neither fits clearly better,
the kind is doubtful.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.faces import D6_SIDE_MM, d10_corners
from vision.dice.segment import Blob

FloatArray = NDArray[np.float64]
COARSE_STEP_DEG = 6.0
FINE_STEP_DEG = 2.0
MIN_FIT = 0.7  # an outline overlapping its blob less than this is no die of that kind lying flat
KIND_MARGIN = 0.08  # one kind's overlap must beat the other's by this much for the kind to be sure
MAX_PEAKS = 10


@dataclass(frozen=True, slots=True)
class Fit:
    """One kind's best outline: its overlap with the blob, the turn, and the die's axis (tray mm)."""

    kind: str
    overlap: float
    turn_deg: float  # d10: the top face's apex direction (or its opposite); d6: a side's direction, modulo 90
    centre_mm: tuple[float, float]  # where the die's vertical axis meets the mat
    peaks: tuple[tuple[float, float], ...] = ()  # every turn the overlap peaks at (turn, overlap), best first


@dataclass(frozen=True, slots=True)
class Outline:
    """Both kinds' fits and the kind the outline says (None: doubtful, or no flat die)."""

    d6: Fit
    d10: Fit

    @property
    def kind(self) -> str | None:
        best, other = (self.d6, self.d10) if self.d6.overlap >= self.d10.overlap else (self.d10, self.d6)
        if best.overlap < MIN_FIT or best.overlap - other.overlap < KIND_MARGIN:
            return None
        return best.kind


def _unit(v: FloatArray) -> FloatArray:
    return np.asarray(v / np.linalg.norm(v), np.float64)


@lru_cache(maxsize=2)
def resting_corners(kind: str) -> FloatArray:
    """The corners (x, y, height above the mat) of a die resting on a face, its axis at x = y = 0; a d10's top
    face's apex towards +x."""
    if kind == "d6":
        s = D6_SIDE_MM / 2.0
        return np.array([[x, y, z] for x in (-s, s) for y in (-s, s) for z in (0.0, D6_SIDE_MM)], np.float64)
    shape = d10_corners()
    kite = np.array([shape.top, shape.upper[0], shape.lower[0], shape.upper[1]], np.float64)
    up = _unit(np.cross(kite[1] - kite[0], kite[3] - kite[0]))
    if float(up @ kite.mean(axis=0)) < 0:
        up = -up
    ahead = _unit(kite[0] - kite.mean(axis=0))  # in the face's plane: from its centre towards its apex
    side = np.cross(up, ahead)
    frame = np.stack([ahead, side, up])  # rows: the new x, y and up
    corners = np.array(shape.all(), np.float64) @ frame.T
    corners[:, 2] -= corners[:, 2].min()
    return corners


def _outlines_px(kind: str, turns_deg: FloatArray, centres_mm: FloatArray, camera_mm: FloatArray,
                 plane_mm: float, px_per_mm: float, origin_px: tuple[float, float]) -> FloatArray:
    """The die's outline points for each turn and centre (turns × corners × 2) on the plane ``plane_mm`` above the
    mat, in rectified pixels less ``origin_px``."""
    a = np.radians(turns_deg)[:, None]
    c, s = np.cos(a), np.sin(a)
    local = resting_corners(kind)
    x = centres_mm[:, 0:1] + local[None, :, 0] * c - local[None, :, 1] * s
    y = centres_mm[:, 1:2] + local[None, :, 0] * s + local[None, :, 1] * c
    k = (camera_mm[2] - plane_mm) / np.maximum(camera_mm[2] - local[:, 2], 1.0)
    px = np.stack([camera_mm[0] + (x - camera_mm[0]) * k, camera_mm[1] + (y - camera_mm[1]) * k], axis=2)
    return np.asarray(px * px_per_mm - 0.5 - np.array(origin_px), np.float64)


def _hulls(outlines: FloatArray) -> list[NDArray[np.int32]]:
    """Each outline's convex hull (outlines × points × 2) in pixels × 16 (for sub-pixel drawing)."""
    fixed = np.round(outlines * 16).astype(np.int32)
    return [np.asarray(cv2.convexHull(points), np.int32) for points in fixed]


def _centroid(hull: NDArray[np.int32]) -> tuple[float, float]:
    m = cv2.moments(hull.astype(np.float32) / 16.0)
    return (m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] > 0 else (0.0, 0.0)


def _overlap(mask: NDArray[np.uint8], hull: NDArray[np.int32], area: int, counted: NDArray[np.uint8] | None = None
             ) -> float:
    """Intersection over union of the blob's mask (0 or 1) and the hull; only over the ``counted`` pixels (0 or 1)
    when given (``mask`` and ``area`` then are of counted pixels only)."""
    drawn = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(drawn, hull, 1, cv2.LINE_8, shift=4)
    if counted is not None:
        drawn = np.asarray(cv2.bitwise_and(drawn, counted), np.uint8)
    both = cv2.countNonZero(cv2.bitwise_and(drawn, mask))
    union = area + cv2.countNonZero(drawn) - both
    return both / max(union, 1)


def _counted_centroid(hull: NDArray[np.int32], counted: NDArray[np.uint8]) -> tuple[float, float]:
    """The centroid of the hull's counted pixels (the hull's own centroid when none is counted)."""
    drawn = np.zeros(counted.shape, np.uint8)
    cv2.fillConvexPoly(drawn, hull, 1, cv2.LINE_8, shift=4)
    m = cv2.moments(cv2.bitwise_and(drawn, counted), binaryImage=True)
    return (m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] > 0 else _centroid(hull)


def fit_kind(blob: Blob, kind: str, camera_mm: FloatArray, plane_mm: float, px_per_mm: float,
             margin_mm: float = 0.0, pad_px: int = 6, shared: NDArray[np.uint8] | None = None) -> Fit:
    """The turn and place of a ``kind`` die whose outline best overlaps ``blob`` (a blob of the rectified plane, which
    shows ``margin_mm`` around the tray's area: pixel (0, 0) is at (−margin, −margin) mm). Pixels non-zero in
    ``shared`` (the blob's box) may be another die's: they count neither for nor against an outline, nor in
    placing it."""
    x0, y0, _w, _h = blob.box
    mask = (cv2.copyMakeBorder(blob.mask, pad_px, pad_px, pad_px, pad_px, cv2.BORDER_CONSTANT, value=0) > 0
            ).astype(np.uint8)
    counted = None
    if shared is not None and shared.any():
        counted = (cv2.copyMakeBorder(shared, pad_px, pad_px, pad_px, pad_px, cv2.BORDER_CONSTANT, value=0) == 0
                   ).astype(np.uint8)
        mask = np.asarray(cv2.bitwise_and(mask, counted), np.uint8)
    area = cv2.countNonZero(mask)
    origin = (float(x0 - pad_px) - margin_mm * px_per_mm, float(y0 - pad_px) - margin_mm * px_per_mm)
    ys, xs = np.nonzero(mask)
    target = (float(xs.mean()), float(ys.mean()))
    period = 90.0 if kind == "d6" else 360.0

    def placed(turns: FloatArray, centres: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The overlap at each turn once the outline's centroid is moved onto the blob's, and the centres then."""
        centres = centres.copy()
        for _step in range(2):
            outlines = _outlines_px(kind, turns, centres, camera_mm, plane_mm, px_per_mm, origin)
            for i, hull in enumerate(_hulls(outlines)):
                cx, cy = _centroid(hull) if counted is None else _counted_centroid(hull, counted)
                centres[i] += ((target[0] - cx) / px_per_mm, (target[1] - cy) / px_per_mm)
        outlines = _outlines_px(kind, turns, centres, camera_mm, plane_mm, px_per_mm, origin)
        return np.array([_overlap(mask, hull, area, counted) for hull in _hulls(outlines)]), centres

    coarse = np.arange(0.0, period, COARSE_STEP_DEG)
    scores, centres = placed(coarse, np.tile(np.array(blob.centroid_mm, np.float64), (len(coarse), 1)))
    n = len(coarse)
    peaks = [i for i in range(n) if scores[i] >= scores[(i - 1) % n] and scores[i] > scores[(i + 1) % n]]
    peaks.sort(key=lambda i: -scores[i])
    peaks = peaks[:MAX_PEAKS]
    best = float(scores[peaks[0]]) if peaks else 0.0
    near = [i for i in peaks if scores[i] >= best - AXIS_WITHIN - 0.05]  # refined; the others cannot be read
    steps = np.array([-2 * FINE_STEP_DEG, -FINE_STEP_DEG, FINE_STEP_DEG, 2 * FINE_STEP_DEG])
    found: list[tuple[float, float, tuple[float, float]]] = []
    if near:
        fine_turns = (coarse[near][:, None] + steps[None, :]).reshape(-1)
        fine_scores, fine_centres = placed(fine_turns, np.repeat(centres[near], len(steps), axis=0))
        for j, i in enumerate(near):
            options = [(float(scores[i]), float(coarse[i]), centres[i])]
            options += [(float(fine_scores[j * len(steps) + m]), float(fine_turns[j * len(steps) + m]),
                         fine_centres[j * len(steps) + m]) for m in range(len(steps))]
            sc, turn, centre = max(options, key=lambda o: o[0])  # the first of equals: the coarse turn
            found.append((sc, turn % period, (float(centre[0]), float(centre[1]))))
    found.sort(key=lambda r: -r[0])
    found += [(float(scores[i]), float(coarse[i]), (float(centres[i][0]), float(centres[i][1])))
              for i in peaks if i not in near]
    if not found:
        found = [(float(scores[0]), 0.0, (float(centres[0][0]), float(centres[0][1])))]
    refined = found
    score, turn, centre = refined[0]
    return Fit(kind, round(score, 4), turn, centre, tuple((t, round(s, 4)) for s, t, _c in refined))


def flat_outline_px(fit: Fit, camera_mm: FloatArray, plane_mm: float, px_per_mm: float,
                    origin_px: tuple[float, float]) -> NDArray[np.int32]:
    """The fitted die's outline (its convex hull, as it lies flat) on the plane ``plane_mm``, in pixels less
    ``origin_px``, × 16 (for cv2's sub-pixel drawing, ``shift=4``)."""
    outlines = _outlines_px(fit.kind, np.array([fit.turn_deg]), np.array([fit.centre_mm], np.float64), camera_mm,
                            plane_mm, px_per_mm, origin_px)
    return _hulls(outlines)[0]


def top_centre(fit: Fit) -> tuple[float, float]:
    """Where the fitted die's top face's centre is (tray mm): on its axis for a d6, off it towards the kite's wide
    end for a d10."""
    corners = resting_corners(fit.kind)
    top = corners[corners[:, 2] > corners[:, 2].max() - 0.01, :2].mean(axis=0)
    a = np.radians(fit.turn_deg)
    c, s = float(np.cos(a)), float(np.sin(a))
    return (fit.centre_mm[0] + float(top[0]) * c - float(top[1]) * s,
            fit.centre_mm[1] + float(top[0]) * s + float(top[1]) * c)


def outline_of(blob: Blob, camera_mm: FloatArray, plane_mm: float, px_per_mm: float,
               margin_mm: float = 0.0, shared: NDArray[np.uint8] | None = None) -> Outline:
    """Both kinds fitted to ``blob`` (of a rectified plane showing ``margin_mm`` around the area), the pixels
    ``shared`` with other dice (:mod:`vision.dice.merged`) left out."""
    return Outline(fit_kind(blob, "d6", camera_mm, plane_mm, px_per_mm, margin_mm, shared=shared),
                   fit_kind(blob, "d10", camera_mm, plane_mm, px_per_mm, margin_mm, shared=shared))


AXIS_WITHIN = 0.1  # an axis whose outline overlaps the blob this little less than the best one's is read too
MAX_AXES = 5
SAME_AXIS_DEG = 10.0


def numeral_turns(fit: Fit) -> list[float]:
    """The turns to cut a d10's top face out at for its numeral: the best axis both ways up, and the next
    likeliest axes when their outlines fit almost as well (seen from straight above, a d10 turned a tenth of
    a turn makes nearly the same outline)."""
    axes: list[float] = []
    for turn, overlap in fit.peaks or ((fit.turn_deg, fit.overlap),):
        if overlap < fit.overlap - AXIS_WITHIN or len(axes) >= MAX_AXES:
            break
        if any(abs((turn - a + 90.0) % 180.0 - 90.0) < SAME_AXIS_DEG for a in axes):
            continue
        axes.append(turn)
    return [t % 360.0 for a in axes for t in (a, a + 180.0)]
