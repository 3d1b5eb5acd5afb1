"""A leaning (cocked) d6 is asked, never read: its blob is no flat cube's around its top face."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.detection import MarkerDetector
from vision.dice.leaning import beyond_swept_face_mm2, leans_by_pips, leans_from_above, pip_rectangle
from vision.dice.reader import DiceReader
from vision.dice.segment import Blob
from vision.dice.top_face import TopFace
from vision.dice.tracking import DiceTrackerConfig
from vision.synthetic.dice_scenes import CONDITIONS, DiceCondition, DiceScene, random_orders
from vision.synthetic.dice_tray import HardCase

PX_PER_MM = 2.0


def _blob(polygons_mm: list[list[tuple[float, float]]], size_mm: float = 60.0) -> Blob:
    """A blob (no margin, box at the origin) filling the given polygons."""
    n = round(size_mm * PX_PER_MM)
    mask = np.zeros((n, n), np.uint8)
    for polygon in polygons_mm:
        pts = np.array([[(x * PX_PER_MM - 0.5) * 16, (y * PX_PER_MM - 0.5) * 16] for x, y in polygon], np.int32)
        cv2.fillConvexPoly(mask, cv2.convexHull(pts), 255, cv2.LINE_8, shift=4)
    area = float(np.count_nonzero(mask)) / PX_PER_MM ** 2
    return Blob(mask, (0, 0, n, n), (30.0, 30.0), area, False)


SQUARE = [(22.0, 22.0), (38.0, 22.0), (38.0, 38.0), (22.0, 38.0)]  # a top face, 16 mm
NADIR = (30.0, -500.0)  # straight "up" the picture from the die
SWEEP = 6.0


def test_a_flat_cube_s_blob_lies_within_its_top_face_swept_towards_the_nadir() -> None:
    flat = _blob([SQUARE + [(x, y - SWEEP) for x, y in SQUARE]])
    assert beyond_swept_face_mm2(flat, SQUARE, NADIR, SWEEP, PX_PER_MM, 0.0) < 5.0


def test_a_leaning_cube_s_upturned_side_lies_beyond_it() -> None:
    side = [(38.0, 22.0), (44.0, 22.0), (44.0, 38.0), (38.0, 38.0)]  # a side's strip, 6 mm, to the right
    leaning = _blob([SQUARE + [(x, y - SWEEP) for x, y in SQUARE], side])
    assert beyond_swept_face_mm2(leaning, SQUARE, NADIR, SWEEP, PX_PER_MM, 0.0) > 35.0


@pytest.mark.parametrize(("sides", "fill", "leans"), [
    ((19.5, 19.6), 0.92, False),  # a flat die's top: square
    ((19.5, 22.0), 0.87, True),  # a top face and an upturned side
    ((16.8, 19.0), 0.9, False),  # not square, but smaller than a face (cut short by blur): a flat die's
    ((19.5, 23.0), 0.7, False),  # ragged: says nothing
])
def test_a_top_left_square_from_above_is_a_flat_die_s(sides: tuple[float, float], fill: float, leans: bool) -> None:
    face = TopFace((30.0, 30.0), 0.0, sides, fill, fill * sides[0] * sides[1], (0.0, 1.0))
    assert leans_from_above(face) is leans


@pytest.mark.parametrize("throw", [
    42,  # a blue d6 leaning with its 3 up and a 6 beside it: its top and that side are no square
])
def test_the_cocked_dice_bench_throws_read_are_asked(throw: int) -> None:
    """Throws of ``bench/dice.py --only cocked`` (seed 507) whose leaning die was read (with its right value) before
    the leaning tests. (Throw 74's, the seventh, is asked anyway when its frame is rendered alone: not a test.)"""
    scene, rest = _bench_throw("cocked", 507, throw, 0.0)
    image, truth = scene.frame(rest + 0.3)
    detector = MarkerDetector()
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    (tray,) = reader.read(image, detector.detect(image), rest + 0.3)
    (cocked,) = [d for d in truth if d.cocked]
    near = [d for d in tray.dice if math.dist((d.x_mm, d.y_mm), (cocked.x_mm, cocked.y_mm)) < 14.0]
    assert near and all(d.value is None and d.doubt is not None and not d.read for d in near), near
    for real in truth:
        if real.cocked:
            continue
        seen = [d for d in tray.dice if math.dist((d.x_mm, d.y_mm), (real.x_mm, real.y_mm)) < 14.0]
        assert [(d.value, d.read) for d in seen] == [(real.value, True)], (real, seen)


def _bench_throw(condition: str, seed: int, k: int, d10_share: float) -> tuple[DiceScene, float]:
    """The scene after throw ``k`` of ``bench/dice.py``'s run of ``condition`` (its seed), and when it came to rest.
    (The bench renders every throw's frame, which draws on the webcam's noise: the picture is not the bench's to the
    pixel, and a die on the edge of being read may come out otherwise.)"""
    scene = DiceScene(CONDITIONS[condition], seed=seed)
    rng = np.random.default_rng(seed)
    rest = 0.0
    for i in range(k + 1):
        rest = scene.throw(random_orders(rng, 5, d10_share), 6.0 * i)
    return scene, rest


def test_a_flat_1_from_a_low_tray_camera_is_read_on_its_d6_outline() -> None:
    """Throw 37 of ``bench/dice.py --only oblique65`` (seed 505): a lone d6 showing a 1, its outline a flat d6's
    (0.98), the top left once its sides are taken away not square (a low angle's ragged top) — it was asked as if
    it leaned."""
    scene, rest = _bench_throw("oblique65", 505, 37, 0.5)
    image, truth = scene.frame(rest + 0.3)
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    (tray,) = reader.read(image, MarkerDetector().detect(image), rest + 0.3)
    (one,) = [d for d in truth if math.dist((d.x_mm, d.y_mm), (50.0, 37.0)) < 3.0]  # the lone 1 (of three 1s)
    near = [d for d in tray.dice if math.dist((d.x_mm, d.y_mm), (one.x_mm, one.y_mm)) < 14.0]
    assert [(str(d.kind), d.value, d.read) for d in near] == [("d6", 1, True)], near
    for die in tray.dice:  # whatever is read is right
        if die.read:
            real = min(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), (die.x_mm, die.y_mm)))
            assert (str(die.kind), die.value) == (real.kind, real.value)


