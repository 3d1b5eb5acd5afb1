"""Where tags might be: the regions cover every tag yet little of the frame, and quads outline them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.candidates import CandidateFinder, CandidateSettings
from vision.synthetic.effects import Effects
from vision.synthetic.renderer import RenderedFrame, TableRenderer
from vision.synthetic.scene import Figure


def _figures(rng: np.random.Generator, count: int = 16) -> tuple[Figure, ...]:
    cells = rng.permutation(40)[:count]
    return tuple(Figure(int(k), 80.0 + (c % 8) * 62 + rng.uniform(-8, 8), 70.0 + (c // 8) * 62 + rng.uniform(-8, 8),
                        float(rng.uniform(-180, 180)), float(rng.uniform(20, 25)), float(rng.choice([0.0, 30.0])))
                 for k, c in enumerate(cells))


def _gray(frame: RenderedFrame) -> np.ndarray:
    return cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)


def _covered(box: tuple[int, int, int, int], corners: np.ndarray) -> bool:
    x0, y0, x1, y1 = box
    return bool(((corners[:, 0] >= x0) & (corners[:, 0] <= x1) & (corners[:, 1] >= y0) & (corners[:, 1] <= y1)).all())


@pytest.mark.parametrize("effects", [Effects(), Effects(gain=0.35), Effects(blur_sigma_px=2.0)],
                         ids=["webcam", "dim room", "blurred"])
def test_regions_hold_every_tag_and_little_else(renderer: TableRenderer, effects: Effects) -> None:
    rng = np.random.default_rng(5)
    finder = CandidateFinder()
    for _ in range(3):
        frame = renderer.render(_figures(rng), effects=effects, rng=rng)
        gray = _gray(frame)
        half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
        boxes = [tuple(2 * v for v in box) for box in finder.regions(half)]
        for t in frame.truth:
            if t.visible:
                assert any(_covered(b, t.corners_px) for b in boxes), f"tag {t.marker_id} outside every region"
        area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
        assert area < 0.15 * gray.size  # the point of the regions: most of the frame is never traced


def test_quads_outline_every_visible_tag(renderer: TableRenderer) -> None:
    rng = np.random.default_rng(11)
    frame = renderer.render(_figures(rng), effects=Effects(), rng=rng)
    quads = CandidateFinder().quads(_gray(frame))
    for t in frame.truth:
        if not t.visible:
            continue
        # corner order differs between a contour and the truth: compare as sets of points
        dist = np.linalg.norm(quads[:, :, None, :] - t.corners_px[None, None, :, :], axis=3).min(axis=2).max(axis=1)
        assert dist.min() < 3.0, f"no quad within the edge fit's reach (3 px) of tag {t.marker_id}"


def test_flat_tiny_and_empty_frames_give_nothing() -> None:
    finder = CandidateFinder()
    assert finder.quads(np.full((1080, 1920), 128, np.uint8)).shape == (0, 4, 2)
    assert finder.quads(np.zeros((30, 40), np.uint8)).shape == (0, 4, 2)
    assert finder.quads(np.zeros((3, 3), np.uint8)).shape == (0, 4, 2)
    assert finder.quads(np.zeros((1, 1), np.uint8)).shape == (0, 4, 2)


def test_tag_size_limits_are_kept(renderer: TableRenderer) -> None:
    frame = renderer.render((Figure(1, 300.0, 200.0, 10.0, 25.0),), effects=Effects())
    gray = _gray(frame)
    assert CandidateFinder().quads(gray).shape[0] > 0
    # the tag is about 30 px wide: looking only for tags of at least 60 px finds no outline of it
    big_only = CandidateFinder(CandidateSettings(min_side_px=60.0, max_side_px=200.0)).quads(gray)
    assert big_only.shape[0] == 0


def _contour_boxes(mask: np.ndarray, margin: int, w: int, h: int) -> list[tuple[int, int, int, int]]:
    """The boxes the regions are defined by: the outer contours' bounding boxes, grown and merged."""
    from vision.candidates import merge_overlapping

    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for contour in contours:
        x, y, bw, bh = cv2.boundingRect(contour)
        boxes.append((max(0, (x - margin) * 2), max(0, (y - margin) * 2),
                      min(w, (x + bw + margin) * 2), min(h, (y + bh + margin) * 2)))
    return merge_overlapping(boxes)


def test_blob_boxes_are_the_outer_contours_boxes_in_their_order() -> None:
    """Blobs in another's hole give no box, blobs in a bay do, and the order is the contours' (the
    canvas is packed in it, so a different order may find different tags)."""
    from vision.candidates import _blob_boxes

    rng = np.random.default_rng(7)
    for _ in range(60):
        mask = np.zeros((120, 160), np.uint8)
        for _ in range(int(rng.integers(1, 9))):
            x, y, s = (int(v) for v in (rng.integers(0, 140), rng.integers(0, 100), rng.integers(4, 40)))
            cv2.rectangle(mask, (x, y), (x + s, y + s), 255, int(rng.integers(1, 3)))
            if rng.random() < 0.6:  # a blob in the ring's hole
                cv2.circle(mask, (x + s // 2, y + s // 2), max(1, s // 6), 255, -1)
            if rng.random() < 0.4:  # a bay: a ring open on one side, with a blob in it
                cv2.line(mask, (x + s, y), (x + s + s // 2, y + s // 2), 255, 1)
        boxes = [tuple(b) for b in _blob_boxes(mask, 3, 320, 240).tolist()]
        assert boxes == _contour_boxes(mask, 3, 320, 240)
