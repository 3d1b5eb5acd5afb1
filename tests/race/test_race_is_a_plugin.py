"""Adding Race changed nothing outside its folder: it uses the core's public API only, and the core never names it."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from engine import rules
from tests.race.conftest import RACE_FOLDER, ROOT

CORE = ("engine", "companion_app", "vision", "calibration")
NOT_PUBLIC = ("engine.rules.fantasy_battle", "engine.service")  # another rule set; the ZeroMQ shell


def imports(path: Path) -> list[tuple[str, tuple[str, ...], int]]:
    """(module, names imported from it, relative level) of every import in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(a.name, (), 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", tuple(a.name for a in node.names), node.level))
    return found


def test_race_imports_only_the_standard_library_its_own_modules_and_the_cores_public_names() -> None:
    modules = sorted(RACE_FOLDER.glob("*.py"))
    assert {m.stem for m in modules} >= {"__init__", "rules", "steps", "turn", "course", "scenario_fields"}
    for path in modules:
        for module, names, level in imports(path):
            where = f"{path.name} imports {'.' * level}{module} {names}"
            if level:
                assert (RACE_FOLDER / f"{module or names[0]}.py").exists(), where
                continue
            top = module.split(".")[0]
            if top in sys.stdlib_module_names:
                continue
            assert top == "engine", f"{where}: only the standard library and the engine"
            assert not module.startswith(NOT_PUBLIC), f"{where}: not a public core module"
            assert not any(part.startswith("_") for part in module.split(".")), f"{where}: a private module"
            assert not any(n.startswith("_") for n in names), f"{where}: a private name"


def test_the_core_never_names_race() -> None:
    for part in CORE:
        for path in sorted((ROOT / part).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
                assert name.lower() != "race", f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')} names Race"
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value.lower()
                    assert text != "race" and "examples/race" not in text, (
                        f"{path.relative_to(ROOT)}:{node.lineno} names Race: {node.value!r}")
        for path in sorted((ROOT / part).rglob("*")):
            if path.suffix in (".kv", ".toml", ".json"):
                assert "examples/race" not in path.read_text(encoding="utf-8"), path


def test_race_is_neither_built_in_nor_an_installed_entry_point() -> None:
    assert not any("race" in m for m in rules._BUILTIN_MODULES)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    points = project["project"].get("entry-points", {}).get(rules.ENTRY_POINT_GROUP, {})
    assert not any("race" in str(v) for v in points.values())


def test_without_its_folder_named_race_is_unknown() -> None:
    rules.reload_plugins()
    assert "race" not in rules.ruleset_names()
