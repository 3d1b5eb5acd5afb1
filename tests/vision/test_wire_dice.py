"""The camera's ``dice`` message: round trips, and every malformed field refused with its path named."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.wire import DiceMessage, DieDoubt, DieKind, DieSeen, TraySeen, WireError
from tests.vision.test_wire_tracks import json_values

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)


@st.composite
def dice_seen(draw: st.DrawFn) -> DieSeen:
    kind = draw(st.sampled_from(list(DieKind)))
    low, high = (1, 6) if kind is DieKind.D6 else (0, 9)
    return DieSeen(draw(st.integers(0, 10**6)), kind, draw(st.none() | st.integers(low, high)),
                   draw(st.floats(0, 1)), draw(finite), draw(finite), draw(st.booleans()),
                   draw(st.none() | st.sampled_from(list(DieDoubt))))


dice_messages = st.builds(
    DiceMessage,
    seq=st.integers(0, 2**53),
    sent_at=st.floats(0, 4e9),
    camera_id=st.text(max_size=20),
    frame_index=st.integers(0, 2**40),
    captured_at=st.floats(0, 4e9),
    trays=st.lists(st.builds(TraySeen, tray=st.text(max_size=12), roll=st.integers(0, 10**6), settled=st.booleans(),
                             dice=st.lists(dice_seen(), max_size=6).map(tuple)), max_size=3).map(tuple),
)


def _sample() -> dict[str, Any]:
    die = DieSeen(3, DieKind.D10, 0, 0.91, 40.5, 61.0, True)
    message = DiceMessage(seq=9, sent_at=1.7e9, camera_id="cam0", frame_index=120, captured_at=1.7e9 - 0.02,
                          trays=(TraySeen("tray", 4, True, (die,)),))
    return json.loads(message.to_json())


@given(dice_messages)
@settings(max_examples=100, deadline=None)
def test_dice_messages_round_trip(message: DiceMessage) -> None:
    assert DiceMessage.from_json(message.to_json()) == message


@given(st.sampled_from(["camera_id", "frame_index", "captured_at", "trays"]), json_values)
@settings(max_examples=150, deadline=None)
def test_fuzzed_message_fields_are_accepted_only_when_valid(key: str, value: Any) -> None:
    obj = _sample()
    obj[key] = value
    try:
        message = DiceMessage.from_json(json.dumps(obj))
    except WireError as exc:
        assert key in str(exc)
        return
    assert DiceMessage.from_json(message.to_json()) == message


@given(st.sampled_from(["tray", "roll", "settled", "dice"]), json_values)
@settings(max_examples=150, deadline=None)
def test_fuzzed_tray_fields_name_the_tray_field(key: str, value: Any) -> None:
    obj = _sample()
    obj["trays"][0][key] = value
    try:
        message = DiceMessage.from_json(json.dumps(obj))
    except WireError as exc:
        assert f"dice.trays[0].{key}" in str(exc) or "dice.trays[0].dice[" in str(exc)
        return
    assert DiceMessage.from_json(message.to_json()) == message


@given(st.sampled_from(["track_id", "kind", "value", "confidence", "x_mm", "y_mm", "settled", "doubt"]),
       json_values | st.sampled_from([7, 10, -1, 1.5, "d20", "tilted", float("nan"), float("inf")]))
@settings(max_examples=200, deadline=None)
def test_fuzzed_die_fields_name_the_die_field(key: str, value: Any) -> None:
    obj = _sample()
    obj["trays"][0]["dice"][0][key] = value
    try:
        message = DiceMessage.from_json(json.dumps(obj))
    except WireError as exc:
        named = f"dice.trays[0].dice[0].{key}" in str(exc) or (key == "kind" and ".value" in str(exc))
        assert named or (value != value or value in (float("inf"), -float("inf"))) and "finite" in str(exc), exc
        return
    assert DiceMessage.from_json(message.to_json()) == message
    die = message.trays[0].dice[0]
    assert 0.0 <= die.confidence <= 1.0
    assert die.value is None or die.value <= (6 if die.kind is DieKind.D6 else 9)
