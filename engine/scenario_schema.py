"""What a scenario file may hold, table by table, and the reader that holds a file to it.

Every table declares its keys (type, default, range, length, allowed words). The reader refuses an
unknown key with the closest known name, a wrong type, a number that is not finite or out of its
range, naming the file and the line. It is one mechanism for every table: the core declares what
every rule set shares (:data:`SCENARIO_TABLES`); a rule set declares its own figure fields, victory
types, map symbols and tables (:class:`engine.rules.base.RuleSet`) with the same :class:`Field`.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import ScenarioError
from engine.i18n import LANGUAGES, N_, gettext_for, localised
from engine.texts import join_list

_ = gettext_for(__name__)

REQUIRED: Any = object()  # a Field default meaning "the key must be there"

# Side colours the tablets draw (companion_app.viewmodels.palette.SIDE_COLOURS holds the same names).
SIDE_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "white", "black")
ORIENTATIONS = ("flat", "pointy")
# Marker and anchor ids are those of the printed ArUco dictionary (DICT_4X4_100): 0 to 99.
MARKER_ID_COUNT = 100
# A map's tiles travel to the tablets in one message; this many fit the wire limit with room to spare
# (a test checks it against engine.wire.MAX_MESSAGE_BYTES). 5,000 hexes is a table of about 3.5 × 3.5 m.
MAX_MAP_HEXES = 5_000
MAX_SCENARIO_CHARS = 1_000_000  # the whole file; a large map drawing is about 50,000

_NUMBER = (int, float)


@dataclass(frozen=True)
class Field:
    """One key of a table: its type, default (or :data:`REQUIRED`) and limits."""

    name: str
    typ: type | tuple[type, ...]
    default: Any = None  # None: optional, the loader supplies the default
    low: float | None = None  # numbers, or every number of a list
    high: float | None = None
    min_len: int = 0  # items of a list, characters of a string
    max_len: int | None = None
    items: type | tuple[type, ...] | None = None  # the type of a list's items
    choices: tuple[str, ...] = ()
    unit: str = ""
    # What a text value names, resolved and checked by the loader: "cell" (a label of the board),
    # "figure" (a figure id) or "side" (a side id); for a list, every entry.
    ref: str = ""
    help: str = ""  # one line for the docs and for errors
    convert: Callable[[Any], Any] | None = None  # makes the checked value the rule set's type (an enum, say)
    # A text people read that a file may give in one language or several: "Goblins" or
    # { en = "Goblins", ja = "ゴブリン" }; read in the table's language (engine.i18n.localised).
    localised: bool = False


class FieldError(ValueError):
    """A rule set's check of one row failed on ``key``; the loader adds the file and the line."""

    def __init__(self, key: str | None, message: str, fix: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message
        self.fix = fix


@dataclass(frozen=True)
class Table:
    """A table of the file: ``[name]``, or ``[[name]]`` when ``many`` (an array of tables)."""

    name: str
    fields: tuple[Field, ...]
    many: bool = False
    max_rows: int | None = None
    noun: str = "key"  # what its keys are called in messages ("key", "option")
    owner: str = ""  # how messages name it; its header by default

    @property
    def header(self) -> str:
        return f"[[{self.name}]]" if self.many else f"[{self.name}]"

    @property
    def known(self) -> tuple[str, ...]:
        return tuple(sorted(f.name for f in self.fields))

    def field(self, key: str) -> Field:
        return next(f for f in self.fields if f.name == key)

    def with_fields(self, *fields: Field) -> Table:
        """This table with more keys (a rule set's own figure fields, say); a key may be declared once."""
        names = [f.name for f in self.fields + fields]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"{self.header} declares {twice} twice; a rule set's keys may not reuse the core's")
        return replace(self, fields=self.fields + fields)

    def with_field(self, field: Field) -> Table:
        """This table with one key's declaration replaced."""
        return replace(self, fields=tuple(field if f.name == field.name else f for f in self.fields))


def text_field(name: str, default: Any = None, max_len: int | None = 100, **kw: Any) -> Field:
    """A text key (at most ``max_len`` characters)."""
    return Field(name, str, default, max_len=max_len, **kw)


def localised_field(name: str, default: Any = None, max_len: int | None = 100, **kw: Any) -> Field:
    """A text people read, given as text or as ``{ en = "…", ja = "…" }`` (at most ``max_len`` characters each)."""
    return Field(name, str, default, max_len=max_len, localised=True, **kw)


