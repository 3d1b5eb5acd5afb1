"""The board seam: what every board offers the rules, the table sync and the app.

A board is static terrain made of cells. A hex map and a zone mat are two implementations of one
small interface (python-chess keeps ``BaseBoard`` apart from the rules the same way): the cells and
their neighbours, the base cost of a step, the cell labels players read, a height level per cell,
where a table position falls (with hysteresis, so a figure on a border does not flicker) and a
plain dict the tablets draw from. Rules live elsewhere; nothing here knows a rule set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol, TypeAlias, runtime_checkable

from engine.board.edges import EdgeKindSpec
from engine.board.table_print import TablePrint
from engine.board.terrain import TerrainKind
from engine.hexes import Edge, Hex

# A cell of any board kind: axial (q, r) on a hex map, (column, row) on a zone board or a square grid. One value
# type keeps the game state, the journal, the wire, the flow and the path search the same for every board; it is
# the hex's value type, so a hex map's cells are Hex values with their geometry. Board-neutral code is typed on
# Cell (tests/engine/test_cell_type.py), code of a hex map and of the rule sets that play on one on Hex.
Cell: TypeAlias = Hex
Point = tuple[float, float]

# Share of a cell's size a marker must cross past a border before it counts on the next cell.
DEFAULT_HYSTERESIS = 0.15
# Degrees a figure must turn past the border between two facings before it counts on the next one.
DEFAULT_FACING_MARGIN_DEG = 10.0


def angle_between(a_deg: float, b_deg: float) -> float:
    """The unsigned angle between two directions, 0..180 degrees."""
    return abs((a_deg - b_deg + 180.0) % 360.0 - 180.0)


@runtime_checkable
class CellLabels(Protocol):
    """What prints and reads cells for people (records, the terminal game, commands): every board is one."""

    def label(self, cell: Cell) -> str:
        """The name players read and scenario files write ('E4', '7')."""

    def from_label(self, text: str) -> Cell:
        """The cell a label names (ValueError saying how labels are written when it names none)."""


@runtime_checkable
class Board(CellLabels, Protocol):
    """The interface every board implements (see :class:`engine.board.HexBoard`, :class:`engine.board.ZoneBoard`)."""

    @property
    def kind(self) -> str:
        """The board's kind as scenario files and the app name it: ``hex`` or ``zones``."""

    @property
    def cell_mm(self) -> float:
        """The size of one cell on the table (a hex's across-flats width, a zone's side)."""

    def __contains__(self, cell: object) -> bool: ...

    def __iter__(self) -> Iterator[Cell]: ...

    def __len__(self) -> int: ...

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Cells one step away that are on the board (walls and rules not considered)."""

    def step_cost(self, a: Cell, b: Cell) -> int:
        """The board's base cost of a step between neighbours; rule sets weigh it with their own costs."""

    def cells_with_token(self, token: str) -> list[Cell]:
        """The cells a token of the map lies on (an exit, a treasure: a map symbol's token), in label order."""

    def level(self, cell: Cell) -> int:
        """The cell's height level (0 where the board has none)."""

    def terrain(self, cell: Cell) -> str:
        """The name of the cell's terrain kind (one of :attr:`kinds`)."""

    @property
    def kinds(self) -> Mapping[str, TerrainKind]:
        """The terrain kinds its cells are made of: the shared ones and the rule set's own, by name."""

    @property
    def edges(self) -> Mapping[Edge, str]:
        """The sides between cells that have a kind (side → edge kind name); empty where the board has none."""

    @property
    def edge_kinds(self) -> Mapping[str, EdgeKindSpec]:
        """The kinds the sides between its cells may be: the shared ones and the rule set's own, by name."""

    def centre_mm(self, cell: Cell) -> Point:
        """The cell's centre in map millimetres (y down)."""

    def stand_points_mm(self, cell: Cell, count: int = 1) -> list[Point]:
        """Where the ``count`` figures of a stack in the cell stand on the table, one point each (map millimetres):
        a lone figure at a hex's centre, several side by side around it, a zone's quarters; far enough apart that
        every figure's tag shows, and inside the cell."""

    def corners_mm(self, cell: Cell) -> list[Point]:
        """The cell's outline in map millimetres, clockwise on the table (y down)."""

    def printed_anchors_mm(self) -> dict[int, Point]:
        """Anchor tags printed on the board itself (tag id → centre, map millimetres): where the table is registered
        from when the scenario names no anchors of its own. None printed on a hex map; a zone mat's corner tags."""

    def locate(self, x_mm: float, y_mm: float, previous: Cell | None = None,
               margin: float = DEFAULT_HYSTERESIS) -> Cell:
        """The cell under a table position; ``previous`` is kept until the position is ``margin`` (share of a
        cell) past its border. The cell may be off the board (a figure set down beside the map)."""

    def facing_steps(self) -> tuple[Cell, ...]:
        """By facing (a direction index), the step from a cell to the neighbour a figure faces; none where the
        board has no facings (a zone board)."""

    def facing_toward(self, cell: Cell, heading_deg: float, previous: int | None = None,
                      margin_deg: float = DEFAULT_FACING_MARGIN_DEG) -> int | None:
        """The facing (a direction index) of a figure on ``cell`` looking along ``heading_deg`` (map millimetres,
        degrees from +x towards +y); ``previous`` is kept until the heading is ``margin_deg`` past its sector's
        border. None where the board has no facings (a zone board)."""

    def table_print(self) -> TablePrint:
        """What the board looks like lying on the table (its shapes, printed labels and tags): the synthetic table
        draws it."""

    def to_dict(self) -> dict[str, Any]:
        """The board as the tablets draw it: ``kind`` and the cells with their labels and geometry."""
