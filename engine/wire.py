"""The wire schema: every message the product's processes exchange, documented and validated here.

Published messages are ZeroMQ multipart ``[topic, json]``; an engine command and its reply are one JSON
frame each (docs/wire-protocol.md). The JSON object holds the envelope keys
``topic``, ``version``, ``seq`` (monotonic per publisher) and ``sent_at`` (Unix seconds) beside the
message's own fields. Receivers call :func:`decode` (or ``Cls.from_json``) which validates every
field and raises :class:`WireError` naming the field and the problem. Unknown extra keys are
ignored so that a newer sender can add optional fields; a different major ``version`` is refused.

Message families (add new ones with :func:`register`):

vision (camera service, PUB ``tcp://127.0.0.1:5555``; snapshot ROUTER ``tcp://127.0.0.1:5556``)
  ``tracks``            :class:`TracksMessage`, one per processed frame: every tracked marker.
  ``heartbeat``         :class:`Heartbeat`, about once a second, also when no camera is delivering.
  ``preview``           :class:`PreviewMessage`, optional low-rate JPEG with detections drawn.
  ``vision.snapshot?``  :class:`VisionSnapshotRequest`, sent by a late joiner on the snapshot socket.
  ``vision.snapshot``   :class:`VisionSnapshot`, the reply: the newest ``tracks`` message, if any.

engine (rules hub, PUB ``tcp://127.0.0.1:5560``; commands ROUTER ``tcp://127.0.0.1:5561``)
  ``game.state``, ``game.events``, ``game.scenario``, ``table``, ``table.view``, ``engine.heartbeat``;
  commands ``{cmd, ...}`` answered by ``engine.reply``. See the engine family section below.

Clone pattern: a subscriber subscribes first, then asks for a snapshot, then applies only
``tracks`` whose ``seq`` is higher than the snapshot's.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # preview JPEGs are the largest messages; base64 adds a third

TOPIC_TRACKS = b"tracks"
TOPIC_HEARTBEAT = b"heartbeat"
TOPIC_PREVIEW = b"preview"
TOPIC_VISION_SNAPSHOT_REQUEST = b"vision.snapshot?"
TOPIC_VISION_SNAPSHOT = b"vision.snapshot"

TRACK_STATES: tuple[str, ...] = ("moving", "settled", "lifted", "lost")
CAMERA_STATUSES: tuple[str, ...] = ("ok", "no_camera", "reconnecting", "ended")


class WireError(ValueError):
    """A message that cannot be accepted: the text names the field and what is wrong with it."""


# ---------------------------------------------------------------- field readers (validate on receipt)


def _get(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise WireError(f"{where}.{key}: missing (required field)")
    return obj[key]


def _int(obj: Mapping[str, Any], key: str, where: str, minimum: int | None = 0) -> int:
    value = _get(obj, key, where)
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"{where}.{key}: expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise WireError(f"{where}.{key}: must be >= {minimum}, got {value}")
    return value


def _float(
    obj: Mapping[str, Any], key: str, where: str, low: float | None = None, high: float | None = None
) -> float:
    value = _get(obj, key, where)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WireError(f"{where}.{key}: expected a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise WireError(f"{where}.{key}: must be a finite number, got {value!r}")
    if (low is not None and number < low) or (high is not None and number > high):
        raise WireError(f"{where}.{key}: must be within [{low}, {high}], got {number}")
    return number


def _str(obj: Mapping[str, Any], key: str, where: str, choices: Sequence[str] | None = None) -> str:
    value = _get(obj, key, where)
    if not isinstance(value, str):
        raise WireError(f"{where}.{key}: expected a string, got {value!r}")
    if choices is not None and value not in choices:
        raise WireError(f"{where}.{key}: must be one of {', '.join(choices)}; got {value!r}")
    return value


def _list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = _get(obj, key, where)
    if not isinstance(value, list):
        raise WireError(f"{where}.{key}: expected a list, got {type(value).__name__}")
    return value


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise WireError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def _reject_constant(name: str) -> float:
    raise WireError(f"JSON contains {name}, which is not valid JSON; send finite numbers only")


# ---------------------------------------------------------------- envelope and base class


@dataclass(frozen=True, slots=True)
class Envelope:
    """The keys every message carries: what it is, which protocol, its order, when it left."""

    topic: str
    version: int
    seq: int
    sent_at: float


def parse_envelope(payload: bytes | str) -> tuple[Envelope, Mapping[str, Any]]:
    """Parse and check the JSON text and its envelope; return the envelope and the whole object."""
    size = len(payload)
    if size > MAX_MESSAGE_BYTES:
        raise WireError(f"message: {size} bytes exceeds the limit of {MAX_MESSAGE_BYTES} bytes")
    try:
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        raw = json.loads(text, parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise WireError(f"message: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise WireError(f"message: not valid JSON ({exc.msg} at character {exc.pos})") from None
    except RecursionError:
        raise WireError("message: JSON nested too deeply") from None
    obj = _object(raw, "message")
    topic = _str(obj, "topic", "message")
    version = _int(obj, "version", topic)
    if version != PROTOCOL_VERSION:
        raise WireError(
            f"{topic}.version: protocol {version} is not supported (this program speaks {PROTOCOL_VERSION}); "
            "run the same release of every process"
        )
    seq = _int(obj, "seq", topic)
    sent_at = _float(obj, "sent_at", topic, low=0.0)
    return Envelope(topic, version, seq, sent_at), obj


M = TypeVar("M", bound="Message")


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message: ``seq`` and ``sent_at`` from the envelope, ``TOPIC`` per subclass."""

    TOPIC: ClassVar[bytes] = b""

    seq: int
    sent_at: float

    def body(self) -> dict[str, Any]:
        """The message's own fields as JSON-ready values (subclasses extend)."""
        return {}

    @classmethod
    def parse_body(cls: type[M], obj: Mapping[str, Any], envelope: Envelope) -> M:
        """Build the message from a validated envelope and the raw object (subclasses implement)."""
        raise NotImplementedError

    def to_json(self) -> bytes:
        """Encode as UTF-8 JSON, envelope first; refuses to produce an oversized message."""
        obj: dict[str, Any] = {
            "topic": self.TOPIC.decode(),
            "version": PROTOCOL_VERSION,
            "seq": self.seq,
            "sent_at": self.sent_at,
        }
        obj.update(self.body())
        data = json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()
        if len(data) > MAX_MESSAGE_BYTES:
            raise WireError(f"{self.TOPIC.decode()}: {len(data)} bytes exceeds the limit of {MAX_MESSAGE_BYTES}")
        return data

    def to_frames(self) -> list[bytes]:
        """The multipart ZeroMQ frames ``[topic, json]``."""
        return [self.TOPIC, self.to_json()]

    @classmethod
    def from_json(cls: type[M], payload: bytes | str) -> M:
        """Decode and validate; raises :class:`WireError` for anything malformed or of another topic."""
        envelope, obj = parse_envelope(payload)
        expected = cls.TOPIC.decode()
        if envelope.topic != expected:
            raise WireError(f"message.topic: expected {expected!r}, got {envelope.topic!r}")
        return cls.parse_body(obj, envelope)


