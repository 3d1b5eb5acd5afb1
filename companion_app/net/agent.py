"""The network agent: talks to the engine on its own thread so the UI never waits on the network.

State machine (ZeroMQ Guide "Clone" client): ``connecting`` (sockets up; waiting for the first published
message, which proves the subscription is in place) → ``syncing`` (snapshot asked, updates buffered) →
``live`` (snapshot applied, then only updates with a higher ``seq``) → ``stale`` (nothing heard for
``stale_after_s``: ask for a snapshot again; after ``reconnect_after_s`` more, rebuild the sockets). A new
``engine_run`` (the engine restarted) resyncs; gaps in ``seq`` are normal (topics this agent does not
subscribe to share the counter).

The UI thread calls :meth:`NetworkAgent.request` (thread-safe) and drains :meth:`NetworkAgent.poll`
(thread-safe) from its clock; every item is an :class:`AgentEvent`.

Endpoints (defaults): engine PUB ``tcp://127.0.0.1:5560``, engine ROUTER ``tcp://127.0.0.1:5561``,
optional vision PUB ``tcp://127.0.0.1:5555`` for ``preview`` JPEGs.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import zmq

from engine import wire
from engine.service.security import ClientKeys
from engine.wire import WireError

log = logging.getLogger(__name__)

DEFAULT_ENGINE_PUB = "tcp://127.0.0.1:5560"
DEFAULT_ENGINE_ROUTER = "tcp://127.0.0.1:5561"
DEFAULT_VISION_PUB = "tcp://127.0.0.1:5555"

ENGINE_TOPICS: tuple[bytes, ...] = (
    wire.TOPIC_GAME_STATE,
    wire.TOPIC_GAME_EVENTS,
    wire.TOPIC_GAME_SCENARIO,
    wire.TOPIC_TABLE,
    wire.TOPIC_ENGINE_HEARTBEAT,
)

# The engine publishes a heartbeat every second: the first message proves the subscription is in place, so
# nothing published after the snapshot can be lost. An engine that never publishes is asked after this anyway.
SUBSCRIBE_WAIT_S = 3.0

Reply = dict[str, Any]
ReplyCallback = Callable[[Reply], None]


@dataclass(frozen=True)
class AgentEvent:
    """One thing for the UI thread: ``kind`` is state | scenario | snapshot | table | events | reply | preview."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Pending:
    id: str
    payload: bytes
    callback: ReplyCallback | None
    sent_at: float = 0.0


