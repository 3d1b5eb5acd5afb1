"""Board-neutral code is typed on ``Cell``, never on ``Hex`` (issue 29).

A cell is the one value type of every board kind (``engine.board.base.Cell``); only the hex geometry, the hex map's
own package and the rule sets that play on hex maps name ``Hex``. This reads the engine's source and fails on a
``Hex`` anywhere else: the path search, the movement graph, the flow, the auto player, the rule-set seams, the
table sync, the terminal game, the service.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The hex geometry, where Hex is the subject; the board base, which says what a Cell is.
HEX_GEOMETRY = {"engine/hexes.py", "engine/layout.py", "engine/lines.py", "engine/line_trace.py",
                "engine/sight_board.py", "engine/board/base.py"}
# Code of one board kind or of one rule set (each rule set plays on the kinds it declares).
OWN_KIND = ("engine/board/hex/", "engine/board/zones/", "engine/rules/fantasy_battle/", "engine/rules/filtwiz/",
            "engine/rules/laramie/", "engine/rules/lost_worlds/", "engine/rules/tenkey/")
HEX = re.compile(r"\bHex\b")


def board_neutral_modules() -> list[str]:
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in HEX_GEOMETRY and not name.startswith(OWN_KIND):
            found.append(name)
    return found


def test_board_neutral_code_names_cells_not_hexes() -> None:
    named = {name: [line.strip() for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
                    if HEX.search(line)] for name in board_neutral_modules()}
    named = {name: lines for name, lines in named.items() if lines}
    assert not named, f"board-neutral modules typed on Hex; use engine.board.Cell: {named}"


def test_the_check_covers_the_generic_code() -> None:
    modules = board_neutral_modules()
    for name in ("engine/pathfinding.py", "engine/cell_graph.py", "engine/rules/base.py", "engine/autoplay.py",
                 "engine/flow/machine.py", "engine/table_sync.py", "engine/cli/play.py", "engine/service/session.py"):
        assert name in modules
    assert HEX.search("def f(a: Hex) -> None:") and not HEX.search("HexBoard, hexes")
