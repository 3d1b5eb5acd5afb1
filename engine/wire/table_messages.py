"""The engine's view of the table: ``table`` (the table against the game) and ``table.view`` (fused sightings).

``table``       :class:`TableMessage`      on change and at least once a second.
``table.view``  :class:`TableViewMessage`  fused figure positions, once per camera update.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.i18n import gettext_for
from engine.wire.dice_answer import DICE_MODES, DiceAnswer
from engine.wire.engine_messages import EngineMessage
from engine.wire.envelope import Envelope, register
from engine.wire.fields import (
    WireError,
    check_bool,
    check_object,
    field_path,
    hex_pair,
    is_int,
    optional_float,
    read_dict,
    read_float,
    read_int,
    read_list,
    read_objects,
    read_str,
    require,
)
from engine.wire.vision_messages import CAMERA_STATUSES, TRACK_STATES

_ = gettext_for(__name__)

TOPIC_TABLE = b"table"
TOPIC_TABLE_VIEW = b"table.view"

CAMERA_LINK_STATUSES: tuple[str, ...] = (*CAMERA_STATUSES, "silent", "waiting")


@dataclass(frozen=True, slots=True)
class CameraLink:
    """One vision service as the engine hears it: ``status`` is its heartbeat's, or silent/waiting.

    ``refused``: the engine's last CURVE handshake with that camera service failed (its key is not this
    table's, or one side holds no key); optional on receipt, false when absent (an older engine).
    ``problem``: what its last heartbeat said the players should know (its dice trays cannot be read), empty when
    all is well; optional on receipt.
    """

    id: str
    status: str
    last_seen_age_s: float | None
    endpoint: str = ""
    refused: bool = False
    problem: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "last_seen_age_s": self.last_seen_age_s,
                "endpoint": self.endpoint, "refused": self.refused, "problem": self.problem}

    @staticmethod
    def from_dict(value: Any, where: str) -> CameraLink:
        obj = check_object(value, where)
        age = optional_float(obj, "last_seen_age_s", where)
        refused = check_bool(obj.get("refused", False), f"{where}.refused")
        problem = read_str(obj, "problem", where) if "problem" in obj else ""
        return CameraLink(read_str(obj, "id", where), read_str(obj, "status", where, CAMERA_LINK_STATUSES), age,
                          str(obj.get("endpoint", "")), refused, problem)


@register
@dataclass(frozen=True, slots=True)
class TableMessage(EngineMessage):
    """The table against the game: lifted figures with their moves, desync, an illegal move, problems.

    ``lifted``: [{figure, moves: reach_to_list}]; ``desync``: [{figure, expected, seen, text}] (hexes as
    [q, r] or null); ``illegal``: {figure, to, reason, legal: [labels]} or null; ``pending``: figures moved
    by hand before the game asked for it [{figure, seen, text}]; ``registration``: {residual_mm,
    drift_hex, ok, text}; ``provisional`` (optional on receipt): the prompted figure, still in the hand, over
    a cell: {figure, to: [q, r], to_label, legal, reason} (what putting it down there would do) or null;
    ``dice``: what the engine read in the dice tray for the pending roll prompt (:class:`DiceAnswer`, null when
    nothing) and ``dice_mode``: where the table's dice come from, ``camera`` (the tray's readings answer roll
    prompts after a countdown) or ``tablet`` (typed); both optional on receipt (an older engine: null and
    ``tablet``).
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
    provisional: dict[str, Any] | None = None
    dice: DiceAnswer | None = None
    dice_mode: str = "tablet"

    def body(self) -> dict[str, Any]:
        return {
            **EngineMessage.body(self),
            "cameras": [c.to_dict() for c in self.cameras],
            "lifted": list(self.lifted),
            "desync": list(self.desync),
            "illegal": self.illegal,
            "pending": list(self.pending),
            "provisional": self.provisional,
            "unknown_markers": list(self.unknown_markers),
            "duplicates": list(self.duplicates),
            "registration": self.registration,
            "dice": None if self.dice is None else self.dice.to_dict(),
            "dice_mode": self.dice_mode,
        }

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> TableMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        cameras = tuple(CameraLink.from_dict(c, f"{where}.cameras[{i}]")
                        for i, c in enumerate(read_list(obj, "cameras", where)))
        lifted = read_objects(obj, "lifted", where, ("figure", "moves"))
        desync = read_objects(obj, "desync", where, ("figure", "expected", "seen", "text"))
        for i, entry in enumerate(desync):
            hex_pair(entry["expected"], f"{where}.desync[{i}].expected")
            hex_pair(entry["seen"], f"{where}.desync[{i}].seen")
        illegal = None
        if require(obj, "illegal", where) is not None:
            illegal = dict(check_object(obj["illegal"], f"{where}.illegal"))
            for key in ("figure", "to", "reason", "legal"):
                require(illegal, key, f"{where}.illegal")
        markers = []
        for key in ("unknown_markers", "duplicates"):
            values = read_list(obj, key, where)
            if not all(is_int(v) for v in values):
                raise WireError(_("{where}: expected a list of marker ids, got {value!r}", where=field_path(where, key),
                                  value=values))
            markers.append(tuple(values))
        registration = read_dict(obj, "registration", where)
        for key in ("ok", "text"):
            require(registration, key, f"{where}.registration")
        pending = read_objects(obj, "pending", where, ("figure",)) if "pending" in obj else ()
        provisional = None
        if obj.get("provisional") is not None:
            provisional = dict(check_object(obj["provisional"], f"{where}.provisional"))
            for key in ("figure", "to", "legal"):
                require(provisional, key, f"{where}.provisional")
            hex_pair(provisional["to"], f"{where}.provisional.to")
            check_bool(provisional["legal"], f"{where}.provisional.legal")
        dice = None if obj.get("dice") is None else DiceAnswer.from_dict(obj["dice"], f"{where}.dice")
        mode = read_str(obj, "dice_mode", where, DICE_MODES) if "dice_mode" in obj else "tablet"
        return cls(envelope.seq, envelope.sent_at, run, game, cameras, lifted, desync, illegal, pending,
                   markers[0], markers[1], registration, provisional, dice, mode)


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
                "hex": self.hex, "state": str(self.state), "cameras": list(self.cameras), "angle_deg": self.angle_deg,
                "direction": self.direction}

    @staticmethod
    def from_dict(value: Any, where: str) -> FigureSighting:
        obj = check_object(value, where)
        figure = obj.get("figure")
        if figure is not None and not isinstance(figure, str):
            raise WireError(_("{where}: expected a string or null, got {value!r}", where=field_path(where, "figure"),
                              value=figure))
        cameras = read_list(obj, "cameras", where)
        if not all(isinstance(c, str) for c in cameras):
            raise WireError(_("{where}: expected a list of camera ids, got {value!r}",
                              where=field_path(where, "cameras"), value=cameras))
        direction = obj.get("direction")
        if direction is not None and (not isinstance(direction, int) or isinstance(direction, bool)
                                      or not 0 <= direction < 6):
            raise WireError(_("{where}: expected a board direction 0..5 or null, got {value!r}",
                              where=field_path(where, "direction"), value=direction))
        return FigureSighting(read_int(obj, "marker", where), figure, read_float(obj, "x_mm", where),
                              read_float(obj, "y_mm", where), hex_pair(obj.get("hex"), f"{where}.hex"),
                              read_str(obj, "state", where, TRACK_STATES), tuple(cameras),
                              optional_float(obj, "angle_deg", where), direction)


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
                        for i, f in enumerate(read_list(obj, "figures", where)))
        return cls(envelope.seq, envelope.sent_at, run, game, figures,
                   read_float(obj, "source_sent_at", where, low=0.0))
