"""Engine service fixtures: a real engine on random loopback ports, test cameras and tablets on real sockets."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import zmq

from engine.hexes import from_label
from engine.journal import Journal, JournalRow
from engine.scenario import Scenario, load_scenario
from engine.service.client import EngineClient
from engine.service.server import EngineServer, ServerConfig
from engine.service.session import EngineSession, open_session
from engine.wire import EngineMessage, MarkerTrack
from tests.waiting import WAIT_S
from vision.publisher import VisionPublisher

ANY_PORT = "tcp://127.0.0.1:*"
START = {"swordsman": "A2", "bowman": "A3", "spearman": "A4", "goblin-1": "G2", "goblin-slinger": "G3",
         "goblin-2": "G4"}
# Where the tutorial map lies on the table: turned 20° and shifted, so only a working registration places it.
TABLE_ROTATION_DEG = 20.0
TABLE_SHIFT_MM = (120.0, -40.0)


def map_to_table(x: float, y: float) -> tuple[float, float]:
    a = math.radians(TABLE_ROTATION_DEG)
    dx, dy = TABLE_SHIFT_MM
    return math.cos(a) * x - math.sin(a) * y + dx, math.sin(a) * x + math.cos(a) * y + dy


@dataclass
class Camera:
    """A test camera service: the vision publisher fed with tracks we construct (hex centres → table mm)."""

    publisher: VisionPublisher
    scenario: Scenario
    anchors: bool = True
    anchor_ids: tuple[int, ...] | None = None  # the anchors in this camera's view (None: all)
    frame: int = 0
    extra: list[MarkerTrack] = field(default_factory=list)

    def tracks(self, where: dict[str, str], states: dict[str, str] | None = None,
               nudge_mm: dict[str, tuple[float, float]] | None = None) -> list[MarkerTrack]:
        out = []
        for figure, label in where.items():
            x, y = self.scenario.layout.hex_to_mm(from_label(label))
            dx, dy = (nudge_mm or {}).get(figure, (0.0, 0.0))
            tx, ty = map_to_table(x + dx, y + dy)
            state = (states or {}).get(figure, "settled")
            out.append(MarkerTrack(self.scenario.figure(figure).marker_id, tx, ty, 0.0, state, 0.95, 0.0, 0.0))
        if self.anchors:
            for tag, h in self.scenario.anchors.items():
                if self.anchor_ids is not None and tag not in self.anchor_ids:
                    continue
                tx, ty = map_to_table(*self.scenario.layout.hex_to_mm(h))
                out.append(MarkerTrack(tag, tx, ty, 0.0, "settled", 0.99, 0.0, 0.0))
        return out + self.extra

    def send(self, where: dict[str, str], states: dict[str, str] | None = None, **kw: object) -> None:
        self.frame += 1
        self.publisher.publish_tracks(self.frame, time.time(), self.tracks(where, states, **kw))  # type: ignore[arg-type]
        self.publisher.serve_snapshots(0)


@dataclass
class Rig:
    """An engine in a thread, its tablet client, and the cameras feeding it."""

    context: zmq.Context[zmq.Socket[bytes]]
    server: EngineServer
    session: EngineSession
    thread: threading.Thread
    cameras: list[Camera]
    tablet: EngineClient

    def client(self) -> EngineClient:
        client = EngineClient(self.server.pub_endpoint, self.server.commands_endpoint, self.context)
        client.sync()
        return client

    def show_many(self, views: list[dict[str, str] | None], until: Callable[[EngineMessage], bool],
                  timeout_s: float = WAIT_S) -> EngineMessage:
        """Several cameras publishing their part of the table (None: that camera sends nothing)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for camera, where in zip(self.cameras, views, strict=True):
                if where is not None:
                    camera.send(where)
            while True:
                message = self.tablet.poll(0.02)
                if message is None:
                    break
                if until(message):
                    return message
        raise AssertionError(f"the tablet did not see the expected update within {timeout_s} s")

    def show(self, where: dict[str, str], until: Callable[[EngineMessage], bool], timeout_s: float = WAIT_S,
             camera: int = 0, states: dict[str, str] | None = None, **kw: object) -> EngineMessage:
        """Keep the camera publishing this table (as a camera does, ~50 Hz) until the tablet sees ``until``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.cameras[camera].send(where, states, **kw)
            while True:
                message = self.tablet.poll(0.02)
                if message is None:
                    break
                if until(message):
                    return message
        raise AssertionError(f"the tablet did not see the expected update within {timeout_s} s")

    def game(self) -> dict[str, Any]:
        """The engine's game snapshot, asked for over the command socket."""
        game: dict[str, Any] = self.act("snapshot")["game"]
        return game

    def journal_rows(self) -> list[JournalRow]:
        """The journal as another process would read it."""
        with Journal(self.session.journal.path, read_only=True) as journal:
            return journal.rows(self.session.game_id)

    def act(self, cmd: str, **fields: Any) -> dict[str, Any]:
        reply = self.tablet.request(cmd, **fields)
        assert reply.ok, reply.error
        return reply.fields


