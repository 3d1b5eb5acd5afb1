"""Scenario files (TOML): map, sides, players, figures, victory conditions, rule set and options.

A scenario is data, never code. Loading validates everything and every error names the file, the
line and the fix. See docs/scenario-format.md for an annotated example.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

from engine.ascii_map import board_from_drawing, parse_levels
from engine.board import EdgeKind, HexBoard
from engine.errors import MapError, ScenarioError
from engine.hexes import Edge, Hex, Orientation, edge, from_label
from engine.layout import Layout
from engine.scenario_schema import (
    MARKER_ID_COUNT,
    MAX_MAP_HEXES,
    MAX_SCENARIO_CHARS,
    SIDE_COLOURS,
    Field,
    SchemaReader,
    options_table,
)


class FigureKind(Enum):
    FIGHTER = "fighter"  # melee only
    ARCHER = "archer"  # carries a ranged weapon
    WIZARD = "wizard"  # casts attack magic


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
    id: str
    name: str
    marker_id: int
    side: str
    kind: FigureKind
    start: Hex
    abilities: tuple[str, ...] = ()
    height_mm: float = 0.0  # height of the tag above the table, for the camera's parallax correction
    can_carry: bool = True


@dataclass(frozen=True)
class VictorySpec:
    """One way for a side to win: ``bring`` a token to hexes, ``destroy`` all enemies, ``kill`` named figures."""

    side: str
    type: str
    text: str
    token: str | None = None
    to: tuple[Hex, ...] = ()
    figures: tuple[str, ...] = ()


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
    board: HexBoard
    layout: Layout
    anchors: Mapping[int, Hex] = field(default_factory=dict)
    source: str = "<text>"
    text: str = ""

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
                str(exc.args[0]), "use one of the listed rule set names", "scenario", None, "ruleset"
            ) from None
        self.r.tables["options"] = options_table(
            rules_cls.title, (Field(o.name, o.type) for o in rules_cls.options)
        )
        self.r.check_tables(data)
        board, layout, anchors = self._map(self.r.table(data, "map"))
        sides = self._sides(self.r.rows(data, "sides"))
        side_ids = {s.id for s in sides}
        players = self._players(data.get("players"), sides)
        figures = self._figures(self.r.rows(data, "figures"), side_ids, board)
        for tag in anchors:
            holder = next((f for f in figures if f.marker_id == tag), None)
            if holder is not None:
                raise self.fail(
                    f"anchor tag {tag} is also the marker of figure {holder.name!r}",
                    "give the anchors and the figures different tag ids (the anchor sheet prints 90 to 99)",
                    "map",
                    None,
                    "anchors",
                )
        victory = self._victory(self.r.rows(data, "victory"), side_ids, {f.id for f in figures}, board)
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
        )
        try:
            rules_cls.check_scenario(scenario)
        except ValueError as exc:
            raise ScenarioError(f"{self.source}: {exc}") from None
        return scenario

    def _map(self, m: Mapping[str, Any]) -> tuple[HexBoard, Layout, dict[int, Hex]]:
        orientation = Orientation(self.get(m, "map", None, "orientation"))
        drawing = self.get(m, "map", None, "drawing")
        edges: dict[Edge, EdgeKind] = {}
        for key, kind in (("walls", EdgeKind.WALL), ("doors", EdgeKind.DOOR), ("locked_doors", EdgeKind.LOCKED_DOOR)):
            for item in self.get(m, "map", None, key):
                pair = item.split("|")
                if len(pair) != 2:
                    raise self.fail(
                        f"{key} entry {item!r} is not a pair of hexes", "write it as 'C3|C4'", "map", None, key
                    )
                a = self.hex_label(pair[0], orientation, "map", None, key)
                b = self.hex_label(pair[1], orientation, "map", None, key)
                if a.distance(b) != 1:
                    raise self.fail(
                        f"{key} entry {item!r} joins hexes that are not neighbours",
                        "a wall or door stands between two touching hexes",
                        "map",
                        None,
                        key,
                    )
                edges[edge(a, b)] = kind
        levels_text = self.get(m, "map", None, "levels")
        try:
            levels = parse_levels(levels_text, orientation) if levels_text is not None else {}
            board, _marks = board_from_drawing(drawing, orientation=orientation, edges=edges, levels=levels)
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
        for e in edges:
            if e.a not in board or e.b not in board:
                raise self.fail(
                    f"the wall or door {board.edge_label(e)} touches a hex that is not on the map",
                    "remove it or add the tile",
                    "map",
                    None,
                    "walls",
                )
        width = self.get(m, "map", None, "hex_across_flats_mm")
        origin = self.get(m, "map", None, "origin_mm")
        layout = Layout.from_flat_width(
            orientation,
            float(width),
            (float(origin[0]), float(origin[1])),
            float(self.get(m, "map", None, "rotation_deg")),
        )
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
            h = self.hex_label(label, orientation, "map", None, "anchors")
            if h not in board:
                raise self.fail(f"anchor hex {label} is not on the map", "put anchors on tiles", "map", None, "anchors")
            anchors[int(tag)] = h
        return board, layout, anchors

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

    def _figures(self, raw: list[Mapping[str, Any]], side_ids: set[str], board: HexBoard) -> tuple[FigureSpec, ...]:
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
            kind = FigureKind(self.get(f, "figures", i, "kind"))
            marker = self.get(f, "figures", i, "marker")
            at = self.get(f, "figures", i, "at")
            start = self.hex_label(at, board.orientation, "figures", i, "at")
            if start not in board:
                raise self.fail(
                    f"figure {name!r} starts at {at}, which is not on the map",
                    "place it on a tile",
                    "figures",
                    i,
                    "at",
                )
            figures.append(
                FigureSpec(
                    fid,
                    name,
                    marker,
                    side,
                    kind,
                    start,
                    tuple(self.get(f, "figures", i, "abilities")),
                    float(self.get(f, "figures", i, "height_mm")),
                    self.get(f, "figures", i, "can_carry"),
                )
            )
        for attr, what, key in (
            ("id", "figure ids", "name"),
            ("marker_id", "marker ids", "marker"),
            ("start", "start hexes", "at"),
        ):
            values = [getattr(f, attr) for f in figures]
            dup = next((v for v in values if values.count(v) > 1), None)
            if dup is not None:
                idx = values.index(dup, values.index(dup) + 1)
                shown = board.label(dup) if isinstance(dup, Hex) else dup
                raise self.fail(f"{what} repeat: {shown!r} is used twice", "make each one unique", "figures", idx, key)
        return tuple(figures)

    def _victory(
        self, raw: list[Mapping[str, Any]], side_ids: set[str], figure_ids: set[str], board: HexBoard
    ) -> tuple[VictorySpec, ...]:
        result = []
        for i, v in enumerate(raw):
            side = self.get(v, "victory", i, "side")
            if side not in side_ids:
                raise self.fail(
                    f"victory side {side!r} is unknown", f"use one of {sorted(side_ids)}", "victory", i, "side"
                )
            vtype = self.get(v, "victory", i, "type")
            token = self.get(v, "victory", i, "token")
            if vtype == "bring" and token is None:
                raise self.fail("a 'bring' victory has no 'token'", "add token = 'treasure'", "victory", i)
            to = tuple(
                self.hex_label(x, board.orientation, "victory", i, "to") for x in self.get(v, "victory", i, "to")
            )
            if vtype == "bring":
                if not to:
                    raise self.fail(
                        "a 'bring' victory needs the hexes to bring the token to", "add to = ['A1']", "victory", i
                    )
                if not board.hexes_with_token(token):
                    raise self.fail(
                        f"no hex of the map holds the token {token!r}",
                        "draw it on the map (T treasure, P prisoner)",
                        "victory",
                        i,
                        "token",
                    )
            figs = tuple(self.get(v, "victory", i, "figures"))
            for fid in figs:
                if fid not in figure_ids:
                    raise self.fail(
                        f"victory names figure {fid!r}, which is not in the scenario",
                        f"use a figure id: {sorted(figure_ids)}",
                        "victory",
                        i,
                        "figures",
                    )
            if vtype == "kill" and not figs:
                raise self.fail("a 'kill' victory needs the figures to kill", "add figures = ['chief']", "victory", i)
            text = self.get(v, "victory", i, "text") or f"{side}: {vtype}"
            result.append(VictorySpec(side, vtype, text, token if vtype == "bring" else None, to, figs))
        if not result:
            result = [VictorySpec(s, "destroy", f"{s}: destroy every enemy figure") for s in sorted(side_ids)]
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