_REGISTRY: dict[bytes, type[Message]] = {}


def register(cls: type[M]) -> type[M]:
    """Class decorator: make a message type known to :func:`decode` under its ``TOPIC``."""
    if not cls.TOPIC:
        raise ValueError(f"{cls.__name__} has no TOPIC")
    if cls.TOPIC in _REGISTRY and _REGISTRY[cls.TOPIC] is not cls:
        raise ValueError(f"topic {cls.TOPIC!r} is already registered to {_REGISTRY[cls.TOPIC].__name__}")
    _REGISTRY[cls.TOPIC] = cls
    return cls


def known_topics() -> tuple[bytes, ...]:
    """Every registered topic, in registration order."""
    return tuple(_REGISTRY)


def decode(frames: Sequence[bytes]) -> Message:
    """Decode multipart ``[topic, json]`` into the registered message type for that topic."""
    if len(frames) != 2:
        raise WireError(f"message: expected 2 frames [topic, json], got {len(frames)}")
    topic, payload = frames
    cls = _REGISTRY.get(bytes(topic))
    if cls is None:
        known = ", ".join(t.decode() for t in _REGISTRY)
        raise WireError(f"message: unknown topic {bytes(topic)[:64]!r}; known topics: {known}")
    return cls.from_json(payload)


# ---------------------------------------------------------------- vision family


