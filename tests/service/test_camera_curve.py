"""CURVE on the camera link: the engine hears only a camera holding the table's key; strangers hear nothing."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import zmq

from engine import wire
from engine.service.camera_feed import CameraFeed
from engine.service.client import EngineClient
from engine.service.keys import main as keys_main
from engine.service.security import ENGINE_CLIENT, load_client_keys
from engine.service.server import ServerConfig
from engine.wire import CameraLink, MarkerTrack, TableMessage
from tests.service.conftest import serve_engine
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


def camera_link_until(tablet: EngineClient, camera: VisionPublisher, until: Callable[[CameraLink], bool],
                      timeout_s: float = WAIT_S, problem: str = "") -> CameraLink:
    """Run the camera (heartbeats saying ``problem``, snapshot answers) until the engine publishes a link matching
    ``until``."""
    deadline = time.monotonic() + timeout_s
    seen: list[CameraLink] = []
    while time.monotonic() < deadline:
        camera.publish_heartbeat("ok", 30.0, "", problem)
        camera.serve_snapshots(0)
        message = tablet.poll(0.05)
        if isinstance(message, TableMessage) and message.cameras:
            seen.append(message.cameras[0])
            if until(seen[-1]):
                return seen[-1]
    raise AssertionError(f"the engine did not publish the expected camera link within {timeout_s} s; last: "
                         f"{seen[-1:]}")


def test_a_camera_with_another_tables_key_is_reported_refused_until_it_has_the_right_one(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table_keys, other_keys = tmp_path / "table-keys", tmp_path / "other-keys"
    assert keys_main(["--dir", str(table_keys)]) == 0
    assert keys_main(["--dir", str(other_keys)]) == 0
    caplog.set_level(logging.INFO, logger="engine.service.camera_feed")
    camera_context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()  # a camera service is its own process
    camera = VisionPublisher(ANY, ANY, camera_id="cam0", context=camera_context, keys_dir=other_keys)
    endpoints = (camera.endpoint, camera.snapshot_endpoint)
    config = ServerConfig(pub=ANY, commands=ANY, keys_dir=table_keys, vision=[endpoints])
    _, server, thread = serve_engine(context, str(tmp_path / "journal.sqlite"), "tutorial", config)
    tablet = EngineClient(server.pub_endpoint, server.commands_endpoint, context, keys=load_client_keys(table_keys))
    try:
        tablet.sync()
        link = camera_link_until(tablet, camera, lambda link: link.refused)
        assert link.status == "waiting"  # nothing was heard: without the flag it looks like a camera that is off
        assert any("refused a camera service with an unknown key" in r.getMessage() and endpoints[0] in r.getMessage()
                   for r in caplog.records)
        camera.close()
        camera_context.term()
        camera_context = zmq.Context()  # the camera service restarted with the table's keys, on the same ports
        camera = VisionPublisher(*endpoints, camera_id="cam0", context=camera_context, keys_dir=table_keys)
        # The handshake succeeds (refused clears) before the first tracks arrive: wait until both hold.
        link = camera_link_until(tablet, camera, lambda link: not link.refused and link.status == "ok")
        assert link.id == "cam0"
    finally:
        server.stop()
        thread.join(5.0)
        tablet.close()
        camera.close()
        camera_context.term()


def test_the_refused_flag_is_optional_and_checked_on_the_wire() -> None:
    table = TableMessage(1, 1.0, "run", 1, cameras=(CameraLink("cam0", "waiting", None, "tcp://x:5555", True),),
                         registration={"ok": False, "text": "no camera"})
    decoded = wire.decode(table.to_frames())
    assert isinstance(decoded, TableMessage) and decoded.cameras[0].refused
    older = {"id": "cam0", "status": "ok", "last_seen_age_s": 0.1}  # an engine from before the flag
    assert CameraLink.from_dict(older, "table.cameras[0]").refused is False
    with pytest.raises(wire.WireError, match=r"table.cameras\[0\].refused: expected true or false"):
        CameraLink.from_dict({**older, "refused": "yes"}, "table.cameras[0]")
