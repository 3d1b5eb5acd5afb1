"""``hexa demo --headless --dice camera``: every roll thrown as dice on the synthetic table and read by the camera."""

from __future__ import annotations

import re

import pytest

from tests.demo.test_headless import _check_game, _demo

DICE_LINE = re.compile(r"^dice read by the camera: (\d+) of (\d+) rolls \((\d+) asked again, (\d+) wrong\)$")


def _dice_line(out: str) -> tuple[int, int, int, int]:
    last = out.strip().splitlines()[-1]
    found = DICE_LINE.match(last)
    assert found is not None, f"the demo's last line: {last!r}"
    read, rolls, asked, wrong = (int(g) for g in found.groups())
    return read, rolls, asked, wrong


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "seed"), [("tutorial", "1"), ("laramie-station", "1")])
def test_every_roll_is_thrown_on_the_table_and_read_by_the_camera(scenario: str, seed: str) -> None:
    """A whole game (minutes: each throw tumbles and settles in real time) whose dice the camera reads."""
    proc = _demo(scenario, "--headless", "--dice", "camera", "--seed", seed, timeout_s=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _check_game(proc.stdout, proc.stderr)
    read, rolls, asked, wrong = _dice_line(proc.stdout)
    # Most rolls read as thrown; a misread is caught ("that's wrong") and the faces entered, never played.
    assert rolls >= 5 and read >= rolls * 0.8 and wrong <= rolls * 0.1, (read, rolls, asked, wrong)
    assert proc.stdout.count("    Read: ") >= read  # each proposal shown before the engine took it
    assert "--dice camera" in proc.stderr  # the engine was started taking the camera's dice
