"""The engine service loop: one thread owning every socket, the session, and the publishing order.

Sockets (defaults; layouts in :mod:`engine.wire`):

PUB ``tcp://127.0.0.1:5560``     ``game.state``, ``game.events``, ``game.scenario``, ``table``, ``table.view``,
                                ``engine.heartbeat`` (1 s). ``table`` on change and at least once a second.
ROUTER ``tcp://127.0.0.1:5561``  commands (DEALER or REQ clients), one reply each.
SUB/DEALER per ``--vision``      the camera services' ``tracks``/``dice``/``heartbeat`` and their snapshots.

Dice (``--dice camera``): a settled roll in a tray that answers the pending roll prompt is shown on the tablets
(``table``'s ``dice``) and applied once ``dice_countdown_s`` ran out, unless a tablet says it is wrong.

``seq`` of every published message is ``max(previous + 1, wall clock in µs)``: monotonic within a run
and across restarts. Camera messages waiting together are processed as one view of the table, so a
busy engine never falls behind the camera. Malformed or oversized input is dropped (subscriptions)
or answered with an error (commands), logged, and counted in the heartbeat.

``game.state`` carries the game's current part and only the history entries changed since the previous
``game.state``, numbered by ``revision``; the ``snapshot`` reply carries the whole game and its revision
(the Clone pattern: snapshot on request, updates after).

No peer can hold the loop: the PUB socket lives in its own thread (:mod:`engine.service.publisher`,
which also bounds what a subscriber may send and queue), and every socket keeps at most
``PEER_QUEUE`` messages for a peer that does not read.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import zmq

from engine import wire
from engine.errors import EngineError
from engine.i18n import gettext_for, ngettext_for
from engine.service import answered, roles
from engine.service.camera_feed import CameraFeed
from engine.service.changes import Changes
from engine.service.dice_answers import COUNTDOWN_S, TABLET_MODE
from engine.service.game_master import GameMaster, gm_key_id, new_gm_code, user_id
from engine.service.log_limit import SUMMARY_EVERY_S, LimitedLog, clip
from engine.service.publisher import PEER_QUEUE, Publisher, bound_peer, bound_publisher
from engine.service.security import ENGINE_CLIENT, CurveServer, KeyFileError, load_client_keys, refuse_open_bind
from engine.service.session import CameraView, EngineSession
from engine.snapshot import HistoryDelta
from engine.wire import (
    EngineHeartbeat,
    EngineMessage,
    GameEventsMessage,
    GameScenarioMessage,
    GameStateMessage,
    TableMessage,
    TableViewMessage,
    WireError,
)

log = logging.getLogger(__name__)
_ = gettext_for(__name__)
_n = ngettext_for(__name__)

DEFAULT_PUB = wire.DEFAULT_ENGINE_PUB
DEFAULT_COMMANDS = wire.DEFAULT_ENGINE_COMMANDS
LAN_PUB = "tcp://0.0.0.0:5560"
LAN_COMMANDS = "tcp://0.0.0.0:5561"
HEARTBEAT_S = 1.0
TABLE_EVERY_S = 1.0
MAX_ROUTER_BYTES = 1024 * 1024  # hard cap (the peer is disconnected); smaller oversize gets an error reply
MAX_REQUESTS_PER_TURN = 50
MAX_ERROR_CHARS = 1000  # a refusal quoting a huge bad value is cut to this in the reply


class ServiceError(RuntimeError):
    """The service cannot start (address in use, bad endpoint); the text says what to do."""


@dataclass
class ServerConfig:
    pub: str = DEFAULT_PUB
    commands: str = DEFAULT_COMMANDS
    vision: Sequence[tuple[str, str | None]] = ()  # (pub endpoint, snapshot endpoint or None for port + 1)
    keys_dir: Path | None = None  # CURVE on when set
    silent_after_s: float = 3.0
    heartbeat_s: float = HEARTBEAT_S
    table_every_s: float = TABLE_EVERY_S
    log_summary_s: float = SUMMARY_EVERY_S  # refused input: a few lines, then a count this often
    gm: str | None = None  # the tablet whose CURVE key (KEYS/authorized/NAME.key) makes it the game master
    gm_code: str | None = None  # the GM code; a new random one when None (see engine.service.game_master)
    dice_mode: str = TABLET_MODE  # "camera": the tray's dice answer roll prompts after the countdown; "tablet": typed
    dice_countdown_s: float = COUNTDOWN_S  # how long the tablets show the dice read before they are taken


def _bind(socket: zmq.Socket[bytes], endpoint: str, option: str) -> str:
    try:
        socket.bind(endpoint)
    except zmq.ZMQError as exc:
        raise ServiceError(_("cannot bind {endpoint} ({error}): is another 'hexa engine' running? Stop it, or pass "
                             "{option} with another port.", endpoint=endpoint, error=exc.strerror,
                             option=option)) from None
    last = socket.getsockopt(zmq.LAST_ENDPOINT)
    return last.decode() if isinstance(last, bytes) else str(last)


class EngineServer:
    """Binds the sockets at construction (so endpoints are known), then :meth:`run` until :meth:`stop`.

    ``session`` may be a function opening it: it is called once every socket is bound, so an engine that
    cannot start writes nothing to the journal.
    """

    def __init__(self, session: EngineSession | Callable[[], EngineSession], config: ServerConfig,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None) -> None:
        for endpoint, option in ((config.pub, "--pub"), (config.commands, "--commands")):
            refuse_open_bind(endpoint, option, secured=config.keys_dir is not None)
        if config.gm is not None and config.keys_dir is None:
            raise KeyFileError(_("--gm {name} names a tablet by its CURVE key, so it needs --keys KEYS. Fix: add "
                                 "--keys, or leave --gm out and give the GM tablet the GM code the engine prints",
                                 name=config.gm))
        self.gm = GameMaster(config.gm_code or new_gm_code(),
                             gm_key_id(config.keys_dir, config.gm) if config.gm and config.keys_dir else None)
        self.config = config
        self.context = context or zmq.Context.instance()
        self.engine_run = uuid.uuid4().hex[:12]
        self.seq = 0
        self.revision = 0  # game.state messages published in this run: tablets notice one they missed
        self._history = HistoryDelta()
        self.dropped = 0
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._sockets: list[zmq.Socket[bytes]] = []
        self.curve = (CurveServer(self.context, config.keys_dir, refused=(ENGINE_CLIENT,))
                      if config.keys_dir is not None else None)  # the engine's own key is no tablet's
        self._monitors: list[zmq.Socket[bytes]] = []
        try:
            self.pub = self._socket(zmq.PUB, "publisher")
            bound_publisher(self.pub)
            self.pub_endpoint = _bind(self.pub, config.pub, "--pub")
            self.publisher = Publisher(self.context, self.pub)
            self.router = self._socket(zmq.ROUTER, "commands")
            self.router.setsockopt(zmq.MAXMSGSIZE, MAX_ROUTER_BYTES)
            bound_peer(self.router, PEER_QUEUE)
            self.router.setsockopt(zmq.RCVHWM, PEER_QUEUE)
            self.router.setsockopt(zmq.ROUTER_MANDATORY, 0)
            self.commands_endpoint = _bind(self.router, config.commands, "--commands")
            camera_keys = load_client_keys(config.keys_dir, ENGINE_CLIENT) if config.keys_dir is not None else None
            self.feeds = [CameraFeed(self.context, i, pub, snap, config.silent_after_s, camera_keys,
                                     config.log_summary_s) for i, (pub, snap) in enumerate(config.vision)]
            self.session = session() if callable(session) else session
            self.session.gm_tablet = config.gm  # a table with a GM: the prompts the rules leave to the GM are the GM's
            self.session.dice.mode, self.session.dice.countdown_s = config.dice_mode, config.dice_countdown_s
        except BaseException:
            self.close()
            raise
        self._last_table: dict[str, Any] | None = None
        self._last_table_sent = 0.0
        self._next_heartbeat = 0.0
        self._republish = False
        every = config.log_summary_s
        self._refused = LimitedLog(log, "command refused", every_s=every)
        self._declined = LimitedLog(log, "command declined", logging.INFO, every_s=every)
        self._unanswered = LimitedLog(log, "could not answer a client", every_s=every)
        self._behind = LimitedLog(log, "the publisher fell behind; publishing the whole state again", every_s=every)
        log.info("engine %s: publishing on %s, commands on %s, %d camera(s)%s", self.engine_run, self.pub_endpoint,
                 self.commands_endpoint, len(self.feeds), ", CURVE on" if self.curve else "")

    def _socket(self, kind: int, name: str) -> zmq.Socket[bytes]:
        socket = self.context.socket(kind)
        socket.setsockopt(zmq.LINGER, 0)
        self._sockets.append(socket)
        if self.curve is not None:
            self._monitors.append(self.curve.secure(socket, name))
        return socket

    # -- publishing --------------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self.seq = max(self.seq + 1, time.time_ns() // 1000)
        return self.seq

    def _ids(self) -> tuple[int, float, str, int]:
        return self._next_seq(), time.time(), self.engine_run, self.session.game_id

    def _send(self, message: EngineMessage) -> None:
        if not self.publisher.send(message.to_frames()):
            self._republish = True  # the whole state again once the publisher keeps up; events are lost

    def publish_scenario(self) -> None:
        self._send(GameScenarioMessage(*self._ids(), scenario=self.session.scenario_dict()))

    def publish_state(self) -> None:
        """The game now with only the history entries that changed since the last ``game.state``."""
        history_from, entries = self._history.since_last(self.session.game)
        self.revision += 1
        current = self.session.current_dict()
        self._send(GameStateMessage(*self._ids(), revision=self.revision, state=current["state"],
                                    prompt=current["prompt"], threatened=current["threatened"],
                                    history_from=history_from, history=tuple(entries)))

    def publish_changes(self, changes: Changes) -> None:
        if changes.scenario:
            self.publish_scenario()
        if changes.rewritten:
            self._history.rewritten(self.session.game)
        for out in changes.events:
            self._send(GameEventsMessage(*self._ids(), n=out.n, action=out.action, events=tuple(out.events),
                                         source=out.source))
        if changes.state:
            self.publish_state()
        self.publish_table(force=False)

    def table_body(self) -> dict[str, Any]:
        now = time.monotonic()
        return {"cameras": tuple(feed.link(now) for feed in self.feeds), **self.session.table_fields(now)}

    def publish_table(self, force: bool) -> None:
        body = self.table_body()
        dice = body["dice"]  # a proposal's countdown ticks: sent on change and once a second, as the rest
        comparable = {**body, "cameras": tuple((c.id, c.status, c.problem) for c in body["cameras"]),
                      "dice": None if dice is None else replace(dice, remaining_s=None)}
        now = time.monotonic()
        if not force and comparable == self._last_table and now - self._last_table_sent < self.config.table_every_s:
            return
        self._last_table, self._last_table_sent = comparable, now
        self._send(TableMessage(*self._ids(), **body))

    def publish_view(self, source_sent_at: float) -> None:
        self._send(TableViewMessage(*self._ids(), figures=self.session.view_figures(), source_sent_at=source_sent_at))

    def publish_heartbeat(self) -> None:
        report = self.session.report
        desync = bool(report is not None and (report.desync or report.illegal))
        self._send(EngineHeartbeat(*self._ids(), uptime_s=round(time.monotonic() - self.started, 3),
                                   dropped=self.dropped + self.publisher.dropped + sum(f.dropped for f in self.feeds),
                                   desync=desync))

    # -- commands ----------------------------------------------------------------------------------
    def _reply(self, envelope: list[bytes], ok: bool, error: str | None, cmd: str | None,
               request_id: str | int | None, **fields: Any) -> None:
        error = None if error is None else clip(error, MAX_ERROR_CHARS)
        payload = wire.encode_reply(ok, error, cmd=cmd, request_id=request_id, seq=self.seq,
                                    engine_run=self.engine_run, sent_at=time.time(), **fields)
        try:
            self.router.send_multipart([*envelope, payload], flags=zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            self._unanswered(exc.strerror)

    def handle_frames(self, frames: list[bytes], user: str | None = None) -> None:
        """Answer one ROUTER message: [identity, (empty delimiter from REQ), request]; ``user`` is the peer's
        CURVE User-Id (None without CURVE), which may make it the game master."""
        identity, rest = frames[0], frames[1:]
        envelope = [identity, b""] if rest and rest[0] == b"" else [identity]
        body = rest[len(envelope) - 1:]
        if len(body) != 1:
            self.dropped += 1
            self._refused(f"expected one frame holding a JSON command, got {len(body)}")
            self._reply(envelope, False, _n("expected one frame holding a JSON command, got {n} frame",
                                            "expected one frame holding a JSON command, got {n} frames", len(body)),
                        None, None)
            return
        try:
            request = wire.parse_request(body[0])
        except WireError as exc:
            self.dropped += 1
            self._refused(str(exc))
            self._reply(envelope, False, str(exc), None, _request_id(body[0]))
            return
        code = request.args.pop(wire.GM_CODE_KEY, None)
        gm = self.gm.is_gm(code if isinstance(code, str) else None, user)
        once = request.id is not None and roles.changes_the_game(request.cmd)
        client = answered.client_of(user, identity)
        first = self.session.answers.recall(client, request) if once else None
        if first is not None:  # a resent request: the first answer again, nothing done twice
            log.info("request %r of %s answered again (already done)", request.id, request.cmd)
            extra = {"last_seq": self.seq} if first.ok else {}
            self._reply(envelope, first.ok, first.error, request.cmd, request.id, **extra, **first.fields)
            return
        done = self.session.answers.done_row(client, request) if once else None
        if done is not None:  # kept with the change itself: a crash before the answer is written cannot redo it
            self.session.journal.write_with_next_change(*done)
        try:
            answer = self._answer(request, gm)
        finally:
            self.session.journal.drop_riders()
        if once and answer.ok:  # a refusal changed nothing: sent again, it is tried again
            self.session.answers.remember(client, request, answer)
        extra = {"last_seq": self.seq} if answer.ok else {}
        self._reply(envelope, answer.ok, answer.error, request.cmd, request.id, **extra, **answer.fields)

    def _answer(self, request: wire.EngineRequest, gm: bool) -> answered.Answer:
        """Carry out one command and publish what it changed."""
        try:
            fields, changes = self.session.handle(request, gm=gm)
        except EngineError as exc:
            self._declined(f"{request.cmd}: {exc}")
            return answered.Answer(False, clip(str(exc), MAX_ERROR_CHARS), {})
        except Exception as exc:  # the service must outlive any bug in one command
            log.exception("command %s failed", request.cmd)
            return answered.Answer(False, clip(_("internal error while doing {cmd}: {error}", cmd=request.cmd,
                                                 error=exc), MAX_ERROR_CHARS), {})
        self.publish_changes(changes)
        if request.cmd == "snapshot":
            table = TableMessage(self.seq, time.time(), self.engine_run, self.session.game_id,
                                 **self.table_body()).body()
            fields["table"] = table
            fields["revision"] = self.revision
        return answered.Answer(True, None, fields)

    # -- the loop ----------------------------------------------------------------------------------
    def _process_cameras(self, ready: set[Any]) -> None:
        fresh: list[CameraFeed] = []
        for feed in self.feeds:
            got = False
            if feed.sub in ready:
                got = feed.drain_sub()
            if feed.snap in ready:
                got = feed.drain_snapshot() or got
            if got:
                fresh.append(feed)
        self._process_dice()
        if not fresh:
            return
        changes = Changes()
        for feed in fresh:
            if feed.newest is not None:
                self.session.cameras[f"{feed.index}:{feed.camera_id}"] = CameraView(feed.newest)
        try:
            changes = self.session.refresh_table()
        except Exception:
            log.exception("could not follow the table; the game is unchanged")
        self.publish_changes(changes)
        self.publish_view(max(f.newest.sent_at for f in fresh if f.newest is not None))

    def _process_dice(self) -> None:
        """The trays the cameras saw: a new reading for the pending roll prompt goes to the tablets."""
        now = time.monotonic()
        changed = False
        for feed in self.feeds:
            messages, feed.dice = feed.dice, []
            for message in messages:
                try:
                    changed = self.session.take_dice(message, now) or changed
                except Exception:
                    log.exception("could not read the dice tray; the game is unchanged")
        if changed:
            self.publish_table(force=True)

    def _tick(self) -> None:
        now = time.monotonic()
        try:
            self.publish_changes(self.session.dice_due(now))  # a dice proposal whose countdown ran out
        except EngineError as exc:
            log.warning("the dice read do not apply: %s", exc)
        changed = any([feed.tick(now) for feed in self.feeds])
        if changed:
            self.publish_table(force=True)
        if self._republish:
            self._republish = False
            self._behind(f"{self.publisher.dropped} message(s) dropped so far")
            self.publish_scenario()
            self.publish_state()
            self.publish_table(force=True)
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + self.config.heartbeat_s
            self.publish_heartbeat()
        self.publish_table(force=False)
        for limited in (self._refused, self._declined, self._unanswered, self._behind):
            limited.flush()

    def run(self) -> None:
        """Serve until :meth:`stop`; publishes the scenario, state and table first."""
        poller = zmq.Poller()
        poller.register(self.router, zmq.POLLIN)
        for feed in self.feeds:
            poller.register(feed.sub, zmq.POLLIN)
            poller.register(feed.snap, zmq.POLLIN)
        for monitor in self._monitors:
            poller.register(monitor, zmq.POLLIN)
        self.publisher.start()
        self.publish_scenario()
        self.publish_state()
        self.publish_table(force=True)
        while not self._stop.is_set():
            ready = {socket for socket, _ in poller.poll(50)}
            if self.router in ready:
                for _turn in range(MAX_REQUESTS_PER_TURN):
                    try:
                        message = self.router.recv_multipart(flags=zmq.NOBLOCK, copy=False)
                    except zmq.Again:
                        break
                    self.handle_frames([frame.bytes for frame in message], user_id(message[-1]))
            self._process_cameras(ready)
            if self.curve is not None:
                for monitor in self._monitors:
                    if monitor in ready:
                        self.curve.log_refusals(monitor)
            self._tick()

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        for feed in getattr(self, "feeds", []):
            feed.close()
        if hasattr(self, "publisher"):
            self.publisher.close()
        for socket in self._sockets:
            socket.close(linger=0)
        if self.curve is not None:
            self.curve.close()


def _request_id(payload: bytes) -> str | int | None:
    """The ``id`` of a refused request when it can still be read, so the client can match the error."""
    if len(payload) > wire.MAX_REQUEST_BYTES:
        return None
    try:
        obj = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    request_id = obj.get("id") if isinstance(obj, dict) else None
    return request_id if isinstance(request_id, str | int) and not isinstance(request_id, bool) else None
