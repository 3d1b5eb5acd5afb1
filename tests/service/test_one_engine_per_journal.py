"""One engine per journal, as real processes: a second ``hexa engine`` (or ``hexa play``) on a journal in use
exits at once naming the first; a SIGKILLed engine's journal opens at once for the next one, which serves."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import zmq

from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.journal import Journal
from engine.journal_lock import lock_path
from engine.scenario import load_scenario
from engine.service.client import EngineClient
from tests.service.test_restart import REPO, play, start_engine
from tests.waiting import WAIT_S

ANY_PORT = "tcp://127.0.0.1:*"


def _hexa(*args: str) -> subprocess.CompletedProcess[str]:
    """Run a ``hexa`` command that should give up at once (a generous bound: it must not serve)."""
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=WAIT_S * 3, check=False)


def test_a_second_engine_exits_naming_the_first_and_a_killed_engine_lets_go_at_once(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite"
    old_mask = os.umask(0o022)  # what most systems give: the journal must still be private
    try:
        first, pub, commands = start_engine(journal, ANY_PORT, ANY_PORT)
    finally:
        os.umask(old_mask)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    tablet = EngineClient(pub, commands, context)
    mirror, player = Game(load_scenario("tutorial")), AutoPlayer(seed=4)
    third: subprocess.Popen[str] | None = None
    try:
        tablet.sync(WAIT_S)
        play(tablet, mirror, player, 6)

        second = _hexa("engine", "--scenario", "tutorial", "--journal", str(journal), "--pub", ANY_PORT,
                       "--commands", ANY_PORT)
        assert second.returncode == 2, second.stdout
        assert f"is in use by process {first.pid} " in second.stderr and "started " in second.stderr
        assert "Fix: stop that program" in second.stderr and "Traceback" not in second.stderr
        in_japanese = _hexa("--lang", "ja", "engine", "--scenario", "tutorial", "--journal", str(journal),
                            "--pub", ANY_PORT, "--commands", ANY_PORT)
        assert in_japanese.returncode == 2 and f"プロセス {first.pid}" in in_japanese.stderr
        assert "使用中" in in_japanese.stderr and "Traceback" not in in_japanese.stderr
        terminal = _hexa("play", "tutorial", "--auto", "--journal", str(journal))  # hexa play writes too
        assert terminal.returncode == 2 and f"process {first.pid}" in terminal.stderr

        reply = tablet.request("snapshot")  # the first engine was not disturbed
        assert reply.ok and len(reply.fields["game"]["history"]) == 6
        with Journal(journal, read_only=True) as reader:  # and the journal can be read beside it
            assert [g.actions for g in reader.games()] == [6]

        first.send_signal(signal.SIGKILL)
        first.wait(WAIT_S)
        third, pub, commands = start_engine(journal, ANY_PORT, ANY_PORT)  # at once: the crash let go of the lock
        tablet.close()
        tablet = EngineClient(pub, commands, context)
        tablet.sync(WAIT_S)
        assert tablet.game is not None and len(tablet.game["history"]) == 6
        play(tablet, mirror, player, 2)  # and it serves: the game goes on
        assert len(tablet.request("snapshot").fields["game"]["history"]) == 8
        files = [journal, journal.with_name(journal.name + "-wal"), journal.with_name(journal.name + "-shm"),
                 lock_path(journal)]
        modes = {p.name: oct(stat.S_IMODE(p.stat().st_mode)) if p.exists() else "missing" for p in files}
        assert modes == {p.name: "0o600" for p in files}
    finally:
        tablet.close()
        context.term()
        for process in (first, third):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(WAIT_S)