@dataclass(frozen=True, slots=True)
class MarkerTrack:
    """One tracked marker: table position (mm), image position (px), facing, state and confidence."""

    id: int
    x_mm: float
    y_mm: float
    angle_deg: float
    state: str
    confidence: float
    x_px: float
    y_px: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "x_mm": self.x_mm,
            "y_mm": self.y_mm,
            "angle_deg": self.angle_deg,
            "state": self.state,
            "confidence": self.confidence,
            "x_px": self.x_px,
            "y_px": self.y_px,
        }

    @staticmethod
    def from_dict(value: Any, where: str) -> MarkerTrack:
        obj = _object(value, where)
        return MarkerTrack(
            id=_int(obj, "id", where),
            x_mm=_float(obj, "x_mm", where),
            y_mm=_float(obj, "y_mm", where),
            angle_deg=_float(obj, "angle_deg", where, low=-180.0, high=180.0),
            state=_str(obj, "state", where, TRACK_STATES),
            confidence=_float(obj, "confidence", where, low=0.0, high=1.0),
            x_px=_float(obj, "x_px", where),
            y_px=_float(obj, "y_px", where),
        )


@register
@dataclass(frozen=True, slots=True)
class TracksMessage(Message):
    """Every marker the camera service tracks after one processed frame."""

    TOPIC: ClassVar[bytes] = TOPIC_TRACKS

    camera_id: str
    frame_index: int
    captured_at: float
    markers: tuple[MarkerTrack, ...] = ()
    warnings: tuple[str, ...] = ()

    def body(self) -> dict[str, Any]:
        return {
            "camera_id": self.camera_id,
            "frame_index": self.frame_index,
            "captured_at": self.captured_at,
            "markers": [m.to_dict() for m in self.markers],
            "warnings": list(self.warnings),
        }

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> TracksMessage:
        where = envelope.topic
        markers = tuple(
            MarkerTrack.from_dict(m, f"{where}.markers[{i}]") for i, m in enumerate(_list(obj, "markers", where))
        )
        warnings = _list(obj, "warnings", where)
        for i, w in enumerate(warnings):
            if not isinstance(w, str):
                raise WireError(f"{where}.warnings[{i}]: expected a string, got {w!r}")
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=_str(obj, "camera_id", where),
            frame_index=_int(obj, "frame_index", where),
            captured_at=_float(obj, "captured_at", where, low=0.0),
            markers=markers,
            warnings=tuple(warnings),
        )


@register
@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    """Liveness of the camera service, sent even when no frames arrive (``status`` says why)."""

    TOPIC: ClassVar[bytes] = TOPIC_HEARTBEAT

    camera_id: str
    status: str
    fps: float
    last_tracks_seq: int
    detail: str = ""

    def body(self) -> dict[str, Any]:
        return {
            "camera_id": self.camera_id,
            "status": self.status,
            "fps": self.fps,
            "last_tracks_seq": self.last_tracks_seq,
            "detail": self.detail,
        }

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> Heartbeat:
        where = envelope.topic
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=_str(obj, "camera_id", where),
            status=_str(obj, "status", where, CAMERA_STATUSES),
            fps=_float(obj, "fps", where, low=0.0),
            last_tracks_seq=_int(obj, "last_tracks_seq", where, minimum=-1),
            detail=_str(obj, "detail", where),
        )


@register
@dataclass(frozen=True, slots=True)
class PreviewMessage(Message):
    """A small JPEG of the camera view with detections drawn (base64 in JSON)."""

    TOPIC: ClassVar[bytes] = TOPIC_PREVIEW

    camera_id: str
    captured_at: float
    width: int
    height: int
    jpeg: bytes = field(repr=False)

    def body(self) -> dict[str, Any]:
        return {
            "camera_id": self.camera_id,
            "captured_at": self.captured_at,
            "width": self.width,
            "height": self.height,
            "jpeg": base64.b64encode(self.jpeg).decode("ascii"),
        }

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> PreviewMessage:
        where = envelope.topic
        text = _str(obj, "jpeg", where)
        try:
            jpeg = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise WireError(f"{where}.jpeg: not valid base64") from None
        if not jpeg.startswith(b"\xff\xd8"):
            raise WireError(f"{where}.jpeg: not a JPEG image (missing the FF D8 start marker)")
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=_str(obj, "camera_id", where),
            captured_at=_float(obj, "captured_at", where, low=0.0),
            width=_int(obj, "width", where, minimum=1),
            height=_int(obj, "height", where, minimum=1),
            jpeg=jpeg,
        )


