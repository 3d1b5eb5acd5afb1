"""View selection, coverage and sharpness on rendered views."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.coverage import coverage_counts, coverage_fraction, coverage_picture, uncovered_corners
from calibration.detection import BoardDetector, BoardView
from calibration.selection import SelectionRules, select_view
from tests.calibration.conftest import A4_SPEC, RenderedSet
from tests.calibration.rendering import lens_view_cameras, render_sheet


def _view(points: list[tuple[float, float]], ids: list[int] | None = None, sharpness: float = 0.5) -> BoardView:
    pts = np.array(points, dtype=np.float64)
    return BoardView(pts, np.array(ids if ids is not None else range(len(points)), np.int32), (800, 600), sharpness)


def test_coverage_counts_cells_and_names_the_empty_corners() -> None:
    view = _view([(10.0, 10.0), (790.0, 10.0), (400.0, 300.0)])
    counts = coverage_counts([view], (800, 600))
    assert counts.sum() == 3 and counts[0, 0] == 1 and counts[0, -1] == 1
    assert uncovered_corners(counts) == ("bottom-left", "bottom-right")
    assert coverage_fraction(counts) == pytest.approx(3 / counts.size)
    pic = coverage_picture(counts, [view], (800, 600), width=160)
    assert pic.shape == (120, 160, 3)
    assert tuple(pic[5, 5]) != tuple(pic[115, 5])  # covered and empty cells look different


def test_selection_keeps_new_views_and_rejects_repeats_blur_and_fragments() -> None:
    grid = [(300.0 + 20 * i, 250.0 + 20 * j) for i in range(5) for j in range(4)]
    first = _view(grid)
    assert select_view(first, []) == (True, "first view")
    same = _view([(x + 2.0, y + 1.0) for x, y in grid])
    assert select_view(same, [first])[0] is False
    beside = _view([(x + 120.0, y) for x, y in grid])
    moved = _view([(x + 60.0, y) for x, y in grid])  # cells already covered by the two, 6% of the diagonal away
    assert select_view(moved, [first, beside], SelectionRules(min_motion=0.05)) == (True, "new position")
    assert select_view(moved, [first, beside], SelectionRules(min_motion=0.07))[0] is False
    corner = _view([(5.0 + 10 * i, 5.0 + 10 * j) for i in range(4) for j in range(4)])
    assert select_view(corner, [first]) == (True, "reaches a new part of the picture")
    assert select_view(_view(grid[:5]), [first])[1].startswith("only 5 corners")
    assert "blurred" in select_view(_view(grid, sharpness=0.1), [first])[1]
    assert select_view(moved, [first], SelectionRules(max_views=1)) == (False, "enough views collected")


def test_sharpness_falls_with_blur_on_rendered_views(rendered: RenderedSet) -> None:
    detector = BoardDetector(A4_SPEC)
    camera = lens_view_cameras(A4_SPEC)[1]
    values = []
    for sigma in (0.0, 1.0, 1.8):
        view = detector.detect(render_sheet(camera, A4_SPEC, blur_sigma=sigma))
        assert view is not None
        values.append(view.sharpness)
    assert values[0] > 0.4 > values[1] > values[2]
    assert values[2] < 0.23