def texts_field(name: str, default: Any = None, max_len: int = 100, **kw: Any) -> Field:
    """A list of texts (at most ``max_len`` entries)."""
    return Field(name, list, default, max_len=max_len, items=str, **kw)


def number_field(name: str, default: Any, low: float, high: float, unit: str = "", **kw: Any) -> Field:
    """A finite number within ``low``–``high``."""
    return Field(name, _NUMBER, default, low=low, high=high, unit=unit, **kw)


_str, _strings, _number, _texts = text_field, texts_field, number_field, localised_field


SCENARIO_TABLES: dict[str, Table] = {
    t.name: t
    for t in (
        Table(
            "scenario",
            (
                _str("id", max_len=64),
                _texts("name", REQUIRED, min_len=1),
                _str("ruleset", REQUIRED, max_len=64),
                _texts("description", "", max_len=10_000),
            ),
        ),
        Table(
            "map",
            (
                _str("kind"),  # a board kind's name (engine.board.kinds); the loader adds each kind's own keys
                _str("levels", max_len=None),
                _number("level_height_mm", 0.0, 0.0, 500.0, " mm"),  # one level's rise (raised tiles)
                Field("origin_mm", list, [0.0, 0.0], low=-100_000.0, high=100_000.0, min_len=2, max_len=2,
                      items=_NUMBER, unit=" mm"),
                Field("anchors", dict, {}),
            ),
        ),
        Table("sides", (_str("id", REQUIRED, max_len=64), _texts("name"), _str("colour", choices=SIDE_COLOURS)),
              many=True, max_rows=len(SIDE_COLOURS)),
        Table("players", (_texts("name", REQUIRED), _strings("sides", REQUIRED, len(SIDE_COLOURS))), many=True,
              max_rows=len(SIDE_COLOURS)),
        Table(
            "figures",
            (
                _texts("name", REQUIRED, min_len=1),
                _str("id", max_len=64),
                Field("marker", int, REQUIRED, low=0, high=MARKER_ID_COUNT - 1),
                _str("side", REQUIRED, max_len=64),
                _str("at", REQUIRED, max_len=16),
                _number("height_mm", 0.0, 0.0, 500.0, " mm"),
            ),
            many=True,
            max_rows=MARKER_ID_COUNT,
        ),
        Table(
            "victory",
            (
                _str("side", REQUIRED, max_len=64),
                _str("type", REQUIRED),  # the rule set lists its victory types
                _texts("text", max_len=500),
            ),
            many=True,
            max_rows=50,
        ),
        Table("options", (), noun="option"),  # the rule set declares its options (see options_table)
    )
}


