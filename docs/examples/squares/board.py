"""A square grid: cells in columns and rows, each with a terrain kind and tokens, labelled 'A1' (column letters,
then the row number from the top).

Cells are ``Cell(column, row)`` values (column 0 on the left, row 0 on top), so the game state, the journal and
the wire carry them like any board's. A cell touches its four orthogonal neighbours. The grid's corner
``origin_mm`` is where cell (0, 0)'s outer corner lies on the table; cells are ``square_mm`` wide.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.board import (
    CORE_EDGE_KINDS,
    CORE_KINDS,
    DEFAULT_FACING_MARGIN_DEG,
    DEFAULT_HYSTERESIS,
    Cell,
    EdgeKindSpec,
    Point,
    TerrainKind,
)
from engine.board.drawing import board_drawing, cell_drawing
from engine.board.table_print import PrintedShape, TablePrint, terrain_fill
from engine.hexes import Edge, column_letters
from engine.i18n import gettext_for

_ = gettext_for(__name__)

STEPS = (Cell(1, 0), Cell(0, 1), Cell(-1, 0), Cell(0, -1))  # right, down, left, up
_LABEL = re.compile(r"([A-Za-z]+)([0-9]+)")


@dataclass(frozen=True)
class SquareBoard:
    """Square cells with terrain (a terrain kind's name each), tokens lying on them and height levels."""

    terrains: Mapping[Cell, str]  # every cell of the board → its terrain kind's name
    square_mm: float = 40.0
    origin_mm: Point = (0.0, 0.0)
    tokens: Mapping[Cell, tuple[str, ...]] = field(default_factory=dict)
    levels: Mapping[Cell, int] = field(default_factory=dict)
    kinds: Mapping[str, TerrainKind] = field(default_factory=lambda: dict(CORE_KINDS))

    kind = "squares"

    def __post_init__(self) -> None:
        if not self.terrains:
            raise ValueError(_("a square grid needs at least one square"))
        if not (math.isfinite(self.square_mm) and self.square_mm > 0):
            raise ValueError(_("square_mm must be a positive number of millimetres, got {value!r}",
                               value=self.square_mm))

    # -- cells and labels ---------------------------------------------------------------------------------
    @property
    def cell_mm(self) -> float:
        return self.square_mm

    def __contains__(self, cell: object) -> bool:
        return cell in self.terrains

    def __iter__(self) -> Iterator[Cell]:
        return iter(sorted(self.terrains, key=lambda c: (c.r, c.q)))

    def __len__(self) -> int:
        return len(self.terrains)

    def label(self, cell: Cell) -> str:
        return f"{column_letters(cell.q)}{cell.r + 1}" if cell.q >= 0 and cell.r >= 0 else f"({cell.q},{cell.r})"

    def from_label(self, text: str) -> Cell:
        m = _LABEL.fullmatch(text.strip())
        if m is None:
            raise ValueError(_("{text!r} is not a square's label; write column letters then row number, like 'B3'",
                               text=text))
        column = 0
        for ch in m.group(1).upper():
            column = column * 26 + ord(ch) - ord("A") + 1
        return Cell(column - 1, int(m.group(2)) - 1)

    def neighbours(self, cell: Cell) -> list[Cell]:
        return [n for n in (cell + s for s in STEPS) if n in self.terrains]

    def step_cost(self, a: Cell, b: Cell) -> int:
        return 1

    def distance(self, a: Cell, b: Cell) -> int:
        """Orthogonal steps between two cells (walls and terrain not considered)."""
        return abs(a.q - b.q) + abs(a.r - b.r)

    # -- terrain --------------------------------------------------------------------------------------------
    def level(self, cell: Cell) -> int:
        return self.levels.get(cell, 0)

    def terrain(self, cell: Cell) -> str:
        return self.terrains.get(cell, "floor")

    def terrain_kind(self, cell: Cell) -> TerrainKind:
        return self.kinds.get(self.terrain(cell), CORE_KINDS["floor"])

    def cells_with_token(self, token: str) -> list[Cell]:
        return sorted((c for c, held in self.tokens.items() if token in held), key=lambda c: (c.r, c.q))

    @property
    def edges(self) -> Mapping[Edge, str]:
        return {}  # a square grid has no walls

    @property
    def edge_kinds(self) -> Mapping[str, EdgeKindSpec]:
        return dict(CORE_EDGE_KINDS)

    # -- the table ------------------------------------------------------------------------------------------
    def rect_mm(self, cell: Cell) -> tuple[float, float, float, float]:
        x0 = self.origin_mm[0] + cell.q * self.square_mm
        y0 = self.origin_mm[1] + cell.r * self.square_mm
        return (x0, y0, x0 + self.square_mm, y0 + self.square_mm)

    def centre_mm(self, cell: Cell) -> Point:
        x0, y0, x1, y1 = self.rect_mm(cell)
        return ((x0 + x1) / 2.0, (y0 + y1) / 2.0)

    def corners_mm(self, cell: Cell) -> list[Point]:
        x0, y0, x1, y1 = self.rect_mm(cell)
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def stand_points_mm(self, cell: Cell, count: int = 1) -> list[Point]:
        """A lone figure at the centre; several on the square's quarters in turn."""
        if count <= 1:
            return [self.centre_mm(cell)]
        (x, y), d = self.centre_mm(cell), self.square_mm / 4.0
        quarters = [(x - d, y - d), (x + d, y + d), (x + d, y - d), (x - d, y + d)]
        return [quarters[i % len(quarters)] for i in range(count)]

    def printed_anchors_mm(self) -> dict[int, Point]:
        return {}  # the scenario names its anchors on squares

    def locate(self, x_mm: float, y_mm: float, previous: Cell | None = None,
               margin: float = DEFAULT_HYSTERESIS) -> Cell:
        candidate = Cell(math.floor((x_mm - self.origin_mm[0]) / self.square_mm),
                         math.floor((y_mm - self.origin_mm[1]) / self.square_mm))
        if previous is not None and candidate != previous:
            x0, y0, x1, y1 = self.rect_mm(previous)
            outside = math.hypot(max(x0 - x_mm, 0.0, x_mm - x1), max(y0 - y_mm, 0.0, y_mm - y1))
            if outside <= margin * self.square_mm:
                return previous
        return candidate

    def facing_steps(self) -> tuple[Cell, ...]:
        return ()  # figures on squares face nowhere in particular

    def facing_toward(self, cell: Cell, heading_deg: float, previous: int | None = None,
                      margin_deg: float = DEFAULT_FACING_MARGIN_DEG) -> int | None:
        return None  # figures on squares face nowhere in particular

    def table_print(self) -> TablePrint:
        """The squares coloured by terrain, each outlined like a tile."""
        return TablePrint(tuple(PrintedShape(tuple(self.corners_mm(c)), terrain_fill(self.terrain(c)), "tile", 1.0)
                                for c in self))

    def to_dict(self) -> dict[str, Any]:
        scale = 0.45 * self.square_mm  # figures drawn as on a hex about this wide
        return {
            "kind": self.kind,
            "square_mm": self.square_mm,
            "origin_mm": list(self.origin_mm),
            "tiles": [
                {
                    "hex": [c.q, c.r],
                    "label": self.label(c),
                    "terrain": self.terrain(c),
                    "style": self.terrain_kind(c).style,
                    "level": self.level(c),
                    "tokens": list(self.tokens.get(c, ())),
                    **cell_drawing(self.corners_mm(c), self.centre_mm(c), label_mm=0.22 * self.square_mm,
                                   label_at=(self.rect_mm(c)[0] + 0.2 * self.square_mm,
                                             self.rect_mm(c)[1] + 0.15 * self.square_mm)),
                }
                for c in self
            ],
            "terrain_kinds": [{"name": k.name, "help": k.help, "style": k.style} for k in self.kinds.values()],
            "edges": [],
            "drawing": board_drawing(scale, stacks="offset", label_band=False),
        }
