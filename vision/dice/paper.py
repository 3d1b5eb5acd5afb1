"""The printed paper around the felt, told from a pale die on it pixel by pixel.

A camera looking at the tray from an angle sees a die near the far edge against the paper beyond the felt. A
cream or white die's top differs from white paper by less than the paper's brightness varies across the tray
(the light falls off, the print is not even), so one colour for all the paper (:mod:`vision.dice.segment`) loses
such a top. Here the paper's colour is taken where each pixel is: the median of the paper around it, over a
window more than twice a die's top wide, so that a die covers less than half of it and the median stays the
paper's. Against that reference the paper itself varies only by the picture's noise, and a pixel differing by
more than a few times the noise measured on the paper, in brightness or in tint, is no paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import EllipsisType

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.channels import channel_sum, pixels_at

Image = NDArray[np.uint8]
Mask = NDArray[np.uint8]
REFERENCE_PX_PER_MM = 1.0  # the paper's colour is smooth: worked out at this scale
WINDOW_MM = 61.0  # a die's top (16 mm, its sides beside it) covers well under half of such a window
KNOWN_MM = 2.5  # pixels this close to one already known to be no paper are left out of the reference
GREY_STEP = 0.04  # a brightness off the paper's by this share of its brightness (per channel) is no paper …
TINT_STEP = 0.06  # … nor a tint off it by this share (summed over B, G, R, the brightness taken away) …
NOISE_TIMES = 4.0  # … nor, in a noisy picture, either off by more than this many times the paper's own spread
NOISE_SHARE = 90.0  # the paper's spread: this percentile of its pixels' differences from the reference
BROAD_MM = 2.5  # a die's top is broad: a patch narrower than this (a rim along a die, the blur's and colours' bleed) is
# none
MIN_REFERENCE_PX = 50  # fewer paper pixels than this at the reference's scale: no reference
# The paper's pixels tested first (:func:`off_reference`): those of every ``GRID_STEP``-th row and column, which every
# patch broad enough to be kept holds when a die's top's disc holds a square that wide (5 px at 2 px/mm holds 3 × 3).
GRID_STEP = 3


@dataclass(frozen=True, slots=True)
class PaperReference:
    """The paper's colour measured in one frame, and what tells a pixel of it from a die there."""

    colour: Image  # the paper's colour (B, G, R) at each pixel of the rectified tray
    small: NDArray[np.float32]  # the same at ``REFERENCE_PX_PER_MM``: what a later frame's paper is held against
    paper_small: NDArray[np.bool_]  # the pixels wholly of the paper at that scale (dice or no dice)
    grey_step: float  # a pixel off the paper's brightness by more than this is no paper …
    tint_step: float  # … nor one off its tint by more than this


def _reference_small(small: NDArray[np.float32], clean: NDArray[np.bool_]) -> Image:
    """The paper's colour at ``REFERENCE_PX_PER_MM``: the median over ``WINDOW_MM`` of the ``clean`` pixels of
    ``small`` (the picture at that scale)."""
    # Where no paper is seen (the felt, a tag, a die), the window's median must not see a colour of its own: those
    # pixels take the paper's colour near them (a normalized blur), and the median then follows the paper.
    window = round(WINDOW_MM * REFERENCE_PX_PER_MM) | 1
    weight = clean.astype(np.float32)
    near = cv2.blur(small * weight[..., None], (window, window))
    share = cv2.blur(weight, (window, window))
    overall = np.median(np.ascontiguousarray(small[clean].T), axis=1)  # per channel, each channel's pixels in a row
    filled_in = np.where(share[..., None] > 0.02, near / np.maximum(share, 1e-3)[..., None], overall)
    filled = np.where(clean[..., None], small, filled_in)
    return np.asarray(cv2.medianBlur(np.clip(filled, 0, 255).astype(np.uint8), window), np.uint8)


def reference_size(shape: tuple[int, ...], px_per_mm: float) -> tuple[int, int]:
    """The (columns, rows) of a rectified tray of ``shape`` at ``px_per_mm`` seen at ``REFERENCE_PX_PER_MM``."""
    scale = REFERENCE_PX_PER_MM / px_per_mm
    return max(1, round(shape[1] * scale)), max(1, round(shape[0] * scale))


def _whole_paper(paper: NDArray[np.bool_], size: tuple[int, int]) -> NDArray[np.bool_]:
    """The pixels of ``paper`` seen at ``size`` (columns, rows) that are wholly paper."""
    return np.asarray(cv2.resize(paper.astype(np.float32), size, interpolation=cv2.INTER_AREA), np.float32) > 0.99


def enough_paper(paper: NDArray[np.bool_], px_per_mm: float) -> bool:
    """Whether ``paper`` (where the rectified tray shows it) holds enough of it for :func:`paper_reference`, dice
    or no dice: a pose whose view holds less never has a reference."""
    return int(np.count_nonzero(_whole_paper(paper, reference_size(paper.shape, px_per_mm)))) >= MIN_REFERENCE_PX


