"""The wire schema: every message the product's processes exchange, documented and validated here.

Transport is ZeroMQ multipart ``[topic, json]``. The JSON object holds the envelope keys
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

