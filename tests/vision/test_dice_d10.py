"""d10s read from rendered trays: the outline gives the kind and the top face's axis, the numeral is read right in
glare, dim light and from an angle, and a d10 never passes for a d6."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.dice_reading import ReadingKind, read_roll
from engine.prompts import DieRequest, Prompt, PromptKind
from engine.wire import DieKind, TraySeen
from vision.detection import MarkerDetector
from vision.dice.outline import numeral_turns, outline_of
from vision.dice.reader import (
    SEGMENT_PX_PER_MM,
    TOP_PLANE_MM,
    DiceReader,
    locate_dice,
    segment_margin,
    visible_felt,
)
from vision.dice.tracking import DiceTrackerConfig
from vision.dice.tray_view import Lens, find_tray
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene, random_orders
from vision.synthetic.dice_tray import DieOrder, DieTruth


@pytest.fixture(scope="module")
def detector() -> MarkerDetector:
    return MarkerDetector()


def _settled(scene: DiceScene, reader: DiceReader, detector: MarkerDetector, orders: list[DieOrder], at: float
             ) -> tuple[TraySeen, tuple[DieTruth, ...]]:
    """The tray as read once the throw has settled (two frames: the dice are still, then read)."""
    rest = scene.throw(orders, at)
    seen = None
    truth: tuple[DieTruth, ...] = ()
    for t in (rest + 0.05, rest + 0.3, rest + 0.5):
        image, truth = scene.frame(t)
        trays = reader.read(image, detector.detect(image), t)
        seen = trays[0]
    assert seen is not None and seen.settled
    return seen, truth


def _nearest(truth: tuple[DieTruth, ...], x: float, y: float) -> DieTruth:
    near = min(truth, key=lambda d: math.dist((d.x_mm, d.y_mm), (x, y)))
    assert math.dist((near.x_mm, near.y_mm), (x, y)) < 15.0  # as the benchmark matches
    return near


@pytest.mark.parametrize(("condition", "sure"), [("plain", 3), ("oblique55", 5)])
def test_the_outline_tells_a_d10_from_a_d6_and_gives_the_axis_of_its_top_face(detector: MarkerDetector,
                                                                           condition: str, sure: int) -> None:
    """From above, a d10's outline is close to a d6's: the kind may be left open (the numeral decides), never wrong."""
    scene = DiceScene(CONDITIONS[condition], seed=41)
    orders = [DieOrder("d10", 3), DieOrder("d6", 5), DieOrder("d10", 6), DieOrder("d6", 2), DieOrder("d10", 9)]
    rest = scene.throw(orders, 0.0)
    image, truth = scene.frame(rest + 0.3)
    view = find_tray(detector.detect(image), scene.tray.spec, Lens.of(scene.camera, (image.shape[1], image.shape[0])))
    assert view is not None
    found, _hand = locate_dice(image, view, visible_felt(view))
    kinds = []
    for blob, _face, count in found:
        assert count == 1
        outline = outline_of(blob, view.camera_mm, TOP_PLANE_MM, SEGMENT_PX_PER_MM, segment_margin(view))
        real = _nearest(truth, *outline.d10.centre_mm)
        kinds.append((outline.kind, real.kind))
        if real.kind == "d10":
            turns = numeral_turns(outline.d10)
            assert 2 <= len(turns) <= 10  # the axis both ways up, and the other likely axes: not 24 turns
            assert min(abs((t - real.up_deg + 180.0) % 360.0 - 180.0) for t in turns) <= 20.0
    assert sorted(k for _o, k in kinds) == ["d10", "d10", "d10", "d6", "d6"]
    assert all(seen in (real, None) for seen, real in kinds)  # never the other kind
    assert sum(seen == real for seen, real in kinds) >= sure


@pytest.mark.parametrize(("condition", "seed", "least"), [("glare", 42, 9), ("dim", 43, 9), ("oblique45", 44, 9),
                                                           ("oblique55", 45, 7)])
def test_rendered_d10s_are_read_right_in_hard_light_and_from_an_angle(detector: MarkerDetector, condition: str,
                                                                      seed: int, least: int) -> None:
    """Every numeral, 6 and 9 (told apart by their bar) among them, whatever its turn; the classifier that turned
    the face every 15° read a third of them in glare or dim light and almost none from 55°. Whatever is read
    is right (at 55° some dice one behind the other are asked about)."""
    scene = DiceScene(CONDITIONS[condition], seed=seed)
    reader = DiceReader(camera=scene.camera)
    values = [(6, 9, 0, 8, 3), (1, 2, 4, 5, 7)]
    read = right = 0
    for k, throw in enumerate(values):
        seen, truth = _settled(scene, reader, detector, [DieOrder("d10", v) for v in throw], 6.0 * k)
        for die in seen.dice:
            real = _nearest(truth, die.x_mm, die.y_mm)
            if die.read:
                read += 1
                assert (die.kind, die.value) == (DieKind.D10, real.value), (die, real)
                right += 1
    assert right >= least, f"{right} of 10 read right in {condition}"


def test_a_glossy_d10_where_a_d6_is_asked_for_is_never_taken_for_a_d6(detector: MarkerDetector) -> None:
    """The tablet asks (the kind differs from the prompt's), never proposes the d10 as a d6's face."""
    scene = DiceScene(CONDITIONS["glare"], seed=46)
    reader = DiceReader(camera=scene.camera)
    prompt = Prompt(PromptKind.ROLL, "a", "Roll 1d6", dice=(DieRequest("a", 6, "attack"),))
    rng = np.random.default_rng(46)
    for k in range(6):
        seen, _truth = _settled(scene, reader, detector, [DieOrder("d10", int(rng.integers(0, 10)))], 4.0 * k)
        assert len(seen.dice) == 1
        die = seen.dice[0]
        assert not (die.read and die.kind is DieKind.D6), die
        assert read_roll(prompt, (None,), seen, None).kind is ReadingKind.QUESTION


def test_the_glossy_d10_once_read_as_a_d6_showing_3_is_not(detector: MarkerDetector) -> None:
    """The benchmark's one silent misread (glare, its 138th throw): a glossy d10 showing 7 whose top looked square
    and whose highlight and numeral passed for the pips of a 3. Its throw is replayed exactly (every earlier throw
    and frame draws on the same random streams)."""
    scene = DiceScene(CONDITIONS["glare"], seed=501)
    rng = np.random.default_rng(501)
    for k in range(138):
        rest = scene.throw(random_orders(rng, 5, 0.5), 6.0 * k)
        image, truth = scene.frame(rest + 0.3)
    reader = DiceReader(camera=scene.camera, tracker=DiceTrackerConfig(settle_s=0.0))
    seen = reader.read(image, detector.detect(image), rest + 0.3)[0]
    sevens = [d for d in truth if (d.kind, d.value) == ("d10", 7)]
    assert sevens
    for real in sevens:
        near = [d for d in seen.dice if math.dist((d.x_mm, d.y_mm), (real.x_mm, real.y_mm)) < 15.0]
        assert near
        assert all(not d.read or (d.kind, d.value) == (DieKind.D10, 7) for d in near), near
