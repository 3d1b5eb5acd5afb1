"""Tracking transitions: moving → settled → lifted → lost, occlusion by a hand, duplicates, strays."""

from __future__ import annotations

import numpy as np

from vision.mapping import TableMarker
from vision.tracking import LIFTED, LOST, MOVING, SETTLED, Tracker, TrackerConfig

FPS = 30.0


def seen(marker_id: int, x: float, y: float, confidence: float = 0.9) -> TableMarker:
    return TableMarker(marker_id, x, y, 0.0, 0.0, x * 2, y * 2, confidence, 22.0)


def run(tracker: Tracker, frames: list[list[TableMarker]], start: float = 0.0) -> list[tuple[float, int, str]]:
    """Feed frames at 30 fps; return every transition as (time, id, new state)."""
    out = []
    for k, markers in enumerate(frames):
        update = tracker.update(markers, start + k / FPS)
        out += [(t.at, t.marker_id, t.after) for t in update.transitions]
    return out


def state(tracker: Tracker, marker_id: int) -> str:
    return next(t.state for t in tracker.tracks if t.marker_id == marker_id)


def test_a_figure_put_down_is_settled_within_300_ms_at_30_fps() -> None:
    tracker = Tracker()
    rng = np.random.default_rng(0)
    slide = [[seen(4, 100 + 3 * k, 50.0)] for k in range(15)]  # carried across the table
    rest = [[seen(4, 145 + rng.normal(0, 0.15), 50 + rng.normal(0, 0.15))] for _ in range(30)]  # detector jitter
    changes = run(tracker, slide + rest)
    assert changes[0][1:] == (4, MOVING)
    settled_at = next(t for t, _, s in changes if s == SETTLED)
    put_down_at = 15 / FPS
    assert settled_at - put_down_at <= 0.3
    assert [s for _, _, s in changes] == [MOVING, SETTLED]  # jitter never unsettles it


def test_a_hand_passing_over_does_not_lift_a_figure_but_picking_it_up_does() -> None:
    tracker = Tracker(TrackerConfig(grace_s=0.5, lost_s=2.0))
    still = [[seen(1, 10.0, 10.0)]] * 15
    hidden = [[]] * 9  # 0.3 s under a passing hand
    changes = run(tracker, still + hidden + still)
    assert [s for _, _, s in changes] == [MOVING, SETTLED]
    assert state(tracker, 1) == SETTLED
    gone = run(tracker, [[]] * 80, start=39 / FPS)  # picked up and kept off the table
    assert [s for _, _, s in gone] == [LIFTED, LOST]
    lifted_at, lost_at = gone[0][0], gone[1][0]
    last_seen = 38 / FPS
    assert 0.5 < lifted_at - last_seen <= 0.5 + 1.5 / FPS
    assert 2.0 < lost_at - last_seen <= 2.0 + 1.5 / FPS
    assert next(t.confidence for t in tracker.tracks) == 0.0


def test_a_figure_put_back_down_elsewhere_moves_then_settles_again() -> None:
    tracker = Tracker()
    run(tracker, [[seen(2, 0.0, 0.0)]] * 10 + [[]] * 20)
    assert state(tracker, 2) == LIFTED
    changes = run(tracker, [[seen(2, 60.0, 0.0)]] * 10, start=1.0)
    assert [s for _, _, s in changes] == [MOVING, SETTLED]
    track = tracker.tracks[0]
    assert (track.x_mm, track.y_mm) == (60.0, 0.0)


def test_nudging_a_settled_figure_unsettles_it() -> None:
    tracker = Tracker(TrackerConfig(settle_radius_mm=2.5))
    changes = run(tracker, [[seen(3, 0.0, 0.0)]] * 10 + [[seen(3, 4.0, 0.0)]] * 10)
    assert [s for _, _, s in changes] == [MOVING, SETTLED, MOVING, SETTLED]


def test_duplicate_ids_warn_and_keep_following_the_original() -> None:
    tracker = Tracker()
    run(tracker, [[seen(5, 100.0, 100.0)]] * 10)
    update = tracker.update([seen(5, 300.0, 40.0, confidence=1.0), seen(5, 100.5, 100.0)], 1.0)
    assert any("marker 5 seen 2 times in one frame" in w for w in update.warnings)
    assert (update.tracks[0].x_mm, update.tracks[0].state) == (100.5, SETTLED)


def test_strays_and_tags_outside_the_area_are_warnings_not_tracks() -> None:
    tracker = Tracker(TrackerConfig(known_ids=frozenset({1, 2}), area_mm=(0.0, 0.0, 600.0, 400.0)))
    frame = [seen(1, 10.0, 10.0), seen(9, 10.0, 10.0), seen(2, 700.0, 10.0), seen(2, float("nan"), 0.0)]
    tracker.update(frame, 0.0)
    update = tracker.update(frame, 1 / FPS)
    assert [t.marker_id for t in update.tracks] == [1]
    text = " | ".join(update.warnings)
    assert "marker 9 is not one of the configured markers" in text
    assert "marker 2 at (700, 10) mm is outside the calibrated area" in text
    assert "does not map onto the table" in text


def test_a_one_frame_misread_never_becomes_a_figure() -> None:
    """The detector's rare wrong ids are single frames; a tag must be seen twice in a row to count."""
    tracker = Tracker()
    frames: list[list[TableMarker]] = [[seen(1, 0.0, 0.0)]] * 10
    frames[3] = [seen(1, 0.0, 0.0), seen(17, 50.0, 50.0)]  # a ghost, once
    frames[6] = [seen(1, 0.0, 0.0), seen(17, 50.0, 50.0)]  # and once more, not in a row
    changes = run(tracker, frames)
    assert {m for _, m, _ in changes} == {1}
    assert [t.marker_id for t in tracker.tracks] == [1]
    changes = run(tracker, [[seen(1, 0.0, 0.0), seen(17, 50.0, 50.0)]] * 2, start=1.0)
    assert [(m, s) for _, m, s in changes] == [(17, MOVING)]  # two in a row: a real tag put down


def test_a_lifted_figure_comes_back_only_when_seen_twice_in_a_row() -> None:
    tracker = Tracker()
    run(tracker, [[seen(2, 0.0, 0.0)]] * 10 + [[]] * 20)
    assert state(tracker, 2) == LIFTED
    run(tracker, [[seen(2, 0.0, 0.0)]], start=2.0)
    assert state(tracker, 2) == LIFTED
    run(tracker, [[seen(2, 0.0, 0.0)]], start=2.0 + 1 / FPS)
    assert state(tracker, 2) == MOVING
