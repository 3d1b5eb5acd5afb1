"""Per-marker tracking state: ``moving`` → ``settled`` → ``lifted`` → ``lost``, with warnings.

A marker is *moving* when first seen (in ``confirm_frames`` consecutive frames, so that a one-frame
misread never becomes a figure) or when it leaves the small circle it was resting in, *settled* once
it is at rest, *lifted* when it has been
unseen for longer than ``grace_s`` (a hand passing over it is shorter than that and changes
nothing), and *lost* after ``lost_s`` unseen. Duplicate ids in one frame, ids outside the
configured set and tags outside the calibrated area are reported as warnings, never errors.
Pure logic: time is passed in, so tests drive it frame by frame.

At rest: when the frame says which tags have a hand near them (``near_hand``, from
:class:`vision.hand_watch.HandWatch`), a tag settles as soon as its last ``still_frames`` poses agree
within the jitter measured on resting tags (position and angle) and the picture around it did not
change since the frame before (``quiet_frames``): a figure let go settles two frames after the hand
left it, and a figure still in a hand (held still, hesitating, slid across a border) does not, because
the hand trembles and moves beside its tag. Without that signal a tag settles after ``settle_s`` inside
its circle.
"""

from __future__ import annotations

import logging
import math
import re
from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from engine.i18n import gettext_for
from engine.wire import TrackState
from vision.mapping import TableMarker

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

