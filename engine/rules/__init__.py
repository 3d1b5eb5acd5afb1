"""Rule-set registry: each rule set is a module that registers its class; found by name or alias."""

from __future__ import annotations

import importlib

from engine.rules.base import RuleSet

_REGISTRY: dict[str, type[RuleSet]] = {}
_BUILTIN_MODULES = ("engine.rules.fantasy_battle",)


def register(cls: type[RuleSet]) -> type[RuleSet]:
    """Class decorator: make a rule set findable by its name and aliases."""
    for key in (cls.name, *cls.aliases):
        _REGISTRY[key.lower()] = cls
    return cls


def _load_builtins() -> None:
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


def find_ruleset(name: str) -> type[RuleSet]:
    _load_builtins()
    try:
        return _REGISTRY[name.lower()]
    except KeyError:
        names = sorted({c.name for c in _REGISTRY.values()})
        raise KeyError(f"rule set {name!r} is unknown; known rule sets: {', '.join(names)}") from None


def ruleset_names() -> list[str]:
    _load_builtins()
    return sorted({c.name for c in _REGISTRY.values()})