class NetworkAgent:
    """Connects, syncs, stays live, notices silence and recovers; hands everything to the UI as events."""

    def __init__(
        self,
        pub_endpoint: str = DEFAULT_ENGINE_PUB,
        router_endpoint: str = DEFAULT_ENGINE_ROUTER,
        vision_endpoint: str | None = None,
        stale_after_s: float = 3.0,
        reconnect_after_s: float = 3.0,
        request_timeout_s: float = 5.0,
        poll_ms: int = 10,
        keys: ClientKeys | None = None,
    ) -> None:
        self.keys = keys  # CURVE keys for an engine started with --lan --keys
        self.pub_endpoint = pub_endpoint
        self.router_endpoint = router_endpoint
        self.vision_endpoint = vision_endpoint
        self.stale_after_s = stale_after_s
        self.reconnect_after_s = reconnect_after_s
        self.request_timeout_s = request_timeout_s
        self.poll_ms = poll_ms
        self.state = "stopped"
        self.detail = ""
        self.last_seq = -1
        self.engine_run = ""
        self.dropped = 0  # malformed messages refused
        self._events: queue.Queue[AgentEvent] = queue.Queue()
        self._outbox: queue.Queue[_Pending] = queue.Queue()
        self._ids = itertools.count(1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._held: list[AgentEvent] = []  # events passed over by wait_for (tools and tests only)

    # ---------------------------------------------------------------- UI-thread API

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="hexa-network-agent", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    def request(self, cmd: str, callback: ReplyCallback | None = None, **fields: Any) -> str:
        """Queue a command for the engine; its reply comes back as a ``reply`` event (and to ``callback``)."""
        rid = f"r{next(self._ids)}"
        payload = wire.encode_request(cmd, rid, **fields)
        self._outbox.put(_Pending(rid, payload, callback))
        return rid

    def poll(self, limit: int = 200) -> list[AgentEvent]:
        """Everything that arrived since the last call (at most ``limit`` items, oldest first)."""
        out, self._held = self._held[:limit], self._held[limit:]
        while len(out) < limit:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                break
        return out

    def wait_for(
        self, kind: str, timeout_s: float, predicate: Callable[[AgentEvent], bool] | None = None
    ) -> AgentEvent:
        """For tests and tools without a UI loop: the next event of ``kind``; ``TimeoutError`` otherwise.

        Events passed over stay queued for :meth:`poll` and later waits, in order.
        """

        def wanted(ev: AgentEvent) -> bool:
            return ev.kind == kind and (predicate is None or predicate(ev))

        for i, ev in enumerate(self._held):
            if wanted(ev):
                return self._held.pop(i)
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {kind!r} event within {timeout_s:.1f} s (agent is {self.state}: {self.detail})")
            try:
                ev = self._events.get(timeout=min(remaining, 0.1))
            except queue.Empty:
                continue
            if wanted(ev):
                return ev
            self._held.append(ev)

    # ---------------------------------------------------------------- agent thread

    def _emit(self, kind: str, **data: Any) -> None:
        self._events.put(AgentEvent(kind, data))

    def _set_state(self, state: str, detail: str = "") -> None:
        if state != self.state or detail != self.detail:
            self.state, self.detail = state, detail
            log.info("engine link: %s %s", state, detail)
            self._emit("state", state=state, detail=detail)

    def _run(self) -> None:
        ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        while not self._stop.is_set():
            try:
                self._session(ctx)
            except zmq.ZMQError as exc:
                log.warning("engine link error: %s; reconnecting", exc)
                self._set_state("connecting", f"network error: {exc}")
                self._stop.wait(0.5)
        self._set_state("stopped")

    def _sockets(self, ctx: zmq.Context[zmq.Socket[bytes]]) -> tuple[zmq.Socket[bytes], zmq.Socket[bytes], Any]:
        sub = ctx.socket(zmq.SUB)
        sub.setsockopt(zmq.LINGER, 0)
        for topic in ENGINE_TOPICS:
            sub.setsockopt(zmq.SUBSCRIBE, topic)
        dealer = ctx.socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        if self.keys is not None:
            self.keys.apply(sub)
            self.keys.apply(dealer)
        sub.connect(self.pub_endpoint)
        dealer.connect(self.router_endpoint)
        vision = None
        if self.vision_endpoint:
            vision = ctx.socket(zmq.SUB)
            vision.setsockopt(zmq.LINGER, 0)
            # Only the newest preview matters, but CONFLATE cannot carry multipart [topic, json] messages
            # (it keeps the last frame only, and libzmq can abort): a tiny queue instead.
            vision.setsockopt(zmq.RCVHWM, 2)
            vision.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_PREVIEW)
            vision.connect(self.vision_endpoint)
        return sub, dealer, vision

    def _session(self, ctx: zmq.Context[zmq.Socket[bytes]]) -> None:
        """One life of the sockets: sync, stay live, return when they must be rebuilt."""
        sub, dealer, vision = self._sockets(ctx)
        poller = zmq.Poller()
        poller.register(sub, zmq.POLLIN)
        poller.register(dealer, zmq.POLLIN)
        if vision is not None:
            poller.register(vision, zmq.POLLIN)
        pending: dict[str, _Pending] = {}
        buffered: list[tuple[int, bytes, bytes]] = []
        snapshot_id: str | None = None
        heard_at = opened_at = time.monotonic()
        asked_at = 0.0
        sub_heard = False  # ZeroMQ subscribes asynchronously: ask for the snapshot once the feed is flowing
        self._set_state("connecting", self.router_endpoint)
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                if snapshot_id is not None and snapshot_id not in pending:
                    snapshot_id = None  # timed out: ask again
                feed_ready = sub_heard or now - opened_at > SUBSCRIBE_WAIT_S
                if snapshot_id is None and self.state != "live" and now - asked_at > 2.0 and feed_ready:
                    snapshot_id = self._send(dealer, pending, "snapshot", now)
                    asked_at = now
                    if self.state == "connecting":
                        self._set_state("syncing", "asked for a snapshot")
                self._drain_outbox(dealer, pending, now)
                for event_socket, _ in poller.poll(self.poll_ms):
                    if event_socket is sub:
                        heard_at = time.monotonic()
                        sub_heard = True
                        snapshot_id = self._on_publish(sub.recv_multipart(), buffered, snapshot_id, dealer, pending)
                    elif event_socket is dealer:
                        heard_at = time.monotonic()
                        snapshot_id = self._on_reply(dealer.recv_multipart(), pending, snapshot_id, buffered)
                    elif vision is not None and event_socket is vision:
                        self._on_preview(vision.recv_multipart())
                now = time.monotonic()
                self._expire(pending, now)
                silent = now - heard_at
                if silent > self.stale_after_s and self.state in ("live", "syncing", "connecting"):
                    self._set_state("stale", f"nothing heard for {silent:.0f} s")
                    snapshot_id = None
                    asked_at = 0.0
                if silent > self.stale_after_s + self.reconnect_after_s:
                    self._set_state("connecting", f"reconnecting to {self.router_endpoint}")
                    return
        finally:
            for p in pending.values():
                self._fail(p, "the connection to the engine was reset; try again")
            for s in (sub, dealer, vision):
                if s is not None:
                    s.close(linger=0)

    def _send(self, dealer: zmq.Socket[bytes], pending: dict[str, _Pending], cmd: str, now: float) -> str:
        rid = f"s{next(self._ids)}"
        p = _Pending(rid, wire.encode_request(cmd, rid), None, now)
        pending[rid] = p
        dealer.send_multipart([b"", p.payload])
        return rid

    def _drain_outbox(self, dealer: zmq.Socket[bytes], pending: dict[str, _Pending], now: float) -> None:
        while True:
            try:
                p = self._outbox.get_nowait()
            except queue.Empty:
                return
            p.sent_at = now
            pending[p.id] = p
            dealer.send_multipart([b"", p.payload])

    def _expire(self, pending: dict[str, _Pending], now: float) -> None:
        def limit(rid: str) -> float:
            return min(2.0, self.request_timeout_s) if rid.startswith("s") else self.request_timeout_s

        for rid in [r for r, p in pending.items() if now - p.sent_at > limit(r)]:
            p = pending.pop(rid)
            if p.callback is not None or rid.startswith("r"):
                self._fail(p, f"the engine did not answer within {self.request_timeout_s:.0f} s; is it running?")

    def _fail(self, p: _Pending, text: str) -> None:
        if p.id.startswith("s"):
            return
        reply: Reply = {"ok": False, "error": text, "id": p.id}
        self._emit("reply", reply=reply, callback=p.callback)

    def _on_reply(
        self,
        frames: list[bytes],
        pending: dict[str, _Pending],
        snapshot_id: str | None,
        buffered: list[tuple[int, bytes, bytes]],
    ) -> str | None:
        try:
            reply = wire.parse_reply(frames[-1])
        except WireError as exc:
            self.dropped += 1
            log.warning("dropped a malformed reply: %s", exc)
            return snapshot_id
        rid = str(reply.id) if reply.id is not None else ""
        p = pending.pop(rid, None)
        body: Reply = {"ok": reply.ok, "error": reply.error, "cmd": reply.cmd, "id": reply.id, "seq": reply.seq}
        body.update(reply.fields)
        if rid == snapshot_id:
            if not reply.ok:
                self._set_state("syncing", f"snapshot refused: {reply.error}")
                return None
            self._apply_snapshot(reply.engine_run, reply.seq, body)
            for seq, topic, payload in sorted(buffered):
                if seq > self.last_seq:
                    self._apply_update(topic, payload)
            buffered.clear()
            return None
        if p is not None:
            self._emit("reply", reply=body, callback=p.callback)
        return snapshot_id

    def _apply_snapshot(self, run: str, seq: int, body: Reply) -> None:
        self.engine_run = run
        self.last_seq = seq
        if isinstance(body.get("scenario"), dict):
            self._emit("scenario", scenario=body["scenario"], game_id=body.get("game_id"))
        game = body.get("snapshot") or body.get("game")
        if isinstance(game, dict):
            self._emit("snapshot", snapshot=game, seq=seq, game_id=body.get("game_id"))
        if isinstance(body.get("table"), dict):
            self._emit("table", table=body["table"])
        self._set_state("live", f"engine run {run}")

    def _on_publish(
        self,
        frames: list[bytes],
        buffered: list[tuple[int, bytes, bytes]],
        snapshot_id: str | None,
        dealer: zmq.Socket[bytes],
        pending: dict[str, _Pending],
    ) -> str | None:
        if len(frames) != 2:
            self.dropped += 1
            return snapshot_id
        topic, payload = frames
        try:
            envelope, obj = wire.parse_envelope(payload)
        except WireError as exc:
            self.dropped += 1
            log.warning("dropped a malformed %r message: %s", topic[:40], exc)
            return snapshot_id
        if self.state != "live":
            if snapshot_id is None and self.state == "stale":
                return self._send(dealer, pending, "snapshot", time.monotonic())
            buffered.append((envelope.seq, topic, payload))
            return snapshot_id
        run = obj.get("engine_run")
        if envelope.seq <= self.last_seq and run == self.engine_run:
            return snapshot_id  # older than what we hold
        if run != self.engine_run:
            # The engine restarted (its seq goes on, its run id changes): resync from a fresh snapshot.
            # Gaps in seq are normal (other topics, such as table.view, share the counter).
            self._set_state("syncing", "the engine restarted")
            buffered.append((envelope.seq, topic, payload))
            return self._send(dealer, pending, "snapshot", time.monotonic())
        self._apply_update(topic, payload)
        return snapshot_id

    def _apply_update(self, topic: bytes, payload: bytes) -> None:
        try:
            message = wire.decode([topic, payload])
        except WireError as exc:
            self.dropped += 1
            log.warning("dropped a malformed %r message: %s", topic[:40], exc)
            return
        self.last_seq = max(self.last_seq, message.seq)
        if isinstance(message, wire.GameStateMessage):
            self._emit("snapshot", snapshot=message.snapshot, seq=message.seq, game_id=message.game_id,
                       sent_at=message.sent_at)
        elif isinstance(message, wire.GameScenarioMessage):
            self._emit("scenario", scenario=message.scenario, game_id=message.game_id)
        elif isinstance(message, wire.TableMessage):
            table = message.body()
            self._emit("table", table=table)
        elif isinstance(message, wire.GameEventsMessage):
            self._emit("events", n=message.n, action=message.action, events=list(message.events),
                       source=message.source)

    def _on_preview(self, frames: list[bytes]) -> None:
        try:
            message = wire.decode(frames)
        except WireError as exc:
            log.warning("dropped a malformed preview: %s", exc)
            return
        if isinstance(message, wire.PreviewMessage):
            self._emit("preview", jpeg=message.jpeg, width=message.width, height=message.height,
                       camera_id=message.camera_id)