MOVING, SETTLED, LIFTED, LOST = TrackState.MOVING, TrackState.SETTLED, TrackState.LIFTED, TrackState.LOST


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Tracking thresholds; the defaults settle a figure let go within about 70 ms at 30 fps (150 ms without
    a hand signal)."""

    settle_radius_mm: float = 2.5
    settle_s: float = 0.15  # the wait for stillness when the frame gives no hand signal
    still_frames: int = 3  # poses that must agree (within the jitter tolerance) to call a tag at rest
    quiet_frames: int = 1  # frames in a row with no hand near the tag before it may settle
    jitter_mm: float = 0.25  # a resting tag's frame-to-frame wander before any is measured
    jitter_deg: float = 0.6
    jitter_k: float = 3.0  # poses agree when within jitter_k × the measured jitter of their mean
    min_tolerance_mm: float = 0.4
    min_tolerance_deg: float = 1.0
    max_tolerance_deg: float = 4.0
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
    poses: deque[tuple[float, float, float]] = field(default_factory=lambda: deque(maxlen=8))  # x, y, angle
    quiet: int = 0  # frames in a row with no hand near the tag (with a hand signal)


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
        # id → (consecutive sightings, last frame, the pose seen then): a tag not on the table yet
        self._tentative: dict[int, tuple[int, int, tuple[float, float, float] | None]] = {}
        self.jitter_mm = self.config.jitter_mm  # measured on settled tags, frame to frame
        self.jitter_deg = self.config.jitter_deg

    @property
    def tracks(self) -> list[Track]:
        return [self._tracks[k] for k in sorted(self._tracks)]

    def update(self, markers: Iterable[TableMarker], now: float, near_hand: Collection[int] | None = None
               ) -> TrackUpdate:
        """Apply one frame's sightings taken at time ``now`` (seconds, monotonic).

        ``near_hand``: the ids of the tags with a hand (or anything else moving) near them in this frame, None
        when the source cannot tell (then a tag settles after ``settle_s`` of stillness).
        """
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
            earlier = self._tentative.get(marker_id)
            if self._confirmed(marker_id):
                self._observe(chosen, now, update, None if near_hand is None else marker_id in near_hand,
                              earlier[2] if earlier is not None and earlier[1] == self._frame - 1 else None)
            if marker_id in self._tentative:
                count, last, _pose = self._tentative[marker_id]
                self._tentative[marker_id] = (count, last, (chosen.x_mm, chosen.y_mm, chosen.angle_deg))
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
        count, last, _ = self._tentative.get(marker_id, (0, -1, None))
        count = count + 1 if last == self._frame - 1 else 1
        self._tentative[marker_id] = (count, self._frame, None)
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

    def _observe(self, m: TableMarker, now: float, update: TrackUpdate, hand_near: bool | None,
                 seen_before: tuple[float, float, float] | None = None) -> None:
        """One sighting of a confirmed tag; ``seen_before``: its pose in the frame before, when it was not confirmed
        yet (a tag coming back counts that frame towards being at rest)."""
        cfg = self.config
        track = self._tracks.get(m.marker_id)
        if track is None:
            track = Track(m.marker_id, m.x_mm, m.y_mm, m.angle_deg, m.x_px, m.y_px, m.confidence, MOVING, now,
                          (m.x_mm, m.y_mm), now, now)
            track.poses.append((m.x_mm, m.y_mm, m.angle_deg))
            self._tracks[m.marker_id] = track
            update.transitions.append(Transition(m.marker_id, None, MOVING, now))
            return
        before = track.state
        if before == SETTLED:
            self._measure_jitter(track, m)
        track.x_mm, track.y_mm, track.angle_deg = m.x_mm, m.y_mm, m.angle_deg
        track.x_px, track.y_px, track.confidence = m.x_px, m.y_px, m.confidence
        track.last_seen = now
        track.quiet = track.quiet + 1 if hand_near is False else 0
        if before in (LIFTED, LOST) or math.hypot(m.x_mm - track.anchor[0], m.y_mm - track.anchor[1]) > \
                cfg.settle_radius_mm:
            track.anchor, track.anchor_since = (m.x_mm, m.y_mm), now
            track.poses.clear()
            if seen_before is not None and before in (LIFTED, LOST):
                track.poses.append(seen_before)
            track.poses.append((m.x_mm, m.y_mm, m.angle_deg))
            self._set_state(track, MOVING, now, update, before)
            return
        track.poses.append((m.x_mm, m.y_mm, m.angle_deg))
        if before == SETTLED:
            return
        if hand_near is None:
            at_rest = now - track.anchor_since >= cfg.settle_s - 1e-9
        else:
            at_rest = track.quiet >= cfg.quiet_frames and self.still(list(track.poses)[-cfg.still_frames:])
        if at_rest:
            self._set_state(track, SETTLED, now, update, before)

    def tolerance(self) -> tuple[float, float]:
        """How far (mm, degrees) a resting tag's poses may stray from their mean: the measured jitter × k."""
        cfg = self.config
        mm = min(max(cfg.jitter_k * self.jitter_mm, cfg.min_tolerance_mm), cfg.settle_radius_mm)
        deg = min(max(cfg.jitter_k * self.jitter_deg, cfg.min_tolerance_deg), cfg.max_tolerance_deg)
        return mm, deg

    def still(self, poses: list[tuple[float, float, float]]) -> bool:
        """True when ``still_frames`` poses agree within the tolerance, in position and in angle."""
        if len(poses) < self.config.still_frames:
            return False
        tol_mm, tol_deg = self.tolerance()
        mx = sum(p[0] for p in poses) / len(poses)
        my = sum(p[1] for p in poses) / len(poses)
        turns = [_angle_between(p[2], poses[0][2]) for p in poses]
        mean_turn = sum(turns) / len(turns)
        return all(math.hypot(p[0] - mx, p[1] - my) <= tol_mm for p in poses) and \
            all(abs(t - mean_turn) <= tol_deg for t in turns)

    def _measure_jitter(self, track: Track, m: TableMarker) -> None:
        """Follow a resting tag's frame-to-frame wander (slowly, and never more than a settle radius a step)."""
        step_mm = min(math.hypot(m.x_mm - track.x_mm, m.y_mm - track.y_mm), self.config.settle_radius_mm)
        step_deg = min(abs(_angle_between(m.angle_deg, track.angle_deg)), self.config.max_tolerance_deg)
        self.jitter_mm += 0.02 * (step_mm - self.jitter_mm)
        self.jitter_deg += 0.02 * (step_deg - self.jitter_deg)

    def _unseen(self, track: Track, now: float, update: TrackUpdate) -> None:
        cfg = self.config
        track.quiet = 0  # seen again, it must first be seen without a hand
        track.poses.clear()
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


def _angle_between(a: float, b: float) -> float:
    """``a − b`` in degrees, in (−180, 180]."""
    d = (a - b + 180.0) % 360.0 - 180.0
    return 180.0 if d == -180.0 else d
