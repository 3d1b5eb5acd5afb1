"""Pale dice on a pale, grey mat: found by their outlines where their colour is too near the mat's.

A white or ivory die on a pale grey mat (a cardboard tray) differs from it by a few grey levels, less than the
colour step of :func:`vision.dice.segment.find_blobs` asks; but its outline against the mat, its dark pips and the
soft shadow on one side are sharp edges. Here the edges of the grey picture are closed into loops and each loop is
filled; in a region no bigger than a few dice that the colour step left empty, the part about as light as the mat or
lighter (the die's top, without its shadow and darker sides) is added as a die's pixels. On a coloured mat
(the green felt the tray is sold with) dice stand out by colour, and this step does not run (:func:`pale_grey`).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Mask = NDArray[np.uint8]

# The mat counts as pale and grey when its colour's spread over B, G, R is at most this share of its mean, and its
# mean at least ``PALE_MIN``. The cardboard tray of the public d6 photos (bench/dice_real.py, *train*, the median
# colour of each die's window): shares 0.022 / 0.042 / 0.179 at the 5th / 50th / 95th percentile, means 124 / 180 at
# the 5th / 50th; 1,384 of the 1,487 windows pass. The rendered green felt (calibration.tray_spec.TRAY_FILL_RGB) has
# 70 / 100 = 0.7: bench/dice.py's counts are the same with and without this step in every condition.
GREY_SHARE = 0.15
PALE_MIN = 110.0
# Canny's hysteresis thresholds on the 3 × 3 blurred grey picture (L2 gradient). In 12 *train* windows of pale dice
# the colour step missed, the Sobel gradient's median was 5–32 (the card's grain) and its 99th percentile 134–382 (the
# dice's outlines and pips). Chosen on *train* (bench/dice_real.py, 200 photos), more dice read right: 15 / 40 → 21,
# 20 / 50 → 24, 30 / 70 → 18; 0 wrong at each.
EDGE_LOW, EDGE_HIGH = 20.0, 50.0
# Gaps in an outline this wide are closed (a rounded corner, a shadow fading out). On *train*, more dice read right:
# 1.0 mm → 20, 1.5 → 24, 2.0 → 22; 0 wrong at each.
CLOSE_MM = 1.5
# A region enclosed by edges is a die's only when the colour step found little in it (at most this share of its
# pixels), and when it is no larger than a die seen with two sides (several dice's worth is a ring of dice round the
# mat, or the mat between them). Set by reasoning, not tuned (with them, no *train* die read before
# changed its outcome).
COLOUR_SHARE = 0.2
MAX_REGION_MM2 = 3.0 * 16.0 * 16.0
# What the colour step found counts there only where it is wider than this (a pip's width and more): a pale die's
# dark pips are specks of it — a 6's fill a fifth to a quarter of a small die's top, which the share above refused
# — and a die of another colour is a mass. On *train*, more dice read right: 3 mm → 10, 4 mm → 11, 5 mm → 14 (3 read
# before lost at each, their blob now the whole die, a side and all, which the bench takes for a cocked die's); 0 wrong.
SPECK_MM = 4.0
# Inside its outline a pale die's top is about as light as the mat or lighter, and the shadow and sides round it are
# darker (24 *train* dice the colour step missed, their filled outlines against the card's grey: 75th percentile 20
# below to 14 above, 95th 7 below to 26 above, 5th — the shadow — 28 to 119 below): the part no more than this below
# the mat's grey is the top. Chosen on *train* (bench/dice_real.py, 200 photos), more dice read right: 8 → 16,
# 16 → 24, 24 → 20; 0 wrong at each.
LIGHT_MARGIN = 16.0
# The top's pips are filled and what stays of a shadow or a side joined to it by a neck is opened away with a disc
# this wide (on *train*: 1.5 mm → 19 more dice read right, 2.5 mm → 24).
OPEN_MM = 2.5
# The thresholds above are for pictures of about this scale (the photos are 1.6–2.4 px/mm, the service's segmentation
# 2): a patch enlarged to read pips (6 px/mm) spreads an outline's step over three times the pixels, and its gradient
# falls below them. Such a patch is looked at shrunk to this scale.
EDGE_PX_PER_MM = 2.0


def pale_grey(mat_colour: NDArray[np.float64]) -> bool:
    """Whether the mat's colour (B, G, R) is pale and grey: the mats this step is for."""
    mean = float(mat_colour.mean())
    return mean >= PALE_MIN and float(mat_colour.max() - mat_colour.min()) <= GREY_SHARE * mean


def _edges(grey: Image) -> Mask:
    """The edges (255) of a grey picture at about ``EDGE_PX_PER_MM`` (blurred 3 × 3 by the caller)."""
    return np.asarray(cv2.Canny(grey, EDGE_LOW, EDGE_HIGH, L2gradient=True), np.uint8)


