"""Whole games of Laramie: a scripted duel to a victory, the bundled scenario played by the auto player and by
``hexa play --auto``, and undo keeping the units' values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.actions import Remove
from engine.autoplay import AutoPlayer, play_out
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_current
from tests.laramie.town import choose, fig, move, play, roll, town

ROOT = Path(__file__).resolve().parents[2]
KILL = """
[[victory]]
side = "a"
type = "kill"
figures = ["jesse"]
text = "Jesse is brought down"

[[victory]]
side = "b"
type = "kill"
figures = ["gary"]
text = "Gary is brought down"
"""


def test_a_scripted_duel_is_played_to_a_victory() -> None:
    g = Game(town({"gary": {"side": "a", "at": "J1", "facing": 5, "combat": 8, "hero": True, "damage": 3,
                            "hp": 6},
                   "jesse": {"side": "b", "at": "J6", "facing": 2, "combat": 3, "hp": 5},
                   "joe": {"side": "b", "at": "R9", "facing": 5, "combat": 3}}, victory=KILL))
    log = play(g, choose("normal"), choose("prone"), choose("normal"))  # state update: Jesse, Joe, Gary
    assert log == ["Jesse is normal.", "Joe is prone.", "Gary is normal."]
    log = play(g, move(g, "jesse", "J5"), move(g, "gary", "J2"))  # movement: Jesse (Joe is prone), Gary
    assert log[:2] == ["Jesse moves from J6 to J5.", "Gary moves from J1 to J2."]
    assert g.state.phase == "combat" and g.prompt.figure == "gary"
    assert "1d10 ≦ 6 (60%)" in g.prompt.option("fire:jesse").label  # type: ignore[union-attr]  # range 3: +0
    log = play(g, choose("fire:jesse"), roll(6))
    assert log == ["Gary rolls 6 at Jesse: hit.", "Jesse is hit by Gary: HP 2."]
    assert g.prompt.figure == "jesse"
    log = play(g, choose("fire:gary"), roll(2), roll(9))  # Jesse hits the hero, who fails to evade
    assert log[-3:] == ["Gary rolls 9: does not evade.", "Gary is hit by Jesse: HP 4.", "Round 2."]  # 6 − 2
    assert g.state.round == 2 and g.state.phase == "state"  # Joe faces away: nothing to fire at
    # Round 2.
    play(g, choose("normal"), choose("normal"), choose("normal"))
    play(g, move(g, "jesse", "J5"), move(g, "joe", "R9"), move(g, "gary", "J3"))
    log = play(g, choose("fire:jesse"), roll(1))
    assert log[-3:] == ["Jesse is hit by Gary: HP 0.", "Jesse is killed in action.",
                        "Sheriffs win: Jesse is brought down"]
    assert g.state.winner == "a" and g.prompt.kind.value == "remove"
    play(g, Remove("jesse"))
    assert g.prompt.kind.value == "game_over"


def test_undo_brings_back_hp_and_state() -> None:
    g = Game(town({"gary": {"side": "a", "at": "J1", "facing": 5, "combat": 8},
                   "jesse": {"side": "b", "at": "J5", "facing": 2, "combat": 3}}))
    play(g, choose("prone"))
    assert fig(g, "jesse").values["state"] == "prone"
    g.undo()
    assert fig(g, "jesse").values["state"] == "normal"


def test_each_figure_carries_its_badges_in_the_state_the_tablets_get() -> None:
    g = Game(load_scenario("laramie-station"))
    figures = game_current(g)["state"]["figures"]
    assert figures["gary"]["badges"] == ["[N] normal", "HP 6", "[*] hero"]
    assert figures["gary"]["values"] == {"hp": 6, "state": "normal"}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_auto_player_plays_the_station_duel_to_a_victory(seed: int) -> None:
    g = Game(load_scenario("laramie-station"))
    steps = play_out(g, AutoPlayer(seed))
    assert g.state.winner in ("sheriffs", "outlaws")
    wanted = "jesse" if g.state.winner == "sheriffs" else "gary"
    assert not fig(g, wanted).alive
    assert any(s.prompt.kind.value == "move" for s in steps) and any("rolls" in e.text for s in steps
                                                                      for e in s.events)


def test_hexa_play_auto_plays_the_station_duel_to_a_victory(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "play", "laramie-station", "--auto", "--seed", "3"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    (winner,) = [line for line in result.stdout.splitlines() if line.startswith("Winner: ")]
    assert winner in ("Winner: sheriffs — Sheriffs win: Jesse is brought down",
                      "Winner: outlaws — Outlaws win: Gary, the hero, is brought down")
