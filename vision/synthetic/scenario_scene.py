"""Glue for ``hexa vision --synthetic SCENARIO``: a scenario's board and figures as a table drawing.

The only vision module that knows scenarios exist; the renderer itself only sees polygons, labels and
tagged figures. Each board kind is drawn as it lies on a real table (:data:`BOARD_DRAWINGS`): a hex map
as coloured tiles with its walls and the anchor tags on their hexes, a zone board as the printed mat
(``hexa print zones``: white paper, outlined zones with their grey labels, the four corner anchor tags).
Figures stand on their start cells where the board says figures stand (:meth:`engine.board.Board.stand_points_mm`):
several starting on one cell stand side by side in it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.board import EdgeKind, Terrain, ZoneBoard
from engine.board.zones import MAT_ANCHOR_OFFSET_MM, MAT_ANCHOR_TAG_MM
from engine.errors import ScenarioError
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.scenario import Scenario, load_scenario
from vision.synthetic.demo_scene import EDGE_COLOUR, TERRAIN_COLOURS
from vision.synthetic.scene import Colour, Figure, Label, Polygon, TableDrawing

_ = gettext_for(__name__)

__all__ = ["BOARD_DRAWINGS", "ScenarioError", "load_scenario_table", "scenario_table"]

SCENARIO_TERRAIN: dict[str, Colour] = {  # by terrain kind name; others drawn as grass
    Terrain.FLOOR: TERRAIN_COLOURS["grass"],
    Terrain.BLOCKING: (70, 70, 75),
    Terrain.LOW_OBSTACLE: TERRAIN_COLOURS["rock"],
    Terrain.WATER: TERRAIN_COLOURS["water"],
}
EDGE_COLOURS: dict[str, Colour] = {  # by edge kind name; any other kind is drawn in EDGE_COLOUR
    EdgeKind.WALL: (40, 40, 40),
    EdgeKind.DOOR: (40, 90, 140),
    EdgeKind.LOCKED_DOOR: (30, 60, 110),
}
NAMED_COLOURS: dict[str, Colour] = {
    "red": (50, 50, 170), "blue": (170, 80, 40), "green": (60, 140, 60), "yellow": (40, 170, 190),
    "black": (40, 40, 40), "white": (220, 220, 220), "purple": (140, 60, 120), "orange": (40, 120, 220),
}
DEFAULT_FIGURE_HEIGHT_MM = 30.0
TABLE_BORDER_MM = 40.0  # table around the drawing
# The printed zone mat (calibration.printables.zone_mat): white paper, zones outlined in black, labels in
# light grey about 0.3 zone tall, the page margin beyond the corner tags and a footer below.
PAPER: Colour = (245, 245, 245)
MAT_LINE: Colour = (0, 0, 0)
MAT_LINE_MM = 0.8
MAT_LABEL: Colour = (170, 170, 170)
MAT_LABEL_HEIGHT = 0.3  # share of a zone
MAT_PAGE_MARGIN_MM = 8.0
MAT_FOOTER_MM = 18.0


@dataclass(frozen=True)
class BoardDrawing:
    """What lies on the table for a board: flat shapes, printed labels and flat anchor tags."""

    polygons: tuple[Polygon, ...]
    labels: tuple[Label, ...]
    anchors: tuple[Figure, ...]


def _wall(a: tuple[float, float], b: tuple[float, float], width_mm: float) -> tuple[tuple[float, float], ...]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width_mm / 2, dx / length * width_mm / 2
    return ((a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny))


def _named_anchors(scenario: Scenario, marker_mm: float, skip: frozenset[int] = frozenset()) -> list[Figure]:
    """The scenario's anchor tags, flat on their cells."""
    out = []
    for marker_id, cell in scenario.anchors.items():
        if marker_id not in skip:
            x, y = scenario.board.centre_mm(cell)
            out.append(Figure(marker_id, x, y, scenario.layout.rotation_deg, marker_mm, 0.0))
    return out


def hex_map_drawing(scenario: Scenario, marker_mm: float) -> BoardDrawing:
    """Hex tiles coloured by terrain, walls and doors on their sides, the anchors on their hexes."""
    layout, board = scenario.layout, scenario.board
    polygons = [Polygon(tuple(board.corners_mm(h)), SCENARIO_TERRAIN.get(board.terrain(h), TERRAIN_COLOURS["grass"]),
                        EDGE_COLOUR, 1.2) for h in board]
    for edge, kind in board.edges.items():
        a, b = layout.edge_mm(edge)
        polygons.append(Polygon(_wall(a, b, 4.0), EDGE_COLOURS.get(kind, EDGE_COLOUR)))
    return BoardDrawing(tuple(polygons), (), tuple(_named_anchors(scenario, marker_mm)))