@register
@dataclass(frozen=True, slots=True)
class VisionSnapshotRequest(Message):
    """A late joiner's request for the camera service's current set of tracks."""

    TOPIC: ClassVar[bytes] = TOPIC_VISION_SNAPSHOT_REQUEST

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> VisionSnapshotRequest:
        return cls(seq=envelope.seq, sent_at=envelope.sent_at)


@register
@dataclass(frozen=True, slots=True)
class VisionSnapshot(Message):
    """Reply to a snapshot request: the newest ``tracks`` message (``None`` before the first frame)."""

    TOPIC: ClassVar[bytes] = TOPIC_VISION_SNAPSHOT

    camera_id: str
    tracks: TracksMessage | None = None

    def body(self) -> dict[str, Any]:
        tracks: dict[str, Any] | None = None
        if self.tracks is not None:
            tracks = {"seq": self.tracks.seq, "sent_at": self.tracks.sent_at, **self.tracks.body()}
        return {"camera_id": self.camera_id, "tracks": tracks}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> VisionSnapshot:
        where = envelope.topic
        raw = _get(obj, "tracks", where)
        tracks = None
        if raw is not None:
            inner = _object(raw, f"{where}.tracks")
            inner_where = f"{where}.tracks"
            inner_env = Envelope(
                inner_where,
                PROTOCOL_VERSION,
                _int(inner, "seq", inner_where),
                _float(inner, "sent_at", inner_where, low=0.0),
            )
            tracks = TracksMessage.parse_body(inner, inner_env)
        return cls(seq=envelope.seq, sent_at=envelope.sent_at, camera_id=_str(obj, "camera_id", where), tracks=tracks)



# ---------------------------------------------------------------- engine family
#
# Engine service (PUB ``tcp://127.0.0.1:5560``; commands ROUTER ``tcp://127.0.0.1:5561``). Every
# published message carries ``engine_run`` (a new id each time the engine starts) and ``game_id``
# (the journal's game id). ``seq`` continues across restarts (wall-clock microseconds at least), so
# a tablet never takes a restarted engine's updates for old ones.
#
#   ``game.state``        :class:`GameStateMessage`     after every change: engine.snapshot.game_snapshot.
#   ``game.events``       :class:`GameEventsMessage`    per action (and per refused camera move): log text.
#   ``game.scenario``     :class:`GameScenarioMessage`  when a game starts or is loaded.
#   ``table``             :class:`TableMessage`         the table as the camera sees it vs the game: on
#                                                       change and at least once a second.
#   ``table.view``        :class:`TableViewMessage`     fused figure positions, once per camera update.
#   ``engine.heartbeat``  :class:`EngineHeartbeat`      once a second.
#
# Requests on the ROUTER are JSON objects ``{cmd, id?, version?, ...}`` (:func:`parse_request`), each
# answered by one ``engine.reply`` object ``{ok, error, cmd, id, seq, engine_run, ...}``
# (:func:`encode_reply` / :func:`parse_reply`).

TOPIC_GAME_STATE = b"game.state"
TOPIC_GAME_EVENTS = b"game.events"
TOPIC_GAME_SCENARIO = b"game.scenario"
TOPIC_TABLE = b"table"
TOPIC_TABLE_VIEW = b"table.view"
TOPIC_ENGINE_HEARTBEAT = b"engine.heartbeat"
TOPIC_ENGINE_REPLY = b"engine.reply"

ENGINE_COMMANDS: tuple[str, ...] = (
    "snapshot", "action", "undo", "override", "new_game", "load", "save", "query", "register_manual",
    "assign_marker", "scenarios",
)
CAMERA_LINK_STATUSES: tuple[str, ...] = (*CAMERA_STATUSES, "silent", "waiting")
MAX_REQUEST_BYTES = 64 * 1024  # a command is a few hundred bytes; anything near this is an error
MAX_GAME_ID = 2**63 - 1  # journal game ids are SQLite integers
MAX_NAME_CHARS = 255  # scenario and file names in commands


def _optional_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    return None if obj.get(key) is None else _int(obj, key, where)


