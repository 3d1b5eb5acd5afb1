"""A control socket for the synthetic table: a hand that places, lifts and removes figures on command.

``hexa vision --synthetic SCENARIO --control tcp://127.0.0.1:5557`` keeps every figure still until
told otherwise. Requests are one JSON frame on a ZeroMQ ROUTER (DEALER or REQ clients); every
request gets one JSON reply ``{"ok": true, ...}`` or ``{"ok": false, "error": "what and how to fix"}``:

``{"cmd": "place", "marker": 3, "x_mm": 120.0, "y_mm": 80.5, "angle_deg": 0.0}``
    a hand carries the figure there (the tag moves for a moment, then settles); ``angle_deg`` optional;
    ``height_mm`` optional: the tag's new height above the table (a figure put on a raised tile).
``{"cmd": "lift", "marker": 3}``    the figure is picked up and held out of view.
``{"cmd": "remove", "marker": 3}``  the figure is taken off the table.
``{"cmd": "list"}``                 where every marker is: ``{"markers": [{marker, x_mm, y_mm, angle_deg, state}]}``
                                    with state ``on_table``, ``moving``, ``in_hand`` or ``off_table``.
``{"cmd": "roll", "tray": "tray", "dice": [{"kind": "d6", "value": 5}, {"kind": "d10", "value": 0}]}``
    a hand throws those dice into the tray (picking up any already there); they tumble and settle showing
    those faces. Optional hard cases, each ``true``/``false``: ``"glare"`` (glossy dice), ``"touching"``
    (the first two end touching), ``"cocked"`` (the last one leans), ``"outside"`` (the last one ends partly
    outside the tray). ``"tray"`` defaults to ``"tray"``. The reply's ``seconds`` is when the last die rests,
    ``rests_at`` the same on the table's clock (the first frame showing every die at rest is the first whose
    index / fps reaches it).
``{"cmd": "clear_tray", "tray": "tray"}``  a hand picks every die up.

Motions run on the table's own clock (the time the renderer asks for), so they look the same in
real time and in ``--fast`` runs. :class:`ControlledTable` is thread-safe: the control thread
changes it while the frame thread reads it.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import dataclass, replace
from typing import Any

import zmq

from engine.i18n import gettext_for
from engine.service.security import is_loopback
from vision.synthetic.control_client import DEFAULT_CONTROL, ControlError, TableControlClient
from vision.synthetic.dice_tray import DiceTray, DieOrder, HardCase
from vision.synthetic.motion import Choreography, hand_at
from vision.synthetic.scene import Figure, Hand

_ = gettext_for(__name__)
__all__ = [
    "DEFAULT_CONTROL",
    "ControlError",
    "ControlServer",
    "ControlledTable",
    "TableControlClient",
    "handle_request",
    "motion_seconds",
]

log = logging.getLogger(__name__)

COMMANDS = ("place", "lift", "remove", "list", "roll", "clear_tray")
HARD_CASES = ("glare", "touching", "cocked", "outside")
MAX_DICE = 12
MAX_REQUEST_BYTES = 4096
ON_TABLE, MOVING, IN_HAND, OFF_TABLE = "on_table", "moving", "in_hand", "off_table"


@dataclass(frozen=True)
class _Motion:
    """A hand carrying a figure from ``start`` to ``end`` (mm) between table times ``t0`` and ``t1``."""

    start: tuple[float, float]
    end: tuple[float, float]
    angle_from: float
    angle_to: float
    t0: float
    t1: float
    appear: bool  # put down from the hand or from off the table: hidden under the hand until half-way


def motion_seconds(distance_mm: float) -> float:
    """How long a hand takes to carry a figure this far: 0.6 s for a short hop, at most 1.5 s."""
    return min(1.5, max(0.6, 0.4 + distance_mm / 300.0))


class ControlledTable(Choreography):
    """The figures of a synthetic table, moved only by commands (a :class:`Choreography` with no schedule)."""

    def __init__(self, figures: tuple[Figure, ...], size_mm: tuple[float, float] | None = None,
                 trays: tuple[DiceTray, ...] = ()) -> None:
        super().__init__(())
        self.trays = {tray.name: tray for tray in trays}
        self._figures: dict[int, Figure] = {f.marker_id: f for f in figures}
        self._order = [f.marker_id for f in figures]
        self._state: dict[int, str] = {f.marker_id: ON_TABLE for f in figures}
        self._motions: dict[int, _Motion] = {}
        self._lock = threading.Lock()
        self._now = 0.0
        self.size_mm = size_mm

    # -- the renderer's side ---------------------------------------------------------------------
    def at(self, t: float) -> tuple[tuple[Figure, ...], tuple[Hand, ...]]:
        """Figures on the table and hands over it at table time ``t`` (finished motions settle)."""
        with self._lock:
            self._now = max(self._now, t)
            figures: list[Figure] = []
            hands: list[Hand] = []
            for marker in self._order:
                motion = self._motions.get(marker)
                f = self._figures[marker]
                if motion is not None and t >= motion.t1:
                    del self._motions[marker]
                    self._state[marker] = ON_TABLE
                    motion = None
                if motion is None:
                    if self._state[marker] == ON_TABLE:
                        figures.append(f)
                    continue
                s = max(0.0, (t - motion.t0) / (motion.t1 - motion.t0))
                s = s * s * (3 - 2 * s)  # ease in and out, as a hand does
                x = motion.start[0] + s * (motion.end[0] - motion.start[0])
                y = motion.start[1] + s * (motion.end[1] - motion.start[1])
                angle = motion.angle_from + s * (motion.angle_to - motion.angle_from) + 20.0 * math.sin(math.pi * s)
                if not motion.appear or s >= 0.5:
                    figures.append(f.moved(x, y, angle))
                    hands.append(hand_at(x, y + f.base_mm * 0.6, f.height_mm * 0.5))  # holds the body, tag in view
                else:
                    hands.append(hand_at(x, y, f.height_mm + 40.0, reach_deg=90.0))  # the figure is in the palm
            return tuple(figures), tuple(hands)

    # -- the commands' side ----------------------------------------------------------------------
    def markers(self) -> list[dict[str, Any]]:
        """Every marker: where it stands (or will stand once put down) and its state."""
        with self._lock:
            out = []
            for marker in self._order:
                f = self._figures[marker]
                state = MOVING if marker in self._motions else self._state[marker]
                out.append({"marker": marker, "x_mm": round(f.x_mm, 2), "y_mm": round(f.y_mm, 2),
                            "angle_deg": round(f.angle_deg, 2), "state": state})
            return out

    def _known(self, marker: Any) -> int:
        if isinstance(marker, bool) or not isinstance(marker, int):
            raise ControlError(_("marker: expected a marker id (an integer), got {marker!r}", marker=marker))
        if marker not in self._figures:
            known = ", ".join(map(str, self._order)) or "none"
            raise ControlError(_("marker {marker} is not on this synthetic table; its markers are {known}",
                                 marker=marker, known=known))
        return marker

    def place(self, marker: Any, x_mm: float, y_mm: float, angle_deg: float | None = None,
              height_mm: float | None = None) -> float:
        """Carry the figure to (x, y) (its tag to ``height_mm`` when given); returns how many seconds the hand takes."""
        with self._lock:
            marker = self._known(marker)
            if self.size_mm is not None:
                w, h = self.size_mm
                if not (-50.0 <= x_mm <= w + 50.0 and -50.0 <= y_mm <= h + 50.0):
                    raise ControlError(_("({x_mm:.0f}, {y_mm:.0f}) mm is off the table (0..{w:.0f} × 0..{h:.0f} mm): "
                                         "give a position on it", x_mm=x_mm, y_mm=y_mm, w=w, h=h))
            f = self._figures[marker]
            motion = self._motions.pop(marker, None)
            held = self._state[marker] != ON_TABLE
            start = (f.x_mm, f.y_mm) if motion is None else self._position(motion, self._now)
            if held:
                start = (x_mm, y_mm + 60.0)  # brought in from the player's side
            angle = f.angle_deg if angle_deg is None else angle_deg
            seconds = motion_seconds(math.dist(start, (x_mm, y_mm)))
            t0 = self._now + 1e-6
            self._motions[marker] = _Motion(start, (x_mm, y_mm), f.angle_deg, angle, t0, t0 + seconds, held)
            moved = f.moved(x_mm, y_mm, angle)
            self._figures[marker] = moved if height_mm is None else replace(moved, height_mm=height_mm)
            self._state[marker] = MOVING
            log.info("control: marker %d placed at (%.1f, %.1f) mm", marker, x_mm, y_mm)
            return seconds

    @staticmethod
    def _position(motion: _Motion, t: float) -> tuple[float, float]:
        s = min(1.0, max(0.0, (t - motion.t0) / (motion.t1 - motion.t0)))
        s = s * s * (3 - 2 * s)
        return (motion.start[0] + s * (motion.end[0] - motion.start[0]),
                motion.start[1] + s * (motion.end[1] - motion.start[1]))

    def take(self, marker: Any, state: str) -> None:
        """Lift the figure into a hand (``in_hand``) or take it off the table (``off_table``)."""
        with self._lock:
            marker = self._known(marker)
            self._motions.pop(marker, None)
            self._state[marker] = state
            log.info("control: marker %d %s", marker, "lifted" if state == IN_HAND else "removed")


def _number(request: dict[str, Any], key: str, required: bool = True) -> float | None:
    value = request.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ControlError(_("{key}: expected a finite number of millimetres/degrees, got {value!r}",
                             key=key, value=value))
    return float(value)


def _tray(table: ControlledTable, request: dict[str, Any]) -> DiceTray:
    name = request.get("tray", "tray")
    if name not in table.trays:
        known = ", ".join(table.trays) or "none"
        raise ControlError(_("tray {name!r} is not on this synthetic table (its trays: {known}); start it with "
                             "'hexa vision --synthetic … --dice' to draw a tray", name=name, known=known))
    return table.trays[name]


def _roll(table: ControlledTable, request: dict[str, Any]) -> float:
    """Throw the request's dice into its tray; returns the seconds until they rest."""
    tray = _tray(table, request)
    dice = request.get("dice")
    if not isinstance(dice, list) or not 1 <= len(dice) <= MAX_DICE:
        raise ControlError(_("dice: expected a list of 1 to {MAX_DICE} dice like {{\"kind\": \"d6\", \"value\": 5}}",
                             MAX_DICE=MAX_DICE))
    orders = []
    for die in dice:
        kind = die.get("kind") if isinstance(die, dict) else None
        value = die.get("value") if isinstance(die, dict) else None
        if kind not in ("d6", "d10") or isinstance(value, bool) or not isinstance(value, int):
            raise ControlError(_("dice: each die is {{\"kind\": \"d6\" or \"d10\", \"value\": N}}, got {die!r}",
                                 die=die))
        orders.append(DieOrder(kind, value))
    flags = {}
    for key in HARD_CASES:
        value = request.get(key, False)
        if not isinstance(value, bool):
            raise ControlError(_("{key}: expected true or false, got {value!r}", key=key, value=value))
        flags[key] = value
    try:
        return tray.throw(orders, HardCase(**flags))
    except ValueError as exc:
        raise ControlError(_("cannot throw those dice: {exc}", exc=exc)) from None


