"""A board drawn for a terminal (``hexa play``), whatever its kind.

The terminal game gives the board kind what stands on the board (:class:`TextView`: each cell's figures as letters,
a query's marks, the terrain marked in play, the doors' states) and the kind draws it
(:meth:`engine.board.kinds.BoardKind.text_drawing`): the hex map in its staggered rows with walls and doors
between the hexes, any other kind by default cell by cell in rows as they lie on the table (:func:`rows_drawing`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.board.base import Board, Cell
from engine.board.symbols import Symbols
from engine.board.terrain import Terrain
from engine.hexes import Edge


def _same(word: str) -> str:
    return word


@dataclass(frozen=True)
class TextView:
    """What stands on a board, for drawing it as text."""

    # each cell's figures as letters, bottom of the stack first
    figures: Mapping[Cell, str] = field(default_factory=dict)
    marks: Mapping[Cell, str] = field(default_factory=dict)  # a query's marks (a step's cost), where no figure stands
    terrain_marks: Mapping[Cell, str] = field(default_factory=dict)  # terrain a game master marked in play
    doors: Mapping[Edge, str] = field(default_factory=dict)  # the doors' states in play ("open", "locked"…)
    symbols: Symbols = field(default_factory=dict)  # the scenario's map symbols
    word: Callable[[str], str] = _same  # a rule set's own word in the table's language (RuleSet.word)


@dataclass(frozen=True)
class TextDrawing:
    """The board as text, and the legend lines to print below the figures' list (an edge legend)."""

    map: str
    legend: tuple[str, ...] = ()


def cell_rows(board: Board) -> list[list[Cell]]:
    """The board's cells in rows as they lie on the table: top row first (by centre), left to right."""
    rows: dict[float, list[Cell]] = {}
    for c in board:
        rows.setdefault(round(board.centre_mm(c)[1], 3), []).append(c)
    return [sorted(row, key=lambda c: board.centre_mm(c)[0]) for _y, row in sorted(rows.items())]


def cell_text(board: Board, cell: Cell, view: TextView) -> str:
    """One cell: ``5[obstacle]:AB`` (its label, its terrain other than floor, the figures there or a mark)."""
    here = view.figures.get(cell) or view.marks.get(cell, ".")
    terrain = board.terrain(cell)
    kind = "" if terrain == Terrain.FLOOR else f"[{terrain}]"
    return f"{board.label(cell)}{kind}:{here:<3}"


def rows_drawing(board: Board, view: TextView) -> TextDrawing:
    """Any board cell by cell, in rows as its cells lie on the table (a zone mat's rows, a grid's)."""
    return TextDrawing("\n".join("  ".join(cell_text(board, c, view) for c in row) for row in cell_rows(board)))
