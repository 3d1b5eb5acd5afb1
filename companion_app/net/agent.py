"""The network agent: talks to the engine on its own thread so the UI never waits on the network.

The Clone client itself (sockets, snapshot, ``seq`` filtering, restarts, applying ``game.state`` changes) is
:class:`engine.service.client.EngineClient`; this module adds only what the app needs around it: a thread,
queues to and from the UI thread, request callbacks with timeouts, and the link's state machine
(ZeroMQ Guide "Clone" client): ``connecting`` (sockets up; waiting for the first published message, which
proves the subscription is in place) → ``syncing`` (snapshot asked, updates held back) → ``live`` (snapshot
applied, then only newer updates) → ``stale`` (nothing heard for ``stale_after_s``: ask for a snapshot
again; after ``reconnect_after_s`` more, rebuild the sockets). A new ``engine_run`` (the engine restarted)
or a missed ``game.state`` goes back to ``syncing`` until a new snapshot is applied.

The UI thread calls :meth:`NetworkAgent.request` (thread-safe) and drains :meth:`NetworkAgent.poll`
(thread-safe) from its clock; every item is an :class:`AgentEvent`. ``on_event``, when set, is called on the
agent's thread after each event is queued: the UI's wake-up (a Kivy trigger, which any thread may call), so an
update is applied at once rather than at the UI clock's next tick. ``snapshot`` events always carry the
whole game (``state``, ``prompt``, ``history``, ``threatened``), rebuilt from the changes published.

Endpoints (defaults): engine PUB ``tcp://127.0.0.1:5560``, engine ROUTER ``tcp://127.0.0.1:5561``,
optional vision PUB ``tcp://127.0.0.1:5555`` for ``preview`` JPEGs.
"""

from __future__ import annotations

import itertools
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import zmq

from engine import wire
from engine.i18n import gettext_for
from engine.service.client import SNAPSHOT_RETRY_S, EngineClient
from engine.service.security import ClientKeys
from engine.wire import EngineReply, WireError

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

