"""A TOML syntax error for people: where it is (line and column) and what is wrong, in the table's language.

Python's ``tomllib`` says what is wrong in English, with the place at the end: ``Invalid value (at line 3,
column 8)`` or ``… (at end of document)``. :func:`toml_problem` reads the place (from the error's own fields where
the Python has them, else from that ending) and gives the reason in the current language for the kinds tomllib
names; a reason it does not know is quoted as tomllib wrote it, so nothing is lost.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass

from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

_PLACE = re.compile(r"^(?P<msg>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$", re.S)

# tomllib's fixed reasons, in its own words (the English texts are those words).
_FIXED: frozenset[str] = frozenset({
    N_("Invalid statement"),
    N_("Expected newline or end of document after a statement"),
    N_("Cannot overwrite a value"),
    N_("Expected ']' at the end of a table declaration"),
    N_("Expected ']]' at the end of an array declaration"),
    N_("Expected '=' after a key in a key/value pair"),
    N_("Invalid initial character for a key part"),
    N_("Unclosed array"),
    N_("Unclosed inline table"),
    N_("Unescaped '\\' in a string"),
    N_("Invalid hex value"),
    N_("Escaped character is not a Unicode scalar value"),
    N_("Unterminated string"),
    N_("Invalid date or datetime"),
    N_("Invalid value"),
})


def _key(text: str) -> str:
    """A key as tomllib quotes it (``('map', 'drawing')`` or ``'name'``) written as in the file: ``map.drawing``."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    if isinstance(value, tuple) and all(isinstance(part, str) for part in value):
        return ".".join(value)
    return value if isinstance(value, str) else text


# tomllib's reasons that name something: the pattern of its words, and the text for people with the name.
_NAMED: tuple[tuple[re.Pattern[str], Callable[[str], str]], ...] = (
    (re.compile(r"Expected (.+)"), lambda what: _("Expected {what}", what=what)),
    (re.compile(r"Found invalid character (.+)"), lambda what: _("Found invalid character {what}", what=what)),
    (re.compile(r"Illegal character (.+)"), lambda what: _("Illegal character {what}", what=what)),
    (re.compile(r"Cannot declare (.+) twice"), lambda key: _("Cannot declare {key} twice", key=_key(key))),
    (re.compile(r"Cannot mutate immutable namespace (.+)"),
     lambda key: _("Cannot mutate immutable namespace {key}", key=_key(key))),
    (re.compile(r"Cannot redefine namespace (.+)"), lambda key: _("Cannot redefine namespace {key}", key=_key(key))),
    (re.compile(r"Duplicate inline table key (.+)"),
     lambda key: _("Duplicate inline table key {key}", key=_key(key))),
)


@dataclass(frozen=True)
class TomlProblem:
    """Where a TOML text stops being TOML and why; ``line`` and ``column`` count from 1."""

    line: int
    column: int
    reason: str  # in the current language where tomllib's words are known, else tomllib's own


def _reason(msg: str) -> str:
    if msg in _FIXED:
        return _(msg)
    for pattern, text in _NAMED:
        found = pattern.fullmatch(msg)
        if found:
            return text(found.group(1))
    return msg


def _end(text: str) -> tuple[int, int]:
    """The line and column just past the text's last character."""
    line = text.count("\n") + 1
    return line, len(text) - (text.rfind("\n") + 1) + 1


def toml_problem(exc: tomllib.TOMLDecodeError, text: str) -> TomlProblem | None:
    """The place and reason of ``exc``, raised reading ``text``; None when its words cannot be read (a newer Python's
    message: then quote ``str(exc)``, which holds the place)."""
    msg = getattr(exc, "msg", None)
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    if isinstance(msg, str) and isinstance(line, int) and isinstance(column, int):
        return TomlProblem(line, column, _reason(msg))
    found = _PLACE.match(str(exc))
    if found is None:
        return None
    if found.group("line") is None:
        line, column = _end(text)
    else:
        line, column = int(found.group("line")), int(found.group("column"))
    return TomlProblem(line, column, _reason(found.group("msg")))


def toml_error(exc: tomllib.TOMLDecodeError, text: str, source: str) -> str:
    """The sentence for a TOML syntax error in ``source`` (a file's name), with its line, column and the fix."""
    problem = toml_problem(exc, text)
    if problem is None:
        return _("{file}: not valid TOML ({error}). Fix: correct the syntax there", file=source, error=exc)
    return _("{file}, line {line}, column {column}: not valid TOML ({reason}). Fix: correct the syntax there",
             file=source, line=problem.line, column=problem.column, reason=problem.reason)
