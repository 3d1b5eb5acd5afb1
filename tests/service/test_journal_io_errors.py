"""A disk that fails a write, through a real engine process and its sockets: the tablet is told the disk
failed (not that the journal is damaged), the engine keeps serving, and the game goes on once writes work.

The failing disk is the operating system's own file size limit (RLIMIT_FSIZE, lowered on the running
engine with prlimit): the journal's next write gets EFBIG, which SQLite reports as SQLITE_IOERR_WRITE.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import zmq

from engine.actions import action_to_dict
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.journal import Journal
from engine.scenario import load_scenario
from engine.service.client import EngineClient
from tests.service.test_restart import ENDPOINTS, REPO
from tests.waiting import WAIT_S

resource = pytest.importorskip("resource")
pytestmark = pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs prlimit (Linux)")


def _ignore_file_size_signal() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of ending the process


def test_a_failing_write_is_reported_as_a_disk_error_and_the_engine_plays_on(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite"
    engine = subprocess.Popen(
        [sys.executable, "-m", "engine", "engine", "--scenario", "tutorial", "--journal", str(journal),
         "--pub", "tcp://127.0.0.1:*", "--commands", "tcp://127.0.0.1:*", "--log-level", "WARNING"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)}, preexec_fn=_ignore_file_size_signal,
    )
    assert engine.stdout is not None
    endpoints = None
    for _ in range(10):
        endpoints = ENDPOINTS.search(engine.stdout.readline()) or endpoints
        if endpoints:
            break
    assert endpoints is not None, "the engine did not start"
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    tablet = EngineClient(endpoints.group(1), endpoints.group(2), context)
    mirror, player = Game(load_scenario("tutorial")), AutoPlayer(seed=9)
    try:
        tablet.sync(WAIT_S)
        for _ in range(3):
            action = player.choose(mirror)
            assert tablet.request("action", action=action_to_dict(action)).ok
            mirror.apply(action)
        wal = journal.with_name(journal.name + "-wal")
        _soft, hard = resource.prlimit(engine.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(engine.pid, resource.RLIMIT_FSIZE, (wal.stat().st_size, hard))  # no file may grow
        action = player.choose(mirror)
        refused = tablet.request("action", action=action_to_dict(action))
        assert not refused.ok
        error = refused.error or ""
        assert str(journal) in error and "reported a read or write error" in error and "Fix:" in error
        assert "damaged" not in error and "move that file away" not in error
        assert len(tablet.request("snapshot").fields["game"]["history"]) == 3  # nothing half-done

        resource.prlimit(engine.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, hard))  # the disk is back
        assert tablet.request("action", action=action_to_dict(action)).ok  # the same action, sent again
        mirror.apply(action)
        assert len(tablet.request("snapshot").fields["game"]["history"]) == 4
        with Journal(journal, read_only=True) as reader:
            assert [r.action for r in reader.rows(1) if not r.undone] == mirror.actions
    finally:
        tablet.close()
        context.term()
        engine.send_signal(signal.SIGTERM)
        engine.wait(WAIT_S)
