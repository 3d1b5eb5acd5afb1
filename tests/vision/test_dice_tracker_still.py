"""A die's stillness is judged from its blob (its centre and box), not from its top face found afresh each frame,
which wanders by up to a millimetre on a still die; the dice sharing a blob move with it."""

from __future__ import annotations

from vision.dice.tracking import DiceTracker, DiceTrackerConfig, Sighting

FRAME_S = 1 / 30
BOX = (24.0, 30.0)


def test_a_still_die_whose_top_face_wanders_settles_and_stays_settled() -> None:
    tracker = DiceTracker(DiceTrackerConfig())
    now = 0.0
    for k in range(30):  # its top face found 1.2 mm from where it was the frame before, every other frame
        face_x = 50.0 + (0.6 if k % 2 else -0.6)
        (track,) = tracker.update([Sighting(face_x, 50.0, 300.0, BOX, (50.0, 53.0))], now)
        now += FRAME_S
    assert track.settled(now - FRAME_S, tracker.config) and tracker.roll == 1


def test_a_die_judged_from_its_top_face_alone_is_reset_by_the_same_wander() -> None:
    tracker = DiceTracker(DiceTrackerConfig())
    now = 0.0
    for k in range(30):
        (track,) = tracker.update([Sighting(50.0 + (0.6 if k % 2 else -0.6), 50.0, 300.0, BOX)], now)
        now += FRAME_S
    assert not track.settled(now - FRAME_S, tracker.config)


def test_dice_sharing_a_blob_are_reset_when_it_moves_or_changes_its_box() -> None:
    tracker = DiceTracker(DiceTrackerConfig())
    now = 0.0
    for k in range(15):  # the top faces wander, the blob's centre does not
        tracks = tracker.update([Sighting(40.0 + 0.4 * (k % 2), 50.0, 300.0, BOX, (47.0, 52.0), 2),
                                 Sighting(55.0 - 0.4 * (k % 2), 52.0, 300.0, BOX, (47.0, 52.0), 2)], now)
        now += FRAME_S
    assert all(t.settled(now - FRAME_S, tracker.config) for t in tracks)
    # One die slides 1.2 mm: the blob's centre moves half as much (a share of the blob), its box grows as much.
    tracks = tracker.update([Sighting(40.0, 50.0, 300.0, (25.2, 30.0), (47.6, 52.0), 2),
                             Sighting(56.2, 52.0, 300.0, (25.2, 30.0), (47.6, 52.0), 2)], now)
    assert all(t.still_since == now for t in tracks) and tracker.roll == 1
