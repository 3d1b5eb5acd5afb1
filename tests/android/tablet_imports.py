"""Import the whole tablet app with the desktop-only packages made unimportable; print what it pulled in as JSON.

``python -m tests.android.tablet_imports [MODULE…]`` imports every module of ``companion_app`` that runs on the
tablet (all but the demo) and ``main`` (the APK's entry), then follows every import written in those modules and in
the engine modules they reach — lazy ones inside functions too — until nothing new comes. Any import of a
desktop-only package raises ImportError naming it. With MODULE arguments it imports those instead (the tests use
that to see the check fail). Needs no display: Kivy opens no window here.
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
OWN = ("companion_app", "engine", "main")
# What cannot (or need not) go on Android: OpenCV, numpy, numba, the camera service, calibration and its PDFs, TUIO.
# Pillow too: the app loads its images through SDL2 (companion_app.kivy_start), as on the tablet.
DESKTOP_ONLY = ("cv2", "numpy", "numba", "vision", "calibration", "fpdf", "pypdfium2", "pythonosc", "liblo", "PIL",
                "companion_app.demo")
# Standard-library modules python-for-android builds only from a recipe of their own.
STDLIB_RECIPES = {"sqlite3": "sqlite3", "_sqlite3": "sqlite3", "ssl": "openssl", "_ssl": "openssl"}


class DesktopOnly(importlib.abc.MetaPathFinder):
    """Refuses every module of :data:`DESKTOP_ONLY` (and below)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if any(name == d or name.startswith(d + ".") for d in DESKTOP_ONLY):
            raise ImportError(f"{name} is desktop-only: the tablet app must not import it (move the import behind "
                              "a desktop-only entry point such as the demo launcher)")
        return None


def tablet_modules() -> list[str]:
    """Every module of ``companion_app`` that runs on the tablet, and ``main``."""
    names = ["main"]
    for path in sorted((ROOT / "companion_app").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[:2] == ["companion_app", "demo"]:
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def written_imports(module: ModuleType) -> list[str]:
    """Every module name an ``import`` in the module's source names, inside functions too, relative ones resolved."""
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    package = module.__package__ or ""
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level else (
                node.module or "")
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names if base.split(".")[0] in OWN]  # submodules, where they are
    return out


def is_own(name: str) -> bool:
    return name.split(".")[0] in OWN


def import_closure(start: list[str]) -> dict[str, list[str]]:
    """Import ``start`` and every own module their sources name; the loaded files and the outside imports."""
    pending, seen, outside = list(start), set(), set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name and "." in name:  # ``from package import name`` naming an attribute, not a module
                continue
            raise
        if getattr(module, "__file__", None) is None:
            continue
        for imported in written_imports(module):
            if is_own(imported):
                pending.append(imported)
            else:
                outside.add(imported.split(".")[0])
    files = sorted({Path(str(m.__file__)).resolve().relative_to(ROOT).as_posix()
                    for n, m in list(sys.modules.items()) if is_own(n) and getattr(m, "__file__", None)})
    third_party = sorted(t for t in outside if t not in sys.stdlib_module_names and t != "__future__")
    recipes = sorted({STDLIB_RECIPES[t] for t in outside if t in STDLIB_RECIPES})
    return {"files": files, "third_party": third_party, "stdlib_recipes": recipes}


def main(argv: list[str]) -> int:
    sys.meta_path.insert(0, DesktopOnly())
    sys.path.insert(0, str(ROOT))
    from companion_app.kivy_start import PROVIDERS

    os.environ.update(PROVIDERS)  # Kivy's providers as the app chooses them
    os.environ["KIVY_WINDOW"] = ""  # but no window: no display needed
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    print(json.dumps(import_closure(argv or tablet_modules())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