def _optional_float(obj: Mapping[str, Any], key: str, where: str) -> float | None:
    return None if obj.get(key) is None else _float(obj, key, where)


def _dict_field(obj: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    return dict(_object(_get(obj, key, where), f"{where}.{key}"))


def _objects(obj: Mapping[str, Any], key: str, where: str, required: Sequence[str]) -> tuple[dict[str, Any], ...]:
    """A list of JSON objects, each holding at least the ``required`` keys."""
    out = []
    for i, item in enumerate(_list(obj, key, where)):
        entry = _object(item, f"{where}.{key}[{i}]")
        for name in required:
            _get(entry, name, f"{where}.{key}[{i}]")
        out.append(dict(entry))
    return tuple(out)


def _hex_pair(value: Any, where: str) -> list[int] | None:
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise WireError(f"{where}: expected a hex [q, r] or null, got {value!r}")
    return [value[0], value[1]]


def _hex_or_label(value: Any, where: str) -> None:
    """A hex in a command: a label such as ``"F2"`` or ``[q, r]`` (the session resolves either)."""
    if isinstance(value, str) or (isinstance(value, list) and len(value) == 2
                                  and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return
    raise WireError(f"{where}: expected a hex label such as 'F2' or [q, r], got {value!r}")


@dataclass(frozen=True, slots=True)
class EngineMessage(Message):
    """Base of the engine's published messages: which engine run and which game they belong to."""

    engine_run: str
    game_id: int | None

    def body(self) -> dict[str, Any]:
        return {"engine_run": self.engine_run, "game_id": self.game_id}

    @staticmethod
    def _ids(obj: Mapping[str, Any], where: str) -> tuple[str, int | None]:
        return _str(obj, "engine_run", where), _optional_int(obj, "game_id", where)


@register
@dataclass(frozen=True, slots=True)
class GameStateMessage(EngineMessage):
    """The whole game as a tablet draws it (``engine.snapshot.game_snapshot``)."""

    TOPIC: ClassVar[bytes] = TOPIC_GAME_STATE

    snapshot: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "snapshot": self.snapshot}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> GameStateMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        snapshot = _dict_field(obj, "snapshot", where)
        for key in ("state", "prompt", "history"):
            _get(snapshot, key, f"{where}.snapshot")
        return cls(envelope.seq, envelope.sent_at, run, game, snapshot)


@register
@dataclass(frozen=True, slots=True)
class GameEventsMessage(EngineMessage):
    """What action ``n`` (1-based; 0 for a refused camera move) caused, for the log and animations."""

    TOPIC: ClassVar[bytes] = TOPIC_GAME_EVENTS

    n: int = 0
    action: str = ""
    events: tuple[dict[str, Any], ...] = ()
    source: str = "tablet"  # tablet | camera | engine (override, undo)

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "n": self.n, "action": self.action, "events": list(self.events),
                "source": self.source}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> GameEventsMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        events = _objects(obj, "events", where, ("kind", "text"))
        for i, event in enumerate(events):
            _str(event, "kind", f"{where}.events[{i}]")
            _str(event, "text", f"{where}.events[{i}]")
        return cls(envelope.seq, envelope.sent_at, run, game, _int(obj, "n", where), _str(obj, "action", where),
                   events, _str(obj, "source", where))


@register
@dataclass(frozen=True, slots=True)
class GameScenarioMessage(EngineMessage):
    """The scenario being played (``engine.snapshot.scenario_to_dict``), sent when a game starts or loads."""

    TOPIC: ClassVar[bytes] = TOPIC_GAME_SCENARIO

    scenario: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "scenario": self.scenario}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> GameScenarioMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        scenario = _dict_field(obj, "scenario", where)
        for key in ("id", "figures", "board"):
            _get(scenario, key, f"{where}.scenario")
        return cls(envelope.seq, envelope.sent_at, run, game, scenario)