def paper_reference(smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_], px_per_mm: float
                    ) -> PaperReference | None:
    """The paper's colour at each pixel of ``smooth`` (B, G, R): the median over ``WINDOW_MM`` of the ``paper``
    pixels not ``known`` to be something else, with the steps off it that make a pixel no paper (the larger of a
    share of the paper's brightness and a few times its spread about that colour); None when too little paper is
    seen."""
    rows, cols = paper.shape
    size = reference_size(paper.shape, px_per_mm)
    away = max(1, round(KNOWN_MM * px_per_mm))
    known_wide = cv2.dilate(known.astype(np.uint8), np.ones((2 * away + 1, 2 * away + 1), np.uint8)) > 0
    usable = (paper & ~known_wide).astype(np.float32)
    clean = np.asarray(cv2.resize(usable, size, interpolation=cv2.INTER_AREA), np.float32) > 0.99
    if int(np.count_nonzero(clean)) < MIN_REFERENCE_PX:
        return None
    small = np.asarray(cv2.resize(smooth, size, interpolation=cv2.INTER_AREA), np.float32)
    median = _reference_small(small, clean)
    colour = np.asarray(cv2.resize(median, (cols, rows), interpolation=cv2.INTER_LINEAR), np.uint8)
    calm = np.flatnonzero(paper & ~known)
    if not calm.size:
        return None
    seen = pixels_at(colour, calm).astype(np.float32)
    off = pixels_at(smooth, calm).astype(np.float32) - seen  # the paper's pixels only: a fraction of the tray's
    mean = channel_sum(off) / 3
    grey = np.abs(mean)
    tint = channel_sum(np.abs(off - mean[:, None]))
    brightness = max(float(np.median(seen)), 8.0)
    grey_step = max(GREY_STEP * brightness, NOISE_TIMES * float(np.percentile(grey, NOISE_SHARE)))
    tint_step = max(TINT_STEP * brightness, NOISE_TIMES * float(np.percentile(tint, NOISE_SHARE)))
    return PaperReference(colour, median.astype(np.float32), _whole_paper(paper, size), grey_step, tint_step)


def off_reference(smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_], px_per_mm: float,
                  reference: PaperReference, on_grid: NDArray[np.intp] | None = None) -> Mask:
    """The ``paper`` pixels of ``smooth``, not ``known`` to be something else, that are not the paper's colour
    there by ``reference``: off its brightness or its tint by more than its steps, over a patch broad enough to
    be a die's top. ``on_grid``: :func:`grid_pixels` of ``paper``, when already found."""
    broad = round(BROAD_MM * px_per_mm) | 1
    out = np.zeros(paper.shape, np.uint8)
    step = _grid_step(broad)
    if step:
        # Only a patch the disc fits in is kept (``_broad``), and every such patch holds a pixel of every ``step``-th
        # row and column (the disc holds a square ``step`` wide): those pixels are tested first, and the others only
        # within the disc's width of one found off (the disc that holds it, widened by a pixel). Most of the paper is
        # the paper, and its off pixels lie along the print's edges: at 2 px/mm a twentieth to a tenth of it is tested
        # again. Every third row and column rather than every other: 0.10 ms less at 65° (a ninth of the paper tested
        # first rather than a quarter).
        if on_grid is None or step != GRID_STEP:
            on_grid = grid_pixels(paper, step)
        at = on_grid[~known.reshape(-1)[on_grid]]
        out.reshape(-1)[at[_off_at(smooth, at, reference)]] = 255
        if not cv2.countNonZero(out):
            return out
        near = cv2.dilate(out, np.ones((2 * broad + 1, 2 * broad + 1), np.uint8)) > 0
        at = np.flatnonzero(paper & ~known & near)
    else:  # too narrow a disc for the grid: every pixel is tested
        at = np.flatnonzero(paper & ~known)
    # Only the pixels tested are looked at: taken out as a column of pixels and put back.
    out.reshape(-1)[at[_off_at(smooth, at, reference)]] = 255  # most of the paper is the paper: only the rest
    return _broad(out, broad)


def grid_pixels(where: NDArray[np.bool_], step: int = GRID_STEP) -> NDArray[np.intp]:
    """The flat indices of ``where``'s pixels on every ``step``-th row and column (from the first), in row order."""
    grid = np.zeros_like(where)
    grid[::step, ::step] = True
    return np.flatnonzero(where & grid)


@lru_cache(maxsize=8)
def _grid_step(broad: int) -> int:
    """The grid (every ``step``-th row and column) that every patch the disc ``broad`` pixels wide fits in holds a
    pixel of: ``GRID_STEP``, else 2, else 0 (no grid: every pixel is tested). Worked out once per scale."""
    disc = np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (broad, broad)), np.uint8)
    return next((side for side in (GRID_STEP, 2) if _holds_a_square(disc, side)), 0)


