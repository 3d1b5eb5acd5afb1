"""Scenario files (TOML): map, sides, players, figures, victory conditions, rule set and options.

A scenario is data, never code. Loading validates everything and every error names the file, the
line and the fix. See docs/scenario-format.md for an annotated example.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.ascii_map import CORE_SYMBOLS, NO_TILE, Symbols, board_from_drawing, parse_levels
from engine.board import Board, EdgeKind, EdgeKindSpec, HexBoard, Point, Terrain, TerrainKind, ZoneBoard
from engine.board.zones import zones_from_drawing
from engine.errors import MapError, ScenarioError
from engine.hexes import Edge, Hex, Orientation, edge, from_label
from engine.layout import Layout
from engine.scenario_schema import (
    MARKER_ID_COUNT,
    MAX_MAP_HEXES,
    MAX_SCENARIO_CHARS,
    REQUIRED,
    SCENARIO_TABLES,
    SIDE_COLOURS,
    Field,
    FieldError,
    SchemaReader,
    closest,
    options_table,
    text_field,
)

if TYPE_CHECKING:
    from engine.rules.base import RuleSet

log = logging.getLogger(__name__)

HEX_ONLY_KEYS = ("orientation", "hex_across_flats_mm", "drawing", "walls", "doors", "locked_doors", "edges",
                 "rotation_deg", "symbols")
# The keys that list the shared edge kinds' sides; [map] edges = { kind = [...] } lists any kind's.
EDGE_KEYS: tuple[tuple[str, str], ...] = (("walls", EdgeKind.WALL), ("doors", EdgeKind.DOOR),
                                          ("locked_doors", EdgeKind.LOCKED_DOOR))
ZONE_ONLY_KEYS = ("zones", "zone_mm", "terrain")


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    colour: str


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    sides: tuple[str, ...]


@dataclass(frozen=True)
class FigureSpec:
    """A figure as the scenario sets it up: the keys every rule set shares, and the rule set's own ``fields``.

    A rule set reads its own fields through typed accessors (:class:`engine.rule_fields.FieldRef`).
    """

    id: str
    name: str
    marker_id: int
    side: str
    start: Hex
    height_mm: float = 0.0  # height of the tag above the table, for the camera's parallax correction
    fields: Mapping[str, Any] = field(default_factory=dict)  # the rule set's figure fields, defaults filled


@dataclass(frozen=True)
class VictorySpec:
    """One way for a side to win: a ``type`` the rule set declares, with that type's own ``fields``."""

    side: str
    type: str
    text: str
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    description: str
    ruleset: str
    options: Mapping[str, Any]
    sides: tuple[SideSpec, ...]
    players: tuple[PlayerSpec, ...]
    figures: tuple[FigureSpec, ...]
    victory: tuple[VictorySpec, ...]
    board: HexBoard | ZoneBoard
    layout: Layout
    anchors: Mapping[int, Hex] = field(default_factory=dict)
    source: str = "<text>"
    text: str = ""
    tables: Mapping[str, Any] = field(default_factory=dict)  # the rule set's own tables, checked, defaults filled
    warnings: tuple[str, ...] = ()  # what loads but may not be meant (shown when a game starts)
    symbols: Symbols = field(default_factory=dict)  # the map drawing's symbols: the core's, the rule set's, its own
    level_height_mm: float = 0.0  # how much one height level raises a tile's top above the table (raised tiles)

    def figure(self, figure_id: str) -> FigureSpec:
        for f in self.figures:
            if f.id == figure_id:
                return f
        raise KeyError(figure_id)

    def side(self, side_id: str) -> SideSpec:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    def figure_by_marker(self, marker_id: int) -> FigureSpec | None:
        return next((f for f in self.figures if f.marker_id == marker_id), None)

    def label(self, h: Hex) -> str:
        return self.board.label(h)

    def tag_height_mm(self, figure: FigureSpec, cell: Hex) -> float:
        """How high a figure's tag stands above the table on ``cell``: its level × the level height + its own
        tag height (what the camera's parallax correction needs for a figure on a raised tile)."""
        return self.board.level(cell) * self.level_height_mm + figure.height_mm

    def anchor_points_mm(self) -> dict[int, Point]:
        """Where the table is registered from (tag id → centre, map millimetres): the anchors the scenario names on
        cells, or when it names none the tags printed on the board itself (a zone mat's corner tags)."""
        if self.anchors:
            return {tag: self.board.centre_mm(cell) for tag, cell in self.anchors.items()}
        return self.board.printed_anchors_mm()


