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

DEFAULT_ACROSS_FLATS_MM = 50.0


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


VICTORY_TYPES = ("bring", "destroy", "kill")
_SLUG = re.compile(r"[^a-z0-9]+")


def slug(name: str) -> str:
    return _SLUG.sub("-", name.lower()).strip("-") or "figure"


class _Locator:
    """Finds the line of a key inside the n-th ``[[table]]`` or ``[table]`` so errors can point at it."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def line(self, table: str, index: int | None = None, key: str | None = None) -> int | None:
        header = re.compile(
            r"^\s*\[\[\s*" + re.escape(table) + r"\s*\]\]"
            if index is not None
            else r"^\s*\[\s*" + re.escape(table) + r"\s*\]"
        )
        seen = -1
        start: int | None = None
        for i, line in enumerate(self.lines):
            if header.match(line):
                seen += 1
                if index is None or seen == index:
                    start = i
                    break
        if start is None:
            return None
        if key is None:
            return start + 1
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i in range(start + 1, len(self.lines)):
            if re.match(r"^\s*\[", self.lines[i]):
                break
            if key_re.match(self.lines[i]):
                return i + 1
        return start + 1


class _Loader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.locator = _Locator(text)

    def fail(
        self, message: str, fix: str, table: str | None = None, index: int | None = None, key: str | None = None
    ) -> ScenarioError:
        line = self.locator.line(table, index, key) if table else None
        where = f"{self.source}, line {line}" if line else self.source
        return ScenarioError(f"{where}: {message}. Fix: {fix}")

    def need(
        self,
        data: Mapping[str, Any],
        key: str,
        typ: type | tuple[type, ...],
        table: str,
        index: int | None = None,
        default: Any = ...,
    ) -> Any:
        if key not in data:
            if default is not ...:
                return default
            raise self.fail(f"[{table}] has no {key!r}", f"add '{key} = …' to it", table, index)
        value = data[key]
        if (isinstance(value, bool) and typ in (int, float, (int, float))) or not isinstance(value, typ):
            names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
            raise self.fail(
                f"{key!r} must be a {names}, not {value!r}", f"correct the value of {key!r}", table, index, key
            )
        return value

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
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise ScenarioError(f"{self.source}: not valid TOML ({exc}). Fix: correct the syntax there") from None
        head = self.need(data, "scenario", dict, "scenario")
        name = self.need(head, "name", str, "scenario")
        ruleset = self.need(head, "ruleset", str, "scenario")
        from engine.rules import find_ruleset  # late import: the rule registry imports scenario types

        try:
            rules_cls = find_ruleset(ruleset)
        except KeyError as exc:
            raise self.fail(
                str(exc.args[0]), "use one of the listed rule set names", "scenario", None, "ruleset"
            ) from None
        board, layout, anchors = self._map(self.need(data, "map", dict, "map"))
        sides = self._sides(data.get("sides"))
        side_ids = {s.id for s in sides}
        players = self._players(data.get("players"), sides)
        figures = self._figures(data.get("figures"), side_ids, board)
        victory = self._victory(data.get("victory"), side_ids, {f.id for f in figures}, board)
        options = self.need(data, "options", dict, "options", default={})
        try:
            options = rules_cls.validate_options(options)
        except ValueError as exc:
            raise self.fail(str(exc), "fix or remove that option", "options") from None
        scenario = Scenario(
            id=self.need(head, "id", str, "scenario", default=slug(name)),
            name=name,
            description=self.need(head, "description", str, "scenario", default=""),
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

    def _map(self, m: dict[str, Any]) -> tuple[HexBoard, Layout, dict[int, Hex]]:
        orient_name = self.need(m, "orientation", str, "map", default="flat")
        try:
            orientation = Orientation(orient_name)
        except ValueError:
            raise self.fail(
                f"orientation {orient_name!r} is unknown", "use 'flat' or 'pointy'", "map", None, "orientation"
            ) from None
        drawing = self.need(m, "drawing", str, "map")
        edges: dict[Edge, EdgeKind] = {}
        for key, kind in (("walls", EdgeKind.WALL), ("doors", EdgeKind.DOOR), ("locked_doors", EdgeKind.LOCKED_DOOR)):
            for item in self.need(m, key, list, "map", default=[]):
                pair = str(item).split("|")
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
        try:
            levels = parse_levels(m["levels"], orientation) if "levels" in m else {}
            board, _marks = board_from_drawing(drawing, orientation=orientation, edges=edges, levels=levels)
        except MapError as exc:
            raise self._drawing_error(exc, drawing) from None
        for e in edges:
            if e.a not in board or e.b not in board:
                raise self.fail(
                    f"the wall or door {board.edge_label(e)} touches a hex that is not on the map",
                    "remove it or add the tile",
                    "map",
                    None,
                    "walls",
                )
        width = self.need(m, "hex_across_flats_mm", (int, float), "map", default=DEFAULT_ACROSS_FLATS_MM)
        origin = self.need(m, "origin_mm", list, "map", default=[0.0, 0.0])
        try:
            layout = Layout.from_flat_width(
                orientation,
                float(width),
                (float(origin[0]), float(origin[1])),
                float(self.need(m, "rotation_deg", (int, float), "map", default=0.0)),
            )
        except (ValueError, IndexError, TypeError) as exc:
            raise self.fail(
                f"the map's size or placement is wrong: {exc}",
                "give positive millimetres",
                "map",
                None,
                "hex_across_flats_mm",
            ) from None
        anchors: dict[int, Hex] = {}
        for tag, label in self.need(m, "anchors", dict, "map", default={}).items():
            if not str(tag).isdigit():
                raise self.fail(
                    f"anchor tag id {tag!r} is not a number", "key anchors by tag id: 90 = 'A1'", "map", None, "anchors"
                )
            h = self.hex_label(label, orientation, "map", None, "anchors")
            if h not in board:
                raise self.fail(f"anchor hex {label} is not on the map", "put anchors on tiles", "map", None, "anchors")
            anchors[int(tag)] = h
        return board, layout, anchors

    def _drawing_error(self, exc: MapError, drawing: str) -> ScenarioError:
        """Point at the file line of the bad symbol: the drawing starts on the line after 'drawing = \'\'\''."""
        key_line = self.locator.line("map", None, "drawing")
        if key_line is None or exc.line is None:
            return self.fail(f"the map drawing is wrong: {exc}", "redraw that symbol", "map", None, "drawing")
        leading = len(drawing) - len(drawing.lstrip("\n"))
        line = key_line + 1 + leading + exc.line - 1
        return ScenarioError(f"{self.source}, line {line}: the map drawing is wrong: {exc}. Fix: redraw that symbol")

    def _sides(self, raw: Any) -> tuple[SideSpec, ...]:
        if not isinstance(raw, list) or len(raw) < 2:
            raise self.fail(
                "a scenario needs at least two [[sides]]", "add [[sides]] tables with id and name", "sides", 0
            )
        sides = []
        for i, s in enumerate(raw):
            sid = self.need(s, "id", str, "sides", i)
            sides.append(
                SideSpec(
                    sid,
                    self.need(s, "name", str, "sides", i, default=sid),
                    self.need(s, "colour", str, "sides", i, default=("red", "blue", "green", "yellow")[i % 4]),
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
        for i, p in enumerate(raw):
            psides = tuple(self.need(p, "sides", list, "players", i))
            for s in psides:
                if s not in {x.id for x in sides}:
                    raise self.fail(
                        f"player side {s!r} is not a side of the scenario",
                        f"use one of {[x.id for x in sides]}",
                        "players",
                        i,
                        "sides",
                    )
            players.append(PlayerSpec(self.need(p, "name", str, "players", i), psides))
        taken = [s for p in players for s in p.sides]
        if sorted(taken) != sorted(s.id for s in sides):
            raise self.fail(
                "every side must be played by exactly one player", "list each side once in [[players]]", "players", 0
            )
        return tuple(players)

    def _figures(self, raw: Any, side_ids: set[str], board: HexBoard) -> tuple[FigureSpec, ...]:
        if not isinstance(raw, list) or not raw:
            raise self.fail("the scenario has no [[figures]]", "add a [[figures]] table per figure", "figures", 0)
        figures: list[FigureSpec] = []
        for i, f in enumerate(raw):
            name = self.need(f, "name", str, "figures", i)
            fid = self.need(f, "id", str, "figures", i, default=slug(name))
            side = self.need(f, "side", str, "figures", i)
            if side not in side_ids:
                raise self.fail(
                    f"figure {name!r} is on side {side!r}, which the scenario does not define",
                    f"use one of {sorted(side_ids)}",
                    "figures",
                    i,
                    "side",
                )
            kind_name = self.need(f, "kind", str, "figures", i, default="fighter")
            try:
                kind = FigureKind(kind_name)
            except ValueError:
                raise self.fail(
                    f"figure kind {kind_name!r} is unknown", "use fighter, archer or wizard", "figures", i, "kind"
                ) from None
            marker = self.need(f, "marker", int, "figures", i)
            if marker < 0:
                raise self.fail(
                    f"marker id {marker} is negative", "use the id printed under the tag", "figures", i, "marker"
                )
            start = self.hex_label(self.need(f, "at", str, "figures", i), board.orientation, "figures", i, "at")
            if start not in board:
                raise self.fail(
                    f"figure {name!r} starts at {f['at']}, which is not on the map",
                    "place it on a tile",
                    "figures",
                    i,
                    "at",
                )
            abilities = tuple(str(a) for a in self.need(f, "abilities", list, "figures", i, default=[]))
            height = float(self.need(f, "height_mm", (int, float), "figures", i, default=0.0))
            figures.append(
                FigureSpec(
                    fid,
                    name,
                    marker,
                    side,
                    kind,
                    start,
                    abilities,
                    height,
                    bool(self.need(f, "can_carry", bool, "figures", i, default=True)),
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

    def _victory(self, raw: Any, side_ids: set[str], figure_ids: set[str], board: HexBoard) -> tuple[VictorySpec, ...]:
        result = []
        for i, v in enumerate(raw or []):
            side = self.need(v, "side", str, "victory", i)
            if side not in side_ids:
                raise self.fail(
                    f"victory side {side!r} is unknown", f"use one of {sorted(side_ids)}", "victory", i, "side"
                )
            vtype = self.need(v, "type", str, "victory", i)
            if vtype not in VICTORY_TYPES:
                raise self.fail(
                    f"victory type {vtype!r} is unknown", f"use one of {VICTORY_TYPES}", "victory", i, "type"
                )
            token = self.need(v, "token", str, "victory", i) if vtype == "bring" else None
            to = tuple(
                self.hex_label(x, board.orientation, "victory", i, "to")
                for x in self.need(v, "to", list, "victory", i, default=[])
            )
            if vtype == "bring":
                if not to:
                    raise self.fail(
                        "a 'bring' victory needs the hexes to bring the token to", "add to = ['A1']", "victory", i
                    )
                if token is not None and not board.hexes_with_token(token):
                    raise self.fail(
                        f"no hex of the map holds the token {token!r}",
                        "draw it on the map (T treasure, P prisoner)",
                        "victory",
                        i,
                        "token",
                    )
            figs = tuple(self.need(v, "figures", list, "victory", i, default=[]))
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
            text = self.need(v, "text", str, "victory", i, default=f"{side}: {vtype}")
            result.append(VictorySpec(side, vtype, text, token, to, figs))
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
