"""Every text the product can show is drawable with the app's font: no glyph is drawn as an empty box.

The window, the calibration window and the printed sheets draw every text with one font (engine/fonts.py),
and a character that font lacks comes out as a box ("lies prone on 1d10 ☒ combat value"). So every
catalogue string in both languages, every string the rule sets, the flow, the app and calibration write in
their code (docstrings aside), every kv file and every bundled scenario is checked against the font's
character map.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from engine.fonts import japanese_font

ROOT = Path(__file__).resolve().parents[2]
SHOWN_CODE = ("engine", "companion_app", "calibration", "vision")
# Not drawn: regular-expression character ranges that name blocks of the Unicode table.
NOT_DRAWN = {ROOT / "companion_app" / "ui" / "line_breaks.py", ROOT / "companion_app" / "viewmodels" / "words.py"}
# Never drawn as text: layout characters.
INVISIBLE = set("\n\r\t\u200b")


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _code_texts(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.value


def _catalogue_texts(path: Path) -> Iterator[str]:
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    for message in catalogue:
        for part in (message.id, message.string):
            for text in part if isinstance(part, tuple) else (part,):
                if text:
                    yield text


def _texts() -> Iterator[tuple[Path, str]]:
    for package in SHOWN_CODE:
        for path in sorted((ROOT / package).rglob("*")):
            if "__pycache__" in path.parts or path in NOT_DRAWN:
                continue
            if path.suffix == ".py":
                texts: Iterator[str] = _code_texts(path)
            elif path.suffix == ".po":
                texts = _catalogue_texts(path)
            elif path.suffix in (".kv", ".toml"):
                texts = iter([path.read_text(encoding="utf-8")])
            else:
                continue
            for text in texts:
                yield path, text


@pytest.fixture(scope="module")
def font_characters() -> set[int]:
    return set(TTFont(str(japanese_font()), lazy=True).getBestCmap())


def test_the_font_check_sees_a_missing_glyph(font_characters: set[int]) -> None:
    assert ord("≦") in font_characters and ord("≤") not in font_characters


def test_every_text_the_product_shows_has_its_glyphs_in_the_font(font_characters: set[int]) -> None:
    missing: dict[str, set[str]] = {}
    for path, text in _texts():
        for char in set(text) - INVISIBLE:
            if ord(char) not in font_characters:
                missing.setdefault(f"{char!r} (U+{ord(char):04X})", set()).add(str(path.relative_to(ROOT)))
    assert not missing, "characters the app's font cannot draw: " + "; ".join(
        f"{char} in {', '.join(sorted(paths))}" for char, paths in sorted(missing.items()))
