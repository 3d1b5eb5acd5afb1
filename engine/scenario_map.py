"""Reading a scenario's ``[map]``: a hex drawing with its walls, doors and own edge kinds, or a zone mat, and the
anchors, each error naming the line and the fix. The scenario loader (:mod:`engine.scenario`) is a
:class:`MapReading`; this module holds the map's part of it so each part stays small.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.ascii_map import CORE_SYMBOLS, NO_TILE, Symbols, board_from_drawing, parse_levels
from engine.board import Board, EdgeKind, EdgeKindSpec, HexBoard, Terrain, TerrainKind, ZoneBoard
from engine.board.zones import zones_from_drawing
from engine.errors import MapError, ScenarioError
from engine.hexes import Edge, Hex, Orientation, edge, from_label
from engine.i18n import gettext_for
from engine.layout import Layout
from engine.scenario_schema import MARKER_ID_COUNT, MAX_MAP_HEXES, SchemaReader, closest
from engine.texts import declared_text, join_list, join_words

if TYPE_CHECKING:
    from engine.rules.base import RuleSet

HEX_ONLY_KEYS = ("orientation", "hex_across_flats_mm", "drawing", "walls", "doors", "locked_doors", "edges",
                 "rotation_deg", "symbols")
# The keys that list the shared edge kinds' sides; [map] edges = { kind = [...] } lists any kind's.
EDGE_KEYS: tuple[tuple[str, str], ...] = (("walls", EdgeKind.WALL), ("doors", EdgeKind.DOOR),
                                          ("locked_doors", EdgeKind.LOCKED_DOOR))
ZONE_ONLY_KEYS = ("zones", "zone_mm", "terrain")
_TAG_ID = re.compile(r"[0-9]{1,9}")
_ = gettext_for(__name__)


def _hex_label_fix() -> str:
    return _("write the hex as column letters then row number, like 'E4'")


def _did_you_mean(word: str, known: Mapping[str, Any]) -> str:
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

    def cell_label(self, label: Any, board: Board, table: str, index: int | None, key: str) -> Hex:
        """The cell a label names, which must be on the board."""
        zones = isinstance(board, ZoneBoard)
        if not isinstance(label, str):
            raise self.fail(_("{key!r} must be a zone label like '7', not {label!r}", key=key, label=label) if zones
                            else _("{key!r} must be a hex label like 'E4', not {label!r}", key=key, label=label),
                            _("write it as a label"), table, index, key)
        try:
            cell = board.from_label(label)
        except ValueError as exc:
            raise self.fail(str(exc), _hex_label_fix() if not zones else _("use a zone label of the [map]"), table,
                            index, key) from None
        if cell not in board:
            raise self.fail(_("{key!r} names {label}, which is not on the map", key=key, label=label),
                            _("use a cell of the map"), table, index, key)
        return cell

    def hex_label(self, label: Any, orientation: Orientation, table: str, index: int | None, key: str) -> Hex:
        if not isinstance(label, str):
            raise self.fail(_("{key!r} must be a hex label like 'E4', not {label!r}", key=key, label=label),
                            _("write the hex as a label"), table, index, key)
        try:
            return from_label(label, orientation)
        except ValueError as exc:
            raise self.fail(str(exc), _hex_label_fix(), table, index, key) from None

    # -- the map ------------------------------------------------------------------------------------------
    def _only_keys_of(self, m: Mapping[str, Any], kind: str) -> None:
        other = ZONE_ONLY_KEYS if kind == "hex" else HEX_ONLY_KEYS
        for key in m:
            if key in other:
                raise self.fail(_("key {key!r} is not a key of a hex map ([map] kind = {kind!r})", key=key, kind=kind)
                                if kind == "hex" else
                                _("key {key!r} is not a key of a zone board ([map] kind = {kind!r})", key=key,
                                  kind=kind),
                                _("remove it, or set kind = {other!r}", other="zones" if kind == "hex" else "hex"),
                                "map", None, key)

    def _map(self, m: Mapping[str, Any]) -> tuple[HexBoard | ZoneBoard, Layout, dict[int, Hex]]:
        kind = self.get(m, "map", None, "kind")
        if kind not in self.rules.board_kinds:
            raise self.fail(_("{title} is not played on a {kind!r} board", title=self._title(), kind=kind),
                            _("use kind = one of {kinds}", kinds=list(self.rules.board_kinds)), "map", None, "kind")
        self._only_keys_of(m, kind)
        if self.get(m, "map", None, "levels") is not None and not self.rules.levels:
            line = self.r.locator.line("map", None, "levels")
            self.warn(_("{file}, line {line}: {title} has no height levels; the map's levels are drawn on the "
                        "tablets but change nothing in play", file=self.source, line=line, title=self._title()))
        board: HexBoard | ZoneBoard
        if kind == "zones":
            board, layout = self._zone_map(m)
        else:
            board, layout = self._hex_map(m)
        anchors: dict[int, Hex] = {}
        for tag, label in self.get(m, "map", None, "anchors").items():
            if not _TAG_ID.fullmatch(tag) or int(tag) >= MARKER_ID_COUNT:
                raise self.fail(
                    _("anchor tag id {tag!r} is not a tag id from 0 to {last}", tag=tag, last=MARKER_ID_COUNT - 1),
                    _("key anchors by the id printed under the tag: 90 = 'A1'"),
                    "map",
                    None,
                    "anchors",
                )
            if isinstance(board, HexBoard):
                h = self.hex_label(label, board.orientation, "map", None, "anchors")
                if h not in board:
                    raise self.fail(_("anchor hex {label} is not on the map", label=label), _("put anchors on tiles"),
                                    "map", None, "anchors")
            else:
                h = self.cell_label(label, board, "map", None, "anchors")
            anchors[int(tag)] = h
        return board, layout, anchors

    def _zone_map(self, m: Mapping[str, Any]) -> tuple[ZoneBoard, Layout]:
        drawing = self.get(m, "map", None, "zones")
        if drawing is None:
            raise self.fail(_("[map] has no 'zones'"),
                            _("add 'zones = \"\"\"7 8 9 / 4 5 6 / 1 2 3\"\"\"' (one row a line)"), "map")
        zone_mm = float(self.get(m, "map", None, "zone_mm"))
        origin = self.get(m, "map", None, "origin_mm")
        labels = zones_from_drawing(drawing)
        levels_text = self.get(m, "map", None, "levels")
        levels: dict[Hex, int] = {}
        if levels_text is not None:
            for cell, word in zones_from_drawing(levels_text).items():
                if not word.isdigit() or cell not in labels:
                    raise self.fail(_("level {word!r} is not a digit on a zone", word=word),
                                    _("draw one digit per zone, like the zones"), "map", None, "levels")
                levels[cell] = int(word)
        kinds = self._terrain_kinds()
        terrains = self._zone_terrain(m, labels, kinds)
        try:
            board = ZoneBoard(labels, zone_mm, (float(origin[0]), float(origin[1])), levels, terrains, kinds)
        except ValueError as exc:
            raise self.fail(_("the zones cannot be read: {error}", error=exc), _("draw one label per zone"), "map",
                            None, "zones") from None
        # The zone board is registered and read through the board; the hex layout stays for hex-only callers.
        layout = Layout.from_flat_width(Orientation.FLAT, zone_mm, (float(origin[0]), float(origin[1])))
        return board, layout

    def _terrain_kinds(self) -> dict[str, TerrainKind]:
        try:
            return self.rules.terrain_table()
        except ValueError as exc:
            raise self.fail(_("the rule set's terrain cannot be used: {error}", error=exc),
                            _("correct the rule set's terrain_kinds or map_symbols"),
                            "scenario", None, "ruleset") from None

    def _zone_terrain(self, m: Mapping[str, Any], labels: Mapping[Hex, str],
                      kinds: Mapping[str, TerrainKind]) -> dict[Hex, str]:
        """The zones' terrain ([map] terrain = { "5" = "obstacle" }): zone label → a terrain kind's name."""
        by_label = {label: cell for cell, label in labels.items()}
        out: dict[Hex, str] = {}
        for label, name in self.get(m, "map", None, "terrain").items():
            if label not in by_label:
                raise self.fail(_("terrain names zone {label!r}, which is not a zone of the [map]", label=label),
                                _("key terrain by a zone label: one of {known}", known=join_list(sorted(by_label))),
                                "map", None, "terrain")
            if not isinstance(name, str) or name not in kinds:
                raise self.fail(_("zone {label!r} has terrain {name!r}, which {title} does not have", label=label,
                                  name=name, title=self._title()),
                                _("{hint}use one of: {known}", hint=_did_you_mean(str(name), kinds),
                                  known=join_list(kinds)), "map", None, "terrain")
            out[by_label[label]] = name
        return out

    def _hex_map(self, m: Mapping[str, Any]) -> tuple[HexBoard, Layout]:
        orientation = Orientation(self.get(m, "map", None, "orientation"))
        drawing = self.get(m, "map", None, "drawing")
        if drawing is None:
            raise self.fail(_("[map] has no 'drawing'"), _("add 'drawing = …' to it"), "map")
        levels_text = self.get(m, "map", None, "levels")
        kinds = self._terrain_kinds()
        symbols = {**CORE_SYMBOLS, **{ch: (s.terrain, s.token) for ch, s in self.rules.map_symbols.items()},
                   **self._own_symbols(m, kinds)}
        self.symbols = symbols
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
                                _("{hint}use one of: {known}", hint=_did_you_mean(str(name), kinds), known=known),
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
                               _("{hint}use one of: {known}", hint=_did_you_mean(str(name), kinds), known=known))
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

    def _at(self, line: int | None, message: str, fix: str) -> ScenarioError:
        """An error at a file line (the file alone when the line is unknown)."""
        if line:
            return ScenarioError(_("{file}, line {line}: {message}. Fix: {fix}", file=self.source, line=line,
                                   message=message, fix=fix))
        return ScenarioError(_("{file}: {message}. Fix: {fix}", file=self.source, message=message, fix=fix))

    def _title(self) -> str:
        """The rule set's title in the table's language."""
        return declared_text(self.rules, self.rules.title)

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

