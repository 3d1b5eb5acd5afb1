"""The synthetic table draws a zone board as the printed keypad mat: its corner tags, zone outlines and labels are
found in the rendered frame where the board says they are, and figures stand in their start zones."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera_model import CameraModel
from engine.board.zones.board import MAT_ANCHOR_IDS, MAT_ANCHOR_TAG_MM, ZoneBoard
from engine.scenario import Scenario, load_scenario
from tests.rulesets import ZONES_SCENARIO
from vision.detection import detect
from vision.synthetic.demo_scene import table_centre
from vision.synthetic.renderer import RenderedFrame, TableRenderer
from vision.synthetic.scenario_scene import scenario_table

PX_TOLERANCE = 1.0  # about 0.7 mm on the table under this camera


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    import tests.engine.zone_rules  # noqa: F401 - registers the zone test rule set

    return load_scenario(str(ZONES_SCENARIO))


@pytest.fixture(scope="module")
def drawn(scenario: Scenario) -> tuple[TableRenderer, CameraModel, ZoneBoard]:
    table, _ = scenario_table(scenario)
    camera = CameraModel.synthetic(look_at_mm=table_centre(table), tilt_deg=15.0)
    assert isinstance(scenario.board, ZoneBoard)
    return TableRenderer(camera, table), camera, scenario.board


def _mat_only(renderer: TableRenderer) -> RenderedFrame:
    """The mat with its printed tags and no figures, which would stand over some zone corners."""
    return renderer.render(tuple(f for f in renderer.table.figures if f.marker_id in MAT_ANCHOR_IDS))


def test_the_mats_corner_tags_are_detected_where_the_board_puts_them(
        drawn: tuple[TableRenderer, CameraModel, ZoneBoard]) -> None:
    renderer, camera, board = drawn
    frame = _mat_only(renderer)
    found = {m.marker_id: m.corners_px for m in detect(frame.image)}
    assert set(found) == set(MAT_ANCHOR_IDS)
    for tag, (x, y) in board.mat_anchors_mm().items():
        expected = camera.project([(x, y, 0.0)])[0]
        assert np.linalg.norm(found[tag].mean(axis=0) - expected) < PX_TOLERANCE, tag
        side_px = np.linalg.norm(found[tag][0] - found[tag][1])
        tag_corner = camera.project([(x - MAT_ANCHOR_TAG_MM / 2, y, 0.0), (x + MAT_ANCHOR_TAG_MM / 2, y, 0.0)])
        assert side_px == pytest.approx(np.linalg.norm(tag_corner[1] - tag_corner[0]), abs=PX_TOLERANCE)


def test_the_zone_outlines_cross_where_the_zones_corners_are(
        drawn: tuple[TableRenderer, CameraModel, ZoneBoard]) -> None:
    renderer, camera, board = drawn
    grey = cv2.cvtColor(_mat_only(renderer).image, cv2.COLOR_BGR2GRAY)
    corners_mm = sorted({p for cell in board for p in board.corners_mm(cell)})
    assert len(corners_mm) == (board.columns + 1) * (board.rows + 1)
    expected = camera.project([(x, y, 0.0) for x, y in corners_mm])
    start = (expected + np.array([2.5, -2.0])).astype(np.float32).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.01)
    refined = cv2.cornerSubPix(grey, start, (4, 4), (-1, -1), criteria).reshape(-1, 2)
    errors = dict(zip(corners_mm, np.linalg.norm(refined - expected, axis=1).round(2), strict=True))
    x0, y0, x1, y1 = board.rect_mm(min(board))[:2] + board.rect_mm(max(board))[2:]
    outer = {p for p in corners_mm if p[0] in (x0, x1) or p[1] in (y0, y1)}
    # A crossing of two lines refines to within a pixel; an L or T of the mat's border a little less exactly.
    assert all(e < (2.0 if p in outer else PX_TOLERANCE) for p, e in errors.items()), errors
    for cell in board:  # the ink runs along each side: its middle is dark, the zone's inside is paper
        (x0, y0), (x1, _), _, _ = board.corners_mm(cell)
        mid = np.round(camera.project([((x0 + x1) / 2, y0, 0.0)])[0]).astype(int)
        inside = np.round(camera.project([((x0 + x1) / 2, y0 + 0.15 * board.zone_mm, 0.0)])[0]).astype(int)
        assert grey[mid[1] - 1: mid[1] + 2, mid[0]].min() < 90 and grey[inside[1], inside[0]] > 200


def test_each_zone_shows_its_label_at_its_centre(drawn: tuple[TableRenderer, CameraModel, ZoneBoard]) -> None:
    renderer, camera, board = drawn
    grey = cv2.cvtColor(_mat_only(renderer).image, cv2.COLOR_BGR2GRAY)
    for cell in board:
        left, top, right, bottom = board.rect_mm(cell)
        inset = 0.2 * board.zone_mm
        box = camera.project([(left + inset, top + inset, 0.0), (right - inset, bottom - inset, 0.0)])
        (bx0, by0), (bx1, by1) = np.round(box).astype(int)
        patch = grey[by0:by1, bx0:bx1]
        ys, xs = np.nonzero((patch > 120) & (patch < 215))  # the grey print, neither ink nor paper
        assert len(xs) > 30, board.label(cell)
        centroid = np.array([xs.mean() + bx0, ys.mean() + by0])
        centre = camera.project([(*board.centre_mm(cell), 0.0)])[0]
        zone_px = np.linalg.norm(box[1] - box[0]) / 0.6 / np.sqrt(2)
        assert np.linalg.norm(centroid - centre) < 0.08 * zone_px, board.label(cell)


def test_figures_stand_in_their_start_zones_and_are_detected(
        drawn: tuple[TableRenderer, CameraModel, ZoneBoard], scenario: Scenario) -> None:
    renderer, _, board = drawn
    frame = renderer.render()
    truth = {t.marker_id: t for t in frame.truth}
    assert {m.marker_id for m in detect(frame.image)} == {f.marker_id for f in scenario.figures} | set(MAT_ANCHOR_IDS)
    for spec in scenario.figures:
        t = truth[spec.marker_id]
        assert board.locate(t.x_mm, t.y_mm) == spec.start, spec.name
    bo, cy = truth[scenario.figure("bo").marker_id], truth[scenario.figure("cy").marker_id]
    assert np.hypot(bo.x_mm - cy.x_mm, bo.y_mm - cy.y_mm) > 0.5 * board.zone_mm  # a stack stands side by side
