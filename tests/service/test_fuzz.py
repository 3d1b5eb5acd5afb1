"""Hypothesis fuzz of every input the engine reads: commands, camera subscriptions and snapshot replies.

The engine must answer every command (an error naming the problem, or a success for a valid one),
drop malformed camera messages with a count, and keep serving afterwards.
"""

from __future__ import annotations

import json
import time
from typing import Any

import zmq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import wire
from engine.wire import EngineHeartbeat, TableViewMessage
from tests.service.conftest import ANY_PORT, START, Rig, close_rig, make_rig
from tests.waiting import WAIT_S

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
VALID: list[dict[str, Any]] = [
    {"cmd": "snapshot"}, {"cmd": "undo"}, {"cmd": "action", "action": {"kind": "roll", "values": [3, 4]}},
    {"cmd": "action", "action": {"kind": "move", "figure": "goblin-1", "to": [5, -1]}},
    {"cmd": "override", "figure": "goblin-1", "to": "F2"}, {"cmd": "new_game", "scenario": "tutorial"},
    {"cmd": "load", "game_id": 1}, {"cmd": "save", "path": "fuzz.txt"},
    {"cmd": "query", "what": "reachable", "figure": "goblin-1"}, {"cmd": "query", "what": "threatened", "side": "x"},
    {"cmd": "register_manual", "points": [{"hex": "A1", "figure": "bowman"}]},
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A valid command with one field replaced, removed or added."""
    request = dict(draw(st.sampled_from(VALID)))
    key = draw(st.sampled_from([*request, "extra", "version", "id"]))
    if draw(st.booleans()) and key in request:
        del request[key]
    else:
        request[key] = draw(JSON)
    return json.dumps(request).encode()


COMMANDS = st.one_of(st.binary(max_size=300), JSON.map(lambda v: json.dumps(v).encode()), mutated())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=COMMANDS)
def test_every_command_payload_gets_a_reply(rig: Rig, payload: bytes) -> None:
    rig.tablet.send_raw([payload])
    reply = rig.tablet.wait_reply(None, WAIT_S)  # parse_reply validates the reply itself
    assert reply.ok or (reply.error and len(reply.error) > 10)


TRACK = {"id": 10, "x_mm": 1.0, "y_mm": 2.0, "angle_deg": 0.0, "state": "settled", "confidence": 0.9,
         "x_px": 0.0, "y_px": 0.0}
DIE = {"track_id": 1, "kind": "d6", "value": 4, "confidence": 0.9, "x_mm": 40.0, "y_mm": 50.0, "settled": True,
       "doubt": None}


@st.composite
def camera_frames(draw: st.DrawFn) -> list[bytes]:
    topic = draw(st.sampled_from([b"tracks", b"heartbeat", b"dice", b"tracks.x"]))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return [topic, draw(st.binary(max_size=200))]
    die = dict(DIE)
    obj: dict[str, Any] = {"topic": topic.decode(), "version": 1, "seq": draw(st.integers(0, 10**9)),
                           "sent_at": time.time(), "camera_id": "fuzz", "frame_index": 1, "captured_at": 1.0,
                           "markers": [dict(TRACK)], "warnings": [], "status": "ok", "fps": 1.0,
                           "last_tracks_seq": 1, "detail": "", "problem": "",
                           "trays": [{"tray": "tray", "roll": 1, "settled": True, "dice": [die]}]}
    if kind == 1:
        key = draw(st.sampled_from(sorted(obj)))
        obj[key] = draw(JSON)
    elif kind == 2:
        field = draw(st.sampled_from(sorted(TRACK)))
        obj["markers"][0][field] = draw(JSON)
    else:
        die[draw(st.sampled_from(sorted(DIE)))] = draw(JSON)
    extra = [draw(st.binary(max_size=20))] if draw(st.integers(0, 9)) == 0 else []
    return [topic, json.dumps(obj).encode(), *extra]


def test_malformed_camera_messages_are_dropped_and_the_engine_keeps_following(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Any) -> None:
    rig = make_rig(context, str(tmp_path / "journal.sqlite"))
    try:
        rig.show(START, lambda m: isinstance(m, TableViewMessage) and len(m.figures) == 10)
        publisher = rig.cameras[0].publisher

        @settings(max_examples=300, deadline=None)
        @given(frames=camera_frames())
        def publish(frames: list[bytes]) -> None:
            publisher._pub.send_multipart(frames)

        publish()
        beat = rig.show(START, lambda m: isinstance(m, EngineHeartbeat) and m.dropped > 50, timeout_s=WAIT_S)
        assert isinstance(beat, EngineHeartbeat)
        rig.show(START, lambda m: isinstance(m, TableViewMessage) and len(m.figures) == 10)
        assert rig.act("snapshot")["game_id"] == rig.session.game_id
    finally:
        close_rig(rig)


def test_garbage_snapshot_replies_are_dropped(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Any) -> None:
    """A fake camera service whose snapshot socket answers with junk: the engine drops it and keeps serving."""
    from engine.service.server import EngineServer, ServerConfig
    from engine.service.session import open_session

    fake_pub = context.socket(zmq.PUB)
    fake_router = context.socket(zmq.ROUTER)
    for s in (fake_pub, fake_router):
        s.setsockopt(zmq.LINGER, 0)
        s.bind(ANY_PORT)
    ends = [s.getsockopt(zmq.LAST_ENDPOINT).decode() for s in (fake_pub, fake_router)]  # type: ignore[union-attr]
    session = open_session(str(tmp_path / "j.sqlite"), "tutorial")
    server = EngineServer(session, ServerConfig(pub=ANY_PORT, commands=ANY_PORT, vision=[(ends[0], ends[1])]),
                          context)
    try:
        assert fake_router.poll(int(WAIT_S * 1000), zmq.POLLIN)
        identity = fake_router.recv_multipart()[0]

        @settings(max_examples=200, deadline=None)
        @given(frames=st.lists(st.binary(max_size=100), min_size=0, max_size=4))
        def answer(frames: list[bytes]) -> None:
            fake_router.send_multipart([identity, *frames])

        answer()
        fake_router.send_multipart([identity, b"", *wire.VisionSnapshot(1, time.time(), "fake", None).to_frames()])
        feed = server.feeds[0]
        deadline = time.monotonic() + WAIT_S
        while not feed.synced and time.monotonic() < deadline:
            if feed.snap.poll(100, zmq.POLLIN):
                feed.drain_snapshot()
        assert feed.synced and feed.dropped > 50 and feed.camera_id == "fake"
    finally:
        server.close()
        session.close()
        session.journal.close()
        fake_pub.close(linger=0)
        fake_router.close(linger=0)