def edges_at_scale(patch: Image, px_per_mm: float) -> Mask:
    """The edges of ``patch`` (BGR, ``px_per_mm``) found shrunk to ``EDGE_PX_PER_MM`` where it is finer, as
    :func:`outlined` finds them, given back at the patch's own pixels (255 on an edge)."""
    small, shrink = _shrunk(patch, px_per_mm)
    edges = _edges(np.asarray(cv2.cvtColor(cv2.blur(small, (3, 3)), cv2.COLOR_BGR2GRAY), np.uint8))
    return edges if shrink == 1.0 else _grown(edges, patch.shape[:2], 0)


def _shrunk(patch: Image, px_per_mm: float) -> tuple[Image, float]:
    """``patch`` (``px_per_mm``) shrunk to ``EDGE_PX_PER_MM`` where it is finer, and the factor (1: as it was)."""
    shrink = min(1.0, EDGE_PX_PER_MM / px_per_mm)
    if shrink == 1.0:
        return patch, shrink
    return np.asarray(cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), np.uint8), shrink


def _grown(mask: Mask, shape: tuple[int, ...], above: int) -> Mask:
    """A shrunk ``mask`` given back at ``shape`` (rows, columns): 255 where it comes out above ``above``."""
    back = cv2.resize(mask, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.where(back > above, 255, 0), np.uint8)


def outlined(smooth: Image, mat: Mask, found: Mask, px_per_mm: float, mat_colour: NDArray[np.float64]) -> Mask:
    """The regions of ``mat`` (255 where the mat is seen) enclosed by edges of ``smooth`` (a blurred colour picture)
    about a die's size, that the colour step (``found``, 255 where a die's colour was found) left nearly empty, each
    cut to its part about as light as the mat (``mat_colour``, B, G, R) or lighter: a pale die's top. 255 there,
    else 0."""
    grey = np.asarray(cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY), np.uint8)
    edges = _edges(grey)
    r = max(1, round(CLOSE_MM * px_per_mm))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, disc)
    contours, _h = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(grey)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    filled = np.asarray(cv2.morphologyEx(cv2.bitwise_and(filled, mat), cv2.MORPH_OPEN, disc), np.uint8)
    count, labels, stats, _c = cv2.connectedComponentsWithStats(filled, connectivity=8, ltype=cv2.CV_32S)
    out = np.zeros_like(grey)
    max_px = MAX_REGION_MM2 * px_per_mm * px_per_mm
    # The colour step's specks (a pale die's dark pips) do not count: only what is wider than ``SPECK_MM``.
    speck = max(1, round(SPECK_MM / 2.0 * px_per_mm))
    found = np.asarray(cv2.morphologyEx(found, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * speck + 1, 2 * speck + 1))), np.uint8)
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area > max_px:
            continue
        region = labels[y:y + h, x:x + w] == label
        if np.count_nonzero(found[y:y + h, x:x + w][region]) > COLOUR_SHARE * area:
            continue
        out[y:y + h, x:x + w][region] = 255
    # Inside its outline, the light part is the die's top; its pips are bridged and their holes filled.
    mat_grey = float(mat_colour[0]) * 0.114 + float(mat_colour[1]) * 0.587 + float(mat_colour[2]) * 0.299
    light = np.where((out > 0) & (grey.astype(np.float32) >= mat_grey - LIGHT_MARGIN), 255, 0).astype(np.uint8)
    light = np.asarray(cv2.morphologyEx(light, cv2.MORPH_CLOSE, disc), np.uint8)
    tops, _h = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(grey)
    cv2.drawContours(out, tops, -1, 255, cv2.FILLED)
    r = max(1, round(OPEN_MM * px_per_mm))
    wide = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return np.asarray(cv2.morphologyEx(out, cv2.MORPH_OPEN, wide), np.uint8)


def outlined_at_scale(patch: Image, px_per_mm: float, found: Mask, mat_colour: NDArray[np.float64]) -> Mask:
    """:func:`outlined` on ``patch`` (BGR, ``px_per_mm``; every pixel the mat's or a die's) shrunk to
    ``EDGE_PX_PER_MM`` where it is finer, the regions found given back at the patch's own pixels."""
    small, shrink = _shrunk(patch, px_per_mm)
    if shrink < 1.0:
        found = np.asarray(cv2.resize(found, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST),
                           np.uint8)
    smooth = np.asarray(cv2.blur(small, (3, 3)), np.uint8)
    mat = np.full(small.shape[:2], 255, np.uint8)
    regions = outlined(smooth, mat, found, px_per_mm * shrink, mat_colour)
    return regions if shrink == 1.0 else _grown(regions, patch.shape[:2], 127)
