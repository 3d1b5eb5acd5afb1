"""A d6 merged with another die is read at the top its fitted outline places as well as at the face found in its own
pixels: where that face is a part of its top only, the two counts differ, and the die is asked, never read by the
part. Where the face found is its whole top, both agree and the die is read."""

from __future__ import annotations

import math

from dice_throws import sweep_throw

from engine.wire import DieDoubt, DieKind, TraySeen
from vision.synthetic.dice_scenes import DiceCondition
from vision.synthetic.dice_tray import DieTruth, HardCase
from vision.synthetic.effects import Effects

# bench/dice_steep.py --cocked --seed 7600 --tilts 45 55 60 65 67.5 70: its eleventh tray camera (65°, 405 mm), whose
# seed is 7611.
TILT, DISTANCE, SEED, THROW = 65.0, 405.0, 7611, 4
CONDITION = DiceCondition("tray camera", TILT, DISTANCE, Effects(blur_sigma_px=1.148313269156461),
                          HardCase(cocked=True))


def _near(tray: TraySeen, die: DieTruth) -> list[tuple[DieKind, int | None, bool, DieDoubt | None]]:
    return [(d.kind, d.value, d.read, d.doubt) for d in tray.dice
            if math.dist((d.x_mm, d.y_mm), (die.x_mm, die.y_mm)) < 15.0]


def _flat_five(truth: tuple[DieTruth, ...]) -> DieTruth:
    (five,) = [d for d in truth if not d.cocked and (d.kind, d.value) == ("d6", 5)]
    return five


def test_a_merged_d6_whose_face_in_its_pixels_is_part_of_its_top_is_asked() -> None:
    """Throw 4 as the sweep renders it: a flat yellow 5 in one blob with a 1, its face found in its own pixels 10.4 ×
    11.4 mm around its middle pip and a corner pip (read as a 2 at 0.566); its fitted top reads a 5. Under another
    draw of the webcam's noise the face found in its pixels is its whole top, both places read the 5, and it is read."""
    _reader, truth, tray = sweep_throw(CONDITION, SEED, THROW, rendered=True)
    five = _flat_five(truth)
    assert _near(tray, five) == [(DieKind.D6, None, False, DieDoubt.LOW_CONFIDENCE)]
    for real in truth:  # the flat dice beside it are read as their faces; the cocked 5 is not read
        if real is not five:
            expected = [] if real.cocked else [(DieKind(real.kind), real.value, True, None)]
            assert [n for n in _near(tray, real) if n[2]] == expected, real
    _reader, truth, tray = sweep_throw(CONDITION, SEED, THROW)
    assert _near(tray, _flat_five(truth)) == [(DieKind.D6, 5, True, None)]
