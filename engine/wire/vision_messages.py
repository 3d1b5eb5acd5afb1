"""The camera service's messages (PUB ``tcp://127.0.0.1:5555``; snapshot ROUTER ``tcp://127.0.0.1:5556``).

``tracks``            :class:`TracksMessage`, one per processed frame: every tracked marker.
``heartbeat``         :class:`Heartbeat`, about once a second, also when no camera is delivering.
``preview``           :class:`PreviewMessage`, optional low-rate JPEG with detections drawn.
``vision.snapshot?``  :class:`VisionSnapshotRequest`, sent by a late joiner on the snapshot socket.
``vision.snapshot``   :class:`VisionSnapshot`, the reply: the newest ``tracks`` message, if any.

Clone pattern: a subscriber subscribes first, then asks for a snapshot, then applies only ``tracks``
whose ``seq`` is higher than the snapshot's.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from engine.i18n import gettext_for
from engine.wire.envelope import PROTOCOL_VERSION, Envelope, Message, register
from engine.wire.fields import (
    WireError,
    check_object,
    field_path,
    read_float,
    read_int,
    read_list,
    read_str,
    read_strings,
    require,
)

_ = gettext_for(__name__)

TOPIC_TRACKS = b"tracks"
TOPIC_HEARTBEAT = b"heartbeat"
TOPIC_PREVIEW = b"preview"
TOPIC_VISION_SNAPSHOT_REQUEST = b"vision.snapshot?"
TOPIC_VISION_SNAPSHOT = b"vision.snapshot"


class TrackState(StrEnum):
    """Where a tracked marker is in its life (vision.tracking): the one definition every process uses.

    ``moving`` (seen, not at rest) → ``settled`` (seen, at rest) → ``lifted`` (unseen for a moment: in a
    hand) → ``lost`` (unseen for long). The values are what the wire carries.
    """

    MOVING = "moving"
    SETTLED = "settled"
    LIFTED = "lifted"
    LOST = "lost"


TRACK_STATES: tuple[str, ...] = tuple(s.value for s in TrackState)
SEEN_STATES: frozenset[str] = frozenset({TrackState.MOVING, TrackState.SETTLED})  # in view in the frame
CAMERA_STATUSES: tuple[str, ...] = ("ok", "no_camera", "reconnecting", "ended")


@dataclass(frozen=True, slots=True)
class MarkerTrack:
    """One tracked marker: table position (mm), image position (px), facing, state and confidence.

    ``height_mm`` (optional) is the height above the table the position was computed for (the tag's
    configured height), so a receiver that knows better — a figure on a raised tile — can re-project it.
    """

    id: int
    x_mm: float
    y_mm: float
    angle_deg: float
    state: str
    confidence: float
    x_px: float
    y_px: float
    height_mm: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "x_mm": self.x_mm,
            "y_mm": self.y_mm,
            "angle_deg": self.angle_deg,
            "state": str(self.state),
            "confidence": self.confidence,
            "x_px": self.x_px,
            "y_px": self.y_px,
        }
        if self.height_mm is not None:
            out["height_mm"] = self.height_mm
        return out

    @staticmethod
    def from_dict(value: Any, where: str) -> MarkerTrack:
        obj = check_object(value, where)
        return MarkerTrack(
            id=read_int(obj, "id", where),
            x_mm=read_float(obj, "x_mm", where),
            y_mm=read_float(obj, "y_mm", where),
            angle_deg=read_float(obj, "angle_deg", where, low=-180.0, high=180.0),
            state=read_str(obj, "state", where, TRACK_STATES),
            confidence=read_float(obj, "confidence", where, low=0.0, high=1.0),
            x_px=read_float(obj, "x_px", where),
            y_px=read_float(obj, "y_px", where),
            height_mm=read_float(obj, "height_mm", where) if obj.get("height_mm") is not None else None,
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
    # The camera's optical centre in the table frame: x, y and height above the table (mm), when calibrated;
    # with a marker's height_mm it lets a receiver re-project the marker to another height.
    camera_mm: tuple[float, float, float] | None = None

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "camera_id": self.camera_id,
            "frame_index": self.frame_index,
            "captured_at": self.captured_at,
            "markers": [m.to_dict() for m in self.markers],
            "warnings": list(self.warnings),
        }
        if self.camera_mm is not None:
            out["camera_mm"] = list(self.camera_mm)
        return out

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> TracksMessage:
        where = envelope.topic
        markers = tuple(
            MarkerTrack.from_dict(m, f"{where}.markers[{i}]") for i, m in enumerate(read_list(obj, "markers", where))
        )
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=read_str(obj, "camera_id", where),
            frame_index=read_int(obj, "frame_index", where),
            captured_at=read_float(obj, "captured_at", where, low=0.0),
            markers=markers,
            warnings=read_strings(obj, "warnings", where),
            camera_mm=_camera_mm(obj, where),
        )


def _camera_mm(obj: Mapping[str, Any], where: str) -> tuple[float, float, float] | None:
    value = obj.get("camera_mm")
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value):
        raise WireError(_("{where}: must be three finite numbers [x, y, height] in mm, got {value!r}",
                          where=field_path(where, "camera_mm"), value=value))
    return float(value[0]), float(value[1]), float(value[2])


@register
@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    """Liveness of the camera service, sent even when no frames arrive (``status`` says why).

    ``problem``: what the players should know although the camera runs (its dice trays cannot be read), for the
    tablet; empty when all is well, and optional on receipt (an older camera service sends none).
    """

    TOPIC: ClassVar[bytes] = TOPIC_HEARTBEAT

    camera_id: str
    status: str
    fps: float
    last_tracks_seq: int
    detail: str = ""
    problem: str = ""

    def body(self) -> dict[str, Any]:
        return {
            "camera_id": self.camera_id,
            "status": self.status,
            "fps": self.fps,
            "last_tracks_seq": self.last_tracks_seq,
            "detail": self.detail,
            "problem": self.problem,
        }

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> Heartbeat:
        where = envelope.topic
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=read_str(obj, "camera_id", where),
            status=read_str(obj, "status", where, CAMERA_STATUSES),
            fps=read_float(obj, "fps", where, low=0.0),
            last_tracks_seq=read_int(obj, "last_tracks_seq", where, minimum=-1),
            detail=read_str(obj, "detail", where),
            problem=read_str(obj, "problem", where) if "problem" in obj else "",
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
        text = read_str(obj, "jpeg", where)
        try:
            jpeg = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise WireError(_("{where}: not valid base64", where=field_path(where, "jpeg"))) from None
        if not jpeg.startswith(b"\xff\xd8"):
            raise WireError(_("{where}: not a JPEG image (missing the FF D8 start marker)",
                              where=field_path(where, "jpeg")))
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=read_str(obj, "camera_id", where),
            captured_at=read_float(obj, "captured_at", where, low=0.0),
            width=read_int(obj, "width", where, minimum=1),
            height=read_int(obj, "height", where, minimum=1),
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
        raw = require(obj, "tracks", where)
        tracks = None
        if raw is not None:
            inner_where = f"{where}.tracks"
            inner = check_object(raw, inner_where)
            inner_env = Envelope(inner_where, PROTOCOL_VERSION, read_int(inner, "seq", inner_where),
                                 read_float(inner, "sent_at", inner_where, low=0.0))
            tracks = TracksMessage.parse_body(inner, inner_env)
        return cls(seq=envelope.seq, sent_at=envelope.sent_at, camera_id=read_str(obj, "camera_id", where),
                   tracks=tracks)
