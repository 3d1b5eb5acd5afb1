"""The cheaper forms of a frame's per-pixel steps give exactly what the plain forms give."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.dice.channels import byte_channel_sum
from vision.dice.paper import _broad
from vision.dice.top_face import _swept_back


def test_byte_channel_sum_is_opencvs_transform_saturated() -> None:
    rng = np.random.default_rng(3)
    for shape in ((40, 60, 3), (500, 1, 3), (1, 1, 3)):
        image = rng.integers(0, 256, shape, np.uint8)
        image.reshape(-1, 3)[:5] = 255  # sums far beyond a byte
        plain = cv2.transform(image, np.ones((1, 3), np.float32))
        assert np.array_equal(byte_channel_sum(image).reshape(shape[:-1]), plain.reshape(shape[:-1]))


def test_a_blob_swept_back_in_its_window_as_over_its_whole_padding() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        rows, cols = (int(v) for v in rng.integers(4, 90, 2))
        mask = np.where(rng.random((rows, cols)) < 0.85, 255, 0).astype(np.uint8)
        length = float(rng.uniform(1.0, 65.0))
        turn = float(rng.uniform(0.0, 2.0 * math.pi))
        reach = math.ceil(length)
        kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.uint8)
        end = (round(reach - math.cos(turn) * length), round(reach - math.sin(turn) * length))
        cv2.line(kernel, (reach, reach), end, 1, 1)
        padded = cv2.copyMakeBorder(mask, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
        if rng.random() < 0.3:
            padded[:, :reach] = 255  # the blob runs out of the rectified area there
        whole = cv2.erode(padded, kernel, anchor=(reach, reach))[reach:-reach, reach:-reach]
        assert np.array_equal(_swept_back(padded, kernel, reach), whole)


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
