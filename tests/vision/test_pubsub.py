"""Publish/subscribe over real loopback sockets: tracks, heartbeats, late join with a snapshot."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import zmq

from engine import wire
from engine.wire import MarkerTrack, TracksMessage
from tests.waiting import WAIT_S
from vision.client import TracksSubscriber, request_snapshot
from vision.publisher import PublishError, VisionPublisher

ANY_PORT = "tcp://127.0.0.1:*"


@pytest.fixture
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield ctx
    ctx.term()


@pytest.fixture
def publisher(context: zmq.Context[zmq.Socket[bytes]]) -> Iterator[VisionPublisher]:
    pub = VisionPublisher(ANY_PORT, ANY_PORT, camera_id="cam7", context=context)
    yield pub
    pub.close()


def marker(marker_id: int, x: float) -> MarkerTrack:
    return MarkerTrack(marker_id, x, 20.0, 0.0, "settled", 0.9, 100.0, 200.0)


def snapshot_in_background(publisher: VisionPublisher, context: zmq.Context[zmq.Socket[bytes]]
                           ) -> wire.VisionSnapshot:
    """Ask for a snapshot from a thread while this thread plays the service loop answering it."""
    result: list[wire.VisionSnapshot | BaseException] = []

    def ask() -> None:
        try:
            result.append(request_snapshot(publisher.snapshot_endpoint, WAIT_S, context))
        except BaseException as exc:  # handed to the test thread
            result.append(exc)

    asker = threading.Thread(target=ask)
    asker.start()
    deadline = time.monotonic() + WAIT_S
    while not result and time.monotonic() < deadline:
        publisher.serve_snapshots(timeout_ms=20)
    asker.join(WAIT_S)
    assert result, "no snapshot reply"
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


def wait_until_subscribed(publisher: VisionPublisher, sub: TracksSubscriber) -> None:
    """Slow-joiner handshake without sleeping: send heartbeats until one arrives."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        publisher.publish_heartbeat("ok", 30.0)
        if isinstance(sub.receive(0.05), wire.Heartbeat):
            return
    pytest.fail("subscriber never received a heartbeat")


def test_tracks_reach_a_subscriber_in_order(publisher: VisionPublisher,
                                            context: zmq.Context[zmq.Socket[bytes]]) -> None:
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context,
                           topics=(wire.TOPIC_TRACKS, wire.TOPIC_HEARTBEAT))
    try:
        wait_until_subscribed(publisher, sub)
        sent = [publisher.publish_tracks(k, time.time(), [marker(3, 10.0 * k)]) for k in range(5)]
        got = []
        while len(got) < 5:
            message = sub.receive(WAIT_S)
            assert message is not None, "tracks did not arrive"
            if isinstance(message, TracksMessage):
                got.append(message)
        assert got == sent
        assert [m.seq for m in got] == sorted(m.seq for m in got)
        assert got[-1].camera_id == "cam7"
    finally:
        sub.close()


def test_late_joiner_gets_the_current_set_then_only_newer_updates(publisher: VisionPublisher,
                                                                  context: zmq.Context[zmq.Socket[bytes]]) -> None:
    empty = snapshot_in_background(publisher, context)
    assert empty.tracks is None  # before the first frame
    for k in range(4):  # nobody listens yet
        publisher.publish_tracks(k, time.time(), [marker(1, k), marker(2, 50.0)])
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context)
    try:
        wait_until_subscribed_tracks(publisher, sub)
        result: list[TracksMessage | None] = []
        asker = threading.Thread(target=lambda: result.append(sub.sync(WAIT_S)))
        asker.start()
        while asker.is_alive():
            publisher.serve_snapshots(timeout_ms=20)
        current = result[0]
        assert current is not None and current == publisher.last_tracks
        # An update older than the snapshot is ignored; a newer one is applied.
        stale = TracksMessage(seq=current.seq - 1, sent_at=time.time(), camera_id="cam7", frame_index=0,
                              captured_at=time.time(), markers=(marker(1, -1.0),))
        publisher._pub.send_multipart(stale.to_frames())
        newer = publisher.publish_tracks(99, time.time(), [marker(1, 42.0)])
        received = sub.receive(WAIT_S)
        assert received == newer
        assert sub.current == newer
    finally:
        sub.close()


def wait_until_subscribed_tracks(publisher: VisionPublisher, sub: TracksSubscriber) -> None:
    """Handshake on the tracks topic itself: resend the newest tracks until one gets through."""
    deadline = time.monotonic() + WAIT_S
    assert publisher.last_tracks is not None
    while time.monotonic() < deadline:
        publisher._pub.send_multipart(publisher.last_tracks.to_frames())
        if sub.receive(0.05) is not None:
            return
    pytest.fail("subscriber never connected")


def test_malformed_messages_are_dropped_and_the_subscriber_carries_on(publisher: VisionPublisher,
                                                                      context: zmq.Context[zmq.Socket[bytes]]) -> None:
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context,
                           topics=(wire.TOPIC_TRACKS, wire.TOPIC_HEARTBEAT))
    try:
        wait_until_subscribed(publisher, sub)
        publisher._pub.send_multipart([b"tracks", b'{"topic": "tracks", "version": 1}'])
        good = publisher.publish_tracks(1, time.time(), [marker(4, 1.0)])
        message = sub.receive(WAIT_S)
        while isinstance(message, wire.Heartbeat):
            message = sub.receive(WAIT_S)
        assert message == good
        assert sub.malformed == 1
    finally:
        sub.close()


def test_a_garbled_snapshot_request_still_gets_an_answer(publisher: VisionPublisher,
                                                         context: zmq.Context[zmq.Socket[bytes]]) -> None:
    publisher.publish_tracks(0, time.time(), [marker(9, 9.0)])
    req = context.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    try:
        req.connect(publisher.snapshot_endpoint)
        req.send_multipart([b"vision.snapshot?", b"garbage"])
        deadline = time.monotonic() + WAIT_S
        while not req.poll(10, zmq.POLLIN) and time.monotonic() < deadline:
            publisher.serve_snapshots(timeout_ms=10)
        reply = wire.decode(req.recv_multipart(zmq.NOBLOCK))
        assert isinstance(reply, wire.VisionSnapshot)
        assert reply.tracks == publisher.last_tracks
    finally:
        req.close(linger=0)


def test_a_snapshot_from_nobody_times_out_with_a_clear_message(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with pytest.raises(TimeoutError, match="is 'hexa vision' running"):
        request_snapshot("tcp://127.0.0.1:9", 0.2, context)


def test_a_busy_port_is_a_clear_error(publisher: VisionPublisher, context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with pytest.raises(PublishError, match="is another 'hexa vision' running"):
        VisionPublisher(publisher.endpoint, ANY_PORT, context=context)


def test_binding_beyond_this_machine_is_refused(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    with pytest.raises(PublishError, match="needs CURVE authentication"):
        VisionPublisher("tcp://0.0.0.0:*", ANY_PORT, context=context)
