"""Pale dice on a pale grey cardboard tray, cut from photographs (``dice_photos/NOTICE.txt``): found by their
outlines (:mod:`vision.dice.pale_mat`) where the colour step finds nothing, their top face found so in the reading
patch too (:func:`vision.dice.face_square.find_face_square`), and read.

Each crop is a square two labelled boxes wide around one white or ivory die of the *train* split, at the photo's own
pixels; its scale is the photo's (the median labelled box is a 16 mm die's at a random turn, as
``bench/dice_real.py`` takes it), the camera straight above.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.dice import face_square, segment
from vision.dice.faces import D6_SIDE_MM
from vision.dice.pale_mat import outlined, pale_grey
from vision.dice.reader import READ_PX_PER_MM, read_d6_top
from vision.dice.segment import Blob, find_blobs
from vision.dice.top_face import top_faces

PHOTOS = Path(__file__).parent / "dice_photos"
PALE_DICE = [  # crop, the photo's px per mm, the face shown
    ("IMG_20191208_112415-3-face4-window.png", 1.630, 4),  # an ivory 4, 5–15 grey levels from the card
    ("IMG_20191209_100719-1-face3-window.png", 1.849, 3),  # a white 3, its shadow on one side
    ("IMG_20191209_100722-0-face4-window.png", 2.021, 4),  # a white 4, a side showing: its top square in the patch
    ("IMG_20191208_111548-1-face6-window.png", 1.878, 6),  # a white 6: its pips, a quarter of its top, are specks
]
# Read only once the reading patch finds the top by its outline (the die's colour against the patch's border finds
# its pips alone, and the blob's own top is too small and ragged for the tray patch's check).
TOP_BY_OUTLINE = PALE_DICE[2:3]


def _read(image: NDArray[np.uint8], px_per_mm: float) -> int | None:
    """The face read at the blob that covers the crop's middle (None: asked)."""
    blob = _blob_at_middle(image, px_per_mm)
    assert blob is not None
    faces = top_faces(blob, px_per_mm, 0.0, blob.centroid_mm, 1.0e6, D6_SIDE_MM)
    assert faces
    face = faces[0]
    centre = (face.centre_mm[0] * px_per_mm, face.centre_mm[1] * px_per_mm)
    reading = read_d6_top(face, lambda size_mm: _cut(image, centre, face.angle_deg, px_per_mm, size_mm))
    return None if reading is None else reading.value


def _crop(name: str) -> NDArray[np.uint8]:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    assert image is not None, name
    return np.asarray(image, np.uint8)


def _blob_at_middle(image: NDArray[np.uint8], px_per_mm: float) -> Blob | None:
    """The blob that covers the crop's middle (where the labelled die is), if any."""
    blobs = find_blobs(image, np.full(image.shape[:2], 255, np.uint8), px_per_mm)
    mx, my = image.shape[1] // 2, image.shape[0] // 2
    for blob in blobs:
        x0, y0, w, h = blob.box
        if 0 <= mx - x0 < w and 0 <= my - y0 < h and blob.mask[my - y0, mx - x0] > 0:
            return blob
    return None


def _cut(image: NDArray[np.uint8], centre_px: tuple[float, float], angle_deg: float, px_per_mm: float,
         size_mm: float) -> NDArray[np.uint8]:
    """A ``size_mm`` square of ``image`` around ``centre_px``, turned to ``angle_deg``, at the reader's scale."""
    n = round(size_mm * READ_PX_PER_MM)
    a = math.radians(angle_deg)
    ux, uy, rx, ry = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    half = size_mm / 2.0 * px_per_mm
    cx, cy = centre_px
    src = np.array([(cx + (-rx + ux) * half, cy + (-ry + uy) * half), (cx + (rx + ux) * half, cy + (ry + uy) * half),
                    (cx + (-rx - ux) * half, cy + (-ry - uy) * half)], np.float32)
    matrix = cv2.getAffineTransform(src, np.array([[0, 0], [n, 0], [0, n]], np.float32))
    return np.asarray(cv2.warpAffine(image, matrix, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                      np.uint8)


@pytest.mark.parametrize(("name", "px_per_mm", "value"), PALE_DICE)
def test_a_pale_die_on_the_card_is_found_by_its_outline_and_read(name: str, px_per_mm: float, value: int) -> None:
    image = _crop(name)
    blob = _blob_at_middle(image, px_per_mm)
    assert blob is not None
    face_area = D6_SIDE_MM * D6_SIDE_MM
    assert 0.4 * face_area <= blob.area_mm2 <= 1.5 * face_area  # the die's top, not its shadow or the card
    assert _read(image, px_per_mm) == value


@pytest.mark.parametrize(("name", "px_per_mm", "value"), TOP_BY_OUTLINE)
def test_without_the_top_found_by_its_outline_the_die_is_asked(monkeypatch: pytest.MonkeyPatch, name: str,
                                                               px_per_mm: float, value: int) -> None:
    monkeypatch.setattr(face_square, "pale_grey", lambda _colour: False)
    assert _read(_crop(name), px_per_mm) is None


@pytest.mark.parametrize(("name", "px_per_mm", "value"), PALE_DICE)
def test_the_colour_step_alone_finds_no_such_die(monkeypatch: pytest.MonkeyPatch, name: str, px_per_mm: float,
                                                 value: int) -> None:
    monkeypatch.setattr(segment, "pale_grey", lambda _colour: False)
    assert _blob_at_middle(_crop(name), px_per_mm) is None


def test_the_step_is_for_pale_grey_mats_only() -> None:
    assert pale_grey(np.array([176.0, 173.0, 167.0]))  # the card of the photos (B, G, R)
    assert not pale_grey(np.array([90.0, 140.0, 70.0]))  # the green felt the tray is sold with
    assert not pale_grey(np.array([40.0, 42.0, 41.0]))  # a dark grey mat: dice stand out by colour


def test_a_plain_card_gives_no_region() -> None:
    rng = np.random.default_rng(3)
    card = np.clip(rng.normal(175.0, 3.0, (80, 80, 3)), 0, 255).astype(np.uint8)  # grain, no edge
    smooth = np.asarray(cv2.blur(card, (3, 3)), np.uint8)
    mat = np.full(card.shape[:2], 255, np.uint8)
    assert not outlined(smooth, mat, np.zeros_like(mat), 1.8, np.array([175.0, 175.0, 175.0])).any()
