"""Rule-set data files: tables (movement charts, fire tables) kept as TOML beside the rule set's code.

Read once per process and held to declared :class:`engine.scenario_schema.Table` specs by the same
reader as scenario files, so a bad entry names the file, the line and the fix.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.errors import ScenarioError
from engine.scenario_schema import SchemaReader, Table
from engine.toml_syntax import toml_error


def read_rule_data(text: str, source: str, tables: Mapping[str, Table]) -> dict[str, Any]:
    """Check a data file's text against ``tables``: each ``[name]`` a dict, each ``[[name]]`` a tuple of dicts."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(toml_error(exc, text, source)) from None
    reader = SchemaReader(text, source, tables)
    reader.check_tables(data)
    out: dict[str, Any] = {}
    for name, spec in tables.items():
        if spec.many:
            out[name] = tuple({f.name: reader.get(row, name, i, f.name) for f in spec.fields}
                              for i, row in enumerate(reader.rows(data, name)))
        else:
            row = reader.table(data, name)
            out[name] = {f.name: reader.get(row, name, None, f.name) for f in spec.fields}
    return out


_LOADED: dict[tuple[str, str], dict[str, Any]] = {}


def load_rule_data(package: str, filename: str, tables: Mapping[str, Table]) -> dict[str, Any]:
    """A data file of a rule set's package (``engine.rules.lost_worlds``, ``moves.toml``), read once and checked."""
    key = (package, filename)
    if key not in _LOADED:
        text = (resources.files(package) / filename).read_text(encoding="utf-8")
        _LOADED[key] = read_rule_data(text, f"{package.replace('.', '/')}/{filename}", tables)
    return _LOADED[key]
