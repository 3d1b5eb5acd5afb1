"""The demo's hand: the tablet's command port, which makes moves on the synthetic table instead of sending them.

A ZeroMQ ROUTER that the app uses as the engine's command port. Every command goes to the engine
unchanged (one DEALER per tablet, so replies find their way back), except ``action`` commands whose
action is a move to another hex: those become a ``place`` on the synthetic table at the hex's table
position and are answered ok at once, so the camera sees the move and the engine judges it exactly
as with a real figure. A move that keeps the figure on its hex is forwarded (the camera cannot see
"stay"). After a removal the engine accepted, the hand takes the marker off the table; after a roll or
choice that made the game move a figure itself (a retreat, an advance), the hand puts it there.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from types import TracebackType
from typing import Any

import zmq

from engine import wire
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.scenario import Scenario, load_scenario
from engine.service.client import EngineClient
from engine.wire import WireError
from vision.synthetic.control_client import ControlError, TableControlClient

from .table_moves import TableMove, corrections, make_room, place_on, table_hex

log = logging.getLogger(__name__)
_ = gettext_for(__name__)


class TableHandProxy:
    """Serves the tablet's commands on ``endpoint`` on its own thread until :meth:`close` (or ``with``)."""

    def __init__(self, endpoint: str, engine_commands: str, engine_pub: str, control: str, scenario: str | Scenario,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None) -> None:
        self.scenario = load_scenario(scenario) if isinstance(scenario, str) else scenario
        self.engine_commands, self.engine_pub, self.control_endpoint = engine_commands, engine_pub, control
        self._context = context or zmq.Context.instance()
        self._front = self._context.socket(zmq.ROUTER)
        self._front.setsockopt(zmq.LINGER, 0)
        try:
            self._front.bind(endpoint)
        except zmq.ZMQError as exc:
            self._front.close(linger=0)
            raise ControlError(_("the table hand cannot listen on {endpoint} ({error}): pick another port",
                                 endpoint=endpoint, error=exc.strerror)) from None
        last = self._front.getsockopt(zmq.LAST_ENDPOINT)
        self.endpoint = last.decode() if isinstance(last, bytes) else str(last)
        self._backs: dict[bytes, tuple[zmq.Socket[bytes], list[bytes]]] = {}  # tablet identity → dealer, envelope
        self._removals: dict[tuple[bytes, Any], str] = {}  # (tablet, request id) → figure to take off
        self._followups: set[tuple[bytes, Any]] = set()  # rolls and choices: the game may move figures itself
        self.engine_run = "table-hand"
        self.seq = 0
        self.placed: list[TableMove] = []  # every hand move made for the tablet, for logs and tests
        self.forwarded = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="table-hand", daemon=True)
        self._thread.start()

    def __enter__(self) -> TableHandProxy:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- the loop (all sockets live on this thread) ------------------------------------------------
    def _run(self) -> None:
        table = TableControlClient(self.control_endpoint, self._context)
        engine = EngineClient(self.engine_pub, self.engine_commands, self._context, topics=())
        try:
            while not self._stop.is_set():
                poller = zmq.Poller()
                poller.register(self._front, zmq.POLLIN)
                for dealer, _envelope in self._backs.values():
                    poller.register(dealer, zmq.POLLIN)
                for sock, _event in poller.poll(100):
                    if sock is self._front:
                        self._from_tablet(self._front.recv_multipart(), table)
                    else:
                        self._from_engine(sock, table, engine)
        finally:
            table.close()
            engine.close()
            for dealer, _envelope in self._backs.values():
                dealer.close(linger=0)
            self._front.close(linger=0)

    def _dealer(self, identity: bytes, envelope: list[bytes]) -> zmq.Socket[bytes]:
        if identity not in self._backs:
            dealer = self._context.socket(zmq.DEALER)
            dealer.setsockopt(zmq.LINGER, 0)
            dealer.connect(self.engine_commands)
            self._backs[identity] = (dealer, envelope)
        return self._backs[identity][0]

    def _from_tablet(self, frames: list[bytes], table: TableControlClient) -> None:
        identity, rest = frames[0], frames[1:]
        envelope = [identity, b""] if rest and rest[0] == b"" else [identity]
        body = rest[len(envelope) - 1:]
        dealer = self._dealer(identity, envelope)
        if len(body) == 1:
            try:
                request = wire.parse_request(body[0])
            except WireError:
                request = None  # the engine answers it with the reason
            if request is not None and request.cmd == "action" and isinstance(request.args.get("action"), dict):
                action = request.args["action"]
                if action.get("kind") == "move" and self._place(identity, envelope, request, action, table):
                    return
                key = (identity, request.id)
                if action.get("kind") == "remove" and isinstance(action.get("figure"), str):
                    self._removals[key] = action["figure"]
                elif action.get("kind") in ("roll", "choose"):
                    self._followups.add(key)
        dealer.send_multipart(body)
        self.forwarded += 1

    def _place(self, identity: bytes, envelope: list[bytes], request: wire.EngineRequest, action: dict[str, Any],
               table: TableControlClient) -> bool:
        """Turn a move into a hand on the table; False to forward it (stay on the hex, or not a valid move)."""
        figure, to = action.get("figure"), action.get("to")
        valid_to = isinstance(to, list) and len(to) == 2 and all(isinstance(v, int) for v in to)
        if not isinstance(figure, str) or not valid_to or figure not in {f.id for f in self.scenario.figures}:
            return False
        assert isinstance(to, list)
        target = Hex(to[0], to[1])
        if target not in self.scenario.board:
            return False
        try:
            markers = table.markers()
            move = place_on(self.scenario, figure, target, markers)
            marker = markers.get(move.marker)
            if marker is not None and table_hex(self.scenario, marker) == target:
                return False  # staying put: the tablet's answer is the only way to say it
            for slide in make_room(self.scenario, figure, target, markers):  # the stack there moves apart first
                table.place(slide.marker, slide.x_mm, slide.y_mm, slide.angle_deg, slide.height_mm)
            table.place(move.marker, move.x_mm, move.y_mm, move.angle_deg, move.height_mm)
        except (ControlError, TimeoutError) as exc:
            self._answer(envelope, False, _("the synthetic table could not move the figure: {error}", error=exc),
                         request.id)
            return True
        self.placed.append(move)
        log.info("table hand: %s to %s", figure, self.scenario.label(target))
        self._answer(envelope, True, None, request.id, pending="camera",
                     text=_("the hand puts {name} on {cell}; the camera will judge the move",
                            name=self.scenario.figure(figure).name, cell=self.scenario.label(target)))
        return True

    def _answer(self, envelope: list[bytes], ok: bool, error: str | None, request_id: Any, **fields: Any) -> None:
        payload = wire.encode_reply(ok, error, cmd="action", request_id=request_id, seq=self.seq,
                                    engine_run=self.engine_run, sent_at=time.time(), **fields)
        self._front.send_multipart([*envelope, payload])

    def _from_engine(self, dealer: zmq.Socket[bytes], table: TableControlClient, engine: EngineClient) -> None:
        frames = dealer.recv_multipart()
        identity = next(i for i, (d, _envelope) in self._backs.items() if d is dealer)
        try:
            self._after_reply(identity, frames[-1], table, engine)
        finally:  # the hand acts first, so the tablet's next look at the table already shows it
            self._front.send_multipart([*self._backs[identity][1], *frames])

    def _after_reply(self, identity: bytes, payload: bytes, table: TableControlClient, engine: EngineClient) -> None:
        try:
            reply = json.loads(payload)
        except ValueError:
            return
        if not isinstance(reply, dict):
            return
        if isinstance(reply.get("engine_run"), str):
            self.engine_run = reply["engine_run"]
        if isinstance(reply.get("seq"), int):
            self.seq = reply["seq"]
        key = (identity, reply.get("id"))
        figure = self._removals.pop(key, None)
        followup = key in self._followups
        self._followups.discard(key)
        if not reply.get("ok"):
            return
        try:
            if figure is not None:
                table.remove(self.scenario.figure(figure).marker_id)
                log.info("table hand: %s taken off the table", figure)
            elif followup:
                self._follow_game(table, engine)
        except (ControlError, TimeoutError) as exc:
            log.warning("the table hand could not follow the game: %s", exc)

    def _follow_game(self, table: TableControlClient, engine: EngineClient) -> None:
        """Put figures where the game moved them itself; the figure awaited by a prompt is left to the player."""
        reply = engine.request("snapshot", timeout_s=3.0)
        if not reply.ok:
            return
        game = reply.fields["game"]
        prompt = game["prompt"]
        skip = prompt.get("figure") if prompt.get("kind") in ("move", "remove") else None
        for fix in corrections(self.scenario, game["state"], table.markers(), skip):
            if fix.to is None:
                table.remove(fix.marker)
            else:
                table.place(fix.marker, fix.x_mm, fix.y_mm, fix.angle_deg, fix.height_mm)
            self.placed.append(fix)
            log.info("table hand: %s put where the game has it", fix.figure)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=3.0)