def handle_request(table: ControlledTable, payload: bytes) -> dict[str, Any]:
    """Carry out one JSON request on ``table``; the reply dict (errors included, never raises)."""
    request_id = None
    try:
        if len(payload) > MAX_REQUEST_BYTES:
            raise ControlError(_("request of {count} bytes exceeds {MAX_REQUEST_BYTES}: send one command",
                                 count=len(payload), MAX_REQUEST_BYTES=MAX_REQUEST_BYTES))
        try:
            request = json.loads(payload)
        except (UnicodeDecodeError, ValueError):
            raise ControlError(_("not a JSON object: send e.g. {\"cmd\": \"list\"}")) from None
        if not isinstance(request, dict):
            raise ControlError(_("not a JSON object: send e.g. {\"cmd\": \"list\"}"))
        request_id = request.get("id")
        cmd = request.get("cmd")
        if cmd not in COMMANDS:
            raise ControlError(_("unknown command {cmd!r}: use one of {join}", cmd=cmd, join=', '.join(COMMANDS)))
        reply: dict[str, Any] = {"ok": True, "cmd": cmd, "id": request_id}
        if cmd == "place":
            x, y = _number(request, "x_mm"), _number(request, "y_mm")
            assert x is not None and y is not None
            reply["seconds"] = table.place(request.get("marker"), x, y, _number(request, "angle_deg", False),
                                           _number(request, "height_mm", False))
        elif cmd in ("lift", "remove"):
            table.take(request.get("marker"), IN_HAND if cmd == "lift" else OFF_TABLE)
        elif cmd == "roll":
            reply["seconds"] = _roll(table, request)
            reply["rests_at"] = _tray(table, request).resting_at()  # table time: frame index / fps (benchmarks)
        elif cmd == "clear_tray":
            _tray(table, request).clear()
        else:
            reply["markers"] = table.markers()
        return reply
    except ControlError as exc:
        log.warning("control request refused: %s", exc)
        return {"ok": False, "error": str(exc), "id": request_id}