@dataclass(frozen=True, slots=True)
class CameraLink:
    """One vision service as the engine hears it: ``status`` is its heartbeat's, or silent/waiting.

    ``refused``: the engine's last CURVE handshake with that camera service failed (its key is not this
    table's, or one side holds no key); optional on receipt, false when absent (an older engine).
    """

    id: str
    status: str
    last_seen_age_s: float | None
    endpoint: str = ""
    refused: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "last_seen_age_s": self.last_seen_age_s,
                "endpoint": self.endpoint, "refused": self.refused}

    @staticmethod
    def from_dict(value: Any, where: str) -> CameraLink:
        obj = _object(value, where)
        age = _optional_float(obj, "last_seen_age_s", where)
        refused = obj.get("refused", False)
        if not isinstance(refused, bool):
            raise WireError(f"{where}.refused: expected true or false, got {refused!r}")
        return CameraLink(_str(obj, "id", where), _str(obj, "status", where, CAMERA_LINK_STATUSES), age,
                          str(obj.get("endpoint", "")), refused)


@register
@dataclass(frozen=True, slots=True)
class TableMessage(EngineMessage):
    """The table against the game: lifted figures with their moves, desync, an illegal move, problems.

    ``lifted``: [{figure, moves: reach_to_list}]; ``desync``: [{figure, expected, seen, text}] (hexes as
    [q, r] or null); ``illegal``: {figure, to, reason, legal: [labels]} or null; ``pending``: figures moved
    by hand before the game asked for it [{figure, seen, text}]; ``registration``: {residual_mm,
    drift_hex, ok, text}.
    """

    TOPIC: ClassVar[bytes] = TOPIC_TABLE

    cameras: tuple[CameraLink, ...] = ()
    lifted: tuple[dict[str, Any], ...] = ()
    desync: tuple[dict[str, Any], ...] = ()
    illegal: dict[str, Any] | None = None
    pending: tuple[dict[str, Any], ...] = ()
    unknown_markers: tuple[int, ...] = ()
    duplicates: tuple[int, ...] = ()
    registration: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        return {
            **EngineMessage.body(self),
            "cameras": [c.to_dict() for c in self.cameras],
            "lifted": list(self.lifted),
            "desync": list(self.desync),
            "illegal": self.illegal,
            "pending": list(self.pending),
            "unknown_markers": list(self.unknown_markers),
            "duplicates": list(self.duplicates),
            "registration": self.registration,
        }

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> TableMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        cameras = tuple(CameraLink.from_dict(c, f"{where}.cameras[{i}]")
                        for i, c in enumerate(_list(obj, "cameras", where)))
        lifted = _objects(obj, "lifted", where, ("figure", "moves"))
        desync = _objects(obj, "desync", where, ("figure", "expected", "seen", "text"))
        for i, entry in enumerate(desync):
            _hex_pair(entry["expected"], f"{where}.desync[{i}].expected")
            _hex_pair(entry["seen"], f"{where}.desync[{i}].seen")
        illegal = None
        if _get(obj, "illegal", where) is not None:
            illegal = dict(_object(obj["illegal"], f"{where}.illegal"))
            for key in ("figure", "to", "reason", "legal"):
                _get(illegal, key, f"{where}.illegal")
        markers = []
        for key in ("unknown_markers", "duplicates"):
            values = _list(obj, key, where)
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise WireError(f"{where}.{key}: expected a list of marker ids, got {values!r}")
            markers.append(tuple(values))
        registration = _dict_field(obj, "registration", where)
        for key in ("ok", "text"):
            _get(registration, key, f"{where}.registration")
        pending = _objects(obj, "pending", where, ("figure",)) if "pending" in obj else ()
        return cls(envelope.seq, envelope.sent_at, run, game, cameras, lifted, desync, illegal, pending,
                   markers[0], markers[1], registration)