def serve_engine(context: zmq.Context[zmq.Socket[bytes]], journal: str, scenario: str, config: ServerConfig
                 ) -> tuple[EngineSession, EngineServer, threading.Thread]:
    """Run an engine in its own thread (SQLite and ZeroMQ sockets stay in the thread that made them)."""
    started: list[tuple[EngineSession, EngineServer] | BaseException] = []
    ready = threading.Event()

    def serve() -> None:
        try:
            session = open_session(journal, scenario, save_dir=Path(journal).parent)
            server = EngineServer(session, config, context)
        except BaseException as exc:  # handed to the test thread
            started.append(exc)
            ready.set()
            return
        started.append((session, server))
        ready.set()
        try:
            server.run()
        finally:
            server.close()
            session.close()
            session.journal.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(WAIT_S), "the engine did not start"
    if isinstance(started[0], BaseException):
        raise started[0]
    session, server = started[0]
    return session, server, thread


def make_rig(context: zmq.Context[zmq.Socket[bytes]], journal: str, cameras: int = 1, scenario: str = "tutorial",
             silent_after_s: float = 3.0, keys_dir: Path | None = None, log_summary_s: float = 5.0,
             dice_mode: str = "tablet", dice_countdown_s: float = 3.0) -> Rig:
    """An engine in its own thread with test cameras and a synced tablet."""
    pubs = [VisionPublisher(ANY_PORT, ANY_PORT, camera_id=f"cam{i}", context=context) for i in range(cameras)]
    config = ServerConfig(pub=ANY_PORT, commands=ANY_PORT, silent_after_s=silent_after_s, keys_dir=keys_dir,
                          vision=[(p.endpoint, p.snapshot_endpoint) for p in pubs], log_summary_s=log_summary_s,
                          dice_mode=dice_mode, dice_countdown_s=dice_countdown_s)
    session, server, thread = serve_engine(context, journal, scenario, config)
    loaded = load_scenario(scenario)
    tablet = EngineClient(server.pub_endpoint, server.commands_endpoint, context)
    if keys_dir is None:
        tablet.sync()
    return Rig(context, server, session, thread, [Camera(p, loaded) for p in pubs], tablet)


def close_rig(rig: Rig) -> None:
    rig.server.stop()
    rig.thread.join(5.0)
    assert not rig.thread.is_alive(), "the engine loop did not stop"
    rig.tablet.close()
    for camera in rig.cameras:
        camera.publisher.close()


@pytest.fixture
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield ctx
    ctx.term()


@pytest.fixture
def rig(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[Rig]:
    r = make_rig(context, str(tmp_path / "journal.sqlite"))
    yield r
    close_rig(r)


def goblin_to_move(rig: Rig) -> None:
    """Tablet answers up to goblin-1's move (allowance 2): order roll, no shooting, pick goblin-1, roll 3."""
    for action in ({"kind": "roll", "values": [2, 5]}, {"kind": "choose", "option": "done"},
                   {"kind": "choose", "option": "goblin-1"}, {"kind": "roll", "values": [3]}):
        rig.act("action", action=action)