class ControlServer:
    """Serves control requests for one :class:`ControlledTable` on its own thread until :meth:`close`."""

    def __init__(self, endpoint: str, table: ControlledTable,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None) -> None:
        if not is_loopback(endpoint):
            raise ControlError(_("--control {endpoint}: the synthetic table's hand listens on loopback only; use "
                                 "tcp://127.0.0.1:PORT", endpoint=endpoint))
        self.table = table
        self._context = context or zmq.Context.instance()
        self._socket = self._context.socket(zmq.ROUTER)
        self._socket.setsockopt(zmq.LINGER, 0)
        try:
            self._socket.bind(endpoint)
        except zmq.ZMQError as exc:
            self._socket.close(linger=0)
            raise ControlError(_("cannot bind the control socket {endpoint} ({strerror}): is another 'hexa vision "
                                 "--control' running? Pass --control with another port.",
                                 endpoint=endpoint, strerror=exc.strerror)) from None
        last = self._socket.getsockopt(zmq.LAST_ENDPOINT)
        self.endpoint = last.decode() if isinstance(last, bytes) else str(last)
        self.handled = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="synthetic-table-control", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._socket.poll(100, zmq.POLLIN):
                continue
            frames = self._socket.recv_multipart()
            identity, rest = frames[0], frames[1:]
            envelope = [identity, b""] if rest and rest[0] == b"" else [identity]
            body = rest[len(envelope) - 1:]
            if len(body) == 1:
                reply = handle_request(self.table, body[0])
            else:
                reply = {"ok": False, "error": f"expected one frame holding a JSON command, got {len(body)}"}
            self.handled += 1
            try:
                self._socket.send_multipart([*envelope, json.dumps(reply).encode()], flags=zmq.NOBLOCK)
            except zmq.ZMQError as exc:
                log.warning("control: could not answer a client (%s)", exc.strerror)
        self._socket.close(linger=0)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
