"""bench/dice.py's throws replayed for tests: the same seed per condition, the same pictures, read as the bench reads
them (a fresh reader, the frame in which the dice have settled)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.wire import DieSeen, TraySeen
from vision.detection import MarkerDetector
from vision.dice.reader import DiceReader
from vision.dice.tracking import DiceTrackerConfig
from vision.synthetic.dice_scenes import CONDITIONS, DOUBTFUL, READABLE, DiceCondition, DiceScene, random_orders
from vision.synthetic.dice_tray import DieOrder, DieTruth


@dataclass(frozen=True)
class Throw:
    """One settled throw: the picture, the table time it shows, the dice's truth."""

    image: np.ndarray
    now: float
    truth: tuple[DieTruth, ...]


def bench_throws(condition: str, count: int) -> tuple[DiceScene, list[Throw]]:
    """The first ``count`` throws of ``condition`` as bench/dice.py renders them (every earlier throw is rendered
    too: each frame draws the webcam's noise from the scene's generator)."""
    seed = 500 + (*READABLE, *DOUBTFUL).index(condition)  # the bench's seed for the condition
    scene = DiceScene(CONDITIONS[condition], seed=seed)
    rng = np.random.default_rng(seed)
    throws = []
    for k in range(count):
        rest = scene.throw(random_orders(rng, 5, 0.5 if condition in READABLE else 0.0), 6.0 * k)
        image, truth = scene.frame(rest + 0.3)
        throws.append(Throw(image, rest + 0.3, truth))
    return scene, throws


def seen_in(scene: DiceScene, throw: Throw) -> tuple[DieSeen, ...]:
    """The dice read in ``throw``, after checking that no die of the throw is read wrong."""
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    seen = reader.read(throw.image, MarkerDetector().detect(throw.image), throw.now)[0].dice
    for other in seen:
        if other.read:
            real = min(throw.truth, key=lambda d: math.dist((d.x_mm, d.y_mm), (other.x_mm, other.y_mm)))
            assert (str(other.kind), other.value) == (real.kind, real.value), (other, real)
    return seen


def near(seen: tuple[DieSeen, ...], die: DieTruth) -> list[DieSeen]:
    """The dice of ``seen`` near ``die``."""
    return [d for d in seen if math.dist((d.x_mm, d.y_mm), (die.x_mm, die.y_mm)) < 15.0]


def assert_read_right(scene: DiceScene, throw: Throw, *dice: DieTruth) -> None:
    """Each of ``dice`` is seen once in ``throw`` and read as what it shows (and no die of the throw is read wrong);
    the throw is read once."""
    seen = seen_in(scene, throw)
    for die in dice:
        found = near(seen, die)
        assert len(found) == 1 and found[0].read, found
        assert (str(found[0].kind), found[0].value) == (die.kind, die.value)


def sweep_throw(condition: DiceCondition, seed: int, throw: int, cocked_d10: bool = False, rendered: bool = False
                ) -> tuple[DiceReader, tuple[DieTruth, ...], TraySeen]:
    """Throw ``throw`` of one tray camera of bench/dice_steep.py's sweeps (the camera's ``seed``; with ``cocked_d10``
    bench/dice_d10_lean.py's, whose throws' last die is a d10) replayed: the throws before it planned unseen (the
    tray's draws come out as the sweep's), the frame at rest read by a fresh reader that first saw it rolling. The
    reader, the truth and what it read. ``rendered``: each earlier throw's frame at rest is rendered too, so that the
    webcam's noise, drawn from the scene's generator, comes out as the sweep's as well (the dice lie alike either
    way)."""
    scene = DiceScene(condition, seed=seed)
    rng = np.random.default_rng(seed)
    rest = 0.0
    for k in range(throw + 1):
        orders = random_orders(rng, 5)
        if cocked_d10:
            orders[-1] = DieOrder("d10", int(rng.integers(0, 10)))
        rest = scene.throw(orders, 6.0 * k)
        if rendered and k < throw:
            scene.frame(rest + 0.3)
    image, truth = scene.frame(rest + 0.3)
    markers = MarkerDetector().detect(image)
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    reader.prepare(scene.frame(rest - 0.3, np.random.default_rng(seed + throw))[0], markers)
    (tray,) = reader.read(image, markers, rest + 0.3)
    return reader, truth, tray
