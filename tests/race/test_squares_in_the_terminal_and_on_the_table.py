"""The square grid of docs/examples/squares through the core's terminal game and table fusion (issue 29).

``hexa play`` asks the board kind to draw its board (``BoardKind.text_drawing``): the squares kind draws its grid as
its scenarios write it, with column letters and row numbers. The table fusion places markers on squares through
the board alone, and a board without facings gives none.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import rules
from engine.cli import play as play_cli
from engine.game import Game
from engine.scenario import Scenario, load_scenario
from engine.table_fusion import CellHysteresis, FacingHysteresis, Sighting, fuse
from tests.race.conftest import ROOT

FOLDERS = os.pathsep.join(str(ROOT / "docs" / "examples" / name) for name in ("squares", "race"))
HEADER = "    A  B  C  D  E  F  G  H"


@pytest.fixture()
def squares(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scenario]:
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, FOLDERS)
    rules.reload_plugins()
    yield load_scenario("race-squares")
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


def test_hexa_play_draws_the_grid_the_way_the_squares_kind_draws_it(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), rules.FOLDERS_VARIABLE: FOLDERS, "HEXA_LANG": "en"}
    result = subprocess.run([sys.executable, "-m", "engine", "play", "race-squares", "--journal",
                             str(tmp_path / "games.sqlite")], cwd=tmp_path, input="quit\n", capture_output=True,
                            text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    top = lines.index(HEADER)
    assert lines[top + 3] == "  3 .  .  #  .  .  .  .  X"  # row 3 as the scenario draws it: rock at C3, an exit at H3
    assert [line[:4] for line in lines[top + 1: top + 6]] == ["  1 ", "  2 ", "  3 ", "  4 ", "  5 "]
    assert "5:" not in result.stdout  # not the cell-by-cell rows a board kind gets by default


def test_the_grid_shows_figures_on_their_squares_and_a_querys_marks(squares: Scenario) -> None:
    game = Game(squares)
    letters = play_cli.figure_letters(game)
    board = squares.board
    costs = {board.from_label("B1"): "1", board.from_label("B2"): "2"}
    text = play_cli.board_text(game, letters, costs)
    lines = text.splitlines()
    top = lines.index(HEADER)
    by_label = {squares.label(game.state.figures[f.id].hex): letters[f.id] for f in squares.figures}
    assert lines[top + 1] == f"  1 {by_label['A1']}  1  #  .  .  .  .  X"
    assert lines[top + 2] == f"  2 {by_label['A2']}  2  .  .  #  .  .  ."


def test_table_fusion_places_markers_on_squares_with_hysteresis_and_no_facing(squares: Scenario) -> None:
    board = squares.board
    cells = CellHysteresis(board, margin=0.15)
    facings = FacingHysteresis(board)
    b2, c2 = board.from_label("B2"), board.from_label("C2")
    (bx, by), (cx, _cy) = board.centre_mm(b2), board.centre_mm(c2)
    seen = fuse([Sighting(7, bx, by, "seen", 0.9, "cam", angle_deg=30.0)], 50.0).markers[7]
    assert cells.locate(7, seen.x_mm, seen.y_mm) == b2
    assert facings.locate(7, b2, seen.angle_deg) is None  # a square grid has no facings
    for i in range(20):  # jitter on the border with C2, a little into C2: it stays on B2
        t = 0.5 + 0.05 * math.sin(i)
        assert cells.locate(7, bx + t * (cx - bx), by) == b2
    assert cells.locate(7, bx + 0.8 * (cx - bx), by) == c2  # clearly past the border
    assert cells.locate(8, bx + 0.55 * (cx - bx), by) == c2  # a new marker goes where it is
