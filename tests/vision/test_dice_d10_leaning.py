"""A d10 leaning on something, seen from a tray camera, whose outline fits no flat d10's is asked (cocked), never read;
the flat d10s beside it are still read."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.wire import DieDoubt, DieKind
from vision.detection import MarkerDetector
from vision.dice.reader import DiceReader
from vision.dice.tracking import DiceTrackerConfig
from vision.synthetic.dice_scenes import DiceCondition, DiceScene, random_orders
from vision.synthetic.dice_tray import DieOrder, HardCase
from vision.synthetic.effects import Effects


@pytest.mark.parametrize(("tilt", "distance", "blur", "seed", "throw"), [
    # Scenes of bench/dice_d10_lean.py --cocked-d10 (seed 8100) whose cocked d10 was read before the outline's test:
    (55.0, 360.0, 0.9784897149416273, 8101, 14),  # an 8 read as an 8 at 0.979; its outline fits a flat d10 0.853
    (60.0, 450.0, 0.811354580064943, 8106, 10),  # a 7 read as a 1 at 0.751; 0.861
])
def test_a_cocked_d10_seen_from_a_tray_camera_is_asked(tilt: float, distance: float, blur: float, seed: int,
                                                        throw: int) -> None:
    scene = DiceScene(DiceCondition("tray camera", tilt, distance, Effects(blur_sigma_px=blur),
                                    HardCase(cocked=True)), seed=seed)
    rng = np.random.default_rng(seed)
    rest = 0.0
    for k in range(throw + 1):  # the throws before it, unseen: the tray's own draws come out as the bench's
        orders = random_orders(rng, 5)
        orders[-1] = DieOrder("d10", int(rng.integers(0, 10)))  # the cocked die, the throw's last
        rest = scene.throw(orders, 6.0 * k)
    image, truth = scene.frame(rest + 0.3)
    detector = MarkerDetector()
    markers = detector.detect(image)
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    reader.prepare(scene.frame(rest - 0.3, np.random.default_rng(seed + throw))[0], markers)
    (tray,) = reader.read(image, markers, rest + 0.3)
    (cocked,) = [d for d in truth if d.cocked]
    near = [d for d in tray.dice if math.dist((d.x_mm, d.y_mm), (cocked.x_mm, cocked.y_mm)) < 15.0]
    assert [(d.kind, d.value, d.doubt) for d in near] == [(DieKind.D10, None, DieDoubt.COCKED)], near
    flat = [d for d in truth if d.kind == "d10" and not d.cocked]
    read = []
    for real in flat:
        seen = [d for d in tray.dice if math.dist((d.x_mm, d.y_mm), (real.x_mm, real.y_mm)) < 15.0]
        assert all(d.value in (None, real.value) for d in seen if d.read), (real, seen)  # never another face
        read += [d for d in seen if d.read and d.value == real.value]
    assert flat and read, (flat, tray.dice)
