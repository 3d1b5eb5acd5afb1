"""Restart under load: the engine as a real process is SIGKILLed mid-game and restarted on the same ports;
the tablet resyncs by itself and its state equals the journal's replay."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import zmq

from engine import wire
from engine.actions import action_to_dict
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.journal import Journal
from engine.scenario import load_scenario
from engine.service.client import EngineClient
from engine.snapshot import game_snapshot
from tests.waiting import WAIT_S

REPO = Path(__file__).resolve().parents[2]
ENDPOINTS = re.compile(r"publishing on (\S+), commands on (\S+)")


def start_engine(journal: Path, pub: str, commands: str) -> tuple[subprocess.Popen[str], str, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "engine", "--scenario", "tutorial", "--journal", str(journal),
         "--pub", pub, "--commands", commands, "--log-level", "WARNING"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert process.stdout is not None
    for _ in range(5):
        line = process.stdout.readline()
        found = ENDPOINTS.search(line)
        if found:
            return process, found.group(1), found.group(2)
    process.kill()
    raise AssertionError(f"the engine did not start: {process.stderr.read() if process.stderr else ''}")


def play(client: EngineClient, mirror: Game, player: AutoPlayer, count: int) -> None:
    """Send actions as fast as the engine answers them (keeping a local mirror to choose the next one)."""
    for _ in range(count):
        if mirror.over:
            return
        action = player.choose(mirror)
        reply = client.request("action", action=action_to_dict(action))
        assert reply.ok, reply.error
        mirror.apply(action)


def test_sigkill_mid_game_then_restart_resumes_and_the_tablet_resyncs(tmp_path: Path) -> None:
    journal_path = tmp_path / "journal.sqlite"
    engine, pub, commands = start_engine(journal_path, "tcp://127.0.0.1:*", "tcp://127.0.0.1:*")
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    tablet = EngineClient(pub, commands, context)
    try:
        tablet.sync()
        first_run = tablet.engine_run
        mirror = Game(load_scenario("tutorial"))
        player = AutoPlayer(seed=7)
        play(tablet, mirror, player, random.Random(3).randint(12, 25))
        while tablet.poll(0.05) is not None:
            pass
        seq_before = tablet.last_seq
        # one more action in flight, then kill without waiting for it
        tablet.send_raw([wire.encode_request("action", 999, action=action_to_dict(player.choose(mirror)))])
        engine.send_signal(signal.SIGKILL)
        engine.wait(10)
        engine, _, _ = start_engine(journal_path, pub, commands)  # the same ports: tablets reconnect by themselves
        deadline = time.monotonic() + WAIT_S
        while tablet.engine_run == first_run and time.monotonic() < deadline:
            tablet.poll(0.1)  # the first update of the new run makes the client take a snapshot
        assert tablet.engine_run != first_run and tablet.resyncs == 1
        assert tablet.last_seq > seq_before  # sequence numbers continue across the restart
        with Journal(journal_path, read_only=True) as journal:  # beside the restarted engine
            replayed = journal.resume()
            expected = game_snapshot(replayed.game)
        assert tablet.game == expected
        # the game goes on after the restart, from the journal's state
        mirror = Game.replay(load_scenario("tutorial"), replayed.game.actions)
        play(tablet, mirror, player, 5)
        state = tablet.wait_for(wire.TOPIC_GAME_STATE, WAIT_S,
                                lambda m: m.history_from + len(m.history) - 1 == len(mirror.history))
        assert isinstance(state, wire.GameStateMessage)
        assert state.state == mirror.state.to_dict()
        assert tablet.game is not None and len(tablet.game["history"]) == len(mirror.history)
    finally:
        tablet.close()
        context.term()
        engine.send_signal(signal.SIGTERM)
        try:
            engine.wait(10)
        except subprocess.TimeoutExpired:
            engine.kill()
