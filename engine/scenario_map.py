"""Reading a scenario's ``[map]``: its kind (:mod:`engine.board.kinds`, which reads the rest of it) and the
anchors, each error naming the line and the fix. The scenario loader (:mod:`engine.scenario`) is a
:class:`MapReading`; this module holds the map's part of it so each part stays small.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engine.board import Board, TerrainKind
from engine.board.base import Cell
from engine.board.kinds import BoardKind, board_kind_names, find_board_kind
from engine.board.symbols import Symbols
from engine.errors import ScenarioError
from engine.i18n import gettext_for
from engine.layout import Layout
from engine.scenario_schema import MARKER_ID_COUNT, SchemaReader, closest
from engine.texts import declared_text

if TYPE_CHECKING:
    from engine.rules.base import RuleSet

_TAG_ID = re.compile(r"[0-9]{1,9}")
_ = gettext_for(__name__)


def did_you_mean(word: str, known: Mapping[str, Any]) -> str:
    """ "did you mean 'forest'? " when a known name is close to ``word``, else nothing."""
    best = closest(word, known)
    return _("did you mean {best!r}? ", best=best) if best else ""


class MapReading:
    """The ``[map]`` part of the scenario loader: what it reads with and the methods that read the map."""

    r: SchemaReader
    source: str
    rules: type[RuleSet]
    symbols: Symbols  # the hex drawing's symbols, kept for drawing the map again (hexa play)
    fail: Callable[..., ScenarioError]
    get: Callable[..., Any]

    def warn(self, text: str) -> None:
        raise NotImplementedError

    def cell_label(self, label: Any, board: Board, table: str, index: int | None, key: str) -> Cell:
        """The cell a label names, which must be on the board (the board's own labels, its own fix)."""
        if not isinstance(label, str):
            raise self.fail(_("{key!r} must be a cell label of the [map], not {label!r}", key=key, label=label),
                            _("write it as a label"), table, index, key)
        try:
            cell = board.from_label(label)
        except ValueError as exc:
            raise self.fail(str(exc), _("use a label of the [map]"), table, index, key) from None
        if cell not in board:
            raise self.fail(_("{key!r} names {label}, which is not on the map", key=key, label=label),
                            _("use a cell of the map"), table, index, key)
        return cell

    def read_label(self, label: Any, board: Board, table: str, index: int | None, key: str) -> Cell:
        """The cell a label names as the board's kind reads labels (it may be off the board; the caller says)."""
        return find_board_kind(board.kind).read_cell(self, label, board, table, index, key)

    def _only_keys_of(self, m: Mapping[str, Any], kind: BoardKind) -> None:
        """Refuse a key another kind of board reads (``zones`` on a hex map), naming the kind that reads it."""
        own = {f.name for f in kind.map_fields}
        for other_name in board_kind_names():
            other = find_board_kind(other_name)
            for key in m:
                if other is not kind and key not in own and key in {f.name for f in other.map_fields}:
                    raise self.fail(_("key {key!r} is not a key of a {kind!r} board", key=key, kind=kind.name),
                                    _("remove it, or set kind = {other!r}", other=other.name), "map", None, key)

    def _map(self, m: Mapping[str, Any]) -> tuple[Board, Layout, dict[int, Cell]]:
        kind = self.get(m, "map", None, "kind") or self.rules.board_kinds[0]
        if kind not in self.rules.board_kinds:
            raise self.fail(_("{title} is not played on a {kind!r} board", title=self.title(), kind=kind),
                            _("use kind = one of {kinds}", kinds=list(self.rules.board_kinds)), "map", None, "kind")
        board_kind = find_board_kind(kind)
        self._only_keys_of(m, board_kind)
        if self.get(m, "map", None, "levels") is not None and not self.rules.levels:
            line = self.r.locator.line("map", None, "levels")
            self.warn(_("{file}, line {line}: {title} has no height levels; the map's levels are drawn on the "
                        "tablets but change nothing in play", file=self.source, line=line, title=self.title()))
        board, layout = board_kind.read_map(self, m)
        anchors: dict[int, Cell] = {}
        for tag, label in self.get(m, "map", None, "anchors").items():
            if not _TAG_ID.fullmatch(tag) or int(tag) >= MARKER_ID_COUNT:
                raise self.fail(
                    _("anchor tag id {tag!r} is not a tag id from 0 to {last}", tag=tag, last=MARKER_ID_COUNT - 1),
                    _("key anchors by the id printed under the tag: 90 = 'A1'"),
                    "map",
                    None,
                    "anchors",
                )
            cell = board_kind.read_cell(self, label, board, "map", None, "anchors")
            if cell not in board:
                raise self.fail(_("anchor {cell} {label} is not on the map", cell=board_kind.noun(1), label=label),
                                _("put anchors on the board's cells"), "map", None, "anchors")
            anchors[int(tag)] = cell
        return board, layout, anchors

    def terrain_kinds(self) -> dict[str, TerrainKind]:
        try:
            return self.rules.terrain_table()
        except ValueError as exc:
            raise self.fail(_("the rule set's terrain cannot be used: {error}", error=exc),
                            _("correct the rule set's terrain_kinds or map_symbols"),
                            "scenario", None, "ruleset") from None

    def at(self, line: int | None, message: str, fix: str) -> ScenarioError:
        """An error at a file line (the file alone when the line is unknown)."""
        if line:
            return ScenarioError(_("{file}, line {line}: {message}. Fix: {fix}", file=self.source, line=line,
                                   message=message, fix=fix))
        return ScenarioError(_("{file}: {message}. Fix: {fix}", file=self.source, message=message, fix=fix))

    def title(self) -> str:
        """The rule set's title in the table's language."""
        return declared_text(self.rules, self.rules.title)

