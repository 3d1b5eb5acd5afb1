"""Quads from connected shapes: a tag-like ring gives its four corners; lines, specks and shapes of
the wrong size give none."""

from __future__ import annotations

import cv2
import numpy as np

from vision.components import component_quads


def _corners_match(quad: np.ndarray, truth: np.ndarray, tolerance: float) -> bool:
    return bool(np.linalg.norm(quad[:, None, :] - truth[None, :, :], axis=2).min(axis=1).max() <= tolerance)


def test_a_turned_foreshortened_ring_gives_its_corners_in_order() -> None:
    image = np.zeros((80, 100), np.uint8)
    truth = np.array([[20.0, 30.0], [60.0, 14.0], [78.0, 50.0], [30.0, 66.0]])
    cv2.polylines(image, [truth.astype(np.int32)], True, 255, 2)
    quads = component_quads(image, 10.0, 90.0, 20)
    assert quads.shape == (1, 4, 2)
    assert _corners_match(quads[0], truth, 1.5)
    # in order around the shape: consecutive corners are neighbours, not across a diagonal
    sides = np.linalg.norm(quads[0] - np.roll(quads[0], -1, axis=0), axis=1)
    diagonals = [np.linalg.norm(quads[0][0] - quads[0][2]), np.linalg.norm(quads[0][1] - quads[0][3])]
    assert sides.max() < min(diagonals)


def test_lines_specks_and_shapes_of_the_wrong_size_give_no_quad() -> None:
    image = np.zeros((120, 160), np.uint8)
    cv2.line(image, (10, 10), (70, 40), 255, 2)  # a line: nothing either side of its "diagonal"
    image[100, 100] = 255  # a speck
    cv2.rectangle(image, (100, 5), (104, 9), 255, -1)  # too small
    assert component_quads(image, 10.0, 90.0, 20).shape == (0, 4, 2)
    big = np.zeros((300, 300), np.uint8)
    cv2.rectangle(big, (10, 10), (250, 250), 255, 2)  # wider than the largest tag looked for
    assert component_quads(big, 10.0, 90.0, 20).shape == (0, 4, 2)
    assert component_quads(big, 10.0, 300.0, 20).shape == (1, 4, 2)


def test_touching_shapes_are_one_and_separate_shapes_are_two() -> None:
    image = np.zeros((80, 160), np.uint8)
    cv2.rectangle(image, (10, 10), (50, 50), 255, 1)
    cv2.rectangle(image, (90, 10), (130, 50), 255, 1)
    assert component_quads(image, 10.0, 90.0, 20).shape[0] == 2
    cv2.line(image, (50, 30), (90, 30), 255, 1)  # joined: one shape, too wide for a tag of ≤ 60 px
    assert component_quads(image, 10.0, 60.0, 20).shape[0] == 0
