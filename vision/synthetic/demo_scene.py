"""A built-in demo table: a small hex map with terrain colours and eight tagged figures.

Used when ``hexa vision --synthetic`` is given no scenario, and by tests and benchmarks that need
a realistic table without depending on the scenario format.
"""

from __future__ import annotations

import math

from engine.hexes import Hex, Orientation
from engine.layout import Layout
from vision.synthetic.scene import Colour, Figure, Polygon, TableDrawing

TERRAIN_COLOURS: dict[str, Colour] = {
    "grass": (95, 150, 105),
    "forest": (55, 95, 60),
    "water": (160, 120, 70),
    "rock": (130, 135, 140),
    "road": (120, 165, 190),
}
EDGE_COLOUR: Colour = (45, 50, 55)
SIDE_COLOURS: tuple[Colour, ...] = ((50, 50, 170), (170, 80, 40), (60, 140, 60), (40, 150, 170))

DEMO_COLUMNS, DEMO_ROWS = 10, 7
DEMO_LAYOUT = Layout.from_flat_width(Orientation.FLAT, 50.0, origin_mm=(60.0, 60.0))
DEMO_TABLE_MM = (600.0, 420.0)


def demo_terrain(h: Hex) -> str:
    """A fixed, varied terrain pattern (no randomness, so every run draws the same map)."""
    if h.q in (4, 5) and h.r + h.q // 2 in (2, 3):
        return "water"
    if (h.q * 7 + h.r * 3) % 11 == 0:
        return "forest"
    if (h.q * 5 + h.r * 2) % 13 == 0:
        return "rock"
    if h.r + h.q // 2 == 5:
        return "road"
    return "grass"


def demo_hexes(columns: int = DEMO_COLUMNS, rows: int = DEMO_ROWS) -> list[Hex]:
    """An odd-q rectangle of flat-top hexes, as Hexa-System tiles are laid out."""
    return [Hex(col, row - (col - (col & 1)) // 2) for col in range(columns) for row in range(rows)]


def hex_polygons(layout: Layout, terrain: dict[Hex, str]) -> tuple[Polygon, ...]:
    """One filled, outlined polygon per hex."""
    return tuple(
        Polygon(tuple(layout.corners_mm(h)), TERRAIN_COLOURS.get(kind, TERRAIN_COLOURS["grass"]), EDGE_COLOUR, 1.2)
        for h, kind in terrain.items()
    )


def demo_table(figure_height_mm: float = 30.0, marker_mm: float = 22.0) -> TableDrawing:
    """The demo map with eight figures (ids 0–7, two sides) on their start hexes."""
    terrain = {h: demo_terrain(h) for h in demo_hexes()}
    starts = [Hex(1, 1), Hex(1, 3), Hex(2, 2), Hex(0, 4), Hex(8, -2), Hex(8, 0), Hex(7, 0), Hex(9, 0)]
    figures = []
    for i, h in enumerate(starts):
        x, y = DEMO_LAYOUT.hex_to_mm(h)
        facing = 0.0 if i < 4 else 180.0
        figures.append(Figure(i, x, y, facing, marker_mm, figure_height_mm, body=SIDE_COLOURS[i // 4]))
    return TableDrawing(DEMO_TABLE_MM, polygons=hex_polygons(DEMO_LAYOUT, terrain), figures=tuple(figures))


def table_centre(table: TableDrawing) -> tuple[float, float]:
    return table.size_mm[0] / 2.0, table.size_mm[1] / 2.0


def hex_step_mm(layout: Layout = DEMO_LAYOUT) -> float:
    """Distance between neighbouring hex centres."""
    return layout.size_mm * math.sqrt(3.0)
