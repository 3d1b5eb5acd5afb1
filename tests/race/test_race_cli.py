"""``hexa play docs/examples/race/scenarios/race.toml --auto``: a real process, the rule set found in HEXA_RULESETS."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.race.conftest import RACE_TOML, ROOT, race_env


def hexa(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT), **env})


@pytest.mark.parametrize("seed", [1, 2])
def test_hexa_play_auto_runs_race_to_a_winner(tmp_path: Path, seed: int) -> None:
    result = hexa(["play", str(RACE_TOML), "--auto", "--seed", str(seed)], tmp_path, race_env())
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "New game #1: Race to the Gate" in out and "Turn order:" in out
    (winner,) = [line for line in out.splitlines() if line.startswith("Winner: ")]
    assert winner.startswith(("Winner: red — Red wins: ", "Winner: blue — Blue wins: "))
    assert "reaches the exit M" in winner
    assert "stride 1" in out  # the figure list shows the rule set's own field


def test_without_the_folder_named_the_scenario_says_which_rule_set_is_missing(tmp_path: Path) -> None:
    result = hexa(["play", str(RACE_TOML), "--auto"], tmp_path, {"HEXA_RULESETS": ""})
    assert result.returncode != 0
    assert "line 7: rule set 'race' is unknown; known rule sets: fantasy-battle" in result.stderr
    assert "Fix: use one of the listed rule set names, or name the folder of a rule set of your own in the " \
           "environment variable HEXA_RULESETS" in result.stderr
    assert "Traceback" not in result.stderr
