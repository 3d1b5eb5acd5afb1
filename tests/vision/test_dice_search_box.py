"""The blobs' search works in the box round what the mat shows (from a tray camera at an angle a quarter of the
rectified tray lies beyond the paper): the box is rectified as the whole tray is, and what lies beyond it changes
nothing the search finds."""

from __future__ import annotations

import numpy as np
import pytest
from dice_throws import bench_throws

from vision.detection import MarkerDetector
from vision.dice.reader import SEGMENT_PX_PER_MM, TOP_PLANE_MM, segment_margin, visible_felt
from vision.dice.segment import SEARCH_ROOM_PX, MatMasks, find_blobs, mat_masks
from vision.dice.tray_view import Lens, TrayView, find_tray


def _tray(condition: str) -> tuple[np.ndarray, TrayView, MatMasks]:
    scene, throws = bench_throws(condition, 1)
    image = throws[0].image
    view = find_tray(MarkerDetector().detect(image), scene.tray.spec,
                     Lens.of(scene.camera, (image.shape[1], image.shape[0])))
    assert view is not None
    return image, view, mat_masks(visible_felt(view))


@pytest.fixture(scope="module")
def oblique65() -> tuple[np.ndarray, TrayView, MatMasks]:
    return _tray("oblique65")


def test_the_box_holds_what_the_mat_shows_with_room_round_it(oblique65: tuple[np.ndarray, TrayView, MatMasks]
                                                              ) -> None:
    _image, _view, mat = oblique65
    top, bottom, left, right = mat.box
    rows, cols = mat.seen.shape
    assert (bottom - top) * (right - left) < 0.85 * rows * cols  # at 65° much of the rectified tray shows nothing
    ys, xs = np.nonzero(mat.seen | mat.band)
    assert top <= max(0, ys.min() - SEARCH_ROOM_PX) and bottom >= min(rows, ys.max() + 1 + SEARCH_ROOM_PX)
    assert left <= max(0, xs.min() - SEARCH_ROOM_PX) and right >= min(cols, xs.max() + 1 + SEARCH_ROOM_PX)


def test_the_box_is_rectified_as_the_whole_tray_and_nothing_beyond(oblique65: tuple[np.ndarray, TrayView, MatMasks]
                                                                   ) -> None:
    image, view, mat = oblique65
    margin = segment_margin(view)
    whole = view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin)
    boxed = view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin, mat.box)
    top, bottom, left, right = mat.box
    assert boxed.shape == whole.shape
    assert np.array_equal(boxed[top:bottom, left:right], whole[top:bottom, left:right])
    beyond = np.ones(whole.shape[:2], bool)
    beyond[top:bottom, left:right] = False
    assert not boxed[beyond].any()


def test_what_lies_beyond_the_box_changes_no_blob(oblique65: tuple[np.ndarray, TrayView, MatMasks]) -> None:
    image, view, mat = oblique65
    margin = segment_margin(view)
    rectified = view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin)
    scrawled = np.random.default_rng(0).integers(0, 256, rectified.shape, dtype=np.uint8)
    top, bottom, left, right = mat.box
    scrawled[top:bottom, left:right] = rectified[top:bottom, left:right]
    found = find_blobs(rectified, mat, SEGMENT_PX_PER_MM, margin)
    again = find_blobs(scrawled, mat, SEGMENT_PX_PER_MM, margin)
    assert found, "the throw's dice"
    assert [(b.box, b.area_mm2, b.centroid_mm, b.touches_edge, b.touches_unknown, b.open_sides) for b in found] == [
        (b.box, b.area_mm2, b.centroid_mm, b.touches_edge, b.touches_unknown, b.open_sides) for b in again]
    assert all(np.array_equal(a.mask, b.mask) for a, b in zip(found, again, strict=True))


def test_a_tray_seen_from_above_is_searched_whole() -> None:
    _image, _view, mat = _tray("plain")
    assert mat.box == (0, mat.seen.shape[0], 0, mat.seen.shape[1])
