"""Scenario files (TOML): map, sides, players, figures, victory conditions, rule set and options.

A scenario is data, never code. Loading validates everything and every error names the file, the
line and the fix. See docs/scenario-format.md for an annotated example.
"""

from __future__ import annotations

import difflib
import logging
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.board import Board
from engine.board.base import Cell
from engine.board.kinds import board_kind_names, find_board_kind
from engine.board.symbols import Symbols
from engine.errors import ScenarioError
from engine.i18n import N_, gettext_for, localised
from engine.scenario_map import MapReading
from engine.scenario_schema import (
    MAX_SCENARIO_CHARS,
    REQUIRED,
    SCENARIO_TABLES,
    SIDE_COLOURS,
    Field,
    FieldError,
    SchemaReader,
    options_table,
    text_field,
)
from engine.scenario_types import FigureSpec as FigureSpec
from engine.scenario_types import PlayerSpec as PlayerSpec
from engine.scenario_types import Scenario as Scenario
from engine.scenario_types import SideSpec as SideSpec
from engine.scenario_types import VictorySpec as VictorySpec
from engine.texts import declared_text, join_list
from engine.toml_syntax import toml_error

if TYPE_CHECKING:
    from engine.rules.base import RuleSet, VictoryType

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

# What a reference names, in messages.
REF_WORDS: dict[str, str] = {"figure": N_("figure"), "side": N_("side"), "cell": N_("cell")}


_SLUG = re.compile(r"[^a-z0-9]+")


def slug(name: str) -> str:
    return _SLUG.sub("-", name.lower()).strip("-") or "figure"


def english(row: Mapping[str, Any], key: str) -> str:
    """A text key of a row in English (a name given in several languages makes its id from the English one)."""
    value = row.get(key, "")
    return localised(value, "en") if isinstance(value, (str, dict)) else ""


