"""Board kinds: what a scenario's ``[map] kind`` names, each one class registered like a rule set.

A board kind owns everything that differs between a hex map, a zone mat or a square grid: the ``[map]`` keys it
reads and how it reads them into a :class:`~engine.board.base.Board`, how its cells are labelled in files, and
what its cells are called in texts ("hex" / "hexes", "zone" / "zones", in every language). The core, the app and
the synthetic table ask the kind, never branch on its name. A kind of one's own registers itself with
:func:`register_board_kind` from a rule-set folder (``HEXA_RULESETS``): importing the folder registers it.

The built-in kinds are imported by name on first lookup (as the rule-set registry imports the built-in rule sets),
so this module imports no map reading itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from engine import texts
from engine.board.text_drawing import TextDrawing, TextView, rows_drawing
from engine.i18n import gettext_for

if TYPE_CHECKING:
    from engine.board.base import Board, Cell
    from engine.errors import ScenarioError
    from engine.layout import Layout

_ = gettext_for(__name__)
_BUILTIN_MODULES = ("engine.board.hex", "engine.board.zones")  # each kind a package, found as a plug-in's folder is
_KINDS: dict[str, BoardKind] = {}
_loaded = False


class MapReading(Protocol):
    """What a kind reads its ``[map]`` with: the scenario loader (:class:`engine.scenario_map.MapReading`)."""

    r: Any  # the schema reader (its locator finds a key's line)
    rules: Any  # the rule set's class
    source: str
    symbols: Any  # the drawing's symbols, kept for drawing the map again

    def get(self, row: Mapping[str, Any], table: str, index: int | None, key: str) -> Any: ...

    def fail(self, message: str, fix: str, table: str, index: int | None = None,
             key: str | None = None) -> ScenarioError:
        """The error to raise: the file, the line of ``key``, the message and the fix."""

    def at(self, line: int | None, message: str, fix: str) -> ScenarioError: ...

    def title(self) -> str: ...

    def terrain_kinds(self) -> dict[str, Any]: ...


class BoardKind:
    """One kind of board: subclass it, set :attr:`name` and :attr:`map_fields`, and implement the methods."""

    name: ClassVar[str] = ""  # as ``[map] kind`` writes it and ``Board.kind`` answers
    map_fields: ClassVar[tuple[Any, ...]] = ()  # the [map] keys only this kind reads (scenario_schema.Field)
    english: ClassVar[tuple[str, str]] = ("cell", "cells")  # its cells' name, one and many, in English

    def noun(self, count: int = 2) -> str:
        """What its cells are called without a number, in the table's language ("hexes", 「ヘクス」)."""
        return self.english[0] if count == 1 else self.english[1]

    def cells(self, count: int) -> str:
        """A count of its cells in the table's language ("2 hexes", 「2ヘクス」)."""
        return f"{count} {self.noun(count)}"

    def read_map(self, reading: MapReading, m: Mapping[str, Any]) -> tuple[Board, Layout]:
        """The board and its table layout from the scenario's ``[map]`` (errors through ``reading.fail``)."""
        raise NotImplementedError

    def read_cell(self, reading: MapReading, label: Any, board: Board, table: str, index: int | None,
                  key: str) -> Cell:
        """The cell a scenario's label names (``at``, an anchor), or an error naming the fix; the cell may be off
        the board (the caller says so in its own words)."""
        if not isinstance(label, str):
            raise reading.fail(_("{key!r} must be a cell label of the [map], not {label!r}", key=key, label=label),
                               _("write it as a label"), table, index, key)
        try:
            return board.from_label(label)
        except ValueError as exc:
            raise reading.fail(str(exc), _("use a label of the [map]"), table, index, key) from None

    def text_drawing(self, board: Board, view: TextView) -> TextDrawing:
        """The board for a terminal (``hexa play``) with what stands on it: by default its cells in rows as they lie
        on the table, each with its label, terrain and figures (:func:`engine.board.text_drawing.rows_drawing`)."""
        return rows_drawing(board, view)


def register_board_kind(kind: type[BoardKind]) -> type[BoardKind]:
    """Register a board kind (usable as a class decorator); a second kind of the same name replaces the first."""
    if not kind.name:
        raise ValueError(f"board kind {kind.__qualname__} has no name")
    made = _KINDS[kind.name] = kind()
    texts.name_cells(kind.name, texts.CellWords(made.noun, made.cells, made.english))
    return kind


def registered_kinds() -> list[type[BoardKind]]:
    """The classes of the kinds registered now."""
    return [type(k) for k in _KINDS.values()]


def forget_kinds(kinds: set[type[BoardKind]]) -> None:
    """Forget these kinds (a plug-in's, when the plug-ins are looked at again: engine.rules.reload_plugins)."""
    for name in [n for n, k in _KINDS.items() if type(k) in kinds]:
        del _KINDS[name]


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _BUILTIN_MODULES:
            importlib.import_module(module)


def find_board_kind(name: str) -> BoardKind:
    """The registered kind of that name (KeyError naming the known ones when there is none). A folder's own kind is
    registered once the rule-set registry has imported the folder (a scenario names its rule set first)."""
    _load_builtins()
    try:
        return _KINDS[name]
    except KeyError:
        raise KeyError(f"no board kind {name!r}; known kinds: {', '.join(sorted(_KINDS))}") from None


def board_kind_names() -> list[str]:
    """Every registered board kind's name."""
    _load_builtins()
    return sorted(_KINDS)


def cell_noun(kind: str, count: int = 2) -> str:
    """What a board kind's cells are called (the built-in kinds loaded first): see :func:`engine.texts.cell_noun`."""
    _load_builtins()
    return texts.cell_noun(kind, count)


def cells(kind: str, count: int) -> str:
    """A count of a board kind's cells (the built-in kinds loaded first): see :func:`engine.texts.cells`."""
    _load_builtins()
    return texts.cells(kind, count)