def zone_mat_drawing(scenario: Scenario, marker_mm: float) -> BoardDrawing:
    """The printed zone mat: paper, zones outlined with their labels, the corner tags where the print puts them."""
    board = scenario.board
    assert isinstance(board, ZoneBoard)
    x0, y0 = board.origin_mm
    x1, y1 = x0 + board.columns * board.zone_mm, y0 + board.rows * board.zone_mm
    edge = MAT_ANCHOR_OFFSET_MM + MAT_ANCHOR_TAG_MM / 2.0 + MAT_PAGE_MARGIN_MM
    sheet = ((x0 - edge, y0 - edge), (x1 + edge, y0 - edge), (x1 + edge, y1 + edge + MAT_FOOTER_MM),
             (x0 - edge, y1 + edge + MAT_FOOTER_MM))
    polygons = [Polygon(sheet, PAPER)]
    labels = []
    for cell in board:
        polygons.append(Polygon(tuple(board.corners_mm(cell)), PAPER, MAT_LINE, MAT_LINE_MM))
        cx, cy = board.centre_mm(cell)
        labels.append(Label(board.label(cell), cx, cy, MAT_LABEL_HEIGHT * board.zone_mm, MAT_LABEL, bold=True))
    named = frozenset(scenario.anchors)
    printed = [Figure(marker_id, x, y, 0.0, MAT_ANCHOR_TAG_MM, 0.0)
               for marker_id, (x, y) in board.printed_anchors_mm().items() if marker_id not in named]
    return BoardDrawing(tuple(polygons), tuple(labels), tuple(printed + _named_anchors(scenario, marker_mm)))


BOARD_DRAWINGS: dict[str, Callable[[Scenario, float], BoardDrawing]] = {
    "hex": hex_map_drawing,
    "zones": zone_mat_drawing,
}


def load_scenario_table(name: str) -> tuple[TableDrawing, dict[int, float]]:
    """:func:`scenario_table` of a scenario file or bundled id; :class:`ScenarioError` says what is wrong."""
    return scenario_table(load_scenario(name))


def scenario_table(scenario: Scenario, marker_mm: float = 22.0) -> tuple[TableDrawing, dict[int, float]]:
    """The drawing of ``scenario`` laid out on the table, and the tag height of every marker id.

    Figures stand on their start cells with their tag at the scenario's height (a figure without
    one gets a 30 mm body) above their tile, which stands level × the scenario's ``level_height_mm`` high;
    the registration anchors are flat tags where the board puts them (at their tile's height, which the camera
    service is given). A figure's own height is what the camera service assumes: the engine adds its tile's.
    """
    board = scenario.board
    draw = BOARD_DRAWINGS.get(board.kind)
    if draw is None:
        raise ScenarioError(_("the synthetic table cannot draw a {kind!r} board. Fix: use one of {join}",
                              kind=board.kind, join=', '.join(sorted(BOARD_DRAWINGS))))
    drawing = draw(scenario, marker_mm)
    side_colour = {s.id: NAMED_COLOURS.get(s.colour.lower(), (90, 90, 90)) for s in scenario.sides}
    heights: dict[int, float] = {}
    figures: list[Figure] = []
    in_cell: dict[Hex, int] = {}
    stacks = Counter(spec.start for spec in scenario.figures)
    for spec in scenario.figures:
        x, y = board.stand_points_mm(spec.start, stacks[spec.start])[in_cell.get(spec.start, 0)]  # side by side
        in_cell[spec.start] = in_cell.get(spec.start, 0) + 1
        height = spec.height_mm if spec.height_mm > 0 else DEFAULT_FIGURE_HEIGHT_MM
        heights[spec.marker_id] = height  # the camera service assumes the tag's own height; the engine adds the tile
        raised = board.level(spec.start) * scenario.level_height_mm
        figures.append(Figure(spec.marker_id, x, y, scenario.layout.rotation_deg, marker_mm, height + raised,
                              body=side_colour.get(spec.side, (90, 90, 90))))
    for anchor in drawing.anchors:
        cell = scenario.anchors.get(anchor.marker_id)  # a named anchor lies on its (maybe raised) tile
        lifted = board.level(cell) * scenario.level_height_mm if cell is not None else 0.0
        heights[anchor.marker_id] = lifted
        figures.append(replace(anchor, height_mm=lifted))
    xs = [p[0] for poly in drawing.polygons for p in poly.points_mm]
    ys = [p[1] for poly in drawing.polygons for p in poly.points_mm]
    size = (max(xs, default=500.0 - TABLE_BORDER_MM) + TABLE_BORDER_MM,
            max(ys, default=400.0 - TABLE_BORDER_MM) + TABLE_BORDER_MM)
    return TableDrawing(size, polygons=drawing.polygons, labels=drawing.labels, figures=tuple(figures)), heights