class _Loader(MapReading):
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

    def load(self) -> Scenario:
        if len(self.text) > MAX_SCENARIO_CHARS:
            raise ScenarioError(_(
                "{file}: the file has {n:,} characters; a scenario may have at most {most:,}. Fix: check that this is "
                "the scenario file, and draw a smaller map", file=self.source, n=len(self.text),
                most=MAX_SCENARIO_CHARS))
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise ScenarioError(toml_error(exc, self.text, self.source)) from None
        head = self.r.table(data, "scenario")
        name = self.get(head, "scenario", None, "name")
        ruleset = self.get(head, "scenario", None, "ruleset")
        from engine.rules import find_ruleset  # late import: the rule registry imports scenario types

        try:
            rules_cls = find_ruleset(ruleset)
        except KeyError as exc:
            raise self.fail(
                str(exc.args[0]), _("use one of the listed rule set names, or name the folder of a rule set of your "
                                    "own in the environment variable HEXA_RULESETS"), "scenario", None, "ruleset"
            ) from None
        self.rules = rules_cls
        self._declare(rules_cls)
        self._known_kind(data.get("map"))
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
                raise self.fail(
                    _("anchor tag {tag} is also the marker of figure {name!r}", tag=tag, name=holder.name) if anchors
                    else _("anchor tag {tag} printed on the board is also the marker of figure {name!r}", tag=tag,
                           name=holder.name),
                    _("give the anchors and the figures different tag ids (the anchor sheet prints 90 to 99)"),
                    "map" if anchors else "figures",
                    None if anchors else figures.index(holder),
                    "anchors" if anchors else "marker",
                )
        self.refs["figure"] = {f.id for f in figures}
        victory = self._victory(self.r.rows(data, "victory"), {s.id: s.name for s in sides}, board)
        tables = self._rule_tables(data, board)
        options = self.r.table(data, "options", required=False)
        try:
            options = rules_cls.validate_options(options)
        except ValueError as exc:
            raise self.fail(str(exc), _("fix or remove that option"), "options") from None
        scenario = Scenario(
            id=self.get(head, "scenario", None, "id") or slug(english(head, "name")),
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
            raise ScenarioError(_("{file}: {error}", file=self.source, error=exc)) from None
        return scenario

    def _known_kind(self, m: Any) -> None:
        """Refuse a board kind no folder registered before its keys are read (their errors would mislead)."""
        kind = m.get("kind") if isinstance(m, Mapping) else None
        known = board_kind_names()
        if isinstance(kind, str) and kind not in known:
            raise self.fail(_("[map] kind {kind!r} is not a board kind this program knows ({known})", kind=kind,
                              known=join_list(known)),
                            _("name the folder of that board kind in the environment variable HEXA_RULESETS, or use "
                              "one of the known kinds"), "map", None, "kind")

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
        kinds = [find_board_kind(name) for name in board_kind_names()]  # another kind's key: refused by name
        own: dict[str, Field] = {}
        for kind in kinds:
            for f in kind.map_fields:
                own.setdefault(f.name, f)
        kind_key = text_field("kind", rules.board_kinds[0], choices=tuple(k.name for k in kinds))
        tables["map"] = tables["map"].with_field(kind_key).with_fields(*own.values())
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
            raise self.fail(_("{key!r} names {what} {item!r}, which is not in the scenario", key=f.name,
                              what=_(REF_WORDS.get(f.ref, f.ref)), item=item),
                            _("use a {what} id: {known}", what=_(REF_WORDS.get(f.ref, f.ref)), known=sorted(known)),
                            table, index, f.name)
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

    def _sides(self, raw: list[Mapping[str, Any]]) -> tuple[SideSpec, ...]:
        if len(raw) < 2:
            raise self.fail(
                _("a scenario needs at least two [[sides]]"), _("add [[sides]] tables with id and name"), "sides", 0
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
            raise self.fail(_("side ids repeat: {ids}", ids=ids), _("give every side its own id"), "sides", 0)
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
                        _("player side {side!r} is not a side of the scenario", side=s),
                        _("use one of {known}", known=[x.id for x in sides]),
                        "players",
                        i,
                        "sides",
                    )
            players.append(PlayerSpec(self.get(p, "players", i, "name"), psides))
        taken = [s for p in players for s in p.sides]
        if sorted(taken) != sorted(s.id for s in sides):
            raise self.fail(
                _("every side must be played by exactly one player"), _("list each side once in [[players]]"),
                "players", 0
            )
        return tuple(players)

    def _figures(self, raw: list[Mapping[str, Any]], side_ids: set[str], board: Board
                 ) -> tuple[FigureSpec, ...]:
        if not raw:
            raise self.fail(_("the scenario has no [[figures]]"), _("add a [[figures]] table per figure"), "figures", 0)
        figures: list[FigureSpec] = []
        for i, f in enumerate(raw):
            name = self.get(f, "figures", i, "name")
            fid = self.get(f, "figures", i, "id") or slug(english(f, "name"))
            side = self.get(f, "figures", i, "side")
            if side not in side_ids:
                raise self.fail(
                    _("figure {name!r} is on side {side!r}, which the scenario does not define", name=name, side=side),
                    _("use one of {known}", known=sorted(side_ids)),
                    "figures",
                    i,
                    "side",
                )
            marker = self.get(f, "figures", i, "marker")
            at = self.get(f, "figures", i, "at")
            start = self.read_label(at, board, "figures", i, "at")
            if start not in board:
                raise self.fail(
                    _("figure {name!r} starts at {at}, which is not on the map", name=name, at=at),
                    _("place it on a tile"),
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
            ("id", N_("figure ids"), "name"),
            ("marker_id", N_("marker ids"), "marker"),
            ("start", "", "at"),
        ):
            if attr == "start" and not self.rules.one_figure_per_cell:
                continue
            values = [getattr(f, attr) for f in figures]
            dup = next((v for v in values if values.count(v) > 1), None)
            if dup is not None:
                idx = values.index(dup, values.index(dup) + 1)
                shown = board.label(dup) if isinstance(dup, Cell) else dup
                said = _(what) if what else _("start {cells}", cells=find_board_kind(board.kind).noun(2))
                raise self.fail(_("{what} repeat: {value!r} is used twice", what=said, value=shown),
                                _("make each one unique"), "figures", idx, key)
        return tuple(figures)

    def _check_standable(self, spec: FigureSpec, board: Board, index: int) -> None:
        """Refuse a start on terrain whose kind no figure stands on (after the rule set's own, sharper check)."""
        kinds = board.kinds
        kind = kinds.get(board.terrain(spec.start))
        if kind is None or kind.standable:
            return
        where = join_list(k.name for k in kinds.values() if k.standable)
        noun = find_board_kind(board.kind).noun(1)
        raise self.fail(_("figure {name!r} starts at {cell}, a {kind} {noun} ({help}) no figure may stand on",
                          name=spec.name, cell=board.label(spec.start), kind=kind.name, noun=noun, help=_(kind.help)),
                        _("start it on a {noun} a figure may stand on ({where})", noun=noun, where=where),
                        "figures", index, "at")

    def _victory(self, raw: list[Mapping[str, Any]], side_ids: Mapping[str, str], board: Board
                 ) -> tuple[VictorySpec, ...]:
        """The victory conditions; ``side_ids`` maps each side to its name (a default text names the side)."""
        result = []
        core = {f.name for f in SCENARIO_TABLES["victory"].fields}
        for i, v in enumerate(raw):
            side = self.get(v, "victory", i, "side")
            if side not in side_ids:
                raise self.fail(
                    _("victory side {side!r} is unknown", side=side), _("use one of {known}", known=sorted(side_ids)),
                    "victory", i, "side"
                )
            vtype = self.victory_types[self.get(v, "victory", i, "type")]
            own = {f.name for f in vtype.fields}
            for key in v:
                if key not in core and key not in own:
                    raise self.fail(_("key {key!r} is not a key of a {type!r} victory", key=key, type=vtype.name),
                                    _("remove it ({type!r} takes {keys})", type=vtype.name,
                                      keys=sorted(own) or _("no keys of its own")),
                                    "victory", i, key)
            text = self.get(v, "victory", i, "text") or self._default_text(vtype, side_ids[side])
            spec = VictorySpec(side, vtype.name, text, self._values(v, "victory", i, vtype.fields, board))
            self._rule_check(self.rules.check_victory_spec, spec, board, "victory", i)
            result.append(spec)
        default = self.rules.default_victory
        if not result and default is not None:
            vt = self.victory_types[default]
            fields = self._values({}, "victory", None, vt.fields, board)  # the defaults, made like written values
            result = [VictorySpec(s, default, self._default_text(vt, side_ids[s]), fields) for s in sorted(side_ids)]
        return tuple(result)

    def _default_text(self, vtype: VictoryType, side: str) -> str:
        """A victory's text when the scenario gives none, in the table's language, for the side named ``side``."""
        goal = declared_text(self.rules, vtype.default_text) if vtype.default_text else vtype.name
        return _("{side}: {goal}", side=side, goal=goal)


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
        close = difflib.get_close_matches(key, bundled, n=1, cutoff=0.6)
        if close:
            raise ScenarioError(_("{path}: no such scenario file or bundled scenario. Did you mean {close}? "
                                  "The bundled scenarios are: {names}",
                                  path=path, close=close[0], names=", ".join(sorted(bundled))))
        raise ScenarioError(_("{path}: no such scenario file or bundled scenario. Fix: give a .toml path or one "
                              "of the bundled scenarios: {names}", path=path, names=", ".join(sorted(bundled))))
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(
            f"{p}: cannot read the file ({exc}). Fix: check the path and that it is UTF-8 text"
        ) from None
    return load_scenario_text(text, str(p))


def bundled_scenarios() -> dict[str, str]:
    """Bundled scenario id → TOML text: the scenarios every rule set found bundles in its folder
    (:func:`engine.rules.bundled_scenarios`; plug-ins from ``HEXA_RULESETS`` too)."""
    from engine.rules import bundled_scenarios as from_rule_sets  # late import: the registry imports scenario types

    return from_rule_sets()
