"""The hex map kind: a hex drawing with its walls, doors and own edge kinds (``[map] kind = "hex"``).

It reads the ``[map]`` keys only hex maps have, labels hexes as column letters then row number ('E4') and calls
its cells hexes. Registered as a built-in kind (:mod:`engine.board.kinds`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.board import Board, EdgeKind, EdgeKindSpec, Terrain, TerrainKind
from engine.board.hex.ascii_map import board_from_drawing, edge_legend, edge_marks, parse_levels, render_map
from engine.board.hex.board import HexBoard
from engine.board.kinds import BoardKind, MapReading, register_board_kind
from engine.board.marks import board_in_play
from engine.board.symbols import CORE_SYMBOLS, NO_TILE
from engine.board.text_drawing import TextDrawing, TextView
from engine.errors import MapError, ScenarioError
from engine.hexes import Edge, Hex, Orientation, edge, from_label
from engine.i18n import gettext_for, ngettext_for
from engine.layout import Layout
from engine.scenario_map import did_you_mean
from engine.scenario_schema import MAX_MAP_HEXES, ORIENTATIONS, Field, number_field, text_field, texts_field
from engine.texts import join_list, join_words

# The keys that list the shared edge kinds' sides; [map] edges = { kind = [...] } lists any kind's.
EDGE_KEYS: tuple[tuple[str, str], ...] = (("walls", EdgeKind.WALL), ("doors", EdgeKind.DOOR),
                                          ("locked_doors", EdgeKind.LOCKED_DOOR))
_ = gettext_for(__name__)
_n = ngettext_for(__name__)


def _hex_label_fix() -> str:
    return _("write the hex as column letters then row number, like 'E4'")


@register_board_kind
class HexKind(BoardKind):
    """Hex maps: Hexa-System tiles drawn as ASCII art, with walls and doors between hexes."""

    name = "hex"
    english = ("hex", "hexes")
    map_fields = (
        text_field("orientation", "flat", choices=ORIENTATIONS),
        number_field("hex_across_flats_mm", 50.0, 5.0, 500.0, " mm"),
        text_field("drawing", max_len=None),
        texts_field("walls", [], 3 * MAX_MAP_HEXES),
        texts_field("doors", [], 3 * MAX_MAP_HEXES),
        texts_field("locked_doors", [], 3 * MAX_MAP_HEXES),
        Field("edges", dict, {}),  # edge kind name → its sides ("C3|C4"), for any kind the rule set has
        number_field("rotation_deg", 0.0, -360.0, 360.0, "°"),
        Field("symbols", dict, {}),  # this drawing's own symbols: symbol → a terrain kind's name
    )

    def noun(self, count: int = 2) -> str:
        return _("hex") if count == 1 else _("hexes")

    def cells(self, count: int) -> str:
        return _n("{n} hex", "{n} hexes", count)

    def read_map(self, reading: MapReading, m: Mapping[str, Any]) -> tuple[Board, Layout]:
        return HexMapReader(reading).read(m)

    def read_cell(self, reading: MapReading, label: Any, board: Board, table: str, index: int | None,
                  key: str) -> Hex:
        assert isinstance(board, HexBoard)
        return HexMapReader(reading).hex_label(label, board.orientation, table, index, key)

    def text_drawing(self, board: Board, view: TextView) -> TextDrawing:
        """The map in staggered rows with column letters and row numbers, the terrain marked in play, a letter on
        each hex where figures stand (the top of a stack), the walls and doors between hexes, and their legend."""
        assert isinstance(board, HexBoard)
        in_play = board_in_play(board, view.terrain_marks)
        assert isinstance(in_play, HexBoard)
        marks = {**view.marks, **{h: letters[-1] for h, letters in view.figures.items() if letters}}
        drawn = render_map(in_play, marks, headers=True, edges=edge_marks(board, view.doors), symbols=view.symbols)
        return TextDrawing(drawn, (edge_legend(board, view.word),) if board.edges else ())


class HexMapReader:
    """Reads a hex ``[map]`` with the scenario loader's reading (its schema, errors and rule set)."""

    def __init__(self, reading: MapReading) -> None:
        self.reading = reading
        self.r = reading.r
        self.rules = reading.rules
        self.source = reading.source
        self.get = reading.get
        self.fail = reading.fail
        self._at = reading.at
        self._title = reading.title
        self._terrain_kinds = reading.terrain_kinds

    def read(self, m: Mapping[str, Any]) -> tuple[HexBoard, Layout]:
        return self._hex_map(m)

    def hex_label(self, label: Any, orientation: Orientation, table: str, index: int | None, key: str) -> Hex:
        if not isinstance(label, str):
            raise self.fail(_("{key!r} must be a hex label like 'E4', not {label!r}", key=key, label=label),
                            _("write the hex as a label"), table, index, key)
        try:
            return from_label(label, orientation)
        except ValueError as exc:
            raise self.fail(str(exc), _hex_label_fix(), table, index, key) from None


    def _hex_map(self, m: Mapping[str, Any]) -> tuple[HexBoard, Layout]:
        orientation = Orientation(self.get(m, "map", None, "orientation"))
        drawing = self.get(m, "map", None, "drawing")
        if drawing is None:
            raise self.fail(_("[map] has no 'drawing'"), _("add 'drawing = …' to it"), "map")
        levels_text = self.get(m, "map", None, "levels")
        kinds = self._terrain_kinds()
        symbols = {**CORE_SYMBOLS, **{ch: (s.terrain, s.token) for ch, s in self.rules.map_symbols.items()},
                   **self._own_symbols(m, kinds)}
        self.reading.symbols = symbols
        try:
            levels = parse_levels(levels_text, orientation) if levels_text is not None else {}
            board, _marks = board_from_drawing(drawing, orientation=orientation, levels=levels, symbols=symbols,
                                               strict=True, kinds=kinds)
        except MapError as exc:
            raise self._drawing_error(exc, drawing) from None
        except ValueError as exc:
            raise self.fail(_("the map cannot be read: {error}", error=exc), _("redraw it"), "map", None,
                            "drawing") from None
        if len(board.tiles) > MAX_MAP_HEXES:
            raise self.fail(
                _("the map has {n:,} hexes; at most {most:,} fit in the messages to the tablets", n=len(board.tiles),
                  most=MAX_MAP_HEXES),
                _("draw a smaller map"),
                "map",
                None,
                "drawing",
            )
        try:
            edge_kinds = self.rules.edge_table()
        except ValueError as exc:
            raise self.fail(_("the rule set's edge kinds cannot be used: {error}", error=exc),
                            _("correct the rule set's edge_kinds"), "scenario", None, "ruleset") from None
        edges = self._edges(m, board, edge_kinds)
        width = self.get(m, "map", None, "hex_across_flats_mm")
        origin = self.get(m, "map", None, "origin_mm")
        layout = Layout.from_flat_width(
            orientation,
            float(width),
            (float(origin[0]), float(origin[1])),
            float(self.get(m, "map", None, "rotation_deg")),
        )
        return replace(board, edges=edges, layout=layout, edge_kinds=edge_kinds), layout

    def _own_symbols(self, m: Mapping[str, Any], kinds: Mapping[str, TerrainKind]) -> dict[str, tuple[str, None]]:
        """The drawing's own symbols ([map] symbols = { L = "lumber" }), each naming a terrain kind of the rule set."""
        own: dict[str, tuple[str, None]] = {}
        known = join_list(kinds)
        for ch, name in self.get(m, "map", None, "symbols").items():
            if len(ch) != 1 or ch.isspace() or ch == NO_TILE:
                raise self.fail(_("map symbol {ch!r} is not one character", ch=ch),
                                _("key each symbol by one character other than '-', like L = \"lumber\""), "map",
                                None, "symbols")
            if not isinstance(name, str) or name not in kinds:
                raise self.fail(_("map symbol {ch!r} names terrain {name!r}, which {title} does not have", ch=ch,
                                  name=name, title=self._title()),
                                _("{hint}use one of: {known}", hint=did_you_mean(str(name), kinds), known=known),
                                "map", None, "symbols")
            own[ch] = (name, None)
        return own

    def _edge_lists(self, m: Mapping[str, Any], kinds: Mapping[str, EdgeKindSpec]
                    ) -> list[tuple[str, str, list[Any], int | None]]:
        """Every list of sides the [map] gives: (name in messages, kind, entries, line), walls… first, then edges."""
        lists: list[tuple[str, str, list[Any], int | None]] = [
            (key, kind, self.get(m, "map", None, key), self.r.locator.line("map", None, key)) for key, kind in EDGE_KEYS
        ]
        known = join_list(kinds)
        for name, items in self.get(m, "map", None, "edges").items():
            line = self.r.locator.sub_key("map", "edges", name)
            if name not in kinds:
                raise self._at(line, _("[map] edges names the edge kind {name!r}, which {title} does not have",
                                       name=name, title=self._title()),
                               _("{hint}use one of: {known}", hint=did_you_mean(str(name), kinds), known=known))
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise self._at(line, _("[map] edges {name} must be a list of sides like [\"C3|C4\"], not {items!r}",
                                       name=name, items=items), _("write each side as a pair of hexes in quotes"))
            if len(items) > 3 * MAX_MAP_HEXES:
                raise self._at(line, _("[map] edges {name} lists {n:,} sides; a map has at most {most:,}", name=name,
                                       n=len(items), most=3 * MAX_MAP_HEXES), _("list each side once"))
            lists.append((f"edges {name}", name, items, line))
        return lists

    def _edges(self, m: Mapping[str, Any], board: HexBoard, kinds: Mapping[str, EdgeKindSpec]) -> dict[Edge, str]:
        edges: dict[Edge, str] = {}
        named: dict[Edge, str] = {}
        for key, kind, items, line in self._edge_lists(m, kinds):
            def fail(message: str, fix: str, line: int | None = line) -> ScenarioError:
                return self._at(line, message, fix)

            for item in items:
                pair = item.split("|")
                if len(pair) != 2:
                    raise fail(_("{key} entry {item!r} is not a pair of hexes", key=key, item=item),
                               _("write it as 'C3|C4'"))
                a, b = (self._side_hex(text, board, fail) for text in pair)
                off_hexes = [x for x, h in zip(pair, (a, b), strict=True) if h not in board]
                off = join_words(off_hexes)
                where_off = ((_("{hexes} are not on the map", hexes=off) if len(off_hexes) > 1
                              else _("{hexes} is not on the map", hexes=off)) if off_hexes else "")
                if a.distance(b) != 1:
                    raise fail(_("{key} entry {item!r} joins hexes that are not neighbours, and {off}", key=key,
                                 item=item, off=where_off) if off_hexes else
                               _("{key} entry {item!r} joins hexes that are not neighbours", key=key, item=item),
                               _("a wall or door stands between two touching hexes of the map"))
                if off_hexes:
                    raise fail(_("{key} entry {item!r} touches a hex that is not on the map: {off}", key=key,
                                 item=item, off=where_off), _("remove it or add the tile"))
                e = edge(a, b)
                if e in named:
                    raise fail(_("{key} entry {item!r} is already listed in {other}", key=key, item=item,
                                 other=named[e]),
                               _("list each side once: a wall, a door, a locked door or one other edge kind"))
                if kinds[kind].door and all(board.terrain(h) is Terrain.BLOCKING for h in (a, b)):
                    raise fail(_("{key} entry {item!r} is a door between two blocking hexes (#), which nobody can "
                                 "reach", key=key, item=item), _("put the door beside a floor hex, or remove it"))
                named[e] = key
                edges[e] = kind
        return edges

    def _side_hex(self, text: str, board: HexBoard, fail: Callable[[str, str], ScenarioError]) -> Hex:
        """One hex of a side's pair ('C3' of 'C3|C4')."""
        try:
            return from_label(text, board.orientation)
        except ValueError as exc:
            raise fail(str(exc), _hex_label_fix()) from None

    def _drawing_error(self, exc: MapError, drawing: str) -> ScenarioError:
        """Point at the file line of the bad symbol: the drawing starts on the line after 'drawing = \'\'\''."""
        key_line = self.r.locator.line("map", None, "drawing")
        if key_line is None or exc.line is None:
            return self.fail(_("the map drawing is wrong: {error}", error=exc), _("redraw that symbol"), "map", None,
                             "drawing")
        leading = len(drawing) - len(drawing.lstrip("\n"))
        line = key_line + 1 + leading + exc.line - 1
        return self._at(line, _("the map drawing is wrong: {error}", error=exc), _("redraw that symbol"))

