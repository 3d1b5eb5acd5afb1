"""A game survives its process being killed: a real child process plays into the journal and gets SIGKILLed.

The child reports each action on stdout only after the journal committed it, so every reported action
must be there after the kill; the game resumed from the journal must equal a reference game played with
the same actions, and must play on to its end.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.autoplay import AutoPlayer, play_out
from engine.game import Game
from engine.journal import Journal
from engine.scenario import load_scenario

REPO = Path(__file__).resolve().parents[2]
SCENARIO = "goblins-treasure"

# Plays a seeded game into the journal; every fifth action is undone and played again (undone rows).
CHILD = """
import sys
from engine.autoplay import AutoPlayer
from engine.journal import Journal
from engine.scenario import load_scenario

path, scenario_id, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
with Journal(path) as journal:
    jg = journal.new_game(load_scenario(scenario_id))
    player = AutoPlayer(seed)
    n = 0
    while not jg.over:
        action = player.choose(jg.game)
        jg.apply(action)
        n += 1
        if n % 5 == 0:
            jg.undo()
            jg.apply(action)
        print(n, flush=True)
print("over", flush=True)
"""


def run_child_and_kill(journal: Path, seed: int, kill_after_line: int | None, delay: float | None) -> int:
    """Start the child; SIGKILL it after reading a given progress line, or a random delay after the first.

    Returns the last action number the child reported (0 if none) before it died.
    """
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(journal), SCENARIO, str(seed)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert child.stdout is not None
    last = 0
    timer: threading.Timer | None = None
    try:
        for line in child.stdout:
            if line.strip() == "over":
                break
            last = int(line)
            if kill_after_line is not None and last >= kill_after_line:
                child.send_signal(signal.SIGKILL)
                break
            if delay is not None and timer is None:
                timer = threading.Timer(delay, child.send_signal, (signal.SIGKILL,))
                timer.start()
        # Lines written before the kill landed may still be in the pipe: they were committed too.
        for line in child.stdout:
            if line.strip().isdigit():
                last = int(line)
    finally:
        if timer is not None:
            timer.cancel()
        child.wait(timeout=30)
        child.stdout.close()
        assert child.stderr is not None
        err = child.stderr.read()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL, f"the child ended on its own (rc {child.returncode}): {err}"
    return last


def reference_game(seed: int, n: int) -> Game:
    game = Game(load_scenario(SCENARIO))
    player = AutoPlayer(seed)
    for _ in range(n):
        game.apply(player.choose(game))
    return game


def check_resume(journal_path: Path, seed: int, reported: int) -> None:
    with Journal(journal_path) as journal:
        (info,) = journal.games()
        assert not info.over
        resumed = journal.resume()
        n = len(resumed.game.history)
        assert n >= reported, f"the child reported {reported} actions but only {n} were in the journal"
        reference = reference_game(seed, n)
        assert resumed.game.actions == reference.actions
        assert resumed.game.state.to_dict() == reference.state.to_dict()
        # The game goes on from there to its end, journaled, and is then recorded as finished.
        play_out(resumed.game, AutoPlayer(seed + 1000), apply=resumed.apply)
        assert resumed.over
    with Journal(journal_path) as again:
        (info,) = again.games()
        assert info.over and info.winner == resumed.game.state.winner
        assert again.latest_unfinished() is None


@pytest.mark.parametrize("seed", [14, 8])
def test_killed_right_after_reporting_progress(tmp_path: Path, seed: int) -> None:
    journal = tmp_path / "games.sqlite"
    reported = run_child_and_kill(journal, seed, kill_after_line=random.Random(seed).randint(8, 30), delay=None)
    assert reported >= 8
    check_resume(journal, seed, reported)


@pytest.mark.parametrize("seed", [25, 23])
def test_killed_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    journal = tmp_path / "games.sqlite"
    reported = run_child_and_kill(journal, seed, kill_after_line=None, delay=random.Random(seed).uniform(0.0, 0.05))
    check_resume(journal, seed, reported)