_SLUG = re.compile(r"[^a-z0-9]+")
_TAG_ID = re.compile(r"[0-9]{1,9}")


def slug(name: str) -> str:
    return _SLUG.sub("-", name.lower()).strip("-") or "figure"


class _Loader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.r = SchemaReader(text, source)
        self.fail = self.r.fail
        self.get = self.r.get
        self.warnings: list[str] = []
        self.symbols: Symbols = {}  # the hex drawing's symbols, kept for drawing the map again (hexa play)

    def warn(self, text: str) -> None:
        log.warning("%s", text)
        self.warnings.append(text)

    def cell_label(self, label: Any, board: Board, table: str, index: int | None, key: str) -> Hex:
        """The cell a label names, which must be on the board."""
        zones = isinstance(board, ZoneBoard)
        if not isinstance(label, str):
            example = "'7'" if zones else "'E4'"
            raise self.fail(f"{key!r} must be a {'zone' if zones else 'hex'} label like {example}, not {label!r}",
                            "write it as a label", table, index, key)
        try:
            cell = board.from_label(label)
        except ValueError as exc:
            raise self.fail(str(exc), "write the hex as column letters then row number, like 'E4'"
                            if not zones else "use a zone label of the [map]", table, index, key) from None
        if cell not in board:
            raise self.fail(f"{key!r} names {label}, which is not on the map", "use a cell of the map",
                            table, index, key)
        return cell

    def hex_label(self, label: Any, orientation: Orientation, table: str, index: int | None, key: str) -> Hex:
        if not isinstance(label, str):
            raise self.fail(
                f"{key!r} must be a hex label like 'E4', not {label!r}", "write the hex as a label", table, index, key
            )
        try:
            return from_label(label, orientation)
        except ValueError as exc:
            raise self.fail(
                str(exc), "write the hex as column letters then row number, like 'E4'", table, index, key
            ) from None

    def load(self) -> Scenario:
        if len(self.text) > MAX_SCENARIO_CHARS:
            raise ScenarioError(
                f"{self.source}: the file has {len(self.text):,} characters; a scenario may have at most "
                f"{MAX_SCENARIO_CHARS:,}. Fix: check that this is the scenario file, and draw a smaller map"
            )
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise ScenarioError(f"{self.source}: not valid TOML ({exc}). Fix: correct the syntax there") from None
        head = self.r.table(data, "scenario")
        name = self.get(head, "scenario", None, "name")
        ruleset = self.get(head, "scenario", None, "ruleset")
        from engine.rules import find_ruleset  # late import: the rule registry imports scenario types

        try:
            rules_cls = find_ruleset(ruleset)
        except KeyError as exc:
            raise self.fail(
                str(exc.args[0]), "use one of the listed rule set names, or name the folder of a rule set of "
                "your own in the environment variable HEXA_RULESETS", "scenario", None, "ruleset"
            ) from None
        self.rules = rules_cls
        self._declare(rules_cls)
        self.r.check_tables(data)
        board, layout, anchors = self._map(self.r.table(data, "map"))
        sides = self._sides(self.r.rows(data, "sides"))
        side_ids = {s.id for s in sides}
        players = self._players(data.get("players"), sides)
        self.refs: dict[str, set[str]] = {"side": side_ids}
        figures = self._figures(self.r.rows(data, "figures"), side_ids, board)
        for tag in anchors or board.printed_anchors_mm():
            holder = next((f for f in figures if f.marker_id == tag), None)
            if holder is not None:
                printed = "" if anchors else " printed on the board"
                raise self.fail(
                    f"anchor tag {tag}{printed} is also the marker of figure {holder.name!r}",
                    "give the anchors and the figures different tag ids (the anchor sheet prints 90 to 99)",
                    "map" if anchors else "figures",
                    None if anchors else figures.index(holder),
                    "anchors" if anchors else "marker",
                )
        self.refs["figure"] = {f.id for f in figures}
        victory = self._victory(self.r.rows(data, "victory"), side_ids, board)
        tables = self._rule_tables(data, board)
        options = self.r.table(data, "options", required=False)
        try:
            options = rules_cls.validate_options(options)
        except ValueError as exc:
            raise self.fail(str(exc), "fix or remove that option", "options") from None
        scenario = Scenario(
            id=self.get(head, "scenario", None, "id") or slug(name),
            name=name,
            description=self.get(head, "scenario", None, "description"),
            ruleset=rules_cls.name,
            options=options,
            sides=sides,
            players=players,
            figures=figures,
            victory=victory,
            board=board,
            layout=layout,
            anchors=anchors,
            source=self.source,
            text=self.text,
            tables=tables,
            warnings=tuple(self.warnings),
            symbols=self.symbols,
            level_height_mm=float(self.get(self.r.table(data, "map"), "map", None, "level_height_mm")),
        )
        try:
            rules_cls.check_scenario(scenario)
        except ValueError as exc:
            raise ScenarioError(f"{self.source}: {exc}") from None
        return scenario

    # -- what the rule set adds to the format -----------------------------------------------------------
    def _declare(self, rules: type[RuleSet]) -> None:
        """Extend the core tables with the rule set's declarations, so every table is read one way."""
        tables = self.r.tables
        tables["options"] = options_table(rules.title, (Field(o.name, o.type) for o in rules.options))
        tables["figures"] = tables["figures"].with_fields(*rules.figure_fields)
        self.victory_types = {v.name: v for v in rules.victory_types}
        victory = tables["victory"].with_field(text_field("type", REQUIRED, choices=tuple(self.victory_types)))
        seen: dict[str, Field] = {}
        for vt in rules.victory_types:
            for f in vt.fields:
                seen.setdefault(f.name, f)
        tables["victory"] = victory.with_fields(*seen.values())
        for t in rules.tables:
            if t.name in tables:
                raise ScenarioError(f"{rules.title} declares the table {t.header}, which the core has")
            tables[t.name] = t if t.owner else replace(t, owner=f"{t.header} of {rules.title}")

    def _values(self, row: Mapping[str, Any], table: str, index: int | None, fields: Iterable[Field],
                board: Board) -> dict[str, Any]:
        """A row's values for ``fields``: checked, defaults filled, references (cells, figures, sides) resolved."""
        out: dict[str, Any] = {}
        for f in fields:
            value = self.get(row, table, index, f.name)
            if f.ref and value is not None:
                items = value if isinstance(value, list) else [value]
                resolved = [self._resolve(item, f, board, table, index) for item in items]
                value = tuple(resolved) if isinstance(value, list) else resolved[0]
            elif isinstance(value, list):
                value = tuple(value)
            if f.convert is not None and value is not None:
                value = f.convert(value)
            out[f.name] = value
        return out

    def _resolve(self, item: Any, f: Field, board: Board, table: str, index: int | None) -> Any:
        if f.ref == "cell":
            return self.cell_label(item, board, table, index, f.name)
        known = self.refs.get(f.ref, set())
        if item not in known:
            what = {"figure": "figure", "side": "side"}.get(f.ref, f.ref)
            raise self.fail(f"{f.name!r} names {what} {item!r}, which is not in the scenario",
                            f"use a {what} id: {sorted(known)}", table, index, f.name)
        return item

    def _rule_check(self, check: Any, spec: Any, board: Board, table: str, index: int) -> None:
        try:
            check(spec, board)
        except FieldError as exc:
            raise self.fail(exc.message, exc.fix, table, index, exc.key) from None

    def _rule_tables(self, data: Mapping[str, Any], board: Board) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for t in self.rules.tables:
            if t.many:
                out[t.name] = tuple(self._values(row, t.name, i, t.fields, board)
                                    for i, row in enumerate(self.r.rows(data, t.name)))
            else:
                out[t.name] = self._values(self.r.table(data, t.name, required=False), t.name, None, t.fields, board)
        return out

    # -- the map ------------------------------------------------------------------------------------------
    def _only_keys_of(self, m: Mapping[str, Any], kind: str) -> None:
        other = ZONE_ONLY_KEYS if kind == "hex" else HEX_ONLY_KEYS
        for key in m:
            if key in other:
                board = "a hex map" if kind == "hex" else "a zone board"
                raise self.fail(f"key {key!r} is not a key of {board} ([map] kind = {kind!r})",
                                f"remove it, or set kind = {'zones' if kind == 'hex' else 'hex'!r}",
                                "map", None, key)

    def _map(self, m: Mapping[str, Any]) -> tuple[HexBoard | ZoneBoard, Layout, dict[int, Hex]]:
        kind = self.get(m, "map", None, "kind")
        if kind not in self.rules.board_kinds:
            raise self.fail(f"{self.rules.title} is not played on a {kind!r} board",
                            f"use kind = one of {list(self.rules.board_kinds)}", "map", None, "kind")
        self._only_keys_of(m, kind)
        if self.get(m, "map", None, "levels") is not None and not self.rules.levels:
            line = self.r.locator.line("map", None, "levels")
            self.warn(f"{self.source}, line {line}: {self.rules.title} has no height levels; the map's levels "
                      "are drawn on the tablets but change nothing in play")
        board: HexBoard | ZoneBoard
        if kind == "zones":
            board, layout = self._zone_map(m)
        else:
            board, layout = self._hex_map(m)
        anchors: dict[int, Hex] = {}
        for tag, label in self.get(m, "map", None, "anchors").items():
            if not _TAG_ID.fullmatch(tag) or int(tag) >= MARKER_ID_COUNT:
                raise self.fail(
                    f"anchor tag id {tag!r} is not a tag id from 0 to {MARKER_ID_COUNT - 1}",
                    "key anchors by the id printed under the tag: 90 = 'A1'",
                    "map",
                    None,
                    "anchors",
                )
            if isinstance(board, HexBoard):
                h = self.hex_label(label, board.orientation, "map", None, "anchors")
                if h not in board:
                    raise self.fail(f"anchor hex {label} is not on the map", "put anchors on tiles", "map", None,
                                    "anchors")
            else:
                h = self.cell_label(label, board, "map", None, "anchors")
            anchors[int(tag)] = h
        return board, layout, anchors

    def _zone_map(self, m: Mapping[str, Any]) -> tuple[ZoneBoard, Layout]:
        drawing = self.get(m, "map", None, "zones")
        if drawing is None:
            raise self.fail("[map] has no 'zones'", "add 'zones = \"\"\"7 8 9 / 4 5 6 / 1 2 3\"\"\"' (one row a line)",
                            "map")
        zone_mm = float(self.get(m, "map", None, "zone_mm"))
        origin = self.get(m, "map", None, "origin_mm")
        labels = zones_from_drawing(drawing)
        levels_text = self.get(m, "map", None, "levels")
        levels: dict[Hex, int] = {}
        if levels_text is not None:
            for cell, word in zones_from_drawing(levels_text).items():
                if not word.isdigit() or cell not in labels:
                    raise self.fail(f"level {word!r} is not a digit on a zone", "draw one digit per zone, like "
                                    "the zones", "map", None, "levels")
                levels[cell] = int(word)
        kinds = self._terrain_kinds()
        terrains = self._zone_terrain(m, labels, kinds)
        try:
            board = ZoneBoard(labels, zone_mm, (float(origin[0]), float(origin[1])), levels, terrains, kinds)
        except ValueError as exc:
            raise self.fail(f"the zones cannot be read: {exc}", "draw one label per zone", "map", None,
                            "zones") from None
        # The zone board is registered and read through the board; the hex layout stays for hex-only callers.
        layout = Layout.from_flat_width(Orientation.FLAT, zone_mm, (float(origin[0]), float(origin[1])))
        return board, layout

    def _terrain_kinds(self) -> dict[str, TerrainKind]:
        try:
            return self.rules.terrain_table()
        except ValueError as exc:
            raise self.fail(f"the rule set's terrain cannot be used: {exc}",
                            "correct the rule set's terrain_kinds or map_symbols",
                            "scenario", None, "ruleset") from None

    def _zone_terrain(self, m: Mapping[str, Any], labels: Mapping[Hex, str],
                      kinds: Mapping[str, TerrainKind]) -> dict[Hex, str]:
        """The zones' terrain ([map] terrain = { "5" = "obstacle" }): zone label → a terrain kind's name."""
        by_label = {label: cell for cell, label in labels.items()}
        out: dict[Hex, str] = {}
        for label, name in self.get(m, "map", None, "terrain").items():
            if label not in by_label:
                raise self.fail(f"terrain names zone {label!r}, which is not a zone of the [map]",
                                f"key terrain by a zone label: one of {', '.join(sorted(by_label))}",
                                "map", None, "terrain")
            if not isinstance(name, str) or name not in kinds:
                best = closest(str(name), kinds)
                hint = f"did you mean {best!r}? " if best else ""
                raise self.fail(f"zone {label!r} has terrain {name!r}, which {self.rules.title} does not have",
                                f"{hint}use one of: {', '.join(kinds)}", "map", None, "terrain")
            out[by_label[label]] = name
        return out

    def _hex_map(self, m: Mapping[str, Any]) -> tuple[HexBoard, Layout]:
        orientation = Orientation(self.get(m, "map", None, "orientation"))
        drawing = self.get(m, "map", None, "drawing")
        if drawing is None:
            raise self.fail("[map] has no 'drawing'", "add 'drawing = …' to it", "map")
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
            raise self.fail(f"the map cannot be read: {exc}", "redraw it", "map", None, "drawing") from None
        if len(board.tiles) > MAX_MAP_HEXES:
            raise self.fail(
                f"the map has {len(board.tiles):,} hexes; at most {MAX_MAP_HEXES:,} fit in the messages to the "
                "tablets",
                "draw a smaller map",
                "map",
                None,
                "drawing",
            )
        try:
            edge_kinds = self.rules.edge_table()
        except ValueError as exc:
            raise self.fail(f"the rule set's edge kinds cannot be used: {exc}", "correct the rule set's edge_kinds",
                            "scenario", None, "ruleset") from None
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
        known = ", ".join(kinds)
        for ch, name in self.get(m, "map", None, "symbols").items():
            if len(ch) != 1 or ch.isspace() or ch == NO_TILE:
                raise self.fail(f"map symbol {ch!r} is not one character", "key each symbol by one character other "
                                "than '-', like L = \"lumber\"", "map", None, "symbols")
            if not isinstance(name, str) or name not in kinds:
                best = closest(str(name), kinds)
                hint = f"did you mean {best!r}? " if best else ""
                raise self.fail(f"map symbol {ch!r} names terrain {name!r}, which {self.rules.title} does not have",
                                f"{hint}use one of: {known}", "map", None, "symbols")
            own[ch] = (name, None)
        return own

    def _edge_lists(self, m: Mapping[str, Any], kinds: Mapping[str, EdgeKindSpec]
                    ) -> list[tuple[str, str, list[Any], int | None]]:
        """Every list of sides the [map] gives: (name in messages, kind, entries, line), walls… first, then edges."""
        lists: list[tuple[str, str, list[Any], int | None]] = [
            (key, kind, self.get(m, "map", None, key), self.r.locator.line("map", None, key)) for key, kind in EDGE_KEYS
        ]
        known = ", ".join(kinds)
        for name, items in self.get(m, "map", None, "edges").items():
            line = self.r.locator.sub_key("map", "edges", name)
            if name not in kinds:
                best = closest(str(name), kinds)
                hint = f"did you mean {best!r}? " if best else ""
                raise self._at(line, f"[map] edges names the edge kind {name!r}, which {self.rules.title} does not "
                               "have", f"{hint}use one of: {known}")
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise self._at(line, f"[map] edges {name} must be a list of sides like [\"C3|C4\"], not {items!r}",
                               "write each side as a pair of hexes in quotes")
            if len(items) > 3 * MAX_MAP_HEXES:
                raise self._at(line, f"[map] edges {name} lists {len(items):,} sides; a map has at most "
                               f"{3 * MAX_MAP_HEXES:,}", "list each side once")
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
                    raise fail(f"{key} entry {item!r} is not a pair of hexes", "write it as 'C3|C4'")
                a, b = (self._side_hex(text, board, fail) for text in pair)
                off = " and ".join(x for x, h in zip(pair, (a, b), strict=True) if h not in board)
                where_off = f"{off} {'are' if ' and ' in off else 'is'} not on the map" if off else ""
                if a.distance(b) != 1:
                    raise fail(f"{key} entry {item!r} joins hexes that are not neighbours"
                               + (f", and {where_off}" if off else ""),
                               "a wall or door stands between two touching hexes of the map")
                if off:
                    raise fail(f"{key} entry {item!r} touches a hex that is not on the map: {where_off}",
                               "remove it or add the tile")
                e = edge(a, b)
                if e in named:
                    raise fail(f"{key} entry {item!r} is already listed in {named[e]}",
                               "list each side once: a wall, a door, a locked door or one other edge kind")
                if kinds[kind].door and all(board.terrain(h) is Terrain.BLOCKING for h in (a, b)):
                    raise fail(f"{key} entry {item!r} is a door between two blocking hexes (#), which "
                               "nobody can reach", "put the door beside a floor hex, or remove it")
                named[e] = key
                edges[e] = kind
        return edges

    def _at(self, line: int | None, message: str, fix: str) -> ScenarioError:
        """An error at a file line (the file alone when the line is unknown)."""
        where = f"{self.source}, line {line}" if line else self.source
        return ScenarioError(f"{where}: {message}. Fix: {fix}")

    def _side_hex(self, text: str, board: HexBoard, fail: Callable[[str, str], ScenarioError]) -> Hex:
        """One hex of a side's pair ('C3' of 'C3|C4')."""
        try:
            return from_label(text, board.orientation)
        except ValueError as exc:
            raise fail(str(exc), "write the hex as column letters then row number, like 'E4'") from None

    def _drawing_error(self, exc: MapError, drawing: str) -> ScenarioError:
        """Point at the file line of the bad symbol: the drawing starts on the line after 'drawing = \'\'\''."""
        key_line = self.r.locator.line("map", None, "drawing")
        if key_line is None or exc.line is None:
            return self.fail(f"the map drawing is wrong: {exc}", "redraw that symbol", "map", None, "drawing")
        leading = len(drawing) - len(drawing.lstrip("\n"))
        line = key_line + 1 + leading + exc.line - 1
        return ScenarioError(f"{self.source}, line {line}: the map drawing is wrong: {exc}. Fix: redraw that symbol")

    def _sides(self, raw: list[Mapping[str, Any]]) -> tuple[SideSpec, ...]:
        if len(raw) < 2:
            raise self.fail(
                "a scenario needs at least two [[sides]]", "add [[sides]] tables with id and name", "sides", 0
            )
        sides = []
        for i, s in enumerate(raw):
            sid = self.get(s, "sides", i, "id")
            sides.append(
                SideSpec(
                    sid,
                    self.get(s, "sides", i, "name") or sid,
                    self.get(s, "sides", i, "colour") or SIDE_COLOURS[i % 4],
                )
            )
        ids = [s.id for s in sides]
        if len(set(ids)) != len(ids):
            raise self.fail(f"side ids repeat: {ids}", "give every side its own id", "sides", 0)
        return tuple(sides)

    def _players(self, raw: Any, sides: tuple[SideSpec, ...]) -> tuple[PlayerSpec, ...]:
        if raw is None:
            return tuple(PlayerSpec(s.name, (s.id,)) for s in sides)
        players = []
        for i, p in enumerate(self.r.rows({"players": raw}, "players")):
            psides = tuple(self.get(p, "players", i, "sides"))
            for s in psides:
                if s not in {x.id for x in sides}:
                    raise self.fail(
                        f"player side {s!r} is not a side of the scenario",
                        f"use one of {[x.id for x in sides]}",
                        "players",
                        i,
                        "sides",
                    )
            players.append(PlayerSpec(self.get(p, "players", i, "name"), psides))
        taken = [s for p in players for s in p.sides]
        if sorted(taken) != sorted(s.id for s in sides):
            raise self.fail(
                "every side must be played by exactly one player", "list each side once in [[players]]", "players", 0
            )
        return tuple(players)

    def _figures(self, raw: list[Mapping[str, Any]], side_ids: set[str], board: HexBoard | ZoneBoard
                 ) -> tuple[FigureSpec, ...]:
        if not raw:
            raise self.fail("the scenario has no [[figures]]", "add a [[figures]] table per figure", "figures", 0)
        figures: list[FigureSpec] = []
        for i, f in enumerate(raw):
            name = self.get(f, "figures", i, "name")
            fid = self.get(f, "figures", i, "id") or slug(name)
            side = self.get(f, "figures", i, "side")
            if side not in side_ids:
                raise self.fail(
                    f"figure {name!r} is on side {side!r}, which the scenario does not define",
                    f"use one of {sorted(side_ids)}",
                    "figures",
                    i,
                    "side",
                )
            marker = self.get(f, "figures", i, "marker")
            at = self.get(f, "figures", i, "at")
            if isinstance(board, HexBoard):
                start = self.hex_label(at, board.orientation, "figures", i, "at")
            else:
                try:
                    start = board.from_label(at)
                except ValueError as exc:
                    raise self.fail(str(exc), "use a zone label of the [map]", "figures", i, "at") from None
            if start not in board:
                raise self.fail(
                    f"figure {name!r} starts at {at}, which is not on the map",
                    "place it on a tile",
                    "figures",
                    i,
                    "at",
                )
            spec = FigureSpec(fid, name, marker, side, start, float(self.get(f, "figures", i, "height_mm")),
                              self._values(f, "figures", i, self.rules.figure_fields, board))
            self._rule_check(self.rules.check_figure_spec, spec, board, "figures", i)
            self._check_standable(spec, board, i)
            figures.append(spec)
        for attr, what, key in (
            ("id", "figure ids", "name"),
            ("marker_id", "marker ids", "marker"),
            ("start", "start hexes", "at"),
        ):
            if attr == "start" and not self.rules.one_figure_per_cell:
                continue
            values = [getattr(f, attr) for f in figures]
            dup = next((v for v in values if values.count(v) > 1), None)
            if dup is not None:
                idx = values.index(dup, values.index(dup) + 1)
                shown = board.label(dup) if isinstance(dup, Hex) else dup
                raise self.fail(f"{what} repeat: {shown!r} is used twice", "make each one unique", "figures", idx, key)
        return tuple(figures)

    def _check_standable(self, spec: FigureSpec, board: HexBoard | ZoneBoard, index: int) -> None:
        """Refuse a start on terrain whose kind no figure stands on (after the rule set's own, sharper check)."""
        kinds = board.kinds
        kind = kinds.get(board.terrain(spec.start))
        if kind is None or kind.standable:
            return
        where = ", ".join(k.name for k in kinds.values() if k.standable)
        raise self.fail(f"figure {spec.name!r} starts at {board.label(spec.start)}, a {kind.name} hex ({kind.help}) "
                        "no figure may stand on", f"start it on a hex a figure may stand on ({where})",
                        "figures", index, "at")

    def _victory(self, raw: list[Mapping[str, Any]], side_ids: set[str], board: HexBoard | ZoneBoard
                 ) -> tuple[VictorySpec, ...]:
        result = []
        core = {f.name for f in SCENARIO_TABLES["victory"].fields}
        for i, v in enumerate(raw):
            side = self.get(v, "victory", i, "side")
            if side not in side_ids:
                raise self.fail(
                    f"victory side {side!r} is unknown", f"use one of {sorted(side_ids)}", "victory", i, "side"
                )
            vtype = self.victory_types[self.get(v, "victory", i, "type")]
            own = {f.name for f in vtype.fields}
            for key in v:
                if key not in core and key not in own:
                    raise self.fail(f"key {key!r} is not a key of a {vtype.name!r} victory",
                                    f"remove it ({vtype.name!r} takes {sorted(own) or 'no keys of its own'})",
                                    "victory", i, key)
            text = self.get(v, "victory", i, "text") or f"{side}: {vtype.default_text or vtype.name}"
            spec = VictorySpec(side, vtype.name, text, self._values(v, "victory", i, vtype.fields, board))
            self._rule_check(self.rules.check_victory_spec, spec, board, "victory", i)
            result.append(spec)
        default = self.rules.default_victory
        if not result and default is not None:
            vt = self.victory_types[default]
            fields = self._values({}, "victory", None, vt.fields, board)  # the defaults, made like written values
            result = [VictorySpec(s, default, f"{s}: {vt.default_text or default}", fields) for s in sorted(side_ids)]
        return tuple(result)


def load_scenario_text(text: str, source: str = "<text>") -> Scenario:
    return _Loader(text, source).load()


def load_scenario(path: str | Path) -> Scenario:
    """Load a scenario from a file path, or a bundled scenario by its id (e.g. 'goblins-treasure')."""
    p = Path(path)
    if not p.exists():
        bundled = bundled_scenarios()
        key = str(path)
        if key in bundled:
            return load_scenario_text(bundled[key], f"bundled scenario {key!r}")
        raise ScenarioError(
            f"{path}: no such scenario file or bundled scenario. Fix: give a .toml path or one of {sorted(bundled)}"
        )
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(
            f"{p}: cannot read the file ({exc}). Fix: check the path and that it is UTF-8 text"
        ) from None
    return load_scenario_text(text, str(p))


def bundled_scenarios() -> dict[str, str]:
    """Bundled scenario id → TOML text."""
    folder = resources.files("engine") / "scenarios"
    out: dict[str, str] = {}
    for item in folder.iterdir():
        if item.name.endswith(".toml"):
            out[item.name.removesuffix(".toml")] = item.read_text(encoding="utf-8")
    return out
