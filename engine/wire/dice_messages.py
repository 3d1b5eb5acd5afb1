"""The camera service's dice messages (PUB, beside ``tracks``): what it sees in each dice tray.

``dice``   :class:`DiceMessage`, one per processed frame in which a tray is in view: every die in it.

A tray is an area of the table where dice are rolled: a printed tray mat (tags 80–83 for the first
tray, 84–87 for a second) or an area the calibration names. Positions are in the tray's own frame (mm,
origin at its top-left corner). A die is *read* only once it is settled; a rolling die is tracked with no
value. ``doubt`` says why a die must not be taken as read (the tablet asks instead of guessing).
A d10's ``value`` is the numeral printed on its top face, 0–9: a rule set that reads 0 as 10 maps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from engine.wire.envelope import Envelope, Message, register
from engine.wire.fields import (
    WireError,
    check_object,
    field_path,
    read_bool,
    read_float,
    read_int,
    read_list,
    read_str,
)

TOPIC_DICE = b"dice"


class DieKind(StrEnum):
    """The dice the camera reads."""

    D6 = "d6"
    D10 = "d10"


class DieDoubt(StrEnum):
    """Why a die cannot be taken as read: each turns into a question on the tablet, never a guess."""

    COCKED = "cocked"  # not flat: leaning on another die or the tray's edge
    OUTSIDE = "outside"  # partly outside the tray
    TOUCHING = "touching"  # touching another die so the faces cannot be separated
    LOW_CONFIDENCE = "low_confidence"  # read, but not surely enough
    UNREADABLE = "unreadable"  # no face could be read (glare, blur, dim light)


FACE_RANGE: dict[DieKind, tuple[int, int]] = {DieKind.D6: (1, 6), DieKind.D10: (0, 9)}


@dataclass(frozen=True, slots=True)
class DieSeen:
    """One die in a tray: its track, kind, face (when read), confidence and position in the tray (mm)."""

    track_id: int
    kind: DieKind
    value: int | None
    confidence: float
    x_mm: float
    y_mm: float
    settled: bool
    doubt: DieDoubt | None = None

    @property
    def read(self) -> bool:
        """The face may be taken: settled, a value, and no doubt."""
        return self.settled and self.value is not None and self.doubt is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "track_id": self.track_id,
            "kind": str(self.kind),
            "value": self.value,
            "confidence": self.confidence,
            "x_mm": self.x_mm,
            "y_mm": self.y_mm,
            "settled": self.settled,
            "doubt": None if self.doubt is None else str(self.doubt),
        }

    @staticmethod
    def from_dict(value: Any, where: str) -> DieSeen:
        obj = check_object(value, where)
        kind = DieKind(read_str(obj, "kind", where, tuple(k.value for k in DieKind)))
        face: int | None = None
        if obj.get("value") is not None:
            low, high = FACE_RANGE[kind]
            face = read_int(obj, "value", where, minimum=low)
            if face > high:
                raise WireError(f"{field_path(where, 'value')}: a {kind} face is {low} to {high}, got {face}")
        settled = read_bool(obj, "settled", where)
        doubt = None
        if obj.get("doubt") is not None:
            doubt = DieDoubt(read_str(obj, "doubt", where, tuple(d.value for d in DieDoubt)))
        return DieSeen(
            track_id=read_int(obj, "track_id", where),
            kind=kind,
            value=face,
            confidence=read_float(obj, "confidence", where, low=0.0, high=1.0),
            x_mm=read_float(obj, "x_mm", where),
            y_mm=read_float(obj, "y_mm", where),
            settled=settled,
            doubt=doubt,
        )


@dataclass(frozen=True, slots=True)
class TraySeen:
    """One tray after one frame: its dice, whether all of them have settled, and which roll this is.

    ``roll`` counts the rolls seen in this tray: it goes up each time dice move in the tray after a
    settled moment, so a receiver takes each settled roll once.
    """

    tray: str
    roll: int
    settled: bool
    dice: tuple[DieSeen, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"tray": self.tray, "roll": self.roll, "settled": self.settled,
                "dice": [d.to_dict() for d in self.dice]}

    @staticmethod
    def from_dict(value: Any, where: str) -> TraySeen:
        obj = check_object(value, where)
        settled = read_bool(obj, "settled", where)
        dice = tuple(DieSeen.from_dict(d, f"{where}.dice[{i}]") for i, d in enumerate(read_list(obj, "dice", where)))
        return TraySeen(tray=read_str(obj, "tray", where), roll=read_int(obj, "roll", where),
                        settled=settled, dice=dice)


@register
@dataclass(frozen=True, slots=True)
class DiceMessage(Message):
    """Every tray the camera service sees after one processed frame, with the dice in it."""

    TOPIC: ClassVar[bytes] = TOPIC_DICE

    camera_id: str
    frame_index: int
    captured_at: float
    trays: tuple[TraySeen, ...] = ()

    def body(self) -> dict[str, Any]:
        return {"camera_id": self.camera_id, "frame_index": self.frame_index, "captured_at": self.captured_at,
                "trays": [t.to_dict() for t in self.trays]}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> DiceMessage:
        where = envelope.topic
        trays = tuple(TraySeen.from_dict(t, f"{where}.trays[{i}]")
                      for i, t in enumerate(read_list(obj, "trays", where)))
        return cls(
            seq=envelope.seq,
            sent_at=envelope.sent_at,
            camera_id=read_str(obj, "camera_id", where),
            frame_index=read_int(obj, "frame_index", where),
            captured_at=read_float(obj, "captured_at", where, low=0.0),
            trays=trays,
        )
