"""Dice tracked across frames in one tray: which are rolling, which have settled, and which roll this is.

A die is *settled* once it has stayed within ``still_mm`` (and kept its size) for ``settle_s`` seconds, judged
from its patch where the reader gives it (:class:`Sighting`);
until then it is tracked, and never reported read. It may be read ahead, once still for ``read_after_s``
(:meth:`DieTrack.ready_to_read`), so that the frame that settles it need not pay for the reading: that reading
comes from the same still spell, is reported only once the die has settled, and is dropped if the die moves.
The tray's ``roll`` goes up each time dice are thrown after a settled (or
empty) moment, so a receiver takes each settled roll once: a hand in the tray (a patch far bigger than any die,
which makes every die count as moving), a die that was not there, or a die carried farther than ``thrown_mm``. A
settled die that shifts less than that (it slid on, rocked, was nudged) is read again once still, in the same roll:
were it a new roll, the dice of a throw already taken would answer the next prompt without a throw (rendered dice
still sliding the last millimetres, seen settled on a loaded machine's sparse frames, did just that).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DiceTrackerConfig:
    still_mm: float = 1.0  # a die that moves less than this between frames is still
    shape_mm: float = 2.0  # … and whose sides (its top face's, or its patch's box) change less than this
    area_share: float = 0.12  # … and whose patch's area changes less than this share
    match_mm: float = 25.0  # the farthest a die is matched to its track from one frame to the next
    settle_s: float = 0.25  # still for this long: settled
    read_after_s: float | None = 0.2  # still for this long: read ahead of settling (None: read when settled)
    forget_s: float = 0.3  # a track unseen this long is gone
    thrown_mm: float = 16.0  # a settled die carried farther than its own side was thrown again, not nudged


@dataclass
class DieTrack:
    """One die followed across frames; ``reading`` is kept while it stays settled (read once)."""

    track_id: int
    x_mm: float
    y_mm: float
    area_mm2: float
    still_since: float
    seen_at: float
    anchor: tuple[float, float] = (0.0, 0.0)  # where it was (``Sighting.at_mm``) when it last stopped moving
    anchor_shape: tuple[float, float, float] = (0.0, 0.0, 0.0)  # its area and sides (``Sighting.shape``) then
    reading: Any = None
    shared_ids: list[int] = field(default_factory=list)  # the ids of the dice seen in its patch besides it (touching)

    def settled(self, now: float, config: DiceTrackerConfig) -> bool:
        return now - self.still_since >= config.settle_s

    def ready_to_read(self, now: float, config: DiceTrackerConfig) -> bool:
        """Still long enough to be read (settled, or still for ``read_after_s``); the reading waits for settling."""
        ahead = config.read_after_s
        return self.settled(now, config) or (ahead is not None and now - self.still_since >= min(ahead,
                                                                                                config.settle_s))


@dataclass(frozen=True, slots=True)
class Sighting:
    """A die found in one frame: where (tray mm) and how big its patch is.

    Whether it moved is judged from ``still_at`` and ``shape`` when given: its patch's centre and box, which come out
    steadier from frame to frame than its top face found afresh (that may wander by half a millimetre on a still
    die), and which the dice sharing a patch share (one moving, all are; the centre's shift is weighed by
    ``sharing``, as one die's step shifts the centre of a patch of several by a share of it)."""

    x_mm: float
    y_mm: float
    area_mm2: float
    shape: tuple[float, float] = (0.0, 0.0)  # its sides (mm; its top face's or its patch's box): turning changes them
    still_at: tuple[float, float] | None = None  # where its stillness is judged from (mm); None: (x_mm, y_mm)
    sharing: int = 1  # how many dice that patch holds: one moving d mm moves its centre by about d / sharing

    @property
    def at_mm(self) -> tuple[float, float]:
        return self.still_at if self.still_at is not None else (self.x_mm, self.y_mm)


class DiceTracker:
    """The tracks of one tray."""

    def __init__(self, config: DiceTrackerConfig | None = None) -> None:
        self.config = config or DiceTrackerConfig()
        self.tracks: dict[int, DieTrack] = {}
        self.roll = 0
        self._was_settled = True  # an empty tray counts as settled: the first dice thrown start roll 1
        self._ids = itertools.count(1)

    def update(self, sightings: list[Sighting], now: float, hand: bool = False) -> list[DieTrack]:
        """Match this frame's dice to the tracks (nearest first); returns the tracks, in ``sightings`` order."""
        cfg = self.config
        pairs = sorted(((math.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm), i, t.track_id)
                        for i, s in enumerate(sightings) for t in self.tracks.values()), key=lambda p: p[0])
        matched: dict[int, int] = {}
        used: set[int] = set()
        for distance, i, track_id in pairs:
            if distance > cfg.match_mm or i in matched or track_id in used:
                continue
            matched[i] = track_id
            used.add(track_id)
        thrown = hand
        out: list[DieTrack] = []
        for i, s in enumerate(sightings):
            if i in matched:
                t = self.tracks[matched[i]]
                step = math.dist(s.at_mm, t.anchor) * s.sharing  # drift since it stopped, too
                area, a, b = t.anchor_shape
                resized = (abs(s.area_mm2 - area) > cfg.area_share * max(area, 1.0)
                           or max(abs(s.shape[0] - a), abs(s.shape[1] - b)) > cfg.shape_mm)
                if step > cfg.still_mm or resized or hand:
                    t.still_since, t.anchor = now, s.at_mm
                    t.anchor_shape = (s.area_mm2, *s.shape)
                    t.reading = None
                    thrown = thrown or step > cfg.thrown_mm
                t.x_mm, t.y_mm, t.area_mm2, t.seen_at = s.x_mm, s.y_mm, s.area_mm2, now
            else:
                t = DieTrack(next(self._ids), s.x_mm, s.y_mm, s.area_mm2, now, now, s.at_mm, (s.area_mm2, *s.shape))
                self.tracks[t.track_id] = t
                thrown = True
            out.append(t)
        for track_id in [k for k, t in self.tracks.items() if now - t.seen_at > cfg.forget_s]:
            del self.tracks[track_id]
        if hand:
            for t in self.tracks.values():
                t.still_since, t.reading = now, None
        settled = bool(out) and not hand and all(t.settled(now, cfg) for t in out)
        if thrown and self._was_settled:
            self.roll += 1
        self._was_settled = settled or (not out and not hand)
        return out

    def ids_of(self, track: DieTrack, count: int) -> list[int]:
        """An id for each of the ``count`` dice in ``track``'s patch (dice touching, told apart by no position):
        the track's own first, then ids of the same series as the tracks', kept while the track lives."""
        while len(track.shared_ids) < count - 1:
            track.shared_ids.append(next(self._ids))
        return [track.track_id, *track.shared_ids[:count - 1]]

    def all_settled(self, tracks: list[DieTrack], now: float) -> bool:
        return bool(tracks) and all(t.settled(now, self.config) for t in tracks)
