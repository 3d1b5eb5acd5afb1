"""Colours and shapes for sides and overlays: colour is never the only cue.

Each side also gets a shape (circle, square, triangle, diamond) and a letter; each overlay also gets
a pattern or outline style, so the board stays readable with any kind of colour blindness.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

# Named scenario colours → RGBA on the dark theme (bright enough for a dark board).
SIDE_COLOURS: dict[str, RGBA] = {
    "red": (0.90, 0.25, 0.22, 1.0),
    "blue": (0.25, 0.55, 0.95, 1.0),
    "green": (0.30, 0.78, 0.35, 1.0),
    "yellow": (0.95, 0.82, 0.20, 1.0),
    "purple": (0.68, 0.42, 0.90, 1.0),
    "orange": (0.98, 0.58, 0.15, 1.0),
    "white": (0.92, 0.92, 0.92, 1.0),
    "black": (0.35, 0.35, 0.35, 1.0),
}
FALLBACK_COLOUR: RGBA = (0.8, 0.8, 0.8, 1.0)
SIDE_SHAPES: tuple[str, ...] = ("circle", "square", "triangle", "diamond")

# Terrain is drawn by its kind's draw style (engine.board.terrain.DRAW_STYLES), never by a rule set's names.
TERRAIN_FILL: dict[str, RGBA] = {
    "floor": (0.30, 0.30, 0.27, 1.0),
    "solid": (0.10, 0.10, 0.11, 1.0),
    "low": (0.45, 0.36, 0.22, 1.0),
    "water": (0.16, 0.32, 0.50, 1.0),
    "rough": (0.36, 0.33, 0.22, 1.0),
    "building": (0.42, 0.22, 0.18, 1.0),
}
# Terrain also gets a pattern so it reads without colour: hatching for rock, crosses for crates, waves for water,
# dots for rough ground, a roof outline for buildings.
TERRAIN_PATTERN: dict[str, str] = {
    "floor": "", "solid": "hatch", "low": "cross", "water": "waves", "rough": "dots", "building": "roof",
}
DEFAULT_TERRAIN_STYLE = "floor"  # a style this app does not know is drawn as floor


BACKGROUND: RGBA = (0.07, 0.07, 0.08, 1.0)
TEXT: RGBA = (0.95, 0.95, 0.95, 1.0)
TEXT_DIM: RGBA = (0.70, 0.70, 0.72, 1.0)
WALL: RGBA = (0.95, 0.95, 0.90, 1.0)
DOOR_CLOSED: RGBA = (0.85, 0.55, 0.20, 1.0)
DOOR_OPEN: RGBA = (0.55, 0.85, 0.45, 1.0)
DOOR_LOCKED: RGBA = (0.95, 0.30, 0.30, 1.0)
# Edges other than doors are drawn by their kind's draw style (engine.board.edges.EDGE_STYLES), never by a rule
# set's names; each style also has its own shape (board_drawing.edges): a light bar, a thin dark line, a bar with
# posts. Door styles are drawn by the door's state (DOOR_*).
EDGE_COLOURS: dict[str, RGBA] = {
    "wall": WALL,
    "line": (0.02, 0.02, 0.02, 1.0),
    "fence": (0.80, 0.66, 0.42, 1.0),
}
DOOR_EDGE_STYLES: tuple[str, ...] = ("door", "locked")  # a door kind's style: how it looks before play ("locked")
DEFAULT_EDGE_STYLE = "wall"  # a style this app does not know is drawn as a wall
REACH: RGBA = (0.35, 0.85, 0.95, 1.0)
THREAT: RGBA = (0.98, 0.45, 0.10, 1.0)
# A figure shown while another figure's move is pending: its reach in rings of this colour, the move's cells filled
# in REACH (form tells them apart, and light against mid-tone for every colour vision).
INSPECT: RGBA = (1.0, 0.96, 0.80, 1.0)
NAMED_CELL: RGBA = (1.0, 0.92, 0.35, 1.0)  # a cell the prompt names: ringed, its label on a plate
SIGHT: dict[str, RGBA] = {
    "clear": (0.40, 0.95, 0.45, 1.0),
    "blocked": (0.95, 0.30, 0.30, 1.0),
    "ambiguous": (0.98, 0.85, 0.25, 1.0),
}
# Sight lines differ by dash pattern too: clear solid, blocked short dashes, ambiguous long dashes.
SIGHT_DASH: dict[str, tuple[int, int]] = {"clear": (0, 0), "blocked": (6, 6), "ambiguous": (18, 8)}
GHOST: RGBA = (0.85, 0.85, 1.0, 0.55)
ILLEGAL: RGBA = (1.0, 0.2, 0.6, 1.0)
DESYNC: RGBA = (1.0, 0.95, 0.3, 1.0)
BUTTON: RGBA = (0.22, 0.24, 0.30, 1.0)
BUTTON_ACTIVE: RGBA = (0.30, 0.50, 0.80, 1.0)


def side_colour(name: str) -> RGBA:
    """RGBA for a scenario colour name (unknown names get a neutral grey, never an error)."""
    return SIDE_COLOURS.get(name.strip().lower(), FALLBACK_COLOUR)


def side_shape(index: int) -> str:
    """The shape drawn for the side at ``index`` in the scenario's side list."""
    return SIDE_SHAPES[index % len(SIDE_SHAPES)]


def shade(rgba: RGBA, factor: float, alpha: float | None = None) -> RGBA:
    """Lighter (factor > 1) or darker (factor < 1) version of a colour."""
    r, g, b, a = rgba
    return (min(1.0, r * factor), min(1.0, g * factor), min(1.0, b * factor), a if alpha is None else alpha)
