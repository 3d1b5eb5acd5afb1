"""Typed reading of a rule set's own keys of a figure or a victory (``spec.fields``).

A rule set names each of its fields once, as a :class:`FieldRef`, and reads it by calling it:
``stride = FieldRef("stride", int)`` then ``stride(figure)``. A misspelt or undeclared name, or a
value of another type, raises :class:`RuleFieldError` naming the fields the spec holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import EngineError

T = TypeVar("T")


class RuleFieldError(EngineError):
    """A rule set read a field its figure or victory does not hold, or one of another type."""


class HasFields(Protocol):
    """A figure or victory of a scenario: the rule set's own values by key."""

    @property
    def fields(self) -> Mapping[str, Any]: ...


def read_field(spec: HasFields, name: str, typ: type[T]) -> T:
    """The value of the rule set's field ``name`` of ``spec``, which must be a ``typ``."""
    try:
        value = spec.fields[name]
    except KeyError:
        raise RuleFieldError(
            f"{type(spec).__name__} has no field {name!r}; the rule set declares {sorted(spec.fields)}. "
            f"Fix: read one of those, or declare {name!r} in the rule set's figure_fields or victory_types"
        ) from None
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, typ):
        raise RuleFieldError(
            f"the field {name!r} of {type(spec).__name__} holds {value!r}, not a {typ.__name__}. "
            f"Fix: read it as {type(value).__name__}, or declare it as {typ.__name__}"
        )
    return value


class FieldRef(Generic[T]):
    """One of a rule set's own fields, by name and type; call it on a spec to read the value."""

    __slots__ = ("name", "typ")

    def __init__(self, name: str, typ: type[T]) -> None:
        self.name = name
        self.typ = typ

    def __call__(self, spec: HasFields) -> T:
        return read_field(spec, self.name, self.typ)

    def __repr__(self) -> str:
        return f"FieldRef({self.name!r}, {self.typ.__name__})"
