"""The hand watch on rendered webcam frames: a still table is quiet through sensor noise and JPEG; a hand
moving beside a tag touches that tag and none across the table; a tag coming out from under a hand counts as touched."""

from __future__ import annotations

import numpy as np

from vision.detection import MarkerDetector
from vision.hand_watch import HandWatch
from vision.synthetic.effects import Effects
from vision.synthetic.motion import hand_at
from vision.synthetic.renderer import TableRenderer
from vision.synthetic.scene import TableDrawing


def test_a_still_table_is_quiet_and_a_moving_hand_touches_only_the_tag_beside_it(
        renderer: TableRenderer, table: TableDrawing) -> None:
    rng = np.random.default_rng(0)
    detector = MarkerDetector()
    watch = HandWatch()
    figure = next(f for f in table.figures if f.marker_id == 2)

    def frame(hands: tuple = ()) -> tuple[np.ndarray, list]:  # type: ignore[type-arg]
        image = renderer.render(table.figures, hands, Effects(), rng).image
        return image, detector.detect(image)

    image, found = frame()
    first = watch.near_hand(image, found)
    assert {m.marker_id for m in found} == first  # nothing to compare with yet: every tag counts as touched
    for _ in range(3):
        image, found = frame()
        assert watch.near_hand(image, found) == set()  # noise and JPEG change nothing that counts
    near = figure.marker_mm + 10.0  # the fingertips a centimetre from the tag's edge
    image, found = frame((hand_at(figure.x_mm, figure.y_mm + near, figure.height_mm * 0.5),))
    assert 2 in {m.marker_id for m in found}  # the tag stays in view, the fingers beside it
    far = {4, 5, 6, 7}  # across the table from the hand and its forearm
    touched = watch.near_hand(image, found)
    assert 2 in touched and not touched & far
    image, found = frame((hand_at(figure.x_mm + 1.5, figure.y_mm + near + 1.0, figure.height_mm * 0.5),))
    touched = watch.near_hand(image, found)
    assert 2 in touched and not touched & far  # a hand trembling a millimetre and a half
    image, found = frame()
    touched = watch.near_hand(image, found)
    assert 2 in touched and not touched & far  # the hand left: the picture changed once more
    image, found = frame()
    assert watch.near_hand(image, found) == set()


def test_a_tag_not_seen_in_the_frame_before_counts_as_touched(renderer: TableRenderer, table: TableDrawing) -> None:
    detector = MarkerDetector()
    watch = HandWatch()
    image = renderer.render(table.figures).image
    found = detector.detect(image)
    watch.near_hand(image, found)
    watch.near_hand(image, [m for m in found if m.marker_id != 5])  # tag 5 covered for a frame
    assert watch.near_hand(image, found) == {5}
