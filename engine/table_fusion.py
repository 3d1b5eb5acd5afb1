"""What the cameras see, made into one observation per marker, and each marker placed on a cell of any board kind.

Several camera services may see the same marker where their views overlap: :func:`fuse` makes one
observation of them (a confidence-weighted position; a marker any camera sees on the table is on
the table). Two sightings of one id further apart than ``duplicate_mm`` are two physical tags with
the same id: reported, never averaged. :class:`CellHysteresis` keeps a marker on its cell until it
is clearly past the border into another (the board says where, :meth:`engine.board.Board.locate`),
so a figure on a border does not flicker.

Each sighting may carry the tag's angle (``angle_deg``: the direction of its top edge, first → second
corner, in degrees from +x towards +y, y down). Cameras that agree on a marker give one angle, their
confidence-weighted circular mean. A figure faces the way its tag's top points, a quarter turn before
the top edge's direction (:func:`heading_deg`); :class:`FacingHysteresis` turns that into a board
direction that changes only when the figure is clearly turned past the border between two.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from engine.board import DEFAULT_FACING_MARGIN_DEG, DEFAULT_HYSTERESIS, Board, Cell
from engine.wire import SEEN_STATES, TrackState

VISIBLE_STATES = SEEN_STATES  # a camera sees the marker now
DEFAULT_HYSTERESIS_HEX = DEFAULT_HYSTERESIS  # share of a cell a marker must cross past a border
DEFAULT_DUPLICATE_HEX = 1.0  # sightings of one id further apart than this are two tags


@dataclass(frozen=True)
class Sighting:
    """One marker as one camera reports it, already in map millimetres."""

    marker: int
    x_mm: float
    y_mm: float
    state: str
    confidence: float
    camera: str
    angle_deg: float | None = None


@dataclass(frozen=True)
class FusedMarker:
    """One marker as all cameras together see it."""

    marker: int
    x_mm: float
    y_mm: float
    state: str  # a TrackState: settled | moving (visible) or lifted | lost (not seen now)
    confidence: float
    cameras: tuple[str, ...]
    angle_deg: float | None = None  # the tag's top edge (see the module's docstring); None when no camera said

    @property
    def visible(self) -> bool:
        return self.state in VISIBLE_STATES


@dataclass(frozen=True)
class Fusion:
    """The fused markers by id and the ids seen at two places at once."""

    markers: dict[int, FusedMarker]
    duplicates: tuple[int, ...]


def _weighted(group: list[Sighting]) -> tuple[float, float, float]:
    weights = [max(s.confidence, 1e-3) for s in group]
    total = sum(weights)
    x = sum(s.x_mm * w for s, w in zip(group, weights, strict=True)) / total
    y = sum(s.y_mm * w for s, w in zip(group, weights, strict=True)) / total
    return x, y, max(s.confidence for s in group)


def circular_mean(angles_deg: list[float], weights: list[float]) -> float | None:
    """The weighted mean direction of angles (degrees, -180..180); None when they cancel out or there are none."""
    x = sum(w * math.cos(math.radians(a)) for a, w in zip(angles_deg, weights, strict=True))
    y = sum(w * math.sin(math.radians(a)) for a, w in zip(angles_deg, weights, strict=True))
    if math.hypot(x, y) < 1e-9:
        return None
    return math.degrees(math.atan2(y, x))


def _angle(group: list[Sighting]) -> float | None:
    turned = [s for s in group if s.angle_deg is not None and math.isfinite(s.angle_deg)]
    return circular_mean([s.angle_deg for s in turned if s.angle_deg is not None],
                         [max(s.confidence, 1e-3) for s in turned])


def heading_deg(tag_angle_deg: float) -> float:
    """Where a figure looks, from its tag's angle: the way the tag's top points (a quarter turn before its top
    edge's direction in a y-down frame: a tag read upright on the table looks towards -y)."""
    return (tag_angle_deg - 90.0 + 180.0) % 360.0 - 180.0


def _fuse_one(marker: int, group: list[Sighting], duplicate_mm: float) -> tuple[FusedMarker, bool]:
    visible = [s for s in group if s.state in VISIBLE_STATES]
    cameras = tuple(sorted({s.camera for s in group}))
    if not visible:
        best = max(group, key=lambda s: s.confidence)
        state = TrackState.LIFTED if any(s.state == TrackState.LIFTED for s in group) else TrackState.LOST
        return FusedMarker(marker, best.x_mm, best.y_mm, state, best.confidence, cameras, best.angle_deg), False
    best = max(visible, key=lambda s: s.confidence)
    near = [s for s in visible if math.dist((s.x_mm, s.y_mm), (best.x_mm, best.y_mm)) <= duplicate_mm]
    duplicate = len(near) < len(visible)
    x, y, confidence = _weighted(near)
    state = TrackState.MOVING if any(s.state == TrackState.MOVING for s in near) else TrackState.SETTLED
    seen_by = tuple(sorted({s.camera for s in near}))
    return FusedMarker(marker, x, y, state, confidence, seen_by, _angle(near)), duplicate


def fuse(sightings: Iterable[Sighting], duplicate_mm: float) -> Fusion:
    """One observation per marker id; ids seen at two places further apart than ``duplicate_mm`` are listed."""
    groups: dict[int, list[Sighting]] = defaultdict(list)
    for s in sightings:
        groups[s.marker].append(s)
    markers: dict[int, FusedMarker] = {}
    duplicates: list[int] = []
    for marker, group in sorted(groups.items()):
        fused, duplicate = _fuse_one(marker, group, duplicate_mm)
        markers[marker] = fused
        if duplicate:
            duplicates.append(marker)
    return Fusion(markers, tuple(duplicates))


class CellHysteresis:
    """Map millimetres → cell per marker, switching cell only past a margin beyond the border."""

    def __init__(self, board: Board, margin: float = DEFAULT_HYSTERESIS) -> None:
        self.board = board
        self.margin = margin
        self._cell: dict[int, Cell] = {}

    def locate(self, marker: int, x_mm: float, y_mm: float) -> Cell:
        """The marker's cell: where the board puts the point, its current cell kept within the margin."""
        cell = self.board.locate(x_mm, y_mm, self._cell.get(marker), self.margin)
        self._cell[marker] = cell
        return cell

    def forget(self, marker: int) -> None:
        """Drop the marker's cell (it left the table), so it is placed afresh when it comes back."""
        self._cell.pop(marker, None)


class FacingHysteresis:
    """A tag's angle → the board direction its figure faces, per marker, turning only past a margin."""

    def __init__(self, board: Board, margin_deg: float = DEFAULT_FACING_MARGIN_DEG) -> None:
        self.board = board
        self.margin_deg = margin_deg
        self._facing: dict[int, int] = {}

    def locate(self, marker: int, cell: Cell, tag_angle_deg: float | None) -> int | None:
        """The direction the marker's figure faces on ``cell``; None when the tag's angle is unknown or the board
        has no facings (a zone board)."""
        if tag_angle_deg is None or not math.isfinite(tag_angle_deg):
            return None
        facing = self.board.facing_toward(cell, heading_deg(tag_angle_deg), self._facing.get(marker),
                                          self.margin_deg)
        if facing is not None:
            self._facing[marker] = facing
        return facing

    def forget(self, marker: int) -> None:
        self._facing.pop(marker, None)
