"""What a board looks like lying on a real table, whatever its kind: flat shapes, printed labels and printed tags.

A board gives it (:meth:`engine.board.Board.table_print`) so the synthetic table draws any kind of board without
knowing it: shapes carry a named fill (a terrain kind, an edge kind, paper) the renderer colours by name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]  # map millimetres (as engine.board.base.Point)
PAPER = "paper"  # the fill of a printed sheet
INK = "ink"  # a printed line's colour


def terrain_fill(name: str) -> str:
    """The fill of a cell of that terrain kind."""
    return f"terrain:{name}"


def edge_fill(name: str) -> str:
    """The fill of a side of that edge kind (a wall, a door, a rule set's own)."""
    return f"edge:{name}"


@dataclass(frozen=True)
class PrintedShape:
    """A flat shape: its corners (map millimetres), its named fill, and its outline (``""``: none; ``"tile"``: a
    tile's edge; ``"ink"``: a printed line) ``outline_mm`` wide."""

    points_mm: tuple[Point, ...]
    fill: str
    outline: str = ""
    outline_mm: float = 1.0


@dataclass(frozen=True)
class PrintedLabel:
    """Text printed flat: centred on (x, y) mm, ``height_mm`` tall, light grey ink unless ``dark``."""

    text: str
    x_mm: float
    y_mm: float
    height_mm: float
    bold: bool = False


@dataclass(frozen=True)
class TablePrint:
    """Everything a board puts on the table: its shapes (drawn in order), labels, and the anchor tags printed on it
    (tag id → centre, with the printed tag's side)."""

    shapes: tuple[PrintedShape, ...]
    labels: tuple[PrintedLabel, ...] = ()
    tags: tuple[tuple[int, Point], ...] = ()
    tag_mm: float = 15.0


def side_strip(a: Point, b: Point, width_mm: float) -> tuple[Point, ...]:
    """A wall's strip along the side from ``a`` to ``b``, ``width_mm`` wide."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width_mm / 2, dx / length * width_mm / 2
    return ((a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny))
