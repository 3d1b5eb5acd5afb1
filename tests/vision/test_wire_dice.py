"""The camera's ``dice`` message: round trips, and every malformed field refused with its path named."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.wire import DiceMessage, DieDoubt, DieKind, DieSeen, TraySeen
from tests.vision.test_wire_tracks import frame_fields, json_values, refused_naming_or_round_trip

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
    **frame_fields,
    trays=st.lists(st.builds(TraySeen, tray=st.text(max_size=12), roll=st.integers(0, 10**6), settled=st.booleans(),
                             dice=st.lists(dice_seen(), max_size=6).map(tuple)), max_size=3).map(tuple),
)


def _sample() -> dict[str, Any]:
    die = DieSeen(3, DieKind.D10, 0, 0.91, 40.5, 61.0, True)
    message = DiceMessage(seq=9, sent_at=1.7e9, camera_id="cam0", frame_index=120, captured_at=1.7e9 - 0.02,
                          trays=(TraySeen("tray", 4, True, (die,)),))
    obj: dict[str, Any] = json.loads(message.to_json())
    return obj


@given(dice_messages)
@settings(max_examples=100, deadline=None)
def test_dice_messages_round_trip(message: DiceMessage) -> None:
    assert DiceMessage.from_json(message.to_json()) == message


@given(st.sampled_from(["camera_id", "frame_index", "captured_at", "trays"]), json_values)
@settings(max_examples=150, deadline=None)
def test_fuzzed_message_fields_are_accepted_only_when_valid(key: str, value: Any) -> None:
    obj = _sample()
    obj[key] = value
    refused_naming_or_round_trip(DiceMessage, obj, (key,))


@given(st.sampled_from(["tray", "roll", "settled", "dice"]), json_values)
@settings(max_examples=150, deadline=None)
def test_fuzzed_tray_fields_name_the_tray_field(key: str, value: Any) -> None:
    obj = _sample()
    obj["trays"][0][key] = value
    refused_naming_or_round_trip(DiceMessage, obj, (f"dice.trays[0].{key}", "dice.trays[0].dice["))


NOT_FINITE = (float("nan"), float("inf"))


@given(st.sampled_from(["track_id", "kind", "value", "confidence", "x_mm", "y_mm", "settled", "doubt"]),
       json_values | st.sampled_from([7, 10, -1, 1.5, "d20", "tilted", *NOT_FINITE]))
@settings(max_examples=200, deadline=None)
def test_fuzzed_die_fields_name_the_die_field(key: str, value: Any) -> None:
    obj = _sample()
    obj["trays"][0]["dice"][0][key] = value
    # A kind changed is refused at the face it makes impossible; a number not finite is no JSON at all.
    names = (f"dice.trays[0].dice[0].{key}", *((".value",) if key == "kind" else ()),
             *(("finite",) if value in NOT_FINITE or value != value else ()))
    message = refused_naming_or_round_trip(DiceMessage, obj, names)
    if isinstance(message, DiceMessage):
        die = message.trays[0].dice[0]
        assert 0.0 <= die.confidence <= 1.0
        assert die.value is None or die.value <= (6 if die.kind is DieKind.D6 else 9)
