"""Typed steps: a game's pending decision as a frozen dataclass with one plain-data form.

``GameState.step`` holds one step. Each step class is registered under a ``kind`` name, and its
dict form is ``{"kind": name, field: value, …}`` with hexes as ``[q, r]`` and tuples as lists, so the
state stays JSON for the journal and the wire. Kinds are global: a rule set after the first prefixes
its own (``"laramie.fire"``); registering one kind twice is an error.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from engine.board.base import Cell

_REGISTRY: dict[str, type[Step]] = {}


@dataclass(frozen=True)
class Step:
    """Base of every step; subclasses add the fields their decision needs."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


S = TypeVar("S", bound=type[Step])


def step(kind: str) -> Callable[[S], S]:
    """Class decorator: register a step class under ``kind``."""

    def register(cls: S) -> S:
        known = _REGISTRY.get(kind)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise ValueError(f"step kind {kind!r} is taken by {known.__qualname__}; give {cls.__qualname__} another")
        cls.kind = kind
        _REGISTRY[kind] = cls
        return cls

    return register


def step_from_dict(data: Any) -> Step:
    """Rebuild a step from its dict form; a missing or empty dict is the setup step."""
    if not isinstance(data, dict) or not data:
        return Setup()
    kind = data.get("kind")
    cls = _REGISTRY.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown step kind {kind!r} in the game state; known kinds: {', '.join(sorted(_REGISTRY))}. "
                         "Fix: load the game's rule set first (loading its scenario does)")
    hints = get_type_hints(cls)
    kwargs = {f.name: _typed(hints[f.name], data[f.name]) for f in fields(cls) if f.name in data}
    return cls(**kwargs)


def _plain(value: Any) -> Any:
    if isinstance(value, Cell):
        return [value.q, value.r]
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _typed(hint: Any, value: Any) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        hint = next(a for a in get_args(hint) if a is not type(None))
        origin = get_origin(hint)
    if hint is Cell:
        return Cell(value[0], value[1])
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], v) for v in value)
        return tuple(_typed(a, v) for a, v in zip(args, value, strict=True))
    if hint is str and not isinstance(value, str):
        return str(value)
    return value


@step("setup")
@dataclass(frozen=True)
class Setup(Step):
    """Before the rule set has set up its first step."""


@step("over")
@dataclass(frozen=True)
class GameOver(Step):
    """The game is won; only removals left over from the last action may still be confirmed."""

    text: str = ""