@dataclass(frozen=True, slots=True)
class FigureSighting:
    """A figure (or other marker) as the fused cameras see it, in map millimetres and on a hex.

    ``angle_deg``: the tag's angle in the map frame; ``direction``: the board direction its figure faces there
    (0..5 on a hex map); both null when unknown, and optional on receipt (an older engine)."""

    marker: int
    figure: str | None
    x_mm: float
    y_mm: float
    hex: list[int] | None
    state: str
    cameras: tuple[str, ...]
    angle_deg: float | None = None
    direction: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"marker": self.marker, "figure": self.figure, "x_mm": self.x_mm, "y_mm": self.y_mm,
                "hex": self.hex, "state": self.state, "cameras": list(self.cameras), "angle_deg": self.angle_deg,
                "direction": self.direction}

    @staticmethod
    def from_dict(value: Any, where: str) -> FigureSighting:
        obj = _object(value, where)
        figure = obj.get("figure")
        if figure is not None and not isinstance(figure, str):
            raise WireError(f"{where}.figure: expected a string or null, got {figure!r}")
        cameras = _list(obj, "cameras", where)
        if not all(isinstance(c, str) for c in cameras):
            raise WireError(f"{where}.cameras: expected a list of camera ids, got {cameras!r}")
        direction = obj.get("direction")
        if direction is not None and (not isinstance(direction, int) or isinstance(direction, bool)
                                      or not 0 <= direction < 6):
            raise WireError(f"{where}.direction: expected a board direction 0..5 or null, got {direction!r}")
        return FigureSighting(_int(obj, "marker", where), figure, _float(obj, "x_mm", where),
                              _float(obj, "y_mm", where), _hex_pair(obj.get("hex"), f"{where}.hex"),
                              _str(obj, "state", where, TRACK_STATES), tuple(cameras),
                              _optional_float(obj, "angle_deg", where), direction)


@register
@dataclass(frozen=True, slots=True)
class TableViewMessage(EngineMessage):
    """Every marker the cameras see, fused, once per camera update (``source_sent_at``: the camera's send time)."""

    TOPIC: ClassVar[bytes] = TOPIC_TABLE_VIEW

    figures: tuple[FigureSighting, ...] = ()
    source_sent_at: float = 0.0

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "figures": [f.to_dict() for f in self.figures],
                "source_sent_at": self.source_sent_at}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> TableViewMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        figures = tuple(FigureSighting.from_dict(f, f"{where}.figures[{i}]")
                        for i, f in enumerate(_list(obj, "figures", where)))
        return cls(envelope.seq, envelope.sent_at, run, game, figures, _float(obj, "source_sent_at", where, low=0.0))


@register
@dataclass(frozen=True, slots=True)
class EngineHeartbeat(EngineMessage):
    """The engine is alive; ``dropped`` counts malformed messages it refused since it started."""

    TOPIC: ClassVar[bytes] = TOPIC_ENGINE_HEARTBEAT

    uptime_s: float = 0.0
    dropped: int = 0
    desync: bool = False

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "uptime_s": self.uptime_s, "dropped": self.dropped,
                "desync": self.desync}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> EngineHeartbeat:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        desync = _get(obj, "desync", where)
        if not isinstance(desync, bool):
            raise WireError(f"{where}.desync: expected true or false, got {desync!r}")
        return cls(envelope.seq, envelope.sent_at, run, game, _float(obj, "uptime_s", where, low=0.0),
                   _int(obj, "dropped", where), desync)


# ---------------------------------------------------------------- engine commands (ROUTER) and replies


@dataclass(frozen=True, slots=True)
class EngineRequest:
    """One validated command: ``cmd``, the client's ``id`` (echoed in the reply) and its own fields."""

    cmd: str
    args: dict[str, Any]
    id: str | int | None = None


def _name(obj: Mapping[str, Any], key: str, where: str) -> str:
    """A short printable string naming a scenario or a file."""
    value = _str(obj, key, where)
    if not value:
        raise WireError(f"{where}.{key}: must not be empty")
    if len(value) > MAX_NAME_CHARS:
        raise WireError(f"{where}.{key}: {len(value)} characters is too long; give a name of at most "
                        f"{MAX_NAME_CHARS}")
    if not value.isprintable():
        raise WireError(f"{where}.{key}: contains a control character (such as NUL); give a plain name")
    return value


def _check_command(cmd: str, obj: Mapping[str, Any]) -> None:
    where = cmd
    if cmd == "action":
        _object(_get(obj, "action", where), f"{where}.action")
    elif cmd == "override":
        _str(obj, "figure", where)
        _hex_or_label(_get(obj, "to", where), f"{where}.to")
    elif cmd == "new_game":
        _name(obj, "scenario", where)
    elif cmd == "load":
        if _int(obj, "game_id", where, minimum=1) > MAX_GAME_ID:
            raise WireError(f"{where}.game_id: must be at most {MAX_GAME_ID} (a game number of the journal)")
    elif cmd == "save":
        _name(obj, "path", where)
    elif cmd == "query":
        _name(obj, "what", where)  # one of the rule set's queries: the session knows them
        for key in ("figure", "side"):
            if key in obj:
                _str(obj, key, where)
    elif cmd == "assign_marker":
        _int(obj, "marker", where)
        _str(obj, "figure", where)
    elif cmd == "register_manual":
        points = _objects(obj, "points", where, ("hex", "figure"))
        for i, point in enumerate(points):
            _hex_or_label(point["hex"], f"{where}.points[{i}].hex")
            _str(point, "figure", f"{where}.points[{i}]")


