"""Per-marker tracking state: ``moving`` → ``settled`` → ``lifted`` → ``lost``, with warnings.

A marker is *moving* when first seen (in ``confirm_frames`` consecutive frames, so that a one-frame
misread never becomes a figure) or when it leaves the small circle it was resting in,
*settled* once it has stayed inside that circle for ``settle_s``, *lifted* when it has been
unseen for longer than ``grace_s`` (a hand passing over it is shorter than that and changes
nothing), and *lost* after ``lost_s`` unseen. Duplicate ids in one frame, ids outside the
configured set and tags outside the calibrated area are reported as warnings, never errors.
Pure logic: time is passed in, so tests drive it frame by frame.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.i18n import gettext_for
from engine.wire import TrackState
from vision.mapping import TableMarker

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

MOVING, SETTLED, LIFTED, LOST = TrackState.MOVING, TrackState.SETTLED, TrackState.LIFTED, TrackState.LOST


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Tracking thresholds; the defaults settle a figure put down well within 300 ms at 30 fps."""

    settle_radius_mm: float = 2.5
    settle_s: float = 0.15
    grace_s: float = 0.5
    lost_s: float = 5.0
    known_ids: frozenset[int] | None = None  # None: every id of the dictionary is welcome
    # A tag that is not on the table yet must be seen in this many consecutive frames before it is
    # reported: a one-frame misread (a blurred tag read as another id) never becomes a figure.
    confirm_frames: int = 2
    area_mm: tuple[float, float, float, float] | None = None  # (x0, y0, x1, y1) the calibration covers


@dataclass(slots=True)
class Track:
    """What is known about one marker id now."""

    marker_id: int
    x_mm: float
    y_mm: float
    angle_deg: float
    x_px: float
    y_px: float
    confidence: float
    state: str
    last_seen: float
    anchor: tuple[float, float]
    anchor_since: float
    state_since: float


@dataclass(frozen=True, slots=True)
class Transition:
    """A change of a marker's state, for logs and for tests."""

    marker_id: int
    before: str | None
    after: str
    at: float


