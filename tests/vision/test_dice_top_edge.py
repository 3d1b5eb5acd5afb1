"""Coloured dice whose top runs into a side of the same colour, cut from photographs (``dice_photos/NOTICE.txt``).

Each crop is the patch the reader cuts around a die's blob (34 mm at 6 px/mm, straight above as the photo's camera
takes it). A phone close above sees a side under the top; no region of the body's colour is then a square, and the
top is told from the side by the edge where the die turns down (:func:`vision.dice.face_square.find_face_square`).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.dice import face_square
from vision.dice.faces import D6_SIDE_MM
from vision.dice.reader import READ_PX_PER_MM, read_d6_around

PHOTOS = Path(__file__).parent / "dice_photos"
SIDE_SHOWING = [
    ("IMG_20191208_111304-5-face2.png", 2),  # a red 2, the side below it showing three pips
    ("IMG_20191208_112455-0-face6.png", 6),  # a dark red 6, a side of the same colour below it
]


def _crop(name: str) -> NDArray[np.uint8]:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    assert image is not None, name
    return np.asarray(image, np.uint8)


@pytest.mark.parametrize(("name", "value"), SIDE_SHOWING)
def test_the_top_is_cut_from_its_side_along_the_edge_and_read(name: str, value: int) -> None:
    reading, face = read_d6_around(_crop(name))
    assert face is not None
    assert 0.8 * D6_SIDE_MM <= face.side_px / READ_PX_PER_MM <= 1.1 * D6_SIDE_MM  # the top alone, not top and side
    assert face.squareness() >= face_square.MIN_SQUARENESS
    assert reading is not None and reading.value == value


@pytest.mark.parametrize(("name", "value"), SIDE_SHOWING)
def test_without_the_edge_no_face_is_found(monkeypatch: pytest.MonkeyPatch, name: str, value: int) -> None:
    monkeypatch.setattr(face_square, "_cut_along", lambda *_args: None)
    assert read_d6_around(_crop(name)) == (None, None)


def test_an_edge_across_a_plain_face_leaves_no_part_beyond_it() -> None:
    side = D6_SIDE_MM * READ_PX_PER_MM
    body = np.zeros((204, 204), np.uint8)
    body[60:160, 50:150] = 255  # a top (100 px) and, below it, a side of its colour
    edges = np.zeros_like(body)
    edges[128:132, :] = 255  # the edge where the die turns down
    top = face_square._cut_along(body, edges, side)
    assert top is not None
    rows = np.flatnonzero(top.any(axis=1))
    assert rows.min() == 60 and rows.max() <= 134  # the part above the edge (the seed's), the edge given back
