"""The vision messages of the wire schema: round trips, and every malformed input refused clearly."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import wire
from engine.wire import (
    Heartbeat,
    MarkerTrack,
    PreviewMessage,
    TracksMessage,
    VisionSnapshot,
    VisionSnapshotRequest,
    WireError,
)

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)

tracks_strategy = st.builds(
    MarkerTrack,
    id=st.integers(0, 999),
    x_mm=finite,
    y_mm=finite,
    angle_deg=st.floats(-180, 180),
    state=st.sampled_from(wire.TRACK_STATES),
    confidence=st.floats(0, 1),
    x_px=finite,
    y_px=finite,
)

# The fields every message about one camera frame has (tracks, dice).
frame_fields: dict[str, st.SearchStrategy[Any]] = {
    "seq": st.integers(0, 2**53),
    "sent_at": st.floats(0, 4e9),
    "camera_id": st.text(max_size=20),
    "frame_index": st.integers(0, 2**40),
    "captured_at": st.floats(0, 4e9),
}

tracks_message_strategy = st.builds(
    TracksMessage,
    **frame_fields,
    markers=st.lists(tracks_strategy, max_size=30).map(tuple),
    warnings=st.lists(st.text(max_size=40), max_size=5).map(tuple),
)


def _sample_tracks() -> TracksMessage:
    marker = MarkerTrack(7, 412.3, 188.0, -12.5, "settled", 0.97, 812.4, 433.1)
    return TracksMessage(seq=5, sent_at=1.7e9, camera_id="cam0", frame_index=42, captured_at=1.7e9 - 0.01,
                         markers=(marker,), warnings=("duplicate id 3",))


def _tracks_obj() -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(_sample_tracks().to_json())
    return obj


@given(tracks_message_strategy)
@settings(max_examples=60, deadline=None)
def test_tracks_round_trip(message: TracksMessage) -> None:
    frames = message.to_frames()
    assert frames[0] == b"tracks"
    assert wire.decode(frames) == message


def test_other_vision_messages_round_trip() -> None:
    beat = Heartbeat(seq=9, sent_at=1.0, camera_id="cam0", status="no_camera", fps=0.0, last_tracks_seq=-1,
                     detail="camera 0 unplugged")
    preview = PreviewMessage(seq=10, sent_at=2.0, camera_id="cam0", captured_at=1.5, width=320, height=180,
                             jpeg=b"\xff\xd8\xff\xe0fake-but-starts-right")
    request = VisionSnapshotRequest(seq=0, sent_at=3.0)
    snap = VisionSnapshot(seq=11, sent_at=4.0, camera_id="cam0", tracks=_sample_tracks())
    empty = VisionSnapshot(seq=12, sent_at=4.0, camera_id="cam0", tracks=None)
    for message in (beat, preview, request, snap, empty):
        assert wire.decode(message.to_frames()) == message


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda o: o.pop("seq"), "tracks.seq: missing"),
        (lambda o: o.update(seq=-1), "tracks.seq: must be >= 0"),
        (lambda o: o.update(seq=True), "tracks.seq: expected an integer"),
        (lambda o: o.update(version=99), "tracks.version: protocol 99 is not supported"),
        (lambda o: o.update(sent_at="now"), "tracks.sent_at: expected a number"),
        (lambda o: o.update(markers={}), "tracks.markers: expected a list"),
        (lambda o: o["markers"][0].update(x_mm=None), "tracks.markers[0].x_mm: expected a number"),
        (lambda o: o["markers"][0].update(state="hovering"), "tracks.markers[0].state: must be one of"),
        (lambda o: o["markers"][0].update(confidence=1.5), "tracks.markers[0].confidence: must be within"),
        (lambda o: o["markers"][0].update(angle_deg=400), "tracks.markers[0].angle_deg: must be within"),
        (lambda o: o["markers"][0].pop("id"), "tracks.markers[0].id: missing"),
        (lambda o: o["markers"].append(3), "tracks.markers[1]: expected a JSON object"),
        (lambda o: o.update(warnings=[1]), "tracks.warnings[0]: expected a string"),
        (lambda o: o.update(topic="heartbeat"), "message.topic: expected 'tracks'"),
    ],
)
def test_malformed_tracks_are_refused_with_the_field_named(mutate: Any, expected: str) -> None:
    obj = _tracks_obj()
    mutate(obj)
    with pytest.raises(WireError, match=expected.replace("[", r"\[").replace("]", r"\]")):
        TracksMessage.from_json(json.dumps(obj))


def test_transport_level_problems() -> None:
    with pytest.raises(WireError, match="not valid JSON"):
        TracksMessage.from_json(b"{nope")
    with pytest.raises(WireError, match="not UTF-8"):
        TracksMessage.from_json(b"\xff\xfe")
    with pytest.raises(WireError, match="NaN"):
        TracksMessage.from_json(_sample_tracks().to_json().replace(b"412.3", b"NaN"))
    with pytest.raises(WireError, match="expected a JSON object"):
        TracksMessage.from_json(b"[1, 2]")
    with pytest.raises(WireError, match="exceeds the limit"):
        TracksMessage.from_json(b" " * (wire.MAX_MESSAGE_BYTES + 1))
    with pytest.raises(WireError, match="unknown topic"):
        wire.decode([b"gossip", _sample_tracks().to_json()])
    with pytest.raises(WireError, match="expected 2 frames"):
        wire.decode([b"tracks"])
    with pytest.raises(WireError, match="exceeds the limit"):
        PreviewMessage(seq=0, sent_at=0.0, camera_id="c", captured_at=0.0, width=1, height=1,
                       jpeg=b"\xff\xd8" + b"x" * wire.MAX_MESSAGE_BYTES).to_json()


def test_preview_payload_must_be_a_jpeg() -> None:
    obj = json.loads(PreviewMessage(seq=0, sent_at=0.0, camera_id="c", captured_at=0.0, width=1, height=1,
                                    jpeg=b"\xff\xd8ok").to_json())
    obj["jpeg"] = "!!!"
    with pytest.raises(WireError, match=r"preview\.jpeg: not valid base64"):
        PreviewMessage.from_json(json.dumps(obj))
    obj["jpeg"] = "aGVsbG8="  # "hello"
    with pytest.raises(WireError, match=r"preview\.jpeg: not a JPEG"):
        PreviewMessage.from_json(json.dumps(obj))


def test_snapshot_reports_errors_inside_the_embedded_tracks() -> None:
    obj = json.loads(VisionSnapshot(seq=1, sent_at=1.0, camera_id="c", tracks=_sample_tracks()).to_json())
    obj["tracks"]["markers"][0]["y_mm"] = "far"
    with pytest.raises(WireError, match=r"vision.snapshot.tracks.markers\[0\].y_mm"):
        VisionSnapshot.from_json(json.dumps(obj))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@given(st.binary(max_size=200))
@settings(max_examples=200, deadline=None)
def test_fuzzed_bytes_only_ever_raise_wire_error(payload: bytes) -> None:
    for topic in wire.known_topics():
        with contextlib.suppress(WireError):
            wire.decode([topic, payload])


@given(st.sampled_from(["seq", "sent_at", "camera_id", "frame_index", "captured_at", "markers", "warnings"]),
       json_values)
@settings(max_examples=150, deadline=None)
def test_fuzzed_field_values_are_accepted_only_when_valid(key: str, value: Any) -> None:
    obj = _tracks_obj()
    obj[key] = value
    refused_naming_or_round_trip(TracksMessage, obj, (key, "message"))


def refused_naming_or_round_trip(cls: type[wire.Message], obj: dict[str, Any], names: tuple[str, ...]
                                 ) -> wire.Message | None:
    """``obj`` sent as a ``cls``: refused with one of ``names`` in the error, or accepted as a message that
    round-trips to an equal one (returned)."""
    try:
        message = cls.from_json(json.dumps(obj))
    except WireError as exc:
        assert any(name in str(exc) for name in names), exc
        return None
    assert cls.from_json(message.to_json()) == message
    return message


@given(st.sampled_from(["id", "x_mm", "y_mm", "angle_deg", "state", "confidence", "x_px", "y_px"]), json_values)
@settings(max_examples=150, deadline=None)
def test_fuzzed_marker_fields_name_the_marker_field(key: str, value: Any) -> None:
    obj = _tracks_obj()
    obj["markers"][0][key] = value
    try:
        TracksMessage.from_json(json.dumps(obj))
    except WireError as exc:
        assert f"tracks.markers[0].{key}" in str(exc)


def test_registering_a_second_class_on_a_taken_topic_is_refused() -> None:
    class Impostor(wire.Message):
        TOPIC = wire.TOPIC_TRACKS

    with pytest.raises(ValueError, match="already registered"):
        wire.register(Impostor)
