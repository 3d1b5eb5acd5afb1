"""The contributing guide's layout table, enforced: who may import which part of the engine.

The wire schema (``engine.wire``) is the one package all three processes share, so it imports only the
standard library; the camera service imports the wire (and the CURVE keys) and knows no map; the app
imports the wire, the tablet client and the geometry it draws with, and holds no rules.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# folder -> the engine modules its code may import (a module and everything below it); None: any
ALLOWED: dict[str, tuple[str, ...] | None] = {
    # engine.i18n, engine.toml_syntax and engine.fonts: the texts' languages, a TOML syntax error in them, and the
    # Japanese font (standard library and Babel only)
    "vision": ("engine.wire", "engine.service.security", "engine.i18n", "engine.toml_syntax", "engine.fonts"),
    # the synthetic table draws a scenario's map as a camera would see it (a frame source for tests and demos)
    "vision/synthetic": ("engine.wire", "engine.service.security", "engine.i18n", "engine.toml_syntax",
                         "engine.fonts", "engine.hexes", "engine.layout", "engine.board", "engine.scenario",
                         "engine.errors"),
    "companion_app": ("engine.wire", "engine.service.client", "engine.service.security", "engine.i18n", "engine.fonts",
                      "engine.texts", "engine.hexes", "engine.layout", "engine.flow.words"),
    # the demo launcher plays the other side and drives the synthetic table: it runs a game of its own
    "companion_app/demo": None,
}


def engine_imports(path: Path) -> list[tuple[int, str]]:
    """Every ``engine`` module a file imports (lazy imports inside functions too), with its line."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "engine"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module == "engine":
                out += [(node.lineno, f"engine.{a.name}") for a in node.names]
            elif node.module.split(".")[0] == "engine":
                out.append((node.lineno, node.module))
    return out


def rule_for(path: Path) -> tuple[str, tuple[str, ...] | None]:
    """The most specific folder of :data:`ALLOWED` holding ``path``."""
    relative = path.relative_to(REPO).as_posix()
    folder = max((f for f in ALLOWED if relative.startswith(f + "/")), key=len)
    return folder, ALLOWED[folder]


def allowed(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def violations(top: str) -> list[str]:
    out = []
    for path in sorted((REPO / top).rglob("*.py")):
        folder, prefixes = rule_for(path)
        if prefixes is None:
            continue
        for line, module in engine_imports(path):
            if not allowed(module, prefixes):
                out.append(f"{path.relative_to(REPO)}:{line}: imports {module}; {folder}/ may import only "
                           f"{', '.join(prefixes)} (docs/contributing.md, Layout)")
    return out


@pytest.mark.parametrize("top", ["vision", "companion_app"])
def test_each_part_imports_only_what_the_layout_table_allows(top: str) -> None:
    problems = violations(top)
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from engine import wire\nimport engine.rules\n\ndef f():\n    from engine.game import Game\n")
    assert engine_imports(bad) == [(1, "engine.wire"), (2, "engine.rules"), (5, "engine.game")]
    assert [m for _, m in engine_imports(bad) if not allowed(m, ALLOWED["vision"] or ())] == ["engine.rules",
                                                                                          "engine.game"]


STANDALONE = r"""
import sys
before = set(sys.modules)
import engine.wire
extra = sorted(m for m in set(sys.modules) - before
               if not (m.split(".")[0] in sys.stdlib_module_names or m in ("engine", "engine.i18n")
                       or m.startswith("engine.wire")))
print(",".join(extra))
"""


def test_the_wire_package_stands_alone() -> None:
    """Every process imports the wire: it must pull in nothing but the standard library.

    ``engine.i18n`` (the languages a ``language`` command may name) is itself standard library only at import.
    """
    out = subprocess.run([sys.executable, "-c", STANDALONE], capture_output=True, text=True, check=True,
                         timeout=120, cwd=REPO)
    assert out.stdout.strip() == "", f"engine.wire pulled in: {out.stdout.strip()}"
