"""A rule set on a new board kind, each in a folder outside the repository (issue 29's "done when").

The square-grid kind (docs/examples/squares) and Race (docs/examples/race) are copied to a temporary directory
and named in HEXA_RULESETS; Race's bundled ``race-squares`` scenario is found by its id, served by a real engine
process, drawn and played through the app's view model, and played to a winner through the camera on the
synthetic table. No file of the repository changes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion_app.viewmodels.session import GameSession
from engine import rules
from engine.service.client import EngineClient
from tests.race.conftest import ROOT
from tests.service.engine_tablet import act, prompt_of, tablet_on
from tests.waiting import WAIT_S

EXAMPLES = ROOT / "docs" / "examples"
SCENARIO = "race-squares"


def repository_status() -> str:
    """Every changed or new file of the repository, as git sees it."""
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


@pytest.fixture()
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The two folders copied out of the repository and named in HEXA_RULESETS (this process and its children)."""
    named = []
    for name in ("squares", "race"):
        copy = tmp_path / "my-plugins" / name
        shutil.copytree(EXAMPLES / name, copy, ignore=shutil.ignore_patterns("__pycache__"))
        named.append(str(copy))
    value = os.pathsep.join(named)
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, value)
    rules.reload_plugins()
    yield value
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


def test_the_copied_folders_bundle_the_scenario_and_the_board_kind(folders: str) -> None:
    assert SCENARIO in rules.bundled_scenarios()
    from engine.scenario import load_scenario

    scenario = load_scenario(SCENARIO)
    assert scenario.board.kind == "squares" and len(scenario.board) == 40
    assert scenario.label(scenario.figures[0].start) == "A1"
    assert {scenario.label(c) for c in scenario.board.neighbours(scenario.board.from_label("B2"))} == {
        "A2", "C2", "B1", "B3"}  # four orthogonal neighbours


def test_the_engine_serves_it_and_the_app_draws_and_plays_it_to_a_winner(folders: str) -> None:
    before = repository_status()
    with tablet_on(SCENARIO) as tablet:
        scenario = tablet.scenario
        assert scenario is not None and scenario["ruleset"] == "race" and scenario["board"]["kind"] == "squares"
        session = GameSession()
        session.set_scenario(scenario)
        session.set_snapshot(_snapshot(tablet))
        board = session.board
        assert board is not None and len(board.tiles) == 40
        a1 = board.tiles[(0, 0)]
        assert a1.label == "A1" and a1.corners == ((0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0))
        assert board.hex_at(59.0, 21.0) == (1, 0) and board.hex_at(-1.0, 5.0) is None  # hit by its outline
        assert sorted(t.label for t in board.tiles.values() if "exit" in t.tokens) == ["H1", "H3", "H5"]
        act(tablet, {"kind": "roll", "values": [5, 2]})  # the roll-off: Red first
        texts: list[str] = []
        for _ in range(60):
            session.set_snapshot(_snapshot(tablet))
            prompt = prompt_of(tablet)
            if prompt["kind"] == "game_over":
                break
            if prompt["kind"] == "roll":
                assert "squares" in prompt["text"] and "hexes" not in prompt["text"]  # the kind's own word
                events = act(tablet, {"kind": "roll", "values": [6]})
            elif prompt["kind"] == "choose":
                events = act(tablet, {"kind": "choose", "option": prompt["options"][0]["id"]})
            else:  # dragged on the app's board as far east as the prompt allows
                assert session.prompt is not None and session.board is not None
                figure = session.prompt.figure
                assert figure is not None
                start = session.board.figures[figure].key
                furthest = max(prompt["moves"], key=lambda m: (m["hex"][0], -m["cost"]))
                dragged = session.drag(start, tuple(furthest["hex"]))
                assert dragged.kind == "action" and dragged.action is not None, dragged
                events = act(tablet, dragged.action)
            texts += [e["text"] for e in events]
        game = tablet.request("snapshot", WAIT_S).fields["game"]
        winner = game["state"]["winner"]
        assert winner in ("red", "blue"), texts
        assert re.fullmatch(f"{winner.capitalize()} wins: (Dash|Pip|Zip|Bolt) reaches the exit H[135]", texts[-1])
        session.set_snapshot(game)
        drawn = session.board
        assert drawn is not None
        assert any(f.label in ("H1", "H3", "H5") for f in drawn.figures.values() if f.side == winner)
    assert repository_status() == before


def test_the_synthetic_camera_plays_it_to_a_winner(folders: str) -> None:
    before = repository_status()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", rules.FOLDERS_VARIABLE: folders}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.run([sys.executable, "-m", "engine", "demo", SCENARIO, "--headless", "--seed", "1",
                           "--dice", "tablet", "-v"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "The camera sees all 4 figures on their squares." in out
    moves = re.search(r"(\d+) moves and (\d+) removals through the camera", out)
    assert moves is not None and int(moves.group(1)) >= 2, out[-3000:]
    assert out.count("(seen by the camera and judged in") == int(moves.group(1))
    assert re.search(r"Game over\. Winner: (Red|Blue) — (Red|Blue) wins: \w+ reaches the exit H[135]", out), out
    assert repository_status() == before


def _snapshot(tablet: EngineClient) -> dict[str, object]:
    game: dict[str, object] = tablet.request("snapshot", WAIT_S).fields["game"]
    return game


def test_without_the_board_kinds_folder_the_scenario_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.scenario import ScenarioError, load_scenario

    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(EXAMPLES / "race"))  # Race alone: no squares
    rules.reload_plugins()
    try:
        with pytest.raises(ScenarioError, match=r"line 14: \[map\] kind 'squares' is not a board kind this program "
                                                r"knows \(hex, zones\)\. Fix: name the folder of that board kind"):
            load_scenario(SCENARIO)
    finally:
        monkeypatch.delenv(rules.FOLDERS_VARIABLE)
        rules.reload_plugins()
