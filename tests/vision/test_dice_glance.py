"""A glance between whole searches: frames of dice not yet settled whose glance shows every blob where it was take the
last search's finding (no top faces searched again), yet the dice settle in the same frames and read the same; a die
that creeps, a die that comes and a hand are seen."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest

from engine.wire import TraySeen
from vision.detection import MarkerDetector
from vision.dice import reader as reader_module
from vision.dice.glance import GLANCE_STEP_MM, Glance, same_places
from vision.dice.reader import DiceReader
from vision.dice.tracking import DiceTracker, Sighting
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene, random_orders

FPS = 30.0
DIE = (40.0, 60.0, 420.0, 20, 22)  # a blob at 1 px/mm: centre (mm), area (mm²), box (px)


def test_a_glance_is_the_same_only_with_every_blob_where_it_was() -> None:
    then = Glance((DIE, (90.0, 30.0, 400.0, 20, 20)))
    nudged = Glance(((90.1, 30.0, 401.0, 20, 21), (40.0 + 0.8 * GLANCE_STEP_MM, 60.0, 415.0, 21, 22)))
    assert same_places(nudged, then)  # in any order
    assert not same_places(Glance(((40.0 + 1.5 * GLANCE_STEP_MM, 60.0, 420.0, 20, 22), then.blobs[1])), then)
    assert not same_places(Glance(((40.0, 60.0, 470.0, 20, 22), then.blobs[1])), then)  # grown: a die turning up
    assert not same_places(Glance((DIE, then.blobs[1], (120.0, 80.0, 400.0, 20, 20))), then)  # a die came
    assert not same_places(Glance((DIE,)), then)  # one left (or two merged)


def test_a_die_is_firmly_still_only_well_within_the_bounds_of_stillness() -> None:
    tracker = DiceTracker()
    (track,) = tracker.update([Sighting(50.0, 50.0, 300.0, (16.0, 16.0))], 0.0)
    assert tracker.firmly_still(Sighting(50.4, 50.0, 300.0, (16.0, 16.0)), track, 0.3, 0.05)
    assert not tracker.firmly_still(Sighting(50.8, 50.0, 300.0, (16.0, 16.0)), track, 0.3, 0.05)  # still, not firmly
    assert not tracker.firmly_still(Sighting(50.0, 50.0, 330.0, (16.0, 16.0)), track, 0.3, 0.05)
    assert not tracker.firmly_still(Sighting(50.0, 50.0, 300.0, (16.0, 17.9)), track, 0.3, 0.05)


def _stream(condition: str, seed: int, throw: int, before_s: float, after_s: float
            ) -> tuple[DiceScene, list[tuple[float, np.ndarray]]]:
    """A throw's frames at 30 fps from ``before_s`` before its dice rest to ``after_s`` after."""
    scene = DiceScene(CONDITIONS[condition], seed=seed)
    rng = np.random.default_rng(seed)
    rest = 0.0
    for k in range(throw + 1):
        rest = scene.throw(random_orders(rng, 5, 0.5), 6.0 * k)
    first = rest - round(before_s * FPS) / FPS
    times = [first + j / FPS for j in range(round((before_s + after_s) * FPS) + 1)]
    return scene, [(t, scene.frame(t, np.random.default_rng(j))[0]) for j, t in enumerate(times)]


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Counts the calls of the reader's ``name`` (one item per call)."""
    calls: list[int] = []
    original: Callable[..., Any] = getattr(reader_module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(reader_module, name, counted)
    return calls


def _outcome(tray: TraySeen) -> tuple[Any, ...]:
    """What a tray's message says, but for the dice's places (a glance keeps the last search's, within a mm)."""
    return (tray.roll, tray.settled, sorted((d.track_id, str(d.kind), d.value, d.confidence, d.settled, str(d.doubt))
                                            for d in tray.dice))


@pytest.mark.parametrize("condition, seed, throw", [("oblique65", 505, 1), ("oblique45", 503, 2)])
def test_dice_not_yet_settled_are_glanced_at_yet_settle_and_read_as_when_searched_every_frame(
        monkeypatch: pytest.MonkeyPatch, condition: str, seed: int, throw: int) -> None:
    scene, frames = _stream(condition, seed, throw, 0.4, 0.4)
    markers = MarkerDetector().detect(frames[-1][1])
    whole, glancing = (DiceReader(camera=scene.camera, glances=False), DiceReader(camera=scene.camera))
    faces = _counting(monkeypatch, "top_faces")
    unsettled_without_faces = 0
    for now, image in frames:
        expected = whole.read(image, markers, now)
        before = len(faces)
        got = glancing.read(image, markers, now)
        assert [_outcome(t) for t in got] == [_outcome(t) for t in expected], now
        places = {d.track_id: (d.x_mm, d.y_mm) for d in expected[0].dice}
        assert all(math.dist((d.x_mm, d.y_mm), places[d.track_id]) <= 1.5 for d in got[0].dice)
        unsettled_without_faces += len(faces) == before and not got[0].settled
    assert expected[0].settled and all(d.read or d.doubt is not None for d in expected[0].dice)
    assert unsettled_without_faces >= 1  # frames of dice not yet settled that found no top face again


def _hand(scene: DiceScene, reader: DiceReader, image: np.ndarray) -> np.ndarray:
    """``image`` with a hand-sized patch reaching into the tray over its near edge (90 × 90 mm)."""
    out = image.copy()
    corners = np.array([[40.0, -40.0, 0.0], [130.0, -40.0, 0.0], [130.0, 50.0, 0.0], [40.0, 50.0, 0.0]])
    view = reader._trays["tray"].view
    assert view is not None
    polygon = view.project(corners).round().astype(np.int32)
    cv2.fillPoly(out, [polygon], (60, 90, 140))
    return out


def test_a_hand_reaching_in_while_dice_are_glanced_at_is_seen_in_its_frame() -> None:
    scene, frames = _stream("oblique65", 505, 1, 0.4, 0.4)
    markers = MarkerDetector().detect(frames[-1][1])
    whole, glancing = DiceReader(camera=scene.camera, glances=False), DiceReader(camera=scene.camera)
    state = glancing._trays["tray"]
    k = 0
    while k == 0 or not (state.firm and state.glanced is not None):  # until the next frame would be glanced at
        now, image = frames[k]
        whole.read(image, markers, now)
        glancing.read(image, markers, now)
        k += 1
    now, image = frames[k]
    hand = _hand(scene, glancing, image)
    (seen,) = glancing.read(hand, markers, now)
    (expected,) = whole.read(hand, markers, now)
    assert seen == expected and seen.dice == () and not seen.settled
    assert all(t.still_since == now for t in state.tracker.tracks.values())