def _holds_a_square(disc: Mask, side: int) -> bool:
    """Whether the structuring element ``disc`` holds a square of ``side`` × ``side`` of its pixels (then every
    translate of it holds a pixel of every ``side``-th row and column)."""
    rows, cols = disc.shape
    return any(bool(disc[y:y + side, x:x + side].all()) for y in range(rows - side + 1) for x in range(cols - side + 1))


def _off_at(smooth: Image, at: NDArray[np.intp], reference: PaperReference) -> NDArray[np.intp]:
    """Which of the pixels ``at`` (flat indices of ``smooth``) are off the paper's colour by ``reference``, its
    brightness or its tint beyond their steps: their places in ``at``."""
    if not at.size:
        return at
    off = cv2.subtract(pixels_at(smooth, at)[:, None], pixels_at(reference.colour, at)[:, None], dtype=cv2.CV_32F)
    grey = np.asarray(cv2.transform(off, np.full((1, 3), 1.0 / 3.0, np.float32)), np.float32)  # signed
    centred = np.asarray(cv2.transform(off, np.eye(3, dtype=np.float32) - np.float32(1.0 / 3.0)), np.float32)
    tint = np.asarray(cv2.transform(np.abs(centred), np.ones((1, 3), np.float32)), np.float32)
    # 255 where off: |grey| or tint beyond its step (OpenCV's byte masks).
    beyond = cv2.bitwise_or(_compare(grey, reference.grey_step, cv2.CMP_GT),
                            _compare(grey, -reference.grey_step, cv2.CMP_LT))
    beyond = cv2.bitwise_or(beyond, _compare(tint, reference.tint_step, cv2.CMP_GT))
    return np.flatnonzero(beyond > 0)  # a bool mask's: numpy finds a byte mask's non-zeros several times slower


def _broad(off: Mask, broad: int) -> Mask:
    """The pixels of ``off`` within a pixel of a patch that a disc ``broad`` pixels wide fits in (opened by the disc,
    widened by a pixel, cut back to ``off``). Worked out in the box round ``off``'s pixels, as far beyond them as the
    disc and the pixel reach: beyond it every step leaves nothing (most frames have no pixel off the paper at all)."""
    x, y, w, h = cv2.boundingRect(off)
    if w == 0 or h == 0:
        return off
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (broad, broad))
    half = broad // 2
    if half >= 1 and disc[half - 1:half + 2, half - 1:half + 2].all():
        # A disc that fits holds the 3 × 3 square round its centre, which an erosion by that square (OpenCV's cheap
        # separable one) keeps: what is kept lies within the disc's half width and a pixel of what that erosion
        # leaves. Most frames' off pixels (along the print's edges, a die's rim) leave nothing, or a few places.
        core = cv2.erode(np.ascontiguousarray(off[y:y + h, x:x + w]), np.ones((3, 3), np.uint8))
        cx, cy, cw, ch = cv2.boundingRect(core)
        if cw == 0 or ch == 0:
            return np.zeros_like(off)
        rows, cols = off.shape
        x0, y0 = max(0, x + cx - half - 1), max(0, y + cy - half - 1)
        x1, y1 = min(cols, x + cx + cw + half + 1), min(rows, y + cy + ch + half + 1)
        if (x0, y0, x1, y1) != (x, y, x + w, y + h):
            cut = np.zeros_like(off)
            cut[y0:y1, x0:x1] = off[y0:y1, x0:x1]
            off = cut
            x, y, w, h = cv2.boundingRect(off)
    reach = half + 2
    rows, cols = off.shape
    x0, y0, x1, y1 = max(0, x - reach), max(0, y - reach), min(cols, x + w + reach), min(rows, y + h + reach)
    box = np.ascontiguousarray(off[y0:y1, x0:x1])
    kept = cv2.morphologyEx(box, cv2.MORPH_OPEN, disc)
    out = np.zeros_like(off)
    out[y0:y1, x0:x1] = cv2.bitwise_and(box, cv2.dilate(kept, np.ones((3, 3), np.uint8)))
    return out


def _compare(values: NDArray[np.generic], level: float, op: int) -> Mask:
    """255 where ``values`` compare to ``level`` as ``op`` (``cv2.CMP_GT`` …) says, else 0."""
    return np.asarray(cv2.compare(values, level, op), np.uint8)  # type: ignore[call-overload]  # a Scalar


def off_paper(smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_], px_per_mm: float,
              reference: PaperReference | EllipsisType | None = ..., on_grid: NDArray[np.intp] | None = None) -> Mask:
    """The ``paper`` pixels of ``smooth`` that are not the paper's colour there (:func:`paper_reference`): a pale
    die's top, which one colour for all the paper misses. ``known``: pixels already found to be no paper;
    ``reference``: the paper's colour already measured (None: too little paper seen), else measured here; ``on_grid``:
    as :func:`off_reference` takes it."""
    if reference is ...:
        reference = paper_reference(smooth, paper, known, px_per_mm)
    if reference is None:
        return np.zeros(paper.shape, np.uint8)
    return off_reference(smooth, paper, known, px_per_mm, reference, on_grid)
