"""Marks on a die's face that are no pips: a marbled die's veins and a glossy die's shine streaks are let pass,
as long as they are thin (no disc half a pip's width fits in them) and the layout's pips are round spots of their
own; a spot as wide as a pip, a streak across a pip's place, or a lone pip among marks still puts the face in
doubt (the tablet asks)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from tests.vision.test_dice_face_square import draw_die
from vision.dice import pips
from vision.dice.reader import READ_PX_PER_MM, read_d6_around

WHITE, BLACK = (225, 228, 232), (30, 30, 30)
VEIN = (95, 95, 100)  # a marbled die's dark vein: darker than the body by more than half its pips' depth


def _marked(value: int, marks: list[tuple[tuple[float, float], tuple[float, float], float]]) -> NDArray[np.uint8]:
    """A 16 mm white die with black pips, square to the patch, and lines drawn across its face: each from and to
    (mm from the face's centre, x right, y down), so many mm wide."""
    around = draw_die(value, READ_PX_PER_MM, 16.0, 0.0, WHITE, BLACK)
    c = around.shape[0] / 2.0
    drawn = around.copy()
    for (x0, y0), (x1, y1), width_mm in marks:
        start = (round((c + x0 * READ_PX_PER_MM) * 16), round((c + y0 * READ_PX_PER_MM) * 16))
        end = (round((c + x1 * READ_PX_PER_MM) * 16), round((c + y1 * READ_PX_PER_MM) * 16))
        cv2.line(drawn, start, end, VEIN, max(1, round(width_mm * READ_PX_PER_MM)), cv2.LINE_AA, 4)
    return np.asarray(cv2.GaussianBlur(drawn, (0, 0), 0.3), np.uint8)


# Thin veins near two edges' middles, between the pips and off every place a pip can take.
VEINS = [((-1.8, -6.2), (1.8, -6.2), 0.8), ((6.2, -1.8), (6.2, 1.8), 0.8)]


@pytest.mark.parametrize("value", [2, 3, 4, 5])
def test_thin_veins_beside_the_pips_are_let_pass(value: int) -> None:
    reading, face = read_d6_around(_marked(value, VEINS))
    assert face is not None
    assert reading is not None and reading.value == value


@pytest.mark.parametrize("value", [2, 4])
def test_a_spot_as_wide_as_a_pip_is_not_let_pass(value: int) -> None:
    blotch = [((-0.3, -5.0), (0.3, -5.0), 2.6)]  # a round dark spot of a pip's size between the top pips
    reading, _face = read_d6_around(_marked(value, blotch))
    assert reading is None


def test_a_streak_across_a_pip_s_place_is_no_pip() -> None:
    """A streak through the face's middle lies on a 5's middle place: the 4 is not read as a 5."""
    reading, _face = read_d6_around(_marked(4, [((-2.5, -2.5), (2.5, 2.5), 1.0)]))
    assert reading is None or reading.value == 4


def test_a_lone_pip_among_marks_is_asked() -> None:
    """A face framed too big shows a 5's middle pip alone, its others among the marks: a 1 is not read so."""
    reading, _face = read_d6_around(_marked(1, VEINS))
    assert reading is None


PHOTOS = Path(__file__).parent / "dice_photos"  # crops of real photographs (``dice_photos/NOTICE.txt``)
MARKED_PHOTOS = [
    ("IMG_20191208_111642-2-face2.png", 2),  # a glossy red die, a shine streak along its face
    ("IMG_20191209_095336-2-face2.png", 2),  # a glossy green die, glints on its pips' rims
    ("IMG_20191209_095948-4-face6.png", 6),  # a marbled teal die with yellow pips, its side in view
    ("IMG_20191209_100150-4-face5.png", 5),  # a marbled brown die
]


@pytest.mark.parametrize(("name", "value"), MARKED_PHOTOS)
def test_real_marbled_and_glossy_faces_are_read(name: str, value: int) -> None:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    assert image is not None, name
    reading, face = read_d6_around(np.asarray(image, np.uint8))
    assert face is not None
    assert reading is not None and reading.value == value


@pytest.mark.parametrize(("name", "_value"), MARKED_PHOTOS)
def test_those_faces_hold_marks_the_stray_mark_check_alone_refuses(name: str, _value: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The case above would pass for nothing if the faces were read without letting thin marks pass."""
    monkeypatch.setattr(pips, "_only_thin_marks", lambda *_args: False)
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    reading, _face = read_d6_around(np.asarray(image, np.uint8))
    assert reading is None
