"""The band's closing (a die on both sides of where the felt meets the paper) is worked out only near the pixels
beside the band: on the band it gives what closing the whole search box gives, wherever those pixels lie, at the
box's edges too."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice.segment import EDGE_BAND_PX, _closed_across


def _whole_closing(beside: np.ndarray) -> np.ndarray:
    reach = np.ones((2 * EDGE_BAND_PX + 1, 2 * EDGE_BAND_PX + 1), np.uint8)
    return np.asarray(cv2.morphologyEx(beside, cv2.MORPH_CLOSE, reach) > 0, np.bool_)


@pytest.mark.parametrize("seed", range(40))
def test_the_cut_closing_is_the_whole_ones(seed: int) -> None:
    rng = np.random.default_rng(seed)
    beside = np.zeros((90, 120), np.uint8)
    for _patch in range(int(rng.integers(1, 5))):  # patches and specks, some at the box's edges
        y, x = int(rng.integers(-4, 90)), int(rng.integers(-4, 120))
        h, w = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        beside[max(0, y):max(0, y + h), max(0, x):max(0, x + w)] = 255
    beside[rng.random(beside.shape) < 0.01] = 255
    assert np.array_equal(_closed_across(beside), _whole_closing(beside))


def test_two_patches_a_gap_apart_close_across_it() -> None:
    beside = np.zeros((40, 60), np.uint8)
    beside[10:20, 5:20] = 255
    beside[10:20, 24:40] = 255  # four pixels apart: the closing bridges them
    closed = _closed_across(beside)
    assert closed[15, 21] and closed[15, 22]
    assert not closed[30, 50] and not closed[2, 2]


def test_nothing_beside_the_band_closes_nothing() -> None:
    assert not _closed_across(np.zeros((30, 30), np.uint8)).any()
