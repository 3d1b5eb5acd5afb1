"""Settling from the tag's pose and the hand: early when let go, never while a hand still holds the figure.

Pose sequences at 30 frames a second, with a resting tag's detector jitter and a held figure's tremor; the
hand signal (which tags have a hand moving near them) is given per frame, as the camera service's
:class:`vision.hand_watch.HandWatch` gives it.
"""

from __future__ import annotations

import math

import numpy as np

from vision.mapping import TableMarker
from vision.tracking import MOVING, SETTLED, Tracker, TrackerConfig

FPS = 30.0
ID = 4


def pose(x: float, y: float, angle: float = 0.0) -> TableMarker:
    return TableMarker(ID, x, y, angle, 0.0, x * 2, y * 2, 0.9, 22.0)


Frame = tuple[TableMarker | None, bool]  # the tag's pose (None: unseen) and whether a hand is beside it


def play(tracker: Tracker, frames: list[Frame], start: float = 0.0) -> list[tuple[int, str, float, float]]:
    """Feed the frames; every transition as (frame index, new state, x, y).

    The hand signal is the hand watch's: the picture around the tag changed since the frame before, so a
    frame whose predecessor had the hand in it (the hand just left) is still a frame with a hand near."""
    out = []
    hand_before = False
    for k, (seen, hand) in enumerate(frames):
        near = {ID} if hand or hand_before else set()
        hand_before = hand
        update = tracker.update([seen] if seen else [], start + k / FPS, near)
        track = next((t for t in update.tracks if t.marker_id == ID), None)
        out += [(k, t.after, track.x_mm, track.y_mm) for t in update.transitions if track is not None]
    return out


def resting(x: float, y: float, n: int, rng: np.random.Generator, hand: bool = False, sigma: float = 0.15
            ) -> list[Frame]:
    return [(pose(x + rng.normal(0, sigma), y + rng.normal(0, sigma), rng.normal(0, 0.3)), hand) for _ in range(n)]


def tremor(x: float, y: float, n: int, rng: np.random.Generator, amplitude: float = 0.6) -> list[Frame]:
    """A figure held still in a hand: a smooth sway of about ``amplitude`` mm at 4–9 Hz, the hand beside it."""
    waves = [(rng.uniform(4, 9), rng.uniform(0, 2 * math.pi)) for _ in range(3)]
    out: list[Frame] = []
    for k in range(n):
        t = k / FPS
        d = amplitude * sum(math.sin(2 * math.pi * f * t + p) for f, p in waves) / math.sqrt(1.5)
        out.append((pose(x + d, y - 0.7 * d, 1.5 * d), True))
    return out


def carried(a: tuple[float, float], b: tuple[float, float], n: int) -> list[Frame]:
    return [(pose(a[0] + (b[0] - a[0]) * k / (n - 1), a[1] + (b[1] - a[1]) * k / (n - 1)), True) for k in range(n)]


def settles(changes: list[tuple[int, str, float, float]], after: int = -1) -> list[tuple[int, float, float]]:
    return [(k, x, y) for k, s, x, y in changes if s == SETTLED and k > after]


def test_a_figure_let_go_settles_on_the_third_still_frame_long_before_the_fixed_wait() -> None:
    rng = np.random.default_rng(1)
    frames = resting(0.0, 0.0, 10, rng) + carried((0.0, 0.0), (50.0, 0.0), 15) + resting(50.0, 0.0, 20, rng)
    put_down, let_go = 24, 25  # the last carried pose is on the spot; the next frame has no hand
    changes = play(Tracker(), frames)
    (k, x, _), = settles(changes, after=10)
    assert k == put_down + 2 == let_go + 1  # three poses at rest, the picture round the tag unchanged since
    assert abs(x - 50.0) < 1.0
    # the same frames without a hand signal: the fixed 150 ms inside the settle circle
    no_signal = Tracker()
    waits = []
    for i, (m, _) in enumerate(frames):
        update = no_signal.update([m] if m else [], i / FPS)
        waits += [i for t in update.transitions if t.after == SETTLED and i > 10]
    assert waits and waits[0] > k + 2


