"""No code outside a board kind's own modules branches on a kind's name or class (issue 29).

A board kind (``engine.board.kinds``) owns its ``[map]`` reading, its words and its drawing; the core, the app and
the synthetic table ask the kind. This test reads the source of the places that used to branch on "hex" / "zones"
or on ``HexBoard`` / ``ZoneBoard`` and fails on any such branch found there again.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Modules the kinds took their branches from: each must stay free of them.
FREED = (
    "engine/scenario_schema.py",
    "engine/scenario_map.py",
    "engine/scenario.py",
    "engine/scenario_types.py",
    "engine/flow/words.py",
    "engine/texts.py",
    "engine/autoplay.py",
    "engine/flow/facing.py",
    "companion_app/viewmodels/board_model.py",
    "companion_app/viewmodels/overlays.py",
    "companion_app/viewmodels/legend.py",
    "companion_app/ui/board_widget.py",
    "vision/synthetic/scenario_scene.py",
    "engine/cli/play.py",
    "engine/table_fusion.py",
    "engine/table_sync.py",
    "engine/board/marks.py",
    "engine/board/text_drawing.py",
)
BRANCHES = (
    re.compile(r"""[=!]=\s*["'](hex|zones)["']"""),  # kind == "zones"
    re.compile(r"""["'](hex|zones)["']\s*[=!]="""),
    re.compile(r"""isinstance\([^)]*\b(HexBoard|ZoneBoard)\b"""),
    re.compile(r"""\b(HexBoard|ZoneBoard)\s*\|"""),  # HexBoard | ZoneBoard
    re.compile(r"""\bBOARD_KINDS\b|\bCELL_WORDS\b"""),
    re.compile(r"""\{\s*["']hex["']\s*:.*["']zones["']\s*:"""),  # a table by the kinds' names
    re.compile(r"""\bengine\.board\.(hex|zones)\b"""),  # a kind's own package imported
)


def branches(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if any(b.search(line) for b in BRANCHES)]


@pytest.mark.parametrize("path", FREED)
def test_no_branch_on_a_board_kind_outside_the_kinds(path: str) -> None:
    found = branches((ROOT / path).read_text(encoding="utf-8"))
    assert not found, f"{path} branches on a board kind; ask the kind (engine.board.kinds) instead: {found}"


def test_the_check_finds_the_branches_it_looks_for() -> None:
    assert branches('if kind == "zones":\n    x = 1\nCELL_WORDS = {"hex": ("hex", "hexes"), "zones": 1}\n'
                    "board: HexBoard | ZoneBoard\nif isinstance(board, HexBoard):") == [
        'if kind == "zones":', 'CELL_WORDS = {"hex": ("hex", "hexes"), "zones": 1}', "board: HexBoard | ZoneBoard",
        "if isinstance(board, HexBoard):"]
    assert branches("from engine.board.hex.ascii_map import render_map") == [
        "from engine.board.hex.ascii_map import render_map"]
    assert branches('board.kind\nfind_board_kind(board.kind).noun(1)') == []
