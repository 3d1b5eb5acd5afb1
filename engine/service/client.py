"""A tablet's link to the engine (the Clone pattern's client): the app's network agent, tools, tests, benchmarks.

Subscribe first, then ask for a snapshot (scenario, the whole game and its ``revision``, the table and the
last published ``seq``), then apply only updates with a higher ``seq``. ``game.state`` updates carry
what changed (:mod:`engine.wire.engine_messages`); the client rebuilds the whole game from them and asks
for a new snapshot by itself when it cannot (it missed one), and when an update comes from another
``engine_run`` (the engine restarted), so tablets resync without user action. Updates arriving while a
snapshot is asked are kept and applied after it when newer.

Two ways to drive it, from one thread (it is not thread-safe):

- non-blocking, for an event loop (the app's network agent): poll :attr:`sub` and :attr:`dealer`
  yourself, hand what arrives to :meth:`take_update` / :meth:`take_reply`, and read what was applied from
  :attr:`applied`;
- blocking, for tools and tests: :meth:`request`, :meth:`sync`, :meth:`poll`, :meth:`wait_for`.

Imports only ZeroMQ, :mod:`engine.wire`, the CURVE keys and the table's language (:mod:`engine.i18n`): the
tablet app may import it.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import zmq

from engine import wire
from engine.i18n import gettext_for
from engine.service.security import ClientKeys
from engine.wire import (
    EngineMessage,
    EngineReply,
    GameScenarioMessage,
    GameStateMessage,
    TableMessage,
    WireError,
)

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

ENGINE_TOPICS = (wire.TOPIC_GAME_STATE, wire.TOPIC_GAME_EVENTS, wire.TOPIC_GAME_SCENARIO, wire.TOPIC_TABLE,
                 wire.TOPIC_TABLE_VIEW, wire.TOPIC_ENGINE_HEARTBEAT)
APPLIED_KEPT = 1000  # applied updates kept for a caller that does not read them
SNAPSHOT_RETRY_S = 2.0  # a snapshot unanswered this long is asked again (the engine may have restarted)


class EngineClient:
    """Holds the newest scenario, whole game and table; :meth:`request` sends one command."""

    def __init__(self, pub: str = wire.DEFAULT_ENGINE_PUB, commands: str = wire.DEFAULT_ENGINE_COMMANDS,
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
        # Who this client is to the engine without CURVE keys, kept across reconnects (a restarted engine), and a
        # prefix making its request ids its own: the engine answers a resent id once (engine.service.answered).
        self.token = secrets.token_hex(6)
        self.dealer.setsockopt(zmq.ROUTING_ID, f"tablet-{self.token}".encode())
        self.sub.connect(pub)
        self.dealer.connect(commands)
        self._ids = itertools.count(1)
        self._snapshot_ids = itertools.count(1)
        self.engine_run: str | None = None
        self.last_seq = -1
        self.game_id: int | None = None
        self.scenario: dict[str, Any] | None = None
        self.game: dict[str, Any] | None = None
        self.revision: int | None = None  # the game.state revision ``game`` is at
        self._game_of: int | None = None  # the game id ``game`` belongs to
        self.table: dict[str, Any] | None = None
        self.resyncs = 0  # snapshots taken again: the engine restarted, or an update was missed
        self.dropped = 0  # malformed messages and replies refused
        self.syncing: str | None = None  # the id of the snapshot request in flight
        self.sync_reason = ""
        self.asked_at = 0.0
        self._waiting: list[EngineMessage] = []  # updates that came while a snapshot was asked
        # What was applied, oldest first: updates, and the snapshot replies taken.
        self.applied: deque[EngineMessage | EngineReply] = deque(maxlen=APPLIED_KEPT)

    # -- sending -------------------------------------------------------------------------------------
    def send(self, cmd: str, request_id: str | int, **fields: Any) -> None:
        """Send one command without waiting; its reply comes to :meth:`take_reply`."""
        self.send_raw([wire.encode_request(cmd, request_id, **fields)])

    def send_raw(self, frames: list[bytes]) -> None:
        """Send frames without blocking; ``TimeoutError`` when no engine connection can take them
        (e.g. the CURVE handshake was refused)."""
        try:
            self.dealer.send_multipart(frames, flags=zmq.NOBLOCK)
        except zmq.Again:
            raise TimeoutError(_("the engine is not reachable (no connection could take the command): is "
                                 "'hexa engine' running, and are the CURVE keys right with --lan?")) from None

    def ask_snapshot(self, reason: str | None = None) -> str:
        """Ask for a snapshot (again) for ``reason``, a text for people (joining, when none); updates wait until it
        is applied. Returns the request id."""
        request_id = f"snapshot-{next(self._snapshot_ids)}"
        self.syncing, self.sync_reason, self.asked_at = request_id, reason or _("joining"), time.monotonic()
        self.send("snapshot", request_id)
        return request_id

    # -- receiving (non-blocking) --------------------------------------------------------------------
    def take_reply(self, frames: list[bytes]) -> EngineReply | None:
        """A reply from :attr:`dealer`; a snapshot this client asked for is applied. None when malformed."""
        try:
            reply = wire.parse_reply(frames[-1])
        except WireError as exc:
            self.dropped += 1
            log.warning("dropped a malformed engine reply: %s", exc)
            return None
        if reply.id is not None and reply.id == self.syncing:
            if reply.ok:
                self._take_snapshot(reply)
            else:
                log.warning("the engine refused a snapshot: %s", reply.error)
                self.syncing = None
        return reply

    def take_update(self, frames: list[bytes]) -> list[EngineMessage]:
        """A published message from :attr:`sub`: the updates it let apply (none while a snapshot is asked)."""
        try:
            message = wire.decode(frames)
        except WireError as exc:
            self.dropped += 1
            log.warning("dropped a malformed engine message: %s", exc)
            return []
        if not isinstance(message, EngineMessage):
            return []
        if self.syncing is not None:
            self._waiting.append(message)
            return []
        if self.engine_run is not None and message.engine_run != self.engine_run:
            log.info("engine restarted (run %s → %s): taking a new snapshot", self.engine_run, message.engine_run)
            self._resync(message, _("the engine restarted"))
            return []
        if message.seq <= self.last_seq:
            return []  # already in the snapshot
        return [message] if self._apply(message) else []

    def _resync(self, message: EngineMessage, reason: str) -> None:
        self.resyncs += 1
        self._waiting.append(message)
        self.ask_snapshot(reason)

    def _take_snapshot(self, reply: EngineReply) -> None:
        self.syncing = None
        self.engine_run = reply.engine_run
        self.last_seq = int(reply.fields["last_seq"])
        self.game_id = self._game_of = reply.fields.get("game_id")
        self.scenario = reply.fields["scenario"]
        self.game = reply.fields["game"]
        self.revision = int(reply.fields["revision"])
        self.table = reply.fields["table"]
        self.applied.append(reply)
        waiting, self._waiting = self._waiting, []
        for message in sorted(waiting, key=lambda m: m.seq):
            if self.syncing is None and message.engine_run == self.engine_run and message.seq > self.last_seq:
                self._apply(message)

    def _apply(self, message: EngineMessage) -> bool:
        """Take one newer update; False when it cannot be applied (a missed game.state: resyncing)."""
        if isinstance(message, GameStateMessage):
            held = self.revision if message.game_id == self._game_of else None
            game = message.apply_to(self.game, held)
            if game is None:
                log.info("missed a game state (have revision %s of game %s, got %d of game %s): taking a snapshot",
                         self.revision, self._game_of, message.revision, message.game_id)
                self._resync(message, _("an update was missed"))
                return False
            self.game, self.revision, self._game_of = game, message.revision, message.game_id
        elif isinstance(message, GameScenarioMessage):
            self.scenario = message.scenario
        elif isinstance(message, TableMessage):
            self.table = message.body()
        self.last_seq = message.seq
        self.game_id = message.game_id
        self.applied.append(message)
        return True

    # -- blocking helpers (tools, tests) -------------------------------------------------------------
    def request(self, cmd: str, timeout_s: float = 5.0, **fields: Any) -> EngineReply:
        """Send a command and wait for its reply; ``TimeoutError`` when the engine does not answer."""
        request_id = f"{self.token}-{next(self._ids)}"
        self.send(cmd, request_id, **fields)
        return self.wait_reply(request_id, timeout_s)

    def wait_reply(self, request_id: int | str | None, timeout_s: float) -> EngineReply:
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.dealer.poll(int(remaining * 1000), zmq.POLLIN):
                raise TimeoutError(_("no reply from the engine within {seconds:.1f} s: is 'hexa engine' running "
                                     "(and are the CURVE keys right with --lan)?", seconds=timeout_s))
            reply = self.take_reply(self.dealer.recv_multipart())
            if reply is not None and (request_id is None or reply.id == request_id
                                      or (reply.id is None and not reply.ok)):
                return reply  # an unreadable request is answered without its id

    def sync(self, timeout_s: float = 5.0) -> EngineReply:
        """Take the engine's snapshot; later updates apply only when newer."""
        reply = self.wait_reply(self.ask_snapshot(), timeout_s)
        if not reply.ok:
            raise WireError(_("the engine refused a snapshot: {error}", error=reply.error))
        return reply

    def poll(self, timeout_s: float) -> EngineMessage | None:
        """The next update newer than what is held (applied); None on timeout. Resyncs by itself: a snapshot
        taken comes out as a ``game.state`` holding the whole game."""
        deadline = time.monotonic() + timeout_s
        poller = zmq.Poller()
        poller.register(self.sub, zmq.POLLIN)
        poller.register(self.dealer, zmq.POLLIN)
        while True:
            while self.applied:
                item = self.applied.popleft()
                if isinstance(item, EngineMessage):
                    return item
                if self.game is not None and self.revision is not None:  # a snapshot: the whole game, as an update
                    return GameStateMessage.whole(item.seq, time.time(), item.engine_run, self.game_id,
                                                  self.revision, self.game)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if self.syncing is not None and time.monotonic() - self.asked_at > SNAPSHOT_RETRY_S:
                self.ask_snapshot(self.sync_reason)  # the reply was lost (the engine was restarting)
            ready = dict(poller.poll(int(min(remaining, 0.5) * 1000)))
            if self.dealer in ready:
                self.take_reply(self.dealer.recv_multipart())
            if self.sub in ready:
                self.take_update(self.sub.recv_multipart())

    def wait_for(self, topic: bytes, timeout_s: float,
                 predicate: Callable[[Any], bool] | None = None) -> EngineMessage:
        """Wait for an update of ``topic`` (matching ``predicate``), applying everything on the way."""
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            message = self.poll(max(0.0, remaining)) if remaining > 0 else None
            if message is None:
                raise TimeoutError(_("no {topic} update within {seconds:.1f} s", topic=topic.decode(),
                                     seconds=timeout_s))
            if topic == message.TOPIC and (predicate is None or predicate(message)):
                return message

    def close(self) -> None:
        self.sub.close(linger=0)
        self.dealer.close(linger=0)
