"""Pips read on real-looking dice that the grey picture alone does not show, and a small die's lone pip.

Red pips on a blue die can have the body's very brightness: in grey they vanish, in the red or blue channel
they stand out. A 12 mm die showing a 1 has a top smaller than a 16 mm die's, which the reader used to take
for a d10's kite; its face found square in its own pixels makes it a cube's.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_dice_face_square import draw_die
from vision.dice.faces import D6_SIDE_MM
from vision.dice.pips import _count_in
from vision.dice.reader import D6_AROUND_MM, READ_PX_PER_MM, read_d6_around, read_d6_top
from vision.dice.top_face import TopFace

BLUE_BODY = (200, 90, 40)  # B, G, R: grey level 87.6
RED_PIP = (50, 40, 200)  # … grey level 89: the same as the body's


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_pips_of_the_body_s_brightness_are_read_in_a_colour_channel(value: int) -> None:
    around = draw_die(value, READ_PX_PER_MM, 16.0, 12.0, BLUE_BODY, RED_PIP)
    reading, face = read_d6_around(around)
    assert face is not None
    assert reading is not None and reading.value == value


def test_the_grey_alone_does_not_show_such_pips() -> None:
    """The case above is one the grey-only count could not read (the test would pass for nothing if it could)."""
    around = draw_die(5, READ_PX_PER_MM, 16.0, 0.0, BLUE_BODY, RED_PIP)
    n = round(22.0 * READ_PX_PER_MM)
    patch = np.asarray(cv2.getRectSubPix(around, (n, n), (around.shape[1] / 2.0, around.shape[0] / 2.0)), np.uint8)
    gray = np.asarray(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), np.float32)
    red = np.asarray(patch[:, :, 2], np.float32)
    assert _count_in(patch, gray, READ_PX_PER_MM, D6_SIDE_MM)[0] == 0
    assert _count_in(patch, red, READ_PX_PER_MM, D6_SIDE_MM)[0] == 5


def _top(side_mm: float) -> TopFace:
    """The blob's top as the tray search gives it for a flat die of ``side_mm`` seen from above."""
    return TopFace((0.0, 0.0), 0.0, (side_mm, side_mm), 0.92, 0.92 * side_mm * side_mm, (0.0, 1.0))


def test_a_small_die_showing_one_pip_is_read() -> None:
    """A 12 mm die's 1: its top (132 mm²) is under a 16 mm face's area, but its face is found square in its pixels."""
    around = draw_die(1, READ_PX_PER_MM, 12.0, 10.0, (225, 228, 232), (30, 30, 30))

    def cut(size_mm: float) -> np.ndarray:
        n = round(size_mm * READ_PX_PER_MM)
        return np.asarray(cv2.getRectSubPix(around, (n, n), (around.shape[1] / 2.0, around.shape[0] / 2.0)),
                          np.uint8)

    assert around.shape[0] == round(D6_AROUND_MM * READ_PX_PER_MM)
    reading = read_d6_top(_top(12.0), cut)
    assert reading is not None and reading.value == 1
