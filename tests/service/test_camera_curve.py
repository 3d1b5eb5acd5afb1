"""CURVE on the camera link: the engine hears only a camera holding the table's key; strangers hear nothing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import zmq

from engine import wire
from engine.service.camera_feed import CameraFeed
from engine.service.keys import main as keys_main
from engine.service.security import ENGINE_CLIENT, load_client_keys
from engine.wire import MarkerTrack
from tests.waiting import WAIT_S
from vision.publisher import PublishError, VisionPublisher

ANY = "tcp://127.0.0.1:*"
MARKER = MarkerTrack(id=3, x_mm=10.0, y_mm=20.0, angle_deg=0.0, state="settled", confidence=0.9, x_px=1.0, y_px=2.0)


def feed_hears(feed: CameraFeed, publisher: VisionPublisher, timeout_s: float = WAIT_S) -> bool:
    """Publish until the feed takes tracks (True) or the time is up (False); no sleeping to wait for joins."""
    end = time.monotonic() + timeout_s
    n = 0
    while time.monotonic() < end:
        n += 1
        publisher.publish_tracks(n, time.time(), [MARKER])
        publisher.serve_snapshots(0)
        if feed.sub.poll(50, zmq.POLLIN) and feed.drain_sub():
            return True
        feed.drain_snapshot()
    return False


def test_the_engine_hears_a_keyed_camera_and_refuses_an_impostor(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys)]) == 0
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    camera = VisionPublisher(ANY, ANY, context=context, keys_dir=keys)
    impostor = VisionPublisher(ANY, ANY, context=context)  # no keys: anyone could have started it
    engine_keys = load_client_keys(keys, ENGINE_CLIENT)
    trusted = CameraFeed(context, 0, camera.endpoint, camera.snapshot_endpoint, keys=engine_keys)
    fooled = CameraFeed(context, 1, impostor.endpoint, impostor.snapshot_endpoint, keys=engine_keys)
    eavesdropper = context.socket(zmq.SUB)
    eavesdropper.setsockopt(zmq.LINGER, 0)
    eavesdropper.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_TRACKS)
    eavesdropper.connect(camera.endpoint)
    try:
        assert camera.curve is not None
        assert feed_hears(trusted, camera)
        assert trusted.newest is not None and trusted.newest.markers[0].id == 3
        assert not feed_hears(fooled, impostor, timeout_s=1.5)
        assert fooled.newest is None
        camera.publish_tracks(99, time.time(), [MARKER])
        assert not eavesdropper.poll(300, zmq.POLLIN)
    finally:
        for closer in (trusted.close, fooled.close, eavesdropper.close, camera.close, impostor.close):
            closer()
        context.term()


def test_the_camera_serves_the_lan_only_with_keys() -> None:
    with pytest.raises(PublishError, match=r"needs CURVE authentication.*--keys"):
        VisionPublisher("tcp://0.0.0.0:*", "tcp://0.0.0.0:*")
