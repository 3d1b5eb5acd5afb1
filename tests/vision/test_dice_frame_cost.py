"""The cheaper forms of a frame's per-pixel steps give exactly what the plain forms give."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice.channels import byte_channel_sum
from vision.dice.paper import _broad


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
