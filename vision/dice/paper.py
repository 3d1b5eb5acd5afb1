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

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.channels import channel_sum

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


def paper_reference(smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_], px_per_mm: float
                    ) -> Image | None:
    """The paper's colour at each pixel of ``smooth`` (B, G, R): the median over ``WINDOW_MM`` of the ``paper``
    pixels not ``known`` to be something else; None when too little paper is seen."""
    rows, cols = paper.shape
    scale = REFERENCE_PX_PER_MM / px_per_mm
    size = (max(1, round(cols * scale)), max(1, round(rows * scale)))
    away = max(1, round(KNOWN_MM * px_per_mm))
    known_wide = cv2.dilate(known.astype(np.uint8), np.ones((2 * away + 1, 2 * away + 1), np.uint8)) > 0
    usable = (paper & ~known_wide).astype(np.float32)
    small = np.asarray(cv2.resize(smooth, size, interpolation=cv2.INTER_AREA), np.float32)
    clean = np.asarray(cv2.resize(usable, size, interpolation=cv2.INTER_AREA), np.float32) > 0.99
    if int(np.count_nonzero(clean)) < MIN_REFERENCE_PX:
        return None
    # Where no paper is seen (the felt, a tag, a die), the window's median must not see a colour of its own: those
    # pixels take the paper's colour near them (a normalized blur), and the median then follows the paper.
    window = round(WINDOW_MM * REFERENCE_PX_PER_MM) | 1
    weight = clean.astype(np.float32)
    near = cv2.blur(small * weight[..., None], (window, window))
    share = cv2.blur(weight, (window, window))
    overall = np.median(np.ascontiguousarray(small[clean].T), axis=1)  # per channel, each channel's pixels in a row
    filled_in = np.where(share[..., None] > 0.02, near / np.maximum(share, 1e-3)[..., None], overall)
    filled = np.where(clean[..., None], small, filled_in)
    median = cv2.medianBlur(np.clip(filled, 0, 255).astype(np.uint8), window)
    return np.asarray(cv2.resize(median, (cols, rows), interpolation=cv2.INTER_LINEAR), np.uint8)


def off_paper(smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_], px_per_mm: float) -> Mask:
    """The ``paper`` pixels of ``smooth`` that are not the paper's colour there (:func:`paper_reference`): a pale
    die's top, which one colour for all the paper misses. ``known``: pixels already found to be no paper."""
    out = np.zeros(paper.shape, np.uint8)
    reference = paper_reference(smooth, paper, known, px_per_mm)
    if reference is None:
        return out
    calm = paper & ~known
    if not calm.any():
        return out
    seen = reference[calm].astype(np.float32)
    off = smooth[calm].astype(np.float32) - seen  # the paper's pixels only: a fraction of the tray's
    mean = channel_sum(off) / 3
    grey = np.abs(mean)
    tint = channel_sum(np.abs(off - mean[:, None]))
    brightness = max(float(np.median(seen)), 8.0)
    grey_step = max(GREY_STEP * brightness, NOISE_TIMES * float(np.percentile(grey, NOISE_SHARE)))
    tint_step = max(TINT_STEP * brightness, NOISE_TIMES * float(np.percentile(tint, NOISE_SHARE)))
    out[calm] = np.where((grey > grey_step) | (tint > tint_step), 255, 0).astype(np.uint8)
    broad = round(BROAD_MM * px_per_mm) | 1
    kept = cv2.morphologyEx(out, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (broad, broad)))
    return np.asarray(cv2.bitwise_and(out, cv2.dilate(kept, np.ones((3, 3), np.uint8))), np.uint8)
