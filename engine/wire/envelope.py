"""The envelope every message carries, the message base class and the topic registry.

Published messages are ZeroMQ multipart ``[topic, json]``. The JSON object holds the envelope keys
``topic``, ``version``, ``seq`` (monotonic per publisher) and ``sent_at`` (Unix seconds) beside the
message's own fields. Unknown extra keys are ignored so that a newer sender can add optional fields;
a different ``version`` is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from engine.wire.fields import WireError, check_object, read_float, read_int, read_str

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # preview JPEGs are the largest messages; base64 adds a third


def _reject_constant(name: str) -> float:
    raise WireError(f"JSON contains {name}, which is not valid JSON; send finite numbers only")


def load_json(payload: bytes | str, what: str, limit: int) -> Mapping[str, Any]:
    """Parse one JSON object of at most ``limit`` bytes; ``what`` names it in errors (message, request)."""
    if len(payload) > limit:
        raise WireError(f"{what}: {len(payload)} bytes exceeds the limit of {limit} bytes")
    try:
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        raw = json.loads(text, parse_constant=_reject_constant)
    except WireError:
        raise
    except UnicodeDecodeError as exc:
        raise WireError(f"{what}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise WireError(f"{what}: not valid JSON ({exc.msg} at character {exc.pos})") from None
    except RecursionError:
        raise WireError(f"{what}: JSON nested too deeply") from None
    except ValueError:  # an integer of thousands of digits
        raise WireError(f"{what}: a number has too many digits; send integers of at most 18 digits") from None
    return check_object(raw, what)


def dump_json(obj: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON; NaN and infinities are refused."""
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()


@dataclass(frozen=True, slots=True)
class Envelope:
    """The keys every message carries: what it is, which protocol, its order, when it left."""

    topic: str
    version: int
    seq: int
    sent_at: float


def parse_envelope(payload: bytes | str) -> tuple[Envelope, Mapping[str, Any]]:
    """Parse and check the JSON text and its envelope; return the envelope and the whole object."""
    obj = load_json(payload, "message", MAX_MESSAGE_BYTES)
    topic = read_str(obj, "topic", "message")
    version = read_int(obj, "version", topic)
    if version != PROTOCOL_VERSION:
        raise WireError(
            f"{topic}.version: protocol {version} is not supported (this program speaks {PROTOCOL_VERSION}); "
            "run the same release of every process"
        )
    seq = read_int(obj, "seq", topic)
    sent_at = read_float(obj, "sent_at", topic, low=0.0)
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
        data = dump_json(obj)
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
