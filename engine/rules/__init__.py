"""Rule-set registry: each rule set is a module that registers its class; found by name or alias.

Rule sets come from three places, loaded once on first use:

- the built-in packages of ``engine/rules/``;
- installed packages that declare an entry point in the group ``hexa_table_companion.rulesets``
  (the entry point names the module that registers the rule set);
- rule-set folders named in the environment variable ``HEXA_RULESETS`` (folders separated like
  ``PATH``): each folder is a Python package (it holds an ``__init__.py`` that registers the rule
  set), so a new rule set can live in a folder of its own with nothing changed elsewhere.

A rule set that fails to load is logged and named in the "unknown rule set" message; the others
still work.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import re
import sys
import types
from collections.abc import Callable
from functools import partial
from importlib.metadata import entry_points
from pathlib import Path

from engine.board import kinds as board_kinds
from engine.board.kinds import BoardKind
from engine.i18n import gettext_for
from engine.rules.base import RuleSet

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

ENTRY_POINT_GROUP = "hexa_table_companion.rulesets"
FOLDERS_VARIABLE = "HEXA_RULESETS"
_BUILTIN_MODULES = ("engine.rules.fantasy_battle", "engine.rules.tenkey", "engine.rules.filtwiz",
                    "engine.rules.laramie", "engine.rules.lost_worlds")

_REGISTRY: dict[str, type[RuleSet]] = {}
_loaded = False
_failures: dict[str, str] = {}  # where a rule set came from → why it did not load
_builtins: list[type[RuleSet]] = []
_kinds_from: dict[str, tuple[type[BoardKind], ...]] = {}  # a plug-in that loaded → the board kinds it registered
_loaded_from: dict[str, tuple[type[RuleSet], ...]] = {}  # a module or plug-in that loaded → the rule sets it registered


def register(cls: type[RuleSet]) -> type[RuleSet]:
    """Class decorator: make a rule set findable by its name and aliases."""
    for key in (cls.name, *cls.aliases):
        _REGISTRY[key.lower()] = cls
    return cls


PLUGIN_PACKAGE = "hexa_rulesets"  # the parent of every rule-set package loaded from a folder


def _module_name_for(folder: Path) -> str:
    return f"{PLUGIN_PACKAGE}." + (re.sub(r"\W", "_", folder.name) or "ruleset")


def _plugin_parent() -> None:
    """The parent package of folder rule sets, so that their modules import each other relatively."""
    if PLUGIN_PACKAGE not in sys.modules:
        parent = types.ModuleType(PLUGIN_PACKAGE, "rule-set packages loaded from the folders in HEXA_RULESETS")
        parent.__path__ = []
        sys.modules[PLUGIN_PACKAGE] = parent


def _import_folder(folder: Path) -> None:
    """Import a rule-set package from its folder, under a private module name."""
    init = folder / "__init__.py"
    if not init.is_file():
        raise ImportError(f"{folder} is not a rule-set package: it has no __init__.py")
    name = base = _module_name_for(folder)
    for n in range(2, 1000):  # two folders of the same name are two packages
        if name not in sys.modules:
            break
        name = f"{base}_{n}"
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise ImportError(f"{folder} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    _plugin_parent()
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


def _load(key: str, load: Callable[[], object]) -> None:
    """Run ``load`` once per plug-in ``key`` (a module runs once) and note the rule sets it registered; on a
    later load after :func:`reload_plugins`, register those again."""
    known = _loaded_from.get(key)
    if known is not None:
        for cls in known:
            register(cls)
        for kind in _kinds_from.get(key, ()):
            board_kinds.register_board_kind(kind)
        return
    before = set(_REGISTRY.values())
    kinds_before = board_kinds.registered_kinds()
    load()
    _loaded_from[key] = tuple(dict.fromkeys(c for c in _REGISTRY.values() if c not in before))
    _kinds_from[key] = tuple(k for k in board_kinds.registered_kinds() if k not in kinds_before)


def _try(source: str, key: str, load: Callable[[], object]) -> None:
    try:
        _load(key, load)
    except Exception as exc:  # a broken plug-in must not take the other rule sets down
        _failures[source] = f"{type(exc).__name__}: {exc}"
        log.error("rule set from %s did not load: %s", source, _failures[source])


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)
    if not _builtins:
        _builtins.extend(dict.fromkeys(c for c in _REGISTRY.values() if c.__module__.startswith(_BUILTIN_MODULES)))
    for cls in _builtins:  # again, in case a plug-in no longer named took one of their names
        register(cls)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        _try(f"the installed package entry point {ep.name!r}", f"entry point {ep.value}", ep.load)
    for part in os.environ.get(FOLDERS_VARIABLE, "").split(os.pathsep):
        if part.strip():
            folder = Path(part).expanduser().resolve()
            _try(f"the folder {part} ({FOLDERS_VARIABLE})", f"folder {folder}", partial(_import_folder, folder))


def reload_plugins() -> None:
    """Look at the entry points and ``HEXA_RULESETS`` again (after the environment changed).

    Rule sets of plug-ins no longer named are forgotten; the built-in ones and those still named stay.
    (Rule sets registered by direct imports, outside any plug-in, are left as they are.)
    """
    global _loaded
    _loaded = False
    _failures.clear()
    loaded = {cls for classes in _loaded_from.values() for cls in classes}
    for key in [k for k, cls in _REGISTRY.items() if cls in loaded]:
        del _REGISTRY[key]
    board_kinds.forget_kinds({kind for kinds in _kinds_from.values() for kind in kinds})
    _load_all()


def find_ruleset(name: str) -> type[RuleSet]:
    _load_all()
    try:
        return _REGISTRY[name.lower()]
    except KeyError:
        names = sorted({c.name for c in _REGISTRY.values()})
        broken = "".join(_("; {source} did not load ({why})", source=source, why=why)
                         for source, why in _failures.items())
        raise KeyError(_("rule set {name!r} is unknown; known rule sets: {known}{broken}", name=name,
                         known=", ".join(names), broken=broken)) from None


def ruleset_names() -> list[str]:
    _load_all()
    return sorted({c.name for c in _REGISTRY.values()})


def builtin_rulesets() -> list[type[RuleSet]]:
    """The rule sets that come with the core (the packages of ``engine/rules/``), by name."""
    _load_all()
    return sorted(_builtins, key=lambda c: c.name)


def registered_rulesets() -> list[type[RuleSet]]:
    """Every rule set found (built-in, installed and from ``HEXA_RULESETS`` folders), each once, by name."""
    _load_all()
    return sorted(dict.fromkeys(_REGISTRY.values()), key=lambda c: c.name)


def bundled_scenarios() -> dict[str, str]:
    """Every scenario the rule sets found bundle (each one's ``scenarios/*.toml``): id → TOML text.

    Two rule sets bundling the same id: the first by rule-set name keeps it, and the other is logged.
    """
    out: dict[str, str] = {}
    owner: dict[str, str] = {}
    for cls in registered_rulesets():
        for sid, text in cls.scenarios().items():
            if sid in out:
                if out[sid] != text:
                    log.warning("the scenario %r of the rule set %s is not bundled: %s bundles one of that id",
                                sid, cls.name, owner[sid])
                continue
            out[sid], owner[sid] = text, cls.name
    return out
