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

from engine.i18n import N_, gettext_for
from engine.wire.fields import WireError, check_object, field_path, read_float, read_int, read_str

_ = gettext_for(__name__)

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # preview JPEGs are the largest messages; base64 adds a third


# What Python's JSON reader says is wrong, in its own words (it has no codes): each reads in the table's language.
JSON_REASONS: frozenset[str] = frozenset({
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"),
    N_("Extra data"),
    N_("Invalid control character at"),
    N_("Unterminated string starting at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Illegal trailing comma before end of object"),
    N_("Illegal trailing comma before end of array"),
})


# What Python's UTF-8 decoder says is wrong with a byte.
UTF8_REASONS: frozenset[str] = frozenset({
    N_("invalid start byte"),
    N_("invalid continuation byte"),
    N_("unexpected end of data"),
})


def json_reason(msg: str) -> str:
    """Python's JSON (or UTF-8) reader's reason in the current language; one not listed (a newer Python's) is quoted
    as it is."""
    return _(msg) if msg in JSON_REASONS or msg in UTF8_REASONS else msg


def _reject_constant(name: str) -> float:
    raise WireError(_("JSON contains {name}, which is not valid JSON; send finite numbers only", name=name))


def load_json(payload: bytes | str, what: str, limit: int) -> Mapping[str, Any]:
    """Parse one JSON object of at most ``limit`` bytes; ``what`` names it in errors (message, request)."""
    if len(payload) > limit:
        raise WireError(_("{what}: {n} bytes exceeds the limit of {limit} bytes", what=what, n=len(payload),
                          limit=limit))
    try:
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        raw = json.loads(text, parse_constant=_reject_constant)
    except WireError:
        raise
    except UnicodeDecodeError as exc:
        raise WireError(_("{what}: not UTF-8 text ({reason} at byte {at})", what=what,
                          reason=json_reason(exc.reason), at=exc.start)) from None
    except json.JSONDecodeError as exc:
        raise WireError(_("{what}: not valid JSON ({reason} at character {at})", what=what,
                          reason=json_reason(exc.msg), at=exc.pos)) from None
    except RecursionError:
        raise WireError(_("{what}: JSON nested too deeply", what=what)) from None
    except ValueError:  # an integer of thousands of digits
        raise WireError(_("{what}: a number has too many digits; send integers of at most 18 digits",
                          what=what)) from None
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
        raise WireError(_("{where}: protocol {version} is not supported (this program speaks {speaks}); run the "
                          "same release of every process", where=field_path(topic, "version"), version=version,
                          speaks=PROTOCOL_VERSION))
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
            raise WireError(_("{what}: {n} bytes exceeds the limit of {limit} bytes", what=self.TOPIC.decode(),
                              n=len(data), limit=MAX_MESSAGE_BYTES))
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
            raise WireError(_("{where}: expected {expected!r}, got {topic!r}", where="message.topic",
                              expected=expected, topic=envelope.topic))
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
        raise WireError(_("message: expected 2 frames [topic, json], got {n}", n=len(frames)))
    topic, payload = frames
    cls = _REGISTRY.get(bytes(topic))
    if cls is None:
        known = ", ".join(t.decode() for t in _REGISTRY)
        raise WireError(_("message: unknown topic {topic!r}; known topics: {known}", topic=bytes(topic)[:64],
                          known=known))
    return cls.from_json(payload)
