"""The tray's roll counter goes up for a throw, not for a settled die that slides on or is nudged: otherwise the
dice of a throw already taken would come back as a new roll and answer the next prompt without a throw."""

from __future__ import annotations

from vision.dice.tracking import DiceTracker, DiceTrackerConfig, Sighting

FRAME_S = 1 / 30
SIZE = (16.0, 16.0)


def _settle(tracker: DiceTracker, at: list[tuple[float, float]], start: float, seconds: float = 0.5) -> float:
    """Show dice still at ``at`` for ``seconds`` from ``start``; the time after."""
    now = start
    while now < start + seconds:
        tracker.update([Sighting(x, y, 300.0, SIZE) for x, y in at], now)
        now += FRAME_S
    return now


def test_a_settled_die_that_slides_a_little_is_read_again_in_the_same_roll() -> None:
    tracker = DiceTracker(DiceTrackerConfig())
    now = _settle(tracker, [(50.0, 50.0), (120.0, 60.0)], 0.0)
    assert tracker.roll == 1 and tracker.all_settled(list(tracker.tracks.values()), now)
    track = tracker.tracks[1]
    track.reading = "5"
    for k in range(1, 7):  # creeps on 3 mm, half a millimetre a frame
        tracker.update([Sighting(50.0 + 0.5 * k, 50.0, 300.0, SIZE), Sighting(120.0, 60.0, 300.0, SIZE)], now)
        now += FRAME_S
    assert track.reading is None, "it moved: read again once still"
    now = _settle(tracker, [(53.0, 50.0), (120.0, 60.0)], now)
    assert tracker.roll == 1, "no new roll: the same throw settled again"


def test_a_die_carried_farther_than_its_side_or_a_new_die_is_a_new_roll() -> None:
    tracker = DiceTracker(DiceTrackerConfig())
    now = _settle(tracker, [(50.0, 50.0)], 0.0)
    tracker.update([Sighting(70.0, 50.0, 300.0, SIZE)], now)  # 20 mm in one frame: picked up and thrown
    assert tracker.roll == 2
    now = _settle(tracker, [(70.0, 50.0)], now + FRAME_S)
    tracker.update([Sighting(70.0, 50.0, 300.0, SIZE), Sighting(150.0, 90.0, 300.0, SIZE)], now)
    assert tracker.roll == 3, "a die that was not there: thrown"
    now = _settle(tracker, [(70.0, 50.0), (150.0, 90.0)], now + FRAME_S)
    tracker.update([Sighting(70.0, 50.0, 300.0, SIZE)], now, hand=True)
    assert tracker.roll == 4, "a hand in the tray"


def test_dice_picked_up_and_thrown_where_they_lay_are_a_new_roll() -> None:
    tracker = DiceTracker(DiceTrackerConfig())
    now = _settle(tracker, [(50.0, 50.0)], 0.0)
    now = _settle(tracker, [], now, seconds=0.4)  # the tray empty a moment: the old die is forgotten
    tracker.update([Sighting(52.0, 51.0, 300.0, SIZE)], now)
    assert tracker.roll == 2
