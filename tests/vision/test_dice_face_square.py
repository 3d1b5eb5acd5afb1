"""Real-looking dice drawn on a grey mat: a soft shadow, rounded corners, a side in view, another size than 16 mm.

Each is read through the reader's own steps for one die (the patch around it, the face found in its pixels,
the pip count); the blob of not-mat colour must leave the shadow out.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.dice.face_square import find_face_square
from vision.dice.faces import D6_SIDE_MM, PIP_SPOT, PIPS
from vision.dice.reader import D6_AROUND_MM, READ_PX_PER_MM, read_d6_around
from vision.dice.segment import find_blobs

Image = NDArray[np.uint8]
MAT = (150, 152, 155)  # B, G, R: a grey cardboard tray


def _rounded_square(image: Image, centre: tuple[float, float], side: float, angle_deg: float, radius: float,
                    colour: tuple[int, int, int]) -> None:
    """A filled square with rounded corners (a real die's outline), turned by ``angle_deg``."""
    mask = np.zeros(image.shape[:2], np.uint8)
    a = math.radians(angle_deg)
    inner = side / 2.0 - radius
    corners = [(sx * inner, sy * inner) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    points = np.array([(centre[0] + x * math.cos(a) - y * math.sin(a), centre[1] + x * math.sin(a) + y * math.cos(a))
                       for x, y in corners], np.float32)
    cv2.fillConvexPoly(mask, np.round(points * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    grown = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(radius) + 1,) * 2))
    image[grown > 0] = colour


def draw_die(value: int, px_per_mm: float, side_mm: float, angle_deg: float, body: tuple[int, int, int],
             pip: tuple[int, int, int], shadow_mm: float = 3.0, side_strip_mm: float = 0.0,
             size_mm: float = D6_AROUND_MM, spread: float = 1.0, pip_radius: float = 0.19) -> Image:
    """A die seen from above in the middle of a ``size_mm`` patch of mat: its soft shadow cast to the lower
    right, optionally one side face in view below it (the body colour, darker), rounded corners; its pips
    ``spread`` times as far out as the rendered dice's, ``pip_radius`` half sides wide."""
    n = round(size_mm * px_per_mm)
    image = np.full((n, n, 3), MAT, np.uint8)
    side, c = side_mm * px_per_mm, (n / 2.0, n / 2.0)
    caster = np.zeros((n, n, 3), np.uint8)
    _rounded_square(caster, (c[0] + shadow_mm * px_per_mm, c[1] + shadow_mm * px_per_mm), side * 1.05, angle_deg,
                    side * 0.15, (255, 255, 255))
    shade = cv2.GaussianBlur(caster[:, :, 0], (0, 0), 1.2 * px_per_mm).astype(np.float32) / 255.0
    image = (image.astype(np.float32) * (1.0 - 0.35 * shade[:, :, None])).astype(np.uint8)  # a shadow dims the mat
    a = math.radians(angle_deg)
    if side_strip_mm > 0:
        down = (-math.sin(a), math.cos(a))
        strip_centre = (c[0] + down[0] * side_strip_mm * px_per_mm, c[1] + down[1] * side_strip_mm * px_per_mm)
        darker = tuple(int(v * 0.7) for v in body)
        _rounded_square(image, strip_centre, side, angle_deg, side * 0.15, darker)  # type: ignore[arg-type]
    _rounded_square(image, c, side, angle_deg, side * 0.15, body)
    for u, v in PIPS[value]:
        x, y = u * spread * PIP_SPOT * side / 2.0, v * spread * PIP_SPOT * side / 2.0
        at = (c[0] + x * math.cos(a) - y * math.sin(a), c[1] + x * math.sin(a) + y * math.cos(a))
        cv2.circle(image, (round(at[0] * 16), round(at[1] * 16)), round(pip_radius * side / 2.0 * 16), pip, -1,
                   cv2.LINE_AA, 4)
    noise = np.random.default_rng(value).normal(0.0, 2.0, image.shape)
    return np.clip(cv2.GaussianBlur(image, (0, 0), 0.25 * px_per_mm) + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize(("side_mm", "angle_deg", "body", "pip"), [
    (13.0, 20.0, (225, 228, 232), (30, 30, 30)),  # a small pale die on the grey mat, turned
    (19.0, -35.0, (40, 40, 200), (235, 235, 235)),  # a big red die with white pips
    (16.0, 8.0, (35, 35, 35), (230, 230, 230)),  # a black die
])
def test_a_real_looking_die_is_read_right(value: int, side_mm: float, angle_deg: float,
                                          body: tuple[int, int, int], pip: tuple[int, int, int]) -> None:
    around = draw_die(value, READ_PX_PER_MM, side_mm, angle_deg, body, pip)
    reading, face = read_d6_around(around)
    assert face is not None
    assert face.side_px == pytest.approx(side_mm * READ_PX_PER_MM, rel=0.08)
    assert reading is not None and reading.value == value


@pytest.mark.parametrize("value", [2, 4, 5])
def test_a_side_face_in_view_is_not_read_with_the_top(value: int) -> None:
    """A phone close above sees a side of the die below its top face (the body colour, darker, with its pips):
    the top face alone is read."""
    around = draw_die(value, READ_PX_PER_MM, 15.0, 5.0, (60, 200, 230), (20, 20, 20), side_strip_mm=4.0)
    reading, face = read_d6_around(around)
    assert face is not None and face.side_px == pytest.approx(15.0 * READ_PX_PER_MM, rel=0.1)
    assert reading is not None and reading.value == value


def test_no_square_face_is_no_reading() -> None:
    """A long bar of die colour (a die on its edge, a pencil) and a blank mat give no face, so no value."""
    n = round(D6_AROUND_MM * READ_PX_PER_MM)
    bar = np.full((n, n, 3), MAT, np.uint8)
    cv2.rectangle(bar, (n // 2 - 70, n // 2 - 25), (n // 2 + 70, n // 2 + 25), (220, 220, 220), -1)
    assert find_face_square(bar, D6_SIDE_MM * READ_PX_PER_MM) is None
    assert read_d6_around(bar) == (None, None)
    blank = np.full((n, n, 3), MAT, np.uint8)
    assert read_d6_around(blank) == (None, None)


def test_the_blob_of_a_die_leaves_its_shadow_on_the_mat_out() -> None:
    """The blob that finds a die is the die, not the die and its shadow (which is the mat, only darker)."""
    px_per_mm = 2.0
    areas = []
    for shadow_mm in (0.0, 5.0):
        image = draw_die(3, px_per_mm, 16.0, 0.0, (40, 40, 200), (235, 235, 235), shadow_mm=shadow_mm, size_mm=60.0)
        blobs = find_blobs(image, np.full(image.shape[:2], 255, np.uint8), px_per_mm)
        assert len(blobs) == 1
        areas.append(blobs[0].area_mm2)
    assert areas[1] == pytest.approx(areas[0], rel=0.05)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize(("side_mm", "body", "pip"), [
    (16.0, (225, 228, 232), (30, 30, 30)),  # a pale die with black pips
    (18.0, (40, 40, 200), (235, 235, 235)),  # a big red die with white pips
    (15.0, (35, 35, 35), (230, 230, 230)),  # a black die, a little small
])
def test_pips_set_closer_in_are_read_right(value: int, side_mm: float, body: tuple[int, int, int],
                                           pip: tuple[int, int, int]) -> None:
    """Many real dice set their pips closer to the face's middle than the rendered ones (here at 0.7 of their
    offset, where the layout's own places miss them): a face found at a full die's size is read at that spread."""
    around = draw_die(value, READ_PX_PER_MM, side_mm, 15.0, body, pip, spread=0.7)
    reading, face = read_d6_around(around)
    assert face is not None
    assert reading is not None and reading.value == value


@pytest.mark.parametrize("value", [2, 3, 5])
def test_a_bigger_die_touching_the_one_in_the_middle_does_not_take_its_place(value: int) -> None:
    """A bigger die of another colour touching the die in the patch's middle merges with it in the patch's
    pixels, and the deepest point of the two lies in the bigger one: the face read is still the middle die's,
    found in its own body colour."""
    px_per_mm = READ_PX_PER_MM
    around = draw_die(value, px_per_mm, 14.0, 0.0, (40, 40, 200), (235, 235, 235), shadow_mm=0.0)
    n = around.shape[0]
    neighbour = (n / 2.0 + (7.0 + 11.0) * px_per_mm, n / 2.0 + 2.0 * px_per_mm)  # its left edge on the die's right
    _rounded_square(around, neighbour, 22.0 * px_per_mm, 0.0, 3.0 * px_per_mm, (120, 60, 20))
    reading, face = read_d6_around(around)
    assert face is not None
    assert math.dist(face.centre_px, (n / 2.0, n / 2.0)) < 1.5 * px_per_mm
    assert reading is not None and reading.value == value
