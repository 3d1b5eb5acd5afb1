"""A tablet's link to the engine (the Clone pattern's client), for the app, tools, tests and benchmarks.

Subscribe first, then ask for a snapshot (scenario, game, table and the last published ``seq``),
then apply only updates with a higher ``seq``. An update from another ``engine_run`` means the
engine restarted: the client asks for a new snapshot by itself, so tablets resync without user
action. Not thread-safe: use it from one thread (the app runs it in its network thread).
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from typing import Any

import zmq

from engine import wire
from engine.service.security import ClientKeys
from engine.service.server import DEFAULT_COMMANDS, DEFAULT_PUB
from engine.wire import EngineMessage, EngineReply, GameScenarioMessage, GameStateMessage, TableMessage, WireError

log = logging.getLogger(__name__)

ENGINE_TOPICS = (wire.TOPIC_GAME_STATE, wire.TOPIC_GAME_EVENTS, wire.TOPIC_GAME_SCENARIO, wire.TOPIC_TABLE,
                 wire.TOPIC_TABLE_VIEW, wire.TOPIC_ENGINE_HEARTBEAT)


class EngineClient:
    """Holds the newest scenario, game snapshot and table; :meth:`request` sends one command."""

    def __init__(self, pub: str = DEFAULT_PUB, commands: str = DEFAULT_COMMANDS,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None, keys: ClientKeys | None = None,
                 topics: tuple[bytes, ...] = ENGINE_TOPICS) -> None:
        self.context = context or zmq.Context.instance()
        self.sub = self.context.socket(zmq.SUB)
        self.dealer = self.context.socket(zmq.DEALER)
        for socket in (self.sub, self.dealer):
            socket.setsockopt(zmq.LINGER, 0)
            if keys is not None:
                keys.apply(socket)
        for topic in topics:
            self.sub.setsockopt(zmq.SUBSCRIBE, topic)
        self.sub.connect(pub)
        self.dealer.connect(commands)
        self._ids = itertools.count(1)
        self.engine_run: str | None = None
        self.last_seq = -1
        self.game_id: int | None = None
        self.scenario: dict[str, Any] | None = None
        self.game: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.resyncs = 0

    def request(self, cmd: str, timeout_s: float = 5.0, **fields: Any) -> EngineReply:
        """Send a command and wait for its reply; ``TimeoutError`` when the engine does not answer."""
        request_id = next(self._ids)
        self.send_raw([wire.encode_request(cmd, request_id, **fields)])
        return self.wait_reply(request_id, timeout_s)

    def send_raw(self, frames: list[bytes]) -> None:
        """Send frames without blocking; ``TimeoutError`` when no engine connection can take them
        (e.g. the CURVE handshake was refused)."""
        try:
            self.dealer.send_multipart(frames, flags=zmq.NOBLOCK)
        except zmq.Again:
            raise TimeoutError("the engine is not reachable (no connection could take the command): is "
                               "'hexa engine' running, and are the CURVE keys right with --lan?") from None

    def wait_reply(self, request_id: int | None, timeout_s: float) -> EngineReply:
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.dealer.poll(int(remaining * 1000), zmq.POLLIN):
                raise TimeoutError(f"no reply from the engine within {timeout_s:.1f} s: is 'hexa engine' running "
                                   "(and are the CURVE keys right with --lan)?")
            reply = wire.parse_reply(self.dealer.recv_multipart()[-1])
            if request_id is None or reply.id == request_id or (reply.id is None and not reply.ok):
                return reply  # an unreadable request is answered without its id

    def sync(self, timeout_s: float = 5.0) -> EngineReply:
        """Take the engine's snapshot; later updates apply only when newer."""
        reply = self.request("snapshot", timeout_s)
        if not reply.ok:
            raise WireError(f"the engine refused a snapshot: {reply.error}")
        self.engine_run = reply.engine_run
        self.last_seq = int(reply.fields["last_seq"])
        self.game_id = reply.fields["game_id"]
        self.scenario = reply.fields["scenario"]
        self.game = reply.fields["game"]
        self.table = reply.fields["table"]
        return reply

    def _apply(self, message: EngineMessage) -> None:
        self.last_seq = message.seq
        self.game_id = message.game_id
        if isinstance(message, GameStateMessage):
            self.game = message.snapshot
        elif isinstance(message, GameScenarioMessage):
            self.scenario = message.scenario
        elif isinstance(message, TableMessage):
            self.table = message.body()

    def poll(self, timeout_s: float) -> EngineMessage | None:
        """The next update newer than what is held (applied); None on timeout. Resyncs after a restart."""
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.sub.poll(int(remaining * 1000), zmq.POLLIN):
                return None
            try:
                message = wire.decode(self.sub.recv_multipart())
            except WireError as exc:
                log.warning("dropped a malformed engine message: %s", exc)
                continue
            if not isinstance(message, EngineMessage):
                continue
            if self.engine_run is not None and message.engine_run != self.engine_run:
                log.info("engine restarted (run %s → %s): taking a new snapshot", self.engine_run, message.engine_run)
                self.resyncs += 1
                self.sync(max(1.0, deadline - time.monotonic()))
                if message.seq <= self.last_seq:
                    continue
            elif message.seq <= self.last_seq:
                continue  # already in the snapshot
            self._apply(message)
            return message

    def wait_for(self, topic: bytes, timeout_s: float,
                 predicate: Callable[[Any], bool] | None = None) -> EngineMessage:
        """Wait for an update of ``topic`` (matching ``predicate``), applying everything on the way."""
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            message = self.poll(max(0.0, remaining)) if remaining > 0 else None
            if message is None:
                raise TimeoutError(f"no {topic.decode()} update within {timeout_s:.1f} s")
            if topic == message.TOPIC and (predicate is None or predicate(message)):
                return message

    def close(self) -> None:
        self.sub.close(linger=0)
        self.dealer.close(linger=0)