def test_a_hand_still_beside_the_tag_keeps_it_moving_however_still_the_tag_is() -> None:
    rng = np.random.default_rng(2)
    frames = resting(0.0, 0.0, 10, rng) + carried((0.0, 0.0), (50.0, 0.0), 15)
    frames += resting(50.0, 0.0, 30, rng, hand=True)  # held perfectly still, fingers on it
    changes = play(Tracker(), frames)
    assert settles(changes, after=10) == []
    assert changes[-1][1] == MOVING


def test_a_trembling_held_figure_never_settles_and_settles_at_once_when_let_go() -> None:
    rng = np.random.default_rng(3)
    held = tremor(50.0, 0.0, 40, rng, amplitude=0.6)
    frames = resting(0.0, 0.0, 10, rng) + carried((0.0, 0.0), (50.0, 0.0), 15) + held
    assert settles(play(Tracker(), frames), after=10) == []
    last = held[-1][0]
    assert last is not None
    let_go = len(frames)
    frames += resting(last.x_mm, last.y_mm, 10, rng)
    (k, _, _), = settles(play(Tracker(), frames), after=10)
    assert k == let_go + 1  # the frame after the one the hand left in: nothing changed round the tag since


def test_never_settles_while_sliding_across_a_border_at_any_speed() -> None:
    for speed_mm_per_frame in (0.1, 0.3, 1.0, 3.0):
        rng = np.random.default_rng(4)
        n = int(40 / speed_mm_per_frame)
        slide: list[Frame] = [(pose(10.0 + speed_mm_per_frame * k, 0.0), True) for k in range(n)]
        frames = resting(10.0, 0.0, 10, rng) + slide
        assert settles(play(Tracker(), frames), after=10) == [], speed_mm_per_frame
    # a slide too fast to look still never settles even if the hand signal failed completely
    fast: list[Frame] = [(pose(10.0 + 1.0 * k, 0.0), False) for k in range(40)]
    assert settles(play(Tracker(), resting(10.0, 0.0, 10, rng) + fast), after=10) == []


def test_put_down_then_lifted_again_never_settles_at_the_new_hex() -> None:
    rng = np.random.default_rng(5)
    for touch_frames in (1, 3, 6, 12, 20):
        frames = resting(0.0, 0.0, 10, rng) + carried((0.0, 0.0), (50.0, 0.0), 15)
        frames += tremor(50.0, 0.0, touch_frames, rng, amplitude=0.4)  # touched down, still held
        lifted: list[Frame] = [(None, True)] * 10
        frames += lifted + carried((50.0, 10.0), (0.0, 0.0), 12)  # lifted, brought back
        changes = play(Tracker(), frames)
        assert [c for c in settles(changes, after=10) if abs(c[1] - 50.0) < 10.0] == [], touch_frames


def test_a_tag_seen_again_after_a_hand_covered_it_settles_once_seen_steadily() -> None:
    rng = np.random.default_rng(6)
    frames = resting(0.0, 0.0, 10, rng) + carried((0.0, 0.0), (50.0, 0.0), 10) + [(None, True)] * 20
    back = 10 + 10 + 20
    frames += [(pose(50.0, 0.0), True), *resting(50.0, 0.0, 10, rng)]  # the hand withdraws, then nothing moves
    changes = play(Tracker(), frames)
    (k, x, _), = settles(changes, after=back - 1)
    assert k == back + 2  # its first sight (hand moving) counts as a pose; two quiet frames after it
    assert abs(x - 50.0) < 1.0


def test_the_tolerance_follows_the_jitter_measured_on_resting_tags() -> None:
    rng = np.random.default_rng(7)
    quiet_camera, noisy_camera = Tracker(), Tracker()
    play(quiet_camera, resting(0.0, 0.0, 300, rng, sigma=0.05))
    play(noisy_camera, resting(0.0, 0.0, 300, rng, sigma=0.5))
    assert quiet_camera.jitter_mm < 0.15 < noisy_camera.jitter_mm
    assert quiet_camera.tolerance()[0] < noisy_camera.tolerance()[0]
    # on the noisy camera a figure let go still settles, in spite of its jitter
    frames = carried((0.0, 0.0), (50.0, 0.0), 15) + resting(50.0, 0.0, 30, rng, sigma=0.5)
    assert settles(play(noisy_camera, frames, start=20.0))
    assert TrackerConfig().min_tolerance_mm <= quiet_camera.tolerance()[0]
