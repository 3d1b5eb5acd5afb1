"""The ``squares`` board kind: what ``[map] kind = "squares"`` reads and what its cells are called.

A scenario draws its squares row by row, one symbol a square separated by spaces (``-`` for no square), with the
core's symbols and the rule set's own (``X`` an exit in Race), and gives their size:

    [map]
    kind = "squares"
    square_mm = 40
    squares = \"\"\"
    . . # . X
    . . . . .
    \"\"\"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board import Board, Cell
from engine.board.kinds import BoardKind, MapReading, register_board_kind
from engine.board.symbols import CORE_SYMBOLS, NO_TILE
from engine.board.text_drawing import TextDrawing, TextView
from engine.hexes import Orientation, column_letters
from engine.i18n import gettext_for, ngettext_for
from engine.layout import Layout
from engine.scenario_schema import number_field, text_field

from .board import SquareBoard

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


@register_board_kind
class SquareKind(BoardKind):
    """Square grids: cells in rows and columns, labelled like a chess board's ('A1' top left)."""

    name = "squares"
    english = ("square", "squares")
    map_fields = (
        text_field("squares", max_len=100_000),
        number_field("square_mm", 40.0, 10.0, 500.0, " mm"),
    )

    def noun(self, count: int = 2) -> str:
        return _("square") if count == 1 else _("squares")

    def cells(self, count: int) -> str:
        return _n("{n} square", "{n} squares", count)

    def read_map(self, reading: MapReading, m: Mapping[str, Any]) -> tuple[Board, Layout]:
        drawing = reading.get(m, "map", None, "squares")
        if drawing is None:
            raise reading.fail(_("[map] has no 'squares'"),
                               _("draw the squares row by row, one symbol a square: squares = \"\"\". . X\"\"\""),
                               "map")
        symbols = {**CORE_SYMBOLS, **{ch: (s.terrain, s.token) for ch, s in reading.rules.map_symbols.items()}}
        reading.symbols = symbols
        kinds = reading.terrain_kinds()
        terrains: dict[Cell, str] = {}
        tokens: dict[Cell, tuple[str, ...]] = {}
        rows = [line.split() for line in str(drawing).strip("\n").splitlines() if line.strip()]
        for r, row in enumerate(rows):
            for q, symbol in enumerate(row):
                if symbol == NO_TILE:
                    continue
                if symbol not in symbols:
                    raise reading.fail(_("square symbol {symbol!r} in row {row} is not a map symbol", symbol=symbol,
                                         row=r + 1),
                                       _("use one of: {known}", known=" ".join(sorted(symbols))), "map", None,
                                       "squares")
                terrain, token = symbols[symbol]
                terrains[Cell(q, r)] = str(terrain)
                if token is not None:
                    tokens[Cell(q, r)] = (token,)
        size = float(reading.get(m, "map", None, "square_mm"))
        origin = reading.get(m, "map", None, "origin_mm")
        try:
            board = SquareBoard(terrains, size, (float(origin[0]), float(origin[1])), tokens, kinds=kinds)
        except ValueError as exc:
            raise reading.fail(str(exc), _("draw at least one square"), "map", None, "squares") from None
        return board, Layout.from_flat_width(Orientation.FLAT, size, (float(origin[0]), float(origin[1])))

    def text_drawing(self, board: Board, view: TextView) -> TextDrawing:
        """The grid for a terminal as the scenario draws it, with column letters and row numbers: a square shows
        the letters of its figures (the top two of a stack), else a query's mark, else its map symbol."""
        assert isinstance(board, SquareBoard)
        symbol_of = {pair: ch for ch, pair in reversed(list(view.symbols.items()))}  # the first symbol drawing it

        def square(cell: Cell) -> str:
            if cell not in board:
                return NO_TILE
            if view.figures.get(cell):
                return view.figures[cell][-2:]
            if cell in view.marks:
                return view.marks[cell]
            terrain = view.terrain_marks.get(cell, board.terrain(cell))
            token = next(iter(board.tokens.get(cell, ())), None)
            return symbol_of.get((terrain, token)) or symbol_of.get((terrain, None), "?")

        columns = range(min(c.q for c in board), max(c.q for c in board) + 1)
        rows = range(min(c.r for c in board), max(c.r for c in board) + 1)
        lines = ["    " + "".join(f"{column_letters(q):<3}" for q in columns).rstrip()]
        lines += [f"{r + 1:>3} " + "".join(f"{square(Cell(q, r)):<3}" for q in columns).rstrip() for r in rows]
        return TextDrawing("\n".join(lines))
