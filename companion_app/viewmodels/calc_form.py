"""A calculator's form as the engine declares it: the texts typed into its fields read as plain inputs, and its
result or refusal put into lines for people. Knows no calculator: only the field kinds ``int``, ``bool``,
``object`` (``name=value`` pairs) and ``objects`` (one object of ``name=value`` pairs per line)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.words import join_list
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

# How to write a field of each kind, for the form (shown with _()).
HINTS: dict[str, str] = {"int": N_("a whole number"), "bool": N_("on or off"), "object": N_("name=value, name=value"),
                         "objects": N_("one per line: name=value name=value")}
TEXT_HINT = N_("text")  # any other kind


class FormError(ValueError):
    """A field's text that cannot be read as its kind; says which field and how to write it."""


@dataclass(frozen=True)
class CalcField:
    """One declared input: its name, kind, a line of help, and whether it must be given."""

    name: str
    kind: str  # int | bool | object | objects (anything else: a text)
    help: str
    required: bool = True

    @property
    def hint(self) -> str:
        """How to write this field, for the form."""
        return _(HINTS.get(self.kind, TEXT_HINT))


@dataclass(frozen=True)
class CalculatorView:
    """A calculator the rule set declares (``scenario.calculators``)."""

    name: str
    label: str
    help: str
    fields: tuple[CalcField, ...]


def calculators_of(scenario: Mapping[str, Any]) -> tuple[CalculatorView, ...]:
    return tuple(
        CalculatorView(str(c["name"]), str(c.get("label", c["name"])), str(c.get("help", "")),
                       tuple(CalcField(str(f["name"]), str(f.get("kind", "text")), str(f.get("help", "")),
                                       bool(f.get("required", True))) for f in c.get("fields") or []))
        for c in scenario.get("calculators") or [])


def scalar(text: str) -> Any:
    """A typed value: a whole number, true/false (yes/no), else the text itself."""
    t = text.strip()
    if t.lower() in ("true", "yes", "on"):
        return True
    if t.lower() in ("false", "no", "off"):
        return False
    try:
        return int(t)
    except ValueError:
        return t


def _pairs(text: str, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise FormError(_("{where}: {part} is not name=value. Fix: write it like hp=40", where=where,
                              part=repr(part)))
        out[name] = scalar(value)
    return out


def read_field(field: CalcField, value: str | bool) -> Any:
    """The input for one field from what the form holds (a toggle's bool, else its text); None: not given."""
    if field.kind == "bool":
        return bool(value)
    text = str(value).strip()
    if not text:
        if field.required:
            raise FormError(_("{name}: needed ({help}). Fix: write {hint}", name=field.name, help=field.help,
                              hint=field.hint))
        return None
    if field.kind == "int":
        try:
            return int(text)
        except ValueError:
            raise FormError(_("{name}: {text} is not a whole number", name=field.name, text=repr(text))) from None
    if field.kind == "object":
        return _pairs(text, field.name)
    if field.kind == "objects":
        rows = [line for line in text.replace(";", "\n").splitlines() if line.strip()]
        return [_pairs(line, _("{name} line {n}", name=field.name, n=i + 1)) for i, line in enumerate(rows)]
    return text


def read_form(calc: CalculatorView, values: Mapping[str, str | bool]) -> dict[str, Any]:
    """The calculator's ``input`` from the form's values by field name; fields left empty are left out."""
    out: dict[str, Any] = {}
    for f in calc.fields:
        value = read_field(f, values.get(f.name, False if f.kind == "bool" else ""))
        if value is not None and not (f.kind == "bool" and value is False and not f.required):
            out[f.name] = value
    return out


def _words(value: Any) -> str:
    if value is None:
        return _("not yet known")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return join_list(str(v) for v in value) or _("none")
    return str(value)


def result_lines(result: Any, indent: str = "") -> list[str]:
    """A calculator's result, nested as the engine answered it, as lines ("to_enemies: 196")."""
    lines: list[str] = []
    if isinstance(result, Mapping):
        for key, value in result.items():
            name = str(key).replace("_", " ")
            if isinstance(value, Mapping) or (isinstance(value, list) and any(isinstance(v, dict) for v in value)):
                lines.append(f"{indent}{name}:")
                lines += result_lines(value, indent + "    ")
            else:
                lines.append(f"{indent}{name}: {_words(value)}")
    elif isinstance(result, Sequence) and not isinstance(result, str):
        for i, item in enumerate(result, start=1):
            if isinstance(item, Mapping):
                lines.append(f"{indent}{i}.")
                lines += result_lines(item, indent + "    ")
            else:
                lines.append(f"{indent}{i}. {_words(item)}")
    else:
        lines.append(f"{indent}{_words(result)}")
    return lines


def refusal_lines(error: str) -> list[str]:
    """A refused calculation: the calculator's name, then each rule the input breaks on a line of its own."""
    head, sep, rest = error.partition(": ")
    problems = [p.strip() for p in rest.split("; ") if p.strip()] if sep else [error]
    first = _("Refused by the rules ({calculator}):", calculator=head) if sep else _("Refused by the rules:")
    return [first, *(f"  • {p}" for p in problems)]
