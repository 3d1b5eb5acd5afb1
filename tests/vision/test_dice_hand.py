"""A hand in the tray is told from dice standing together: it reaches in from beyond what is seen of the tray, or
is bigger than several dice; dice merged from a low angle are neither."""

from __future__ import annotations

import numpy as np
from dice_throws import bench_throws, near, seen_in

from vision.dice.reader import HAND_MM2, is_hand, one_die_mm2
from vision.dice.segment import Blob

NADIR, HEIGHT = (75.0, 450.0), 180.0  # a tray camera about 65° from vertical, 380 mm from the tray's far dice


def _blob(area_mm2: float, touches_edge: bool, centroid: tuple[float, float] = (75.0, 20.0)) -> Blob:
    return Blob(np.zeros((2, 2), np.uint8), (0, 0, 2, 2), centroid, area_mm2, touches_edge)


def test_a_big_patch_reaching_the_edge_of_the_tray_is_a_hand() -> None:
    assert is_hand(_blob(HAND_MM2 + 1.0, True), NADIR, HEIGHT)
    assert not is_hand(_blob(HAND_MM2 - 1.0, True), NADIR, HEIGHT)


def test_dice_standing_together_from_a_low_angle_are_no_hand_unless_more_than_five_dice_big() -> None:
    one = one_die_mm2(_blob(0.0, False), NADIR, HEIGHT)
    assert 3.5 * one > HAND_MM2  # from so low an angle four dice together are bigger than the hand's bare area
    assert not is_hand(_blob(3.5 * one, False), NADIR, HEIGHT)
    assert is_hand(_blob(5.5 * one, False), NADIR, HEIGHT)
    # From above a die covers little more than its top: a patch of the hand's area is a hand, edge or not.
    assert is_hand(_blob(HAND_MM2 + 1.0, False), (75.0, 20.0), 1000.0)


def test_four_dice_one_behind_the_other_are_read_not_taken_for_a_hand() -> None:
    """bench/dice.py's oblique65 throw 65 (of 100): four dice near the far edge made one patch of 3,600 mm², taken
    for a hand: the whole throw was left unread."""
    scene, throws = bench_throws("oblique65", 66)
    throw = throws[65]
    seen = seen_in(scene, throw)  # checks every reading is right
    read = [d for real in throw.truth for d in near(seen, real) if d.read]
    # The four of the patch (the near one: its dark top is kept) and the fifth, each right: the d10 whose numeral, a 0
    # seen along a ray 67.5° from vertical, came at 0.68 under the steep bar (``STEEP_D10_CONFIDENCE``) is read now.
    assert len(read) == 5
