"""``hexa play tenkey-skirmish --auto``: a real process plays the bundled skirmish to its end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seed", [1, 2])
def test_hexa_play_auto_plays_the_skirmish_to_a_winner(tmp_path: Path, seed: int) -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "play", "tenkey-skirmish", "--auto", "--seed", str(seed)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "New game #1: Ambush at the Old Shrine" in out and "won the initiative" in out
    (winner,) = [line for line in out.splitlines() if line.startswith("Winner: ")]
    assert winner in ("Winner: party — The party wins: every enemy is down",
                      "Winner: band — The band wins: every enemy is down")
