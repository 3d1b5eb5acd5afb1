"""Glue for ``hexa vision --synthetic SCENARIO``: a scenario's map and figures as a table drawing.

The only vision module that knows scenarios exist; the renderer itself only sees polygons and
tagged figures.
"""

from __future__ import annotations

import math

from engine.board import EdgeKind, Terrain
from engine.errors import ScenarioError
from engine.scenario import Scenario, load_scenario
from vision.synthetic.demo_scene import EDGE_COLOUR, TERRAIN_COLOURS
from vision.synthetic.scene import Colour, Figure, Polygon, TableDrawing

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


def _wall(a: tuple[float, float], b: tuple[float, float], width_mm: float) -> tuple[tuple[float, float], ...]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width_mm / 2, dx / length * width_mm / 2
    return ((a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny))


def load_scenario_table(name: str) -> tuple[TableDrawing, dict[int, float]]:
    """:func:`scenario_table` of a scenario file or bundled id; :class:`ScenarioError` says what is wrong."""
    return scenario_table(load_scenario(name))


def scenario_table(scenario: Scenario, marker_mm: float = 22.0) -> tuple[TableDrawing, dict[int, float]]:
    """The drawing of ``scenario`` laid out on the table, and the tag height of every marker id.

    Figures stand on their start hexes with their tag at the scenario's height (a figure without
    one gets a 30 mm body) above their tile, which stands level × the scenario's ``level_height_mm`` high;
    the registration anchors are flat tags on their hexes (at their tile's height, which the camera service
    is given). A figure's own height is what the camera service assumes: the engine adds its tile's.
    """
    layout = scenario.layout
    polygons = [Polygon(tuple(layout.corners_mm(h)), SCENARIO_TERRAIN.get(scenario.board.terrain(h),
                                                                          TERRAIN_COLOURS["grass"]), EDGE_COLOUR, 1.2)
                for h in scenario.board]
    for edge, kind in scenario.board.edges.items():
        a, b = layout.edge_mm(edge)
        polygons.append(Polygon(_wall(a, b, 4.0), EDGE_COLOURS.get(kind, EDGE_COLOUR)))
    side_colour = {s.id: NAMED_COLOURS.get(s.colour.lower(), (90, 90, 90)) for s in scenario.sides}
    heights: dict[int, float] = {}
    figures: list[Figure] = []
    for spec in scenario.figures:
        x, y = layout.hex_to_mm(spec.start)
        height = spec.height_mm if spec.height_mm > 0 else DEFAULT_FIGURE_HEIGHT_MM
        heights[spec.marker_id] = height  # the camera service assumes the tag's own height; the engine adds the tile
        raised = scenario.board.level(spec.start) * scenario.level_height_mm
        figures.append(Figure(spec.marker_id, x, y, layout.rotation_deg, marker_mm, height + raised,
                              body=side_colour.get(spec.side, (90, 90, 90))))
    for marker_id, h in scenario.anchors.items():
        x, y = layout.hex_to_mm(h)
        heights[marker_id] = scenario.board.level(h) * scenario.level_height_mm  # a flat tag on its (raised) tile
        figures.append(Figure(marker_id, x, y, layout.rotation_deg, marker_mm, heights[marker_id]))
    xs = [p[0] for poly in polygons for p in poly.points_mm]
    ys = [p[1] for poly in polygons for p in poly.points_mm]
    size = (max(xs, default=500.0) + 40.0, max(ys, default=400.0) + 40.0)
    return TableDrawing(size, polygons=tuple(polygons), figures=tuple(figures)), heights