def options_table(owner: str, fields: Iterable[Field]) -> Table:
    """The [options] table of a rule set, from the options it declares."""
    return Table("options", tuple(fields), noun="option", owner=owner)


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known name nearest to a misspelt one (``kidn`` → ``kind``), if any is close."""
    found = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return found[0] if found else None


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    best = closest(word, known)
    return _("did you mean {best!r}? ", best=best) if best else ""


_TYPE_NAMES: dict[type, str] = {bool: N_("true or false"), str: N_("text in quotes"), int: N_("a whole number"),
                                float: N_("a number"), list: N_("a list"), dict: N_("a table")}


def _type_name(typ: type | tuple[type, ...]) -> str:
    """How messages name a type, with its article: 'a number', 'text in quotes'."""
    if typ == _NUMBER:
        return _("a number")

    def one(t: type) -> str:
        return _(_TYPE_NAMES[t]) if t in _TYPE_NAMES else t.__name__

    if isinstance(typ, type):
        return one(typ)
    return _(" or ").join(one(t) for t in typ)


type_name = _type_name


def _is(value: Any, typ: type | tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return typ is bool or (isinstance(typ, tuple) and bool in typ)
    return isinstance(value, typ)


def _plain(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


class Locator:
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
            return self.top_level(table)
        if key is None:
            return start + 1
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*[=.]")  # name = …, or name.ja = …
        for i in range(start + 1, len(self.lines)):
            if re.match(r"^\s*\[", self.lines[i]):
                break
            if key_re.match(self.lines[i]):
                return i + 1
        if index is None:  # a table written as its own header: [map.edges]
            sub = re.compile(r"^\s*\[\s*" + re.escape(table) + r"\s*\.\s*" + re.escape(key) + r"\s*\]")
            found = next((i for i, line in enumerate(self.lines) if sub.match(line)), None)
            if found is not None:
                return found + 1
        return start + 1

    def sub_key(self, table: str, key: str, sub: str) -> int | None:
        """The line of ``sub`` inside the table value of ``key`` (``edges = { fence = … }`` or ``[map.edges]``)."""
        at = self.line(table, None, key)
        if at is None:
            return None
        sub_re = re.compile(r"(^|[{,\s])" + re.escape(sub) + r"\s*=")
        for i in range(at - 1, len(self.lines)):
            text = self.lines[i]
            if i == at - 1:
                text = text.split("=", 1)[1] if "=" in text else ""
            elif re.match(r"^\s*\[", text):
                break
            if sub_re.search(text):
                return i + 1
        return at

    def top_level(self, name: str) -> int | None:
        """The line of a table by any other spelling: ``name = …`` before the first header, or ``[name.x]``."""
        key_re = re.compile(r"^\s*" + re.escape(name) + r"\s*[=.]")
        dotted = re.compile(r"^\s*\[\[?\s*" + re.escape(name) + r"\s*\.")
        in_header = False
        for i, line in enumerate(self.lines):
            if re.match(r"^\s*\[", line):
                in_header = True
                if dotted.match(line):
                    return i + 1
            elif not in_header and key_re.match(line):
                return i + 1
        return None


class SchemaReader:
    """Reads a decoded TOML document table by table against declared :class:`Table` specs."""

    def __init__(self, text: str, source: str, tables: Mapping[str, Table] | None = None) -> None:
        self.source = source
        self.locator = Locator(text)
        self.tables: dict[str, Table] = dict(SCENARIO_TABLES if tables is None else tables)

    def fail(
        self, message: str, fix: str, table: str | None = None, index: int | None = None, key: str | None = None
    ) -> ScenarioError:
        line = self.locator.line(table, index, key) if table else None
        if line:
            return ScenarioError(_("{file}, line {line}: {message}. Fix: {fix}", file=self.source, line=line,
                                   message=message, fix=fix))
        return ScenarioError(_("{file}: {message}. Fix: {fix}", file=self.source, message=message, fix=fix))

    def check_tables(self, data: Mapping[str, Any]) -> None:
        """Refuse a table the scenario format does not have (``[[victroy]]``)."""
        for name, value in data.items():
            if name not in self.tables:
                many = isinstance(value, list)
                shown = f"[[{name}]]" if many else f"[{name}]"
                best = closest(name, self.tables)
                raise self.fail(
                    _("{table} is not a table of a scenario file; known tables: {known}", table=shown,
                      known=sorted(self.tables)),
                    _("did you mean {header}? If not, remove it", header=self.tables[best].header) if best
                    else _("remove it"),
                    name,
                    0 if many else None,
                )

    def table(self, data: Mapping[str, Any], name: str, required: bool = True) -> Mapping[str, Any]:
        """A ``[name]`` table, its keys checked; an empty one when it is missing and not required."""
        spec = self.tables[name]
        value = data.get(name)
        if value is None:
            if required:
                raise self.fail(_("the scenario has no [{name}] table", name=name),
                                _("add a [{name}] table", name=name), name)
            return {}
        if not isinstance(value, dict):
            raise self.fail(
                _("{name!r} must be one [{name}] table", name=name), _("write it as [{name}] once", name=name), name,
                0 if isinstance(value, list) else None,
            )
        self.check_keys(value, spec, None)
        return value

    def rows(self, data: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
        """The ``[[name]]`` tables in order, each one's keys checked; empty when there are none."""
        spec = self.tables[name]
        value = data.get(name)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
            raise self.fail(
                _("{name!r} must be [[{name}]] tables", name=name),
                _("give each one its own [[{name}]] header", name=name), name, 0
            )
        if spec.max_rows is not None and len(value) > spec.max_rows:
            raise self.fail(
                _("the scenario has {n} [[{name}]] tables; at most {most} are allowed", n=len(value), name=name,
                  most=spec.max_rows),
                _("remove some"),
                name,
                spec.max_rows,
            )
        for i, row in enumerate(value):
            self.check_keys(row, spec, i)
        return value

    def check_keys(self, row: Mapping[str, Any], spec: Table, index: int | None) -> None:
        known = spec.known
        for key in row:
            if key not in known:
                owner = spec.owner or spec.header
                raise self.fail(
                    _("option {key!r} is not an option of {owner}; known options: {known}", key=key, owner=owner,
                      known=list(known)) if spec.noun == "option" else
                    _("key {key!r} is not a key of {owner}; known keys: {known}", key=key, owner=owner,
                      known=list(known)),
                    _("{hint}If not, remove it", hint=hint) if (hint := _did_you_mean(key, known)) else _("remove it"),
                    spec.name,
                    index,
                    key,
                )

    def get(self, row: Mapping[str, Any], table: str, index: int | None, key: str) -> Any:
        """The value of ``key``, held to its field's type and limits; its default when it is missing."""
        f = self.tables[table].field(key)
        header = self.tables[table].header
        if key not in row:
            if f.default is REQUIRED:
                raise self.fail(_("{header} has no {key!r}", header=header, key=key),
                                _("add '{key} = …' to it", key=key), table, index)
            return f.default
        value = row[key]

        def bad(message: str, fix: str) -> ScenarioError:
            return self.fail(message, fix, table, index, key)

        if f.localised and isinstance(value, dict):
            return localised(self._texts(value, f, bad))
        if not _is(value, f.typ):
            raise bad(_("{key!r} must be {kind}, not {value!r}", key=key, kind=_type_name(f.typ), value=value),
                      _("correct the value of {key!r}", key=key))
        if isinstance(value, (str, list)):
            self._length(value, f, bad)
        if isinstance(value, list) and f.items is not None:
            for item in value:
                if not _is(item, f.items):
                    raise bad(
                        _("{key!r} holds {item!r}, not {kind}", key=key, item=item, kind=_type_name(f.items)),
                        _("make every entry of {key!r} {kind}", key=key, kind=_type_name(f.items)),
                    )
                if isinstance(item, str):
                    self._length(item, _str(key), bad)
                self._number(item, f, bad)
        self._number(value, f, bad)
        if f.choices and value not in f.choices:
            choices = join_list(f.choices)
            raise bad(
                _("{key!r} {value!r} is not one of the allowed values", key=key, value=value),
                _("{hint}Use one of: {choices}", hint=_did_you_mean(value, f.choices), choices=choices)
                if closest(value, f.choices) else _("use one of: {choices}", choices=choices),
            )
        return value

    def _texts(self, value: Mapping[str, Any], f: Field, bad: Any) -> dict[str, str]:
        """A text given in several languages, each checked like a text: ``{ en = "…", ja = "…" }``."""
        if not value:
            raise bad(_("{key!r} gives no language", key=f.name),
                      _("give the text, or its languages: en = \"…\", ja = \"…\""))
        for lang, text in value.items():
            if lang not in LANGUAGES:
                raise bad(_("{key!r} has a text in {lang!r}, which is not a language of the table", key=f.name,
                            lang=lang), _("use one of: {choices}", choices=join_list(LANGUAGES)))
            if not isinstance(text, str):
                raise bad(_("{key!r} in {lang!r} must be {kind}, not {value!r}", key=f.name, lang=lang,
                            kind=_type_name(str), value=text), _("correct the value of {key!r}", key=f.name))
            self._length(text, f, bad)
        return dict(value)

    @staticmethod
    def _length(value: str | list[Any], f: Field, bad: Any) -> None:
        chars = isinstance(value, str)
        if f.min_len == f.max_len and len(value) != f.max_len:
            raise bad(_("{key!r} has {n} characters, not {want}", key=f.name, n=len(value), want=f.max_len) if chars
                      else _("{key!r} has {n} entries, not {want}", key=f.name, n=len(value), want=f.max_len),
                      _("give exactly {want}", want=f.max_len))
        if len(value) < f.min_len:
            raise bad(_("{key!r} is empty", key=f.name), _("give {key!r} a value", key=f.name))
        if f.max_len is not None and len(value) > f.max_len:
            raise bad(_("{key!r} has {n} characters; at most {most} are allowed", key=f.name, n=len(value),
                        most=f.max_len) if chars else
                      _("{key!r} has {n} entries; at most {most} are allowed", key=f.name, n=len(value),
                        most=f.max_len), _("shorten it"))

    @staticmethod
    def _number(value: Any, f: Field, bad: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, _NUMBER):
            return
        if isinstance(value, float) and not math.isfinite(value):
            raise bad(_("{key!r} is {value}, which is not a usable number", key=f.name, value=value),
                      _("give a finite number"))
        if (f.low is not None and value < f.low) or (f.high is not None and value > f.high):
            span = _("{low} to {high}{unit}", low=_plain(f.low if f.low is not None else -math.inf),
                     high=_plain(f.high if f.high is not None else math.inf), unit=f.unit)
            raise bad(_("{key!r} is {value}, outside {span}", key=f.name, value=_plain(value), span=span),
                      _("give a value from {span}", span=span))

