"""Terrain marks made in play: the board a rule set reads is the scenario's board with the marks applied.

A game master may mark a cell blocking, clear, or any terrain kind the rule set declares while the game
runs (a tree falls, a fog bank rolls in). The marks live in the game state (``GameState.marks``, so the
journal, undo and the wire carry them like any state); :func:`board_in_play` gives the board with them,
the one place rules read terrain from. A board kind takes marks by implementing
``with_terrain(marks) -> Board`` (the hex map does; a zone board takes none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board.base import Board, Cell
from engine.i18n import gettext_for

_ = gettext_for(__name__)

_CACHE_LIMIT = 64
_cache: dict[tuple[int, tuple[tuple[int, int, str], ...]], tuple[Board, Board]] = {}


class MarkError(ValueError):
    """A terrain mark the board cannot take (a cell off the board, an undeclared kind)."""


def check_mark(board: Board, cell: Cell, terrain: str) -> None:
    """Refuse a mark on a cell off the board or with a kind the board does not declare (say which exist)."""
    if cell not in board:
        raise MarkError(_("{cell} is not on the board. Fix: mark a cell of the map", cell=board.label(cell)))
    kinds: Mapping[str, Any] = getattr(board, "kinds", {})
    if kinds and terrain not in kinds:
        raise MarkError(_("terrain {terrain!r} is not a kind of this board. Fix: use one of {kinds}", terrain=terrain,
                          kinds=", ".join(kinds)))


def _marked(board: Board, marks: Mapping[Cell, str]) -> Board:
    with_terrain = getattr(board, "with_terrain", None)
    if with_terrain is None:
        raise MarkError(f"a {board.kind} board takes no terrain marks: it implements no with_terrain")
    marked: Board = with_terrain(marks)
    return marked


def board_in_play(board: Board, marks: Mapping[Cell, str]) -> Board:
    """``board`` with the terrain ``marks`` applied (the board itself when there are none); cached per marks."""
    if not marks:
        return board
    key = (id(board), tuple(sorted((c.q, c.r, str(t)) for c, t in marks.items())))
    found = _cache.get(key)
    if found is not None and found[0] is board:
        return found[1]
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    marked = _marked(board, marks)
    _cache[key] = (board, marked)
    return marked