@dataclass(slots=True)
class TrackUpdate:
    """The result of one frame: every track, the state changes and the frame's warnings."""

    tracks: list[Track]
    transitions: list[Transition] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class Tracker:
    """Turns per-frame tag sightings into tracks with a state each."""

    def __init__(self, config: TrackerConfig | None = None) -> None:
        self.config = config or TrackerConfig()
        self._tracks: dict[int, Track] = {}
        self._last_logged: dict[str, float] = {}
        self._frame = 0
        self._tentative: dict[int, tuple[int, int]] = {}  # id → (consecutive sightings, last frame)

    @property
    def tracks(self) -> list[Track]:
        return [self._tracks[k] for k in sorted(self._tracks)]

    def update(self, markers: Iterable[TableMarker], now: float) -> TrackUpdate:
        """Apply one frame's sightings taken at time ``now`` (seconds, monotonic)."""
        cfg = self.config
        update = TrackUpdate(tracks=[])
        by_id: dict[int, list[TableMarker]] = {}
        for m in markers:
            if not m.on_table:
                update.warnings.append(_("marker {marker_id} at pixel ({x_px:.0f}, {y_px:.0f}) does not map onto the "
                                         "table: check the calibration",
                                         marker_id=m.marker_id, x_px=m.x_px, y_px=m.y_px))
                continue
            if cfg.known_ids is not None and m.marker_id not in cfg.known_ids:
                update.warnings.append(_("marker {marker_id} is not one of the configured markers: a stray tag, or "
                                         "add it to the configuration", marker_id=m.marker_id))
                continue
            if cfg.area_mm is not None:
                x0, y0, x1, y1 = cfg.area_mm
                if not (x0 <= m.x_mm <= x1 and y0 <= m.y_mm <= y1):
                    update.warnings.append(_("marker {marker_id} at ({x_mm:.0f}, {y_mm:.0f}) mm is outside the "
                                             "calibrated area: move it onto the table or recalibrate",
                                             marker_id=m.marker_id, x_mm=m.x_mm, y_mm=m.y_mm))
                    continue
            by_id.setdefault(m.marker_id, []).append(m)
        self._frame += 1
        for marker_id, seen in by_id.items():
            chosen = self._choose(marker_id, seen)
            if len(seen) > 1:
                where = ", ".join(f"({s.x_mm:.0f}, {s.y_mm:.0f})" for s in seen)
                update.warnings.append(_("marker {marker_id} seen {count} times in one frame at {where} mm: two tags "
                                         "with the same id; reprint one with another id",
                                         marker_id=marker_id, count=len(seen), where=where))
            if self._confirmed(marker_id):
                self._observe(chosen, now, update)
        self._tentative = {k: v for k, v in self._tentative.items() if v[1] == self._frame}
        for track in self._tracks.values():
            if track.marker_id not in by_id:
                self._unseen(track, now, update)
        update.tracks = self.tracks
        self._log(update, now)
        return update

    def _confirmed(self, marker_id: int) -> bool:
        """True for a tag on the table, or one now seen in enough consecutive frames to join it."""
        track = self._tracks.get(marker_id)
        if track is not None and track.state in (MOVING, SETTLED):
            return True
        count, last = self._tentative.get(marker_id, (0, -1))
        count = count + 1 if last == self._frame - 1 else 1
        self._tentative[marker_id] = (count, self._frame)
        return count >= self.config.confirm_frames

    def _choose(self, marker_id: int, seen: list[TableMarker]) -> TableMarker:
        track = self._tracks.get(marker_id)
        if track is None or len(seen) == 1:
            return max(seen, key=lambda s: s.confidence) if track is None else seen[0]
        return min(seen, key=lambda s: math.hypot(s.x_mm - track.x_mm, s.y_mm - track.y_mm))

    def _set_state(self, track: Track, state: str, now: float, update: TrackUpdate, before: str | None) -> None:
        if before != state:
            track.state = state
            track.state_since = now
            update.transitions.append(Transition(track.marker_id, before, state, now))

    def _observe(self, m: TableMarker, now: float, update: TrackUpdate) -> None:
        cfg = self.config
        track = self._tracks.get(m.marker_id)
        if track is None:
            track = Track(m.marker_id, m.x_mm, m.y_mm, m.angle_deg, m.x_px, m.y_px, m.confidence, MOVING, now,
                          (m.x_mm, m.y_mm), now, now)
            self._tracks[m.marker_id] = track
            update.transitions.append(Transition(m.marker_id, None, MOVING, now))
            return
        before = track.state
        track.x_mm, track.y_mm, track.angle_deg = m.x_mm, m.y_mm, m.angle_deg
        track.x_px, track.y_px, track.confidence = m.x_px, m.y_px, m.confidence
        track.last_seen = now
        if before in (LIFTED, LOST) or math.hypot(m.x_mm - track.anchor[0], m.y_mm - track.anchor[1]) > \
                cfg.settle_radius_mm:
            track.anchor, track.anchor_since = (m.x_mm, m.y_mm), now
            self._set_state(track, MOVING, now, update, before)
        elif now - track.anchor_since >= cfg.settle_s - 1e-9:
            self._set_state(track, SETTLED, now, update, before)

    def _unseen(self, track: Track, now: float, update: TrackUpdate) -> None:
        cfg = self.config
        gone = now - track.last_seen
        if gone > cfg.lost_s:
            if track.state != LOST:
                track.confidence = 0.0
                self._set_state(track, LOST, now, update, track.state)
        elif gone > cfg.grace_s and track.state not in (LIFTED, LOST):
            self._set_state(track, LIFTED, now, update, track.state)

    def _log(self, update: TrackUpdate, now: float) -> None:
        for t in update.transitions:
            log.debug("marker %d: %s → %s", t.marker_id, t.before, t.after)
        for text in update.warnings:
            key = re.sub(r"\([^)]*\)", "", text)  # same problem, jittering coordinates (in brackets, any language)
            if now - self._last_logged.get(key, -math.inf) > 10.0:  # say it once, not 30 times a second
                self._last_logged[key] = now
                log.warning("%s", text)
