"""bench/dice_d10_lean.py's measures of a d10 against the flat d10 fitted to it: what lies beyond the fitted outline
or is left empty in it, and whether the fitted top face's kite shows its edges."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import cv2
import numpy as np

from tests.vision.test_bench_quick import BENCH
from vision.dice.merged import Part
from vision.dice.outline import Fit, flat_outline_px
from vision.dice.segment import Blob

PX_PER_MM = 2.0
PLANE_MM = 15.5
CAMERA_MM = np.array([40.0, 400.0, 250.0])  # a tray camera: the die's sides show
FIT = Fit("d10", 0.95, 30.0, (40.0, 40.0))


def _bench() -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module("dice_d10_lean")


Rect = tuple[float, float, float, float]


def _blob(extra: tuple[Rect, ...] = (), cut: tuple[Rect, ...] = ()) -> Blob:
    """The fitted flat d10's own outline as a blob (80 mm square box at the origin), with rectangles (mm: x0, y0,
    x1, y1) added and cut away."""
    n = round(80.0 * PX_PER_MM)
    mask = np.zeros((n, n), np.uint8)
    cv2.fillConvexPoly(mask, flat_outline_px(FIT, CAMERA_MM, PLANE_MM, PX_PER_MM, (0.0, 0.0)), 255, cv2.LINE_8,
                       shift=4)
    for rects, value in ((extra, 255), (cut, 0)):
        for x0, y0, x1, y1 in rects:
            mask[round(y0 * PX_PER_MM):round(y1 * PX_PER_MM), round(x0 * PX_PER_MM):round(x1 * PX_PER_MM)] = value
    area = float(np.count_nonzero(mask)) / PX_PER_MM ** 2
    return Blob(mask, (0, 0, n, n), FIT.centre_mm, area, False)


def test_a_blob_that_is_the_fitted_outline_lies_neither_beyond_it_nor_leaves_it_empty() -> None:
    beyond, empty = _bench().beyond_flat_d10(Part(_blob(), None), FIT, CAMERA_MM, PLANE_MM, PX_PER_MM, 0.0)
    assert beyond < 2.0 and empty < 2.0


def test_a_side_raised_beyond_the_outline_and_a_corner_missing_are_measured() -> None:
    bench = _bench()
    ys, xs = np.nonzero(_blob().mask)
    right = float(xs.max()) / PX_PER_MM
    lobe = (right + 1.0, 36.0, right + 7.0, 44.0)  # 6 × 8 mm beside the outline, 1 mm off
    beyond, empty = bench.beyond_flat_d10(Part(_blob((lobe,)), None), FIT, CAMERA_MM, PLANE_MM, PX_PER_MM, 0.0)
    assert 40.0 <= beyond <= 50.0 and empty < 2.0
    top = float(ys.min()) / PX_PER_MM
    corner = (0.0, 0.0, 80.0, top + 6.0)  # the outline's far 6 mm gone
    beyond, empty = bench.beyond_flat_d10(Part(_blob(cut=(corner,)), None), FIT, CAMERA_MM, PLANE_MM, PX_PER_MM, 0.0)
    assert beyond < 2.0 and empty > 20.0


def test_a_kite_whose_face_is_lit_apart_from_its_neighbours_shows_its_edges_all_round() -> None:
    bench = _bench()
    n = round(26.0 * bench.KITE_PX_PER_MM)
    kite = np.array([[78.0, 30.0], [112.0, 70.0], [78.0, 125.0], [44.0, 70.0]])
    patch = np.full((n, n, 3), (60, 60, 160), np.uint8)  # the side faces, darker
    cv2.fillConvexPoly(patch, np.round(kite * 16).astype(np.int32), (90, 90, 235), cv2.LINE_AA, shift=4)
    assert bench.kite_edges(patch, kite) == (1.0, 1.0)
    assert bench.kite_edges(np.full((n, n, 3), (90, 90, 235), np.uint8), kite) == (0.0, 0.0)
