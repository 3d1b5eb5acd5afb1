"""A d6 leaning away from a tray camera turns a side to it, seen nearly face on where a flat die's top would be: the
top found in its blob comes out clean but not square, and the pips counted there are that side's, never a reading.
Flat dice seen by the same camera are still read."""

from __future__ import annotations

import math

from dice_throws import sweep_throw

from engine.wire import DieDoubt, DieKind, TraySeen
from vision.synthetic.dice_scenes import DiceCondition
from vision.synthetic.dice_tray import DieTruth, HardCase
from vision.synthetic.effects import Effects

# bench/dice_steep.py --cocked --seed 9300: its third tray camera (45°, 450 mm), whose seed is 9303.
TILT, DISTANCE, SEED = 45.0, 450.0, 9303
EFFECTS = Effects(blur_sigma_px=0.8869575003801353)


def _near(tray: TraySeen, die: DieTruth) -> list[tuple[DieKind, int | None, bool, DieDoubt | None]]:
    return [(d.kind, d.value, d.read, d.doubt) for d in tray.dice
            if math.dist((d.x_mm, d.y_mm), (die.x_mm, die.y_mm)) < 15.0]


def test_a_d6_leaning_away_from_a_tray_camera_is_asked_not_read_by_its_side() -> None:
    """Throw 2: a lone cocked d6 showing 6, leaning away from the camera; its side showing 4 was read (a 4 at 0.828)."""
    condition = DiceCondition("tray camera", TILT, DISTANCE, EFFECTS, HardCase(cocked=True))
    _reader, truth, tray = sweep_throw(condition, SEED, 2)
    (cocked,) = [d for d in truth if d.cocked]
    assert (cocked.kind, cocked.value) == ("d6", 6)
    assert _near(tray, cocked) == [(DieKind.D6, None, False, DieDoubt.COCKED)]
    for real in truth:  # the flat dice beside it (four d10s) are read as their faces
        if not real.cocked:
            assert _near(tray, real) == [(DieKind(real.kind), real.value, True, None)], real


def test_flat_d6s_seen_by_the_same_tray_camera_are_read() -> None:
    """The same camera and light with no die cocked: lone flat d6s, whose tops come out square, are read."""
    condition = DiceCondition("tray camera", TILT, DISTANCE, EFFECTS, HardCase())
    d6s = 0
    for throw in (2, 3):
        _reader, truth, tray = sweep_throw(condition, SEED, throw)
        for real in truth:
            assert _near(tray, real) == [(DieKind(real.kind), real.value, True, None)], real
            d6s += real.kind == "d6"
    assert d6s >= 2