def parse_request(payload: bytes | str) -> EngineRequest:
    """Validate a command; :class:`WireError` names what is wrong (size, JSON, cmd or a field)."""
    if len(payload) > MAX_REQUEST_BYTES:
        raise WireError(f"request: {len(payload)} bytes exceeds the limit of {MAX_REQUEST_BYTES} bytes")
    try:
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        raw = json.loads(text, parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise WireError(f"request: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise WireError(f"request: not valid JSON ({exc.msg} at character {exc.pos})") from None
    except ValueError:  # an integer of thousands of digits
        raise WireError("request: a number has too many digits; send integers of at most 18 digits") from None
    except RecursionError:
        raise WireError("request: JSON nested too deeply") from None
    obj = _object(raw, "request")
    if "version" in obj and _int(obj, "version", "request") != PROTOCOL_VERSION:
        raise WireError(f"request.version: protocol {obj['version']} is not supported (this engine speaks "
                        f"{PROTOCOL_VERSION}); run the same release of the app and the engine")
    cmd = _str(obj, "cmd", "request")
    if cmd not in ENGINE_COMMANDS:
        raise WireError(f"request.cmd: unknown command {cmd[:40]!r}; known commands: {', '.join(ENGINE_COMMANDS)}")
    request_id = obj.get("id")
    if request_id is not None and (isinstance(request_id, bool) or not isinstance(request_id, str | int)):
        raise WireError(f"request.id: expected a string or an integer, got {request_id!r}")
    _check_command(cmd, obj)
    args = {k: v for k, v in obj.items() if k not in ("cmd", "id", "version")}
    return EngineRequest(cmd, args, request_id)


def encode_request(cmd: str, request_id: str | int | None = None, **fields: Any) -> bytes:
    """A command as the engine expects it (clients and tests)."""
    obj: dict[str, Any] = {"cmd": cmd, "version": PROTOCOL_VERSION, **fields}
    if request_id is not None:
        obj["id"] = request_id
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()


@dataclass(frozen=True, slots=True)
class EngineReply:
    """The answer to one command: ``ok`` or an ``error`` text, the last published ``seq``, extra fields."""

    ok: bool
    error: str | None
    cmd: str | None
    id: str | int | None
    seq: int
    engine_run: str
    fields: dict[str, Any]


def encode_reply(ok: bool, error: str | None, *, cmd: str | None, request_id: str | int | None, seq: int,
                 engine_run: str, sent_at: float, **fields: Any) -> bytes:
    obj: dict[str, Any] = {
        "topic": TOPIC_ENGINE_REPLY.decode(), "version": PROTOCOL_VERSION, "seq": seq, "sent_at": sent_at,
        "engine_run": engine_run, "cmd": cmd, "id": request_id, "ok": ok, "error": error, **fields,
    }
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()


def parse_reply(payload: bytes | str) -> EngineReply:
    """Validate the engine's reply (clients)."""
    envelope, obj = parse_envelope(payload)
    where = TOPIC_ENGINE_REPLY.decode()
    if envelope.topic != where:
        raise WireError(f"message.topic: expected {where!r}, got {envelope.topic!r}")
    ok = _get(obj, "ok", where)
    if not isinstance(ok, bool):
        raise WireError(f"{where}.ok: expected true or false, got {ok!r}")
    error = obj.get("error")
    if error is not None and not isinstance(error, str):
        raise WireError(f"{where}.error: expected a string or null, got {error!r}")
    if not ok and not error:
        raise WireError(f"{where}.error: a failed reply must say why")
    cmd = obj.get("cmd")
    fields = {k: v for k, v in obj.items()
              if k not in ("topic", "version", "seq", "sent_at", "engine_run", "cmd", "id", "ok", "error")}
    return EngineReply(ok, error, cmd if isinstance(cmd, str) else None, obj.get("id"), envelope.seq,
                       _str(obj, "engine_run", where), fields)
