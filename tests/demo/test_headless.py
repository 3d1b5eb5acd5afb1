"""``hexa demo --headless`` as a real subprocess: services started, a whole game through the camera, all stopped."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
ENV.pop("DISPLAY", None)
ENV.pop("WAYLAND_DISPLAY", None)


def _demo(*args: str, timeout_s: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "demo", *args, "-v"], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout_s, env=ENV)


TYPED_DICE = ("--dice", "tablet")  # the figures' play through the camera, the dice entered as a tablet does


def _child_pids(stderr: str) -> list[int]:
    return [int(p) for p in re.findall(r"started (?:camera service|engine) \(pid (\d+)\)", stderr)]


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _check_game(out: str, err: str) -> None:
    assert "Game over. Winner:" in out, f"stdout:\n{out[-3000:]}\nstderr:\n{err[-3000:]}"
    moves = re.search(r"(\d+) moves and (\d+) removals through the camera", out)
    assert moves is not None and int(moves.group(1)) >= 3
    assert out.count("(seen by the camera and judged in") == int(moves.group(1))
    pids = _child_pids(err)
    assert len(pids) == 2 and all(_gone(p) for p in pids), "a service outlived the demo"


def test_headless_tutorial_finishes_a_whole_game_through_the_camera() -> None:
    proc = _demo("tutorial", "--headless", "--seed", "1", *TYPED_DICE, timeout_s=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _check_game(proc.stdout, proc.stderr)
    assert "Camera service and engine are running." in proc.stdout


def test_headless_plays_a_zone_scenario_on_the_printed_mat_through_the_camera() -> None:
    """Any rule set the auto player can answer: the zone test rule set from its folder, on the keypad mat."""
    from tests.rulesets import ZONES_FOLDER, ZONES_SCENARIO

    env = {**ENV, "HEXA_RULESETS": str(ZONES_FOLDER)}
    proc = subprocess.run([sys.executable, "-m", "engine", "demo", str(ZONES_SCENARIO), "--headless", "--seed", "1",
                           *TYPED_DICE, "-v"], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _check_game(proc.stdout, proc.stderr)
    assert "The camera sees all 3 figures on their zones." in proc.stdout
    assert "the hand moves Ash to 8" in proc.stdout and "Game over. Winner: allies" in proc.stdout


def test_headless_plays_tenkey_skirmish_on_the_printed_mat_through_the_camera_to_its_end() -> None:
    proc = _demo("tenkey-skirmish", "--headless", "--seed", "1", *TYPED_DICE, timeout_s=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _check_game(proc.stdout, proc.stderr)
    out = proc.stdout
    assert "The camera sees all 9 figures on their zones." in out
    winner = r"Game over\. Winner: The (party|band) — The (party|band) wins: every enemy is down"
    assert re.search(winner, out), out[-2000:]
    removals = re.search(r"and (\d+) removals through the camera", out)
    assert removals is not None and int(removals.group(1)) >= 4  # the losers' characters taken off the mat by hand
    assert "0 figures put where the game moved them" in out  # every move the camera's, none put back by the demo


def test_no_screen_means_headless_with_a_note() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "engine", "demo", "tutorial", "-v"], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "there is no screen here" in first and "runs headless" in first
        deadline = time.monotonic() + 60
        for line in proc.stdout:  # stop it once it plays: SIGTERM must take the services down too
            if line.startswith("Playing tutorial headless") or time.monotonic() > deadline:
                break
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert "stopped" in err
    pids = _child_pids(err)
    assert len(pids) == 2 and all(_gone(p) for p in pids), "a service outlived the demo"


def test_an_unknown_scenario_is_refused_before_anything_starts() -> None:
    proc = _demo("no-such-map", "--headless", timeout_s=30)
    assert proc.returncode == 2
    assert "no-such-map" in proc.stderr and not _child_pids(proc.stderr)


@pytest.mark.slow
def test_headless_goblins_treasure_full_game() -> None:
    proc = _demo("goblins-treasure", "--headless", "--seed", "1", *TYPED_DICE, timeout_s=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _check_game(proc.stdout, proc.stderr)


def test_headless_lost_worlds_tower_plays_on_raised_tiles_through_the_camera() -> None:
    proc = _demo("lost-worlds-ruined-tower", "--headless", "--seed", "2", *TYPED_DICE, timeout_s=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _check_game(proc.stdout, proc.stderr)
    assert "open your book at page" in proc.stdout
