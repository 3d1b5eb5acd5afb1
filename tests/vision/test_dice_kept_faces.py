"""Top faces kept for blobs that have not changed while dice come to rest: fewer top-face searches, the dice read as
when every frame finds them afresh; a die that creeps has its faces found again, and a hand is seen; a still die whose
top face, found afresh, wanders stays still (judged from its blob)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest

from engine.wire import TraySeen
from vision.detection import MarkerDetector
from vision.dice import reader as reader_module
from vision.dice.kept_faces import SAME_AREA_SHARE, SAME_BOX_PX, SAME_CENTRE_MM, KeptFaces
from vision.dice.reader import DiceReader
from vision.dice.segment import Blob
from vision.dice.top_face import TopFace
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene, random_orders

FPS = 30.0
FACE = TopFace((40.0, 60.0), 10.0, (16.0, 16.2), 0.95, 259.0, (0.0, 1.0))


def _blob(x: float, area: float = 400.0, box: tuple[int, int, int, int] = (60, 100, 40, 42)) -> Blob:
    return Blob(np.zeros((box[3], box[2]), np.uint8), box, (x, 60.0), area, False)


def test_a_blob_as_it_was_takes_the_faces_found_in_it_moved_with_its_centre() -> None:
    kept = KeptFaces()
    kept.found(_blob(40.0), [FACE])
    kept.next_frame()
    (moved,) = kept.faces_of(_blob(40.2, 402.0, (61, 100, 39, 42))) or []  # its left edge a pixel on
    assert moved.centre_mm == pytest.approx((40.2, 60.0)) and moved.sides_mm == FACE.sides_mm
    assert kept.faces_of(_blob(40.0, box=(60 + SAME_BOX_PX + 1, 100, 40, 42))) is None  # its box moved
    assert kept.faces_of(_blob(40.0, box=(60, 100, 40, 42 + SAME_BOX_PX + 1))) is None  # grown down
    assert kept.faces_of(_blob(40.0, 400.0 * (1 + 1.5 * SAME_AREA_SHARE))) is None  # grown
    assert kept.faces_of(_blob(40.0 + 1.5 * SAME_CENTRE_MM)) is None


def test_a_creeping_blob_is_held_against_the_blob_its_faces_were_found_in() -> None:
    kept = KeptFaces()
    kept.found(_blob(40.0), [FACE])
    kept.next_frame()
    step = 0.6 * SAME_CENTRE_MM
    assert kept.faces_of(_blob(40.0 + step)) is not None
    kept.next_frame()
    assert kept.faces_of(_blob(40.0 + 2 * step)) is None  # 1.2 × SAME_CENTRE_MM from where its faces were found


def test_a_frame_without_a_blob_keeps_no_faces() -> None:
    kept = KeptFaces()
    kept.found(_blob(40.0), [FACE])
    kept.next_frame()
    kept.next_frame()  # a hand: no blob searched
    assert kept.faces_of(_blob(40.0)) is None


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
    """What a tray's message says, but for the dice's places (kept faces keep the place they were found at)."""
    return (tray.roll, tray.settled, sorted((d.track_id, str(d.kind), d.value, d.confidence, d.settled, str(d.doubt))
                                            for d in tray.dice))


@pytest.mark.parametrize("condition, seed", [("oblique65", 505), ("plain", 500)])
def test_dice_coming_to_rest_keep_their_faces_yet_settle_and_read_as_when_found_every_frame(
        monkeypatch: pytest.MonkeyPatch, condition: str, seed: int) -> None:
    scene, frames = _stream(condition, seed, 0, 0.3, 0.4)
    markers = MarkerDetector().detect(frames[-1][1])
    afresh, keeping = DiceReader(camera=scene.camera, keep_faces=False), DiceReader(camera=scene.camera)
    faces = _counting(monkeypatch, "top_faces")
    searched = {"afresh": 0, "keeping": 0}
    for now, image in frames:
        before = len(faces)
        expected = afresh.read(image, markers, now)
        searched["afresh"] += len(faces) - before
        before = len(faces)
        got = keeping.read(image, markers, now)
        searched["keeping"] += len(faces) - before
        assert [_outcome(t) for t in got] == [_outcome(t) for t in expected], now
    assert expected[0].settled and all(d.read or d.doubt is not None for d in expected[0].dice)
    assert searched["keeping"] < 0.8 * searched["afresh"], searched


def _hand(reader: DiceReader, image: np.ndarray) -> np.ndarray:
    """``image`` with a hand-sized patch reaching into the tray over its near edge (90 × 90 mm)."""
    out = image.copy()
    corners = np.array([[40.0, -40.0, 0.0], [130.0, -40.0, 0.0], [130.0, 50.0, 0.0], [40.0, 50.0, 0.0]])
    view = reader._trays["tray"].view
    assert view is not None
    cv2.fillPoly(out, [view.project(corners).round().astype(np.int32)], (60, 90, 140))
    return out


def test_a_hand_reaching_in_while_faces_are_kept_is_seen_in_its_frame() -> None:
    scene, frames = _stream("oblique65", 505, 0, 0.3, 0.0)
    markers = MarkerDetector().detect(frames[-1][1])
    afresh, keeping = DiceReader(camera=scene.camera, keep_faces=False), DiceReader(camera=scene.camera)
    for now, image in frames[:-1]:
        afresh.read(image, markers, now)
        keeping.read(image, markers, now)
    now, image = frames[-1]
    hand = _hand(keeping, image)
    (seen,) = keeping.read(hand, markers, now)
    (expected,) = afresh.read(hand, markers, now)
    assert seen == expected and seen.dice == () and not seen.settled
    assert all(t.still_since == now for t in keeping._trays["tray"].tracker.tracks.values())
