"""A small declarative schema for nested JSON payloads: one line per field, errors naming the field path.

A schema is a tree of :class:`Spec` values; ``spec.check(value, where)`` raises :class:`WireError` with the
path of the first bad field (``game.state.state.figures.goblin-1.alive: expected true or false, got 1``).
Objects ignore keys they do not declare (a newer sender may add fields) and may declare fields
``optional`` (an older sender may lack them). Adding a field to a payload is one entry in its
:class:`Obj`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.i18n import gettext_for
from engine.wire.fields import (
    WireError,
    check_bool,
    check_float,
    check_int,
    check_list,
    check_object,
    check_str,
    field_path,
    hex_pair,
)

_ = gettext_for(__name__)


class Spec:
    """What one JSON value must look like."""

    def check(self, value: Any, where: str) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Str(Spec):
    choices: Sequence[str] | None = None

    def check(self, value: Any, where: str) -> None:
        check_str(value, where, self.choices)


@dataclass(frozen=True)
class Int(Spec):
    minimum: int | None = 0

    def check(self, value: Any, where: str) -> None:
        check_int(value, where, self.minimum)


@dataclass(frozen=True)
class Num(Spec):
    low: float | None = None
    high: float | None = None

    def check(self, value: Any, where: str) -> None:
        check_float(value, where, self.low, self.high)


class Bool(Spec):
    def check(self, value: Any, where: str) -> None:
        check_bool(value, where)


class HexPair(Spec):
    """A hex ``[q, r]`` (use ``Nullable(HexPair())`` where null is allowed)."""

    def check(self, value: Any, where: str) -> None:
        if value is None:
            raise WireError(_("{where}: expected a hex [q, r], got null", where=where))
        hex_pair(value, where)


class AnyObject(Spec):
    """An object whose contents belong to someone else (a rule set's own part of the state)."""

    def check(self, value: Any, where: str) -> None:
        check_object(value, where)


class AnyValue(Spec):
    """Any JSON value (free-form event data)."""

    def check(self, value: Any, where: str) -> None:
        return


@dataclass(frozen=True)
class Nullable(Spec):
    inner: Spec

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    length: int | None = None  # exact length when given

    def check(self, value: Any, where: str) -> None:
        items = check_list(value, where)
        if self.length is not None and len(items) != self.length:
            raise WireError(_("{where}: expected {n} entries, got {got}", where=where, n=self.length, got=len(items)))
        for i, item in enumerate(items):
            self.item.check(item, f"{where}[{i}]")


@dataclass(frozen=True)
class MapOf(Spec):
    """An object used as a map: any string key, every value of one kind."""

    value: Spec

    def check(self, value: Any, where: str) -> None:
        for key, item in check_object(value, where).items():
            self.value.check(item, f"{where}.{key}")


@dataclass(frozen=True)
class Obj(Spec):
    """An object with named fields; ``optional`` fields may be missing (or null when their spec allows)."""

    fields: Mapping[str, Spec]
    optional: frozenset[str] = field(default_factory=frozenset)

    def check(self, value: Any, where: str) -> None:
        obj = check_object(value, where)
        for key, spec in self.fields.items():
            if key not in obj:
                if key in self.optional:
                    continue
                raise WireError(_("{where}: missing (required field)", where=field_path(where, key)))
            spec.check(obj[key], f"{where}.{key}")

    def extended(self, optional: frozenset[str] = frozenset(), **more: Spec) -> Obj:
        """The same object with more fields (a rule set's or a newer release's)."""
        return Obj({**self.fields, **more}, self.optional | optional)
