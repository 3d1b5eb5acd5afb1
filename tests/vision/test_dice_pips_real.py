"""Real dice whose pips sit closer in than the rendered dice's, cut from photographs (``dice_photos/NOTICE.txt``).

Each crop is the patch the reader cuts around a die's blob; its top face is found in its pixels and its pips
counted (:func:`vision.dice.reader.read_d6_around`). The 4s have big pips set close together: a 6's layout,
shrunk, puts its middle pair on the rims of the 4's pips, and must not be believed. Coloured pips on a dark or
marbled die, under a white glossy highlight, are read in the opposite-colour channels, where the highlight
vanishes; but a face framed off its die (a patch at the label's place, its middle on the felt beside the die)
read in those channels alone is no 1.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.dice import pips
from vision.dice.reader import read_d6_around, read_d6_face

PHOTOS = Path(__file__).parent / "dice_photos"


def _crop(name: str) -> NDArray[np.uint8]:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    assert image is not None, name
    return np.asarray(image, np.uint8)


@pytest.mark.parametrize(("name", "value"), [
    ("IMG_20191208_112342-1-face6.png", 6),  # a red-pipped 6, its rows close together
    ("IMG_20191209_095730-2-face4.png", 4),  # a 4, its pips close to the middle
])
def test_close_set_pips_are_read_right(name: str, value: int) -> None:
    reading, face = read_d6_around(_crop(name))
    assert face is not None
    assert reading is not None and reading.value == value


@pytest.mark.parametrize("name", ["IMG_20191208_112659-1-face4.png", "IMG_20191209_095809-2-face4.png"])
def test_a_4_with_big_close_pips_is_not_read_as_a_6(name: str) -> None:
    reading, _face = read_d6_around(_crop(name))
    assert reading is None or reading.value == 4


COLOURED_PIPS = [
    ("IMG_20191208_111246-2-face2.png", 2),  # red pips on a black die, a white highlight across its face
    ("IMG_20191208_112541-4-face3.png", 3),  # yellow pips on a marbled green die
    ("IMG_20191208_112300-7-face4.png", 4),  # red pips on a dark die, glossy
    ("IMG_20191209_100216-2-face3.png", 3),  # white pips on a glossy green die, a highlight at its edge
]


@pytest.mark.parametrize(("name", "value"), COLOURED_PIPS)
def test_coloured_pips_under_a_highlight_are_read_right(name: str, value: int) -> None:
    reading, face = read_d6_around(_crop(name))
    assert face is not None
    assert reading is not None and reading.value == value


@pytest.mark.parametrize("name", [name for name, _value in COLOURED_PIPS])
def test_without_the_opposite_colours_such_faces_are_asked(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The grey and the colour channels alone do not read these faces (the test above would pass for nothing if
    they did): the highlight is as light as the pips there."""
    monkeypatch.setattr(pips, "_opponents", lambda patch: [])
    reading, _face = read_d6_around(_crop(name))
    assert reading is None


@pytest.mark.parametrize("name", ["IMG_20191208_111548-8-face4-placed0.png", "IMG_20191209_095336-4-face6-placed0.png"])
def test_a_face_framed_off_its_die_is_not_read_as_a_1_in_colour_alone(name: str) -> None:
    """Patches of 22 mm cut at the labelled box's middle, turned and sized by the box (sides and all): the
    opposite-colour channels alone, the grey silent, read them as a 1 at 0.96 and 1.0 before such a reading had to
    be no 1 and sure."""
    reading = read_d6_face(_crop(name))
    assert reading is None or reading.value == int(name.split("face")[1][0])
