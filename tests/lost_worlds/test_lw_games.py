"""Whole games of the ruined tower: the auto player to a winner, ``hexa play --auto``, a real engine service."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.actions import action_from_dict, action_to_dict
from engine.autoplay import AutoPlayer, play_out
from engine.game import Game
from engine.scenario import load_scenario
from engine.service.client import EngineClient
from engine.snapshot import scenario_to_dict
from tests.service.engine_tablet import act, tablet_on
from tests.waiting import WAIT_S

ROOT = Path(__file__).resolve().parents[2]
TOWER = "lost-worlds-ruined-tower"


def test_the_tower_is_a_multi_level_map_with_stairs_a_balcony_and_a_pit() -> None:
    s = load_scenario(TOWER)
    levels = {s.board.level(h) for h in s.board}
    assert {0, 2, 3, 4, 5} <= levels  # the pit, the floor, two stairs, the balcony
    assert len(s.figures) >= 4 and s.level_height_mm > 0
    assert scenario_to_dict(s)["figures"][0]["height"] == 4  # the character sheet travels to the tablets


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_auto_player_plays_the_tower_to_a_winner(seed: int) -> None:
    g = Game(load_scenario(TOWER))
    steps = play_out(g, AutoPlayer(seed), max_steps=20_000)
    assert g.state.winner in ("adventurers", "monsters")
    texts = [e.text for s in steps for e in s.events]
    assert any("open your book at page" in t for t in texts)
    assert any(t.startswith("Fall table:") for t in texts)
    assert "experience each" in texts[-1] or "No victory points" in texts[-1]


def test_hexa_play_auto_plays_the_tower_to_its_end(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "play", TOWER, "--auto", "--seed", "3"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    (winner,) = [line for line in result.stdout.splitlines() if line.startswith("Winner: ")]
    assert "out of the fight" in winner and "victory points" in winner


@pytest.fixture()
def tablet() -> Iterator[EngineClient]:
    with tablet_on(TOWER) as client:
        yield client


def test_a_tower_game_through_the_engine_service_by_commands(tablet: EngineClient) -> None:
    assert tablet.scenario is not None and tablet.scenario["ruleset"] == "lost-worlds"
    assert {q["name"] for q in tablet.scenario["queries"]} == {"reachable", "battle-range"}
    assert any(t["term"] == "battle range" for t in tablet.scenario["glossary"])
    assert act(tablet, {"kind": "roll", "values": [6, 1]})[-1]["text"] == "Round 1: Adventurers' turn."
    act(tablet, {"kind": "choose", "option": "knight"})
    reach = tablet.request("query", WAIT_S, what="reachable", figure="knight")
    assert reach.ok
    act(tablet, {"kind": "choose", "option": "to-B1"})
    game = tablet.request("snapshot", WAIT_S).fields["game"]
    knight = game["state"]["figures"]["knight"]
    assert knight["values"] == {"hp": 14, "mp": 3} and knight["badges"] == ["hp 14", "mp 3"]  # on the wire
    assert "3 of 4 movement points left" in game["prompt"]["text"]
    # The rest is played by the auto player on a game of its own kept in step: the service must agree on every
    # prompt, and the game ends with a winner.
    mirror = Game(load_scenario(TOWER))
    for action in ({"kind": "roll", "values": [6, 1]}, {"kind": "choose", "option": "knight"},
                   {"kind": "choose", "option": "to-B1"}):
        mirror.apply(action_from_dict(action))
    player = AutoPlayer(5)
    texts: list[str] = []
    for _ in range(2000):
        prompt = tablet.request("snapshot", WAIT_S).fields["game"]["prompt"]
        assert prompt["text"] == mirror.prompt.text
        if prompt["kind"] == "game_over":
            break
        action = player.choose(mirror)
        mirror.apply(action)
        texts += [e["text"] for e in act(tablet, action_to_dict(action))]
    assert prompt["kind"] == "game_over", texts[-20:]
    assert any("open your book at page" in t for t in texts)

