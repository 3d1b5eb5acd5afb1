"""The cheaper forms of a frame's per-pixel steps give exactly what the plain forms give."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice.channels import byte_channel_sum
from vision.dice.paper import BROAD_MM, PaperReference, _broad, _off_at, off_reference


def test_byte_channel_sum_is_opencvs_transform_saturated() -> None:
    rng = np.random.default_rng(3)
    for shape in ((40, 60, 3), (500, 1, 3), (1, 1, 3)):
        image = rng.integers(0, 256, shape, np.uint8)
        image.reshape(-1, 3)[:5] = 255  # sums far beyond a byte
        plain = cv2.transform(image, np.ones((1, 3), np.float32))
        assert np.array_equal(byte_channel_sum(image).reshape(shape[:-1]), plain.reshape(shape[:-1]))


def test_paper_off_colour_kept_broad_in_its_box_as_over_the_whole_tray() -> None:
    rng = np.random.default_rng(6)
    for _ in range(300):
        rows, cols = (int(v) for v in rng.integers(3, 100, 2))
        off = np.zeros((rows, cols), np.uint8)
        for _spot in range(int(rng.integers(0, 4))):
            centre = (int(rng.integers(0, cols)), int(rng.integers(0, rows)))
            cv2.circle(off, centre, int(rng.integers(1, 10)), 255, -1)
        off[rng.random((rows, cols)) < 0.03] = 255  # specks, which the opening takes away
        broad = int(rng.choice([3, 5, 7]))
        kept = cv2.morphologyEx(off, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (broad, broad)))
        whole = cv2.bitwise_and(off, cv2.dilate(kept, np.ones((3, 3), np.uint8)))
        assert np.array_equal(_broad(off, broad), whole)


def test_paper_off_colour_tested_on_a_grid_first_as_on_every_pixel() -> None:
    """Off the paper's colour: every other row and column first, the rest only near what they find, gives what
    testing every pixel gives (pale tops, thin rims, specks, at the edges, in odd-sized trays)."""
    rng = np.random.default_rng(11)
    patches = 0
    for _ in range(200):
        rows, cols = (int(v) for v in rng.integers(8, 120, 2))
        colour = np.clip(rng.normal(210.0, 8.0, (rows, cols, 3)), 0, 255).astype(np.uint8)
        smooth = np.clip(colour.astype(int) + rng.integers(-3, 4, (rows, cols, 3)), 0, 255).astype(np.uint8)
        for _top in range(int(rng.integers(0, 4))):  # pale tops, rims, lines a pixel or two wide, some at the edges
            x, y = int(rng.integers(-4, cols)), int(rng.integers(-4, rows))
            w, h = (int(v) for v in rng.integers(1, 14, 2))
            smooth[max(0, y):y + h, max(0, x):x + w] = rng.integers(150, 256, 3)
        smooth[rng.random((rows, cols)) < 0.02] = 120  # specks
        paper = rng.random((rows, cols)) < 0.9 if rng.random() < 0.3 else np.ones((rows, cols), bool)
        known = np.zeros((rows, cols), bool)
        known[int(rng.integers(0, rows)):, int(rng.integers(0, cols)):] = rng.random() < 0.5
        reference = PaperReference(colour, np.zeros((1, 1, 3), np.float32), np.zeros((1, 1), bool),
                                   float(rng.uniform(4.0, 12.0)), float(rng.uniform(6.0, 18.0)))
        for px_per_mm in (2.0, 3.0):  # discs of 5 and 7 pixels
            broad = round(BROAD_MM * px_per_mm) | 1
            every = np.zeros((rows, cols), np.uint8)
            at = np.flatnonzero(paper & ~known)
            every.reshape(-1)[at[_off_at(smooth, at, reference)]] = 255
            plain = _broad(every, broad)
            patches += bool(plain.any())
            assert np.array_equal(off_reference(smooth, paper, known, px_per_mm, reference), plain)
    assert patches > 50  # the test holds pale tops kept, not only nothing