def _face_with_pips(value_spots: list[tuple[float, float]], squash: float) -> np.ndarray:
    """A dark die's top face (22 mm at 6 px/mm) with light pips at these spots (mm from the middle), squashed
    along x by ``squash`` (a face leaning away, seen from above)."""
    patch = np.full((132, 132, 3), (30, 30, 30), np.uint8)
    for x, y in value_spots:
        cv2.circle(patch, (round(66 + x * squash * 6.0), round(66 + y * 6.0)), 9, (230, 230, 230), -1, cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(patch, (0, 0), 1.5), np.uint8)


SIX = [(-4.0, -4.0), (-4.0, 0.0), (-4.0, 4.0), (4.0, -4.0), (4.0, 0.0), (4.0, 4.0)]


def test_a_flat_six_s_corner_pips_make_a_square_a_leaning_one_s_an_oblong() -> None:
    flat = pip_rectangle(_face_with_pips(SIX, 1.0), 6, 6.0)
    assert flat is not None and flat[0] > 0.97 and 7.9 <= flat[1] <= 8.3
    assert not leans_by_pips(_face_with_pips(SIX, 1.0), 6, 6.0)
    assert leans_by_pips(_face_with_pips(SIX, 0.84), 6, 6.0)
    assert not leans_by_pips(_face_with_pips([(-4.0, -4.0), (4.0, 4.0)], 0.84), 2, 6.0)  # a 2 has no rectangle


def test_a_face_leaning_towards_a_tray_camera_is_stretched_beyond_a_flat_face_s_layout() -> None:
    """From an angle a leaning face's corner pips make an oblong longer than a face's layout (rendered at 55°: 0.65–0.70
    over 11.9–12.6 mm); from above such a span is a stray pip's, and from an angle an oblong of a layout's size is a pip
    found amiss: neither says anything."""
    stretched = _face_with_pips(SIX, 1.5)
    rectangle = pip_rectangle(stretched, 6, 6.0)
    assert rectangle is not None and rectangle[0] < 0.7 and 11.5 <= rectangle[1] <= 12.5
    assert not leans_by_pips(stretched, 6, 6.0)
    assert leans_by_pips(stretched, 6, 6.0, angled=True)
    assert not leans_by_pips(_face_with_pips(SIX, 1.0), 6, 6.0, angled=True)
    assert not leans_by_pips(_face_with_pips(SIX, 0.84), 6, 6.0, angled=True)  # not stretched: a pip found amiss


@pytest.mark.parametrize("throw", [
    51,  # a red d6 showing 6, leaning towards the camera, in one blob with a d6 behind it
    70,  # a d6 showing 6, leaning towards the camera
])
def test_a_d6_leaning_towards_a_tray_camera_at_55_degrees_is_asked(throw: int) -> None:
    """Throws (seed 700) of cocked d6s seen by a tray camera at 55°: the leaning die's top, found in its blob, was read
    at its true face (the pip oblong was checked from above only)."""
    condition = DiceCondition("cocked55", 55.0, 420.0, hard=HardCase(cocked=True))
    scene = DiceScene(condition, seed=700)
    rng = np.random.default_rng(700)
    rest = 0.0
    for i in range(throw + 1):
        rest = scene.throw(random_orders(rng, 5, 0.0), 6.0 * i)
    image, truth = scene.frame(rest + 0.3)
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    (tray,) = reader.read(image, MarkerDetector().detect(image), rest + 0.3)
    (cocked,) = [d for d in truth if d.cocked]
    near = [d for d in tray.dice if math.dist((d.x_mm, d.y_mm), (cocked.x_mm, cocked.y_mm)) < 14.0]
    assert near and all(not d.read for d in near), near
    for die in tray.dice:  # whatever is read is right
        if die.read:
            real = min(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), (die.x_mm, die.y_mm)))
            assert (str(die.kind), die.value) == (real.kind, real.value)
