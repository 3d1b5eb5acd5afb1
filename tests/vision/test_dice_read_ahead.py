"""Dice read ahead of settling: the reading is taken once a die has been still a moment, but reported only once it
has settled, dropped if the die moves again, and the same as a reading taken in the frame that settles it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench.dice_settling import CountingReader, nearest
from engine.wire import TraySeen
from vision.detection import MarkerDetector
from vision.dice.reader import DiceReader
from vision.dice.tracking import DiceTracker, DiceTrackerConfig, Sighting
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene, random_orders
from vision.synthetic.dice_tray import DieOrder

CONFIG = DiceTrackerConfig(settle_s=0.25, read_after_s=0.1)


def test_a_still_die_is_ready_to_read_before_it_settles_and_a_moved_one_loses_its_reading() -> None:
    tracker = DiceTracker(CONFIG)
    (track,) = tracker.update([Sighting(50.0, 50.0, 256.0, (16.0, 16.0))], 0.0)
    (track,) = tracker.update([Sighting(50.2, 50.0, 256.0, (16.0, 16.0))], 0.05)
    assert not track.ready_to_read(0.05, CONFIG) and not track.settled(0.05, CONFIG)
    (track,) = tracker.update([Sighting(50.1, 50.1, 256.0, (16.0, 16.0))], 0.12)
    assert track.ready_to_read(0.12, CONFIG) and not track.settled(0.12, CONFIG)
    track.reading = "read ahead"
    (track,) = tracker.update([Sighting(58.0, 50.0, 256.0, (16.0, 16.0))], 0.16)  # knocked: it moves again
    assert track.reading is None and not track.ready_to_read(0.16, CONFIG)


def test_without_read_ahead_a_die_is_ready_to_read_only_once_settled() -> None:
    config = DiceTrackerConfig(settle_s=0.25, read_after_s=None)
    tracker = DiceTracker(config)
    (track,) = tracker.update([Sighting(50.0, 50.0, 256.0)], 0.0)
    assert not track.ready_to_read(0.2, config) and track.ready_to_read(0.25, config)


@pytest.mark.parametrize("seed", [3, 21])
def test_dice_read_ahead_are_reported_only_once_settled_and_as_read_in_the_settle_frame(seed: int) -> None:
    scene = DiceScene(CONDITIONS["plain"], seed=seed)
    detector = MarkerDetector()
    ahead, at_settle = DiceReader(camera=scene.camera, tracker=CONFIG), DiceReader(
        camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.25, read_after_s=None))
    rest = scene.throw([DieOrder("d6", 5), DieOrder("d10", 7), DieOrder("d6", 2)], 0.0)
    frames = [k / 15.0 for k in range(int((rest + 0.45) * 15.0) + 1)]
    last: dict[str, TraySeen] = {}
    for t in frames:
        image, _truth = scene.frame(t)
        markers = detector.detect(image)
        for name, reader in (("ahead", ahead), ("at settle", at_settle)):
            (tray,) = reader.read(image, markers, t)
            for die in tray.dice:  # never a value before the die has settled, read ahead or not
                assert die.settled or die.value is None, (name, t, die)
            last[name] = tray
    assert last["ahead"].settled and last["at settle"].settled
    values = {name: sorted(d.value if d.value is not None else -1 for d in tray.dice) for name, tray in last.items()}
    assert values["ahead"] == values["at settle"] == [2, 5, 7]


def test_in_dim_light_no_die_is_read_while_it_still_rolls() -> None:
    """A dim frame differs from the last one in too few pixels for the reader's "unchanged tray" shortcut to see
    dice moving: it reused the dice's old positions, so that rolling dice looked still (this throw's d6 was read
    ahead 7.5 mm from its rest, still turning, and 1 frame short of being called settled). The shortcut now waits
    until every die has settled, and a die is read only near its rest with its face no longer turning."""
    scene = DiceScene(CONDITIONS["dim"], seed=2)
    rng = np.random.default_rng(2)
    for k in range(2):  # the throws before it, as bench/dice_settling.py makes them
        scene.throw(random_orders(rng, int(rng.integers(1, 5))), 3.0 * k)
    at = 6.0
    rest = scene.throw(random_orders(rng, int(rng.integers(1, 5))), at)
    final = scene.tray.truth(rest + 0.5)
    detector = MarkerDetector()
    reader = CountingReader(scene.camera, DiceTrackerConfig())
    for k in range(math.ceil(at * 30), math.ceil(rest * 30) + 3):
        image, truth = scene.frame(k / 30)
        reader.read_at.clear()
        reader.read(image, detector.detect(image), k / 30)
        for x, y in reader.read_at:
            die = nearest(truth, x, y)
            assert die is not None
            end = final[truth.index(die)]
            assert math.dist((die.x_mm, die.y_mm), (end.x_mm, end.y_mm)) < 1.0, (k, die, end)
            assert abs((die.up_deg - end.up_deg + 180) % 360 - 180) <= 1.0, (k, die, end)
