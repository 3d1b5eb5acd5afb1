"""What the cameras see, made into one observation per marker, and each marker placed on a hex.

Several camera services may see the same marker where their views overlap: :func:`fuse` makes one
observation of them (a confidence-weighted position; a marker any camera sees on the table is on
the table). Two sightings of one id further apart than ``duplicate_mm`` are two physical tags with
the same id: reported, never averaged. :class:`HexHysteresis` keeps a marker on its hex until it
is clearly nearer another hex's centre, so a figure on a hex border does not flicker.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from engine.hexes import Hex
from engine.layout import Layout

VISIBLE_STATES = ("settled", "moving")
DEFAULT_HYSTERESIS_HEX = 0.15  # share of a hex's across-flats width a marker must cross past a border
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


@dataclass(frozen=True)
class FusedMarker:
    """One marker as all cameras together see it."""

    marker: int
    x_mm: float
    y_mm: float
    state: str  # settled | moving (visible) or lifted | lost (not seen now)
    confidence: float
    cameras: tuple[str, ...]

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


def _fuse_one(marker: int, group: list[Sighting], duplicate_mm: float) -> tuple[FusedMarker, bool]:
    visible = [s for s in group if s.state in VISIBLE_STATES]
    cameras = tuple(sorted({s.camera for s in group}))
    if not visible:
        best = max(group, key=lambda s: s.confidence)
        state = "lifted" if any(s.state == "lifted" for s in group) else "lost"
        return FusedMarker(marker, best.x_mm, best.y_mm, state, best.confidence, cameras), False
    best = max(visible, key=lambda s: s.confidence)
    near = [s for s in visible if math.dist((s.x_mm, s.y_mm), (best.x_mm, best.y_mm)) <= duplicate_mm]
    duplicate = len(near) < len(visible)
    x, y, confidence = _weighted(near)
    state = "moving" if any(s.state == "moving" for s in near) else "settled"
    seen_by = tuple(sorted({s.camera for s in near}))
    return FusedMarker(marker, x, y, state, confidence, seen_by), duplicate


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


class HexHysteresis:
    """Map millimetres → hex per marker, switching hex only past a margin beyond the border."""

    def __init__(self, layout: Layout, margin_hex: float = DEFAULT_HYSTERESIS_HEX) -> None:
        self.layout = layout
        self.margin_mm = margin_hex * layout.across_flats_mm
        self._hex: dict[int, Hex] = {}

    def locate(self, marker: int, x_mm: float, y_mm: float) -> Hex:
        """The marker's hex: the nearest hex centre, unless the current hex is within the margin of it."""
        candidate = self.layout.mm_to_hex(x_mm, y_mm)
        current = self._hex.get(marker)
        if current is not None and candidate != current:
            d_current = math.dist(self.layout.hex_to_mm(current), (x_mm, y_mm))
            d_candidate = math.dist(self.layout.hex_to_mm(candidate), (x_mm, y_mm))
            if d_current - d_candidate <= self.margin_mm:
                return current
        self._hex[marker] = candidate
        return candidate

    def forget(self, marker: int) -> None:
        """Drop the marker's hex (it left the table), so it is placed afresh when it comes back."""
        self._hex.pop(marker, None)
