"""Glue for ``hexa vision --synthetic SCENARIO``: a scenario's board and figures as a table drawing.

The only vision module that knows scenarios exist; the renderer itself only sees polygons, labels and
tagged figures. Every board is drawn as its kind says it lies on a real table
(:meth:`engine.board.Board.table_print`: a hex map's coloured tiles and walls, the zone mat's printed sheet with
its corner tags, a square grid's squares); named fills are coloured here, and the scenario's anchor tags lie
on their cells.
Figures stand on their start cells where the board says figures stand (:meth:`engine.board.Board.stand_points_mm`):
several starting on one cell stand side by side in it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.board import EdgeKind, Terrain
from engine.board.table_print import INK, PrintedShape
from engine.board.table_print import PAPER as PAPER_FILL
from engine.errors import ScenarioError
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.scenario import Scenario, load_scenario
from vision.synthetic.demo_scene import EDGE_COLOUR, TERRAIN_COLOURS
from vision.synthetic.scene import Colour, Figure, Label, Polygon, TableDrawing

_ = gettext_for(__name__)

__all__ = ["ScenarioError", "load_scenario_table", "scenario_table"]

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
FIGURE_TAG_MM = 22.0  # the black square of every tag the synthetic table draws (figures and anchors)
TABLE_BORDER_MM = 40.0  # table around the drawing
# A printed sheet (the zone mat, calibration.printables.zone_mat): white paper, lines in black, labels in light grey.
PAPER: Colour = (245, 245, 245)
MAT_LINE: Colour = (0, 0, 0)
MAT_LABEL: Colour = (170, 170, 170)
INK_COLOURS: dict[str, Colour] = {INK: MAT_LINE, "tile": EDGE_COLOUR}  # outlines by name


def _colour(fill: str) -> Colour:
    """A named fill's colour: a terrain kind's (others as grass), an edge kind's (others in EDGE_COLOUR), paper."""
    group, _sep, name = fill.partition(":")
    if group == "terrain":
        return SCENARIO_TERRAIN.get(name, TERRAIN_COLOURS["grass"])
    if group == "edge":
        return EDGE_COLOURS.get(name, EDGE_COLOUR)
    return PAPER if fill == PAPER_FILL else INK_COLOURS.get(fill, EDGE_COLOUR)


def _polygon(shape: PrintedShape) -> Polygon:
    outline = INK_COLOURS.get(shape.outline) if shape.outline else None
    return Polygon(shape.points_mm, _colour(shape.fill), outline, shape.outline_mm)


def _named_anchors(scenario: Scenario, marker_mm: float) -> list[Figure]:
    """The scenario's anchor tags, flat on their cells."""
    out = []
    for marker_id, cell in scenario.anchors.items():
        x, y = scenario.board.centre_mm(cell)
        out.append(Figure(marker_id, x, y, scenario.layout.rotation_deg, marker_mm, 0.0))
    return out


def load_scenario_table(name: str) -> tuple[TableDrawing, dict[int, float]]:
    """:func:`scenario_table` of a scenario file or bundled id; :class:`ScenarioError` says what is wrong."""
    return scenario_table(load_scenario(name))


def scenario_table(scenario: Scenario, marker_mm: float = FIGURE_TAG_MM) -> tuple[TableDrawing, dict[int, float]]:
    """The drawing of ``scenario`` laid out on the table, and the tag height of every marker id.

    Figures stand on their start cells with their tag at the scenario's height (a figure without
    one gets a 30 mm body) above their tile, which stands level × the scenario's ``level_height_mm`` high;
    the registration anchors are flat tags where the board puts them (at their tile's height, which the camera
    service is given). A figure's own height is what the camera service assumes: the engine adds its tile's.
    """
    board = scenario.board
    printed = board.table_print()  # what the board's kind puts on the table
    named = frozenset(scenario.anchors)
    polygons = tuple(_polygon(shape) for shape in printed.shapes)
    labels = tuple(Label(t.text, t.x_mm, t.y_mm, t.height_mm, MAT_LABEL, bold=t.bold) for t in printed.labels)
    anchors = [Figure(marker_id, x, y, 0.0, printed.tag_mm, 0.0)
               for marker_id, (x, y) in printed.tags if marker_id not in named]
    anchors += _named_anchors(scenario, marker_mm)
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
    for anchor in anchors:
        cell = scenario.anchors.get(anchor.marker_id)  # a named anchor lies on its (maybe raised) tile
        lifted = board.level(cell) * scenario.level_height_mm if cell is not None else 0.0
        heights[anchor.marker_id] = lifted
        figures.append(replace(anchor, height_mm=lifted))
    xs = [p[0] for poly in polygons for p in poly.points_mm]
    ys = [p[1] for poly in polygons for p in poly.points_mm]
    size = (max(xs, default=500.0 - TABLE_BORDER_MM) + TABLE_BORDER_MM,
            max(ys, default=400.0 - TABLE_BORDER_MM) + TABLE_BORDER_MM)
    return TableDrawing(size, polygons=polygons, labels=labels, figures=tuple(figures)), heights