DEFAULT_ENGINE_PUB = wire.DEFAULT_ENGINE_PUB
DEFAULT_ENGINE_ROUTER = wire.DEFAULT_ENGINE_COMMANDS
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
        self._client: EngineClient | None = None
        self._events: queue.Queue[AgentEvent] = queue.Queue()
        self._outbox: queue.Queue[_Pending] = queue.Queue()
        self._ids = itertools.count(1)
        self._token = secrets.token_hex(4)  # request ids of this run only: the engine answers a resent id once
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._held: list[AgentEvent] = []  # events passed over by wait_for (tools and tests only)
        self.on_event: Callable[[], object] | None = None  # called on the agent's thread after each event queued

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
        rid = f"r{next(self._ids)}-{self._token}"
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
        wake = self.on_event
        if wake is not None:
            try:
                wake()
            except Exception:  # the link must outlive a failing wake-up: the UI still polls on its clock
                log.exception("could not wake the UI for a %s event", kind)

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
                self._set_state("connecting", _("network error: {error}", error=exc))
                self._stop.wait(0.5)
        self._set_state("stopped")

    def _vision_socket(self, ctx: zmq.Context[zmq.Socket[bytes]]) -> zmq.Socket[bytes] | None:
        if not self.vision_endpoint:
            return None
        vision = ctx.socket(zmq.SUB)
        vision.setsockopt(zmq.LINGER, 0)
        # Only the newest preview matters, but CONFLATE cannot carry multipart [topic, json] messages
        # (it keeps the last frame only, and libzmq can abort): a tiny queue instead.
        vision.setsockopt(zmq.RCVHWM, 2)
        vision.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_PREVIEW)
        vision.connect(self.vision_endpoint)
        return vision

    def _session(self, ctx: zmq.Context[zmq.Socket[bytes]]) -> None:
        """One life of the sockets: sync, stay live, return when they must be rebuilt."""
        client = EngineClient(self.pub_endpoint, self.router_endpoint, ctx, self.keys, ENGINE_TOPICS)
        vision = self._vision_socket(ctx)
        poller = zmq.Poller()
        poller.register(client.sub, zmq.POLLIN)
        poller.register(client.dealer, zmq.POLLIN)
        if vision is not None:
            poller.register(vision, zmq.POLLIN)
        pending: dict[str, _Pending] = {}
        heard_at = opened_at = time.monotonic()
        sub_heard = False  # ZeroMQ subscribes asynchronously: ask for the snapshot once the feed is flowing
        self._client = client
        self._set_state("connecting", self.router_endpoint)
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                feed_ready = sub_heard or now - opened_at > SUBSCRIBE_WAIT_S
                if self.state != "live" and feed_ready and (client.syncing is None
                                                            or now - client.asked_at > SNAPSHOT_RETRY_S):
                    self._ask_snapshot(client)
                self._drain_outbox(client, pending, now)
                for event_socket, _mask in poller.poll(self.poll_ms):
                    if event_socket is client.sub:
                        heard_at = time.monotonic()
                        sub_heard = True
                        client.take_update(client.sub.recv_multipart())
                        self._deliver(client)
                    elif event_socket is client.dealer:
                        heard_at = time.monotonic()
                        reply = client.take_reply(client.dealer.recv_multipart())
                        if reply is not None:
                            self._route(reply, pending)
                        self._deliver(client)
                    elif vision is not None and event_socket is vision:
                        self._on_preview(vision.recv_multipart())
                now = time.monotonic()
                self._expire(pending, now)
                silent = now - heard_at
                if silent > self.stale_after_s and self.state in ("live", "syncing", "connecting"):
                    self._set_state("stale", _("nothing heard for {seconds:.0f} s", seconds=silent))
                    self._ask_snapshot(client)
                if silent > self.stale_after_s + self.reconnect_after_s:
                    self._set_state("connecting", _("reconnecting to {endpoint}", endpoint=self.router_endpoint))
                    return
        finally:
            for p in pending.values():
                self._fail(p, _("the connection to the engine was reset; try again"))
            client.close()
            if vision is not None:
                vision.close(linger=0)

    def _ask_snapshot(self, client: EngineClient) -> None:
        try:
            client.ask_snapshot(client.sync_reason)
        except TimeoutError:
            return  # nothing can take it now; asked again after SNAPSHOT_RETRY_S
        if self.state == "connecting":
            self._set_state("syncing", _("asked for a snapshot"))

    def _drain_outbox(self, client: EngineClient, pending: dict[str, _Pending], now: float) -> None:
        while True:
            try:
                p = self._outbox.get_nowait()
            except queue.Empty:
                return
            p.sent_at = now
            try:
                client.send_raw([p.payload])
            except TimeoutError as exc:
                self._fail(p, str(exc))
                continue
            pending[p.id] = p

    def _expire(self, pending: dict[str, _Pending], now: float) -> None:
        for rid in [r for r, p in pending.items() if now - p.sent_at > self.request_timeout_s]:
            self._fail(pending.pop(rid), _("the engine did not answer within {seconds:.0f} s; is it running?",
                                           seconds=self.request_timeout_s))

    def _fail(self, p: _Pending, text: str) -> None:
        reply: Reply = {"ok": False, "error": text, "id": p.id}
        self._emit("reply", reply=reply, callback=p.callback)

    @staticmethod
    def _body(reply: EngineReply) -> Reply:
        body: Reply = {"ok": reply.ok, "error": reply.error, "cmd": reply.cmd, "id": reply.id, "seq": reply.seq}
        body.update(reply.fields)
        return body

    def _route(self, reply: EngineReply, pending: dict[str, _Pending]) -> None:
        """A reply to one of the UI's requests goes back to it (the client's own snapshots are not)."""
        p = pending.pop(str(reply.id), None) if reply.id is not None else None
        if p is not None:
            self._emit("reply", reply=self._body(reply), callback=p.callback)
        elif reply.id is None and not reply.ok:
            self.dropped += 1
            log.warning("the engine refused an unreadable request: %s", reply.error)

    def _deliver(self, client: EngineClient) -> None:
        """Hand what the client applied to the UI, and follow its syncing. The game is shown once, as it
        is now, however many changes were applied together."""
        self.dropped = max(self.dropped, client.dropped)
        items = list(client.applied)
        client.applied.clear()
        self.last_seq, self.engine_run = client.last_seq, client.engine_run or ""
        last_game = max((i for i, item in enumerate(items) if isinstance(item, EngineReply | wire.GameStateMessage)),
                        default=-1)
        for i, item in enumerate(items):
            if isinstance(item, EngineReply) and client.scenario is not None:  # a snapshot was applied
                # ``gm``: the engine names this tablet the game master (by its CURVE key)
                self._emit("scenario", scenario=client.scenario, game_id=client.game_id,
                           gm=item.fields.get("gm") is True)
            elif isinstance(item, wire.GameScenarioMessage):
                self._emit("scenario", scenario=item.scenario, game_id=item.game_id)
            elif isinstance(item, wire.TableMessage):
                self._emit("table", table=item.body())
            elif isinstance(item, wire.GameEventsMessage):
                self._emit("events", n=item.n, action=item.action, events=list(item.events), source=item.source)
            if i == last_game and client.game is not None:
                self._emit("snapshot", snapshot=client.game, seq=item.seq, game_id=client.game_id,
                           sent_at=item.sent_at if isinstance(item, wire.GameStateMessage) else None)
            if isinstance(item, EngineReply):
                if client.table is not None:
                    self._emit("table", table=client.table)
                self._set_state("live", _("engine run {run}", run=client.engine_run))
        if client.syncing is not None and self.state == "live":
            self._set_state("syncing", client.sync_reason)

    def _on_preview(self, frames: list[bytes]) -> None:
        try:
            message = wire.decode(frames)
        except WireError as exc:
            log.warning("dropped a malformed preview: %s", exc)
            return
        if isinstance(message, wire.PreviewMessage):
            self._emit("preview", jpeg=message.jpeg, width=message.width, height=message.height,
                       camera_id=message.camera_id)
