"""The service loop: end to end on the synthetic table, camera loss and reconnection, newest frame only."""

from __future__ import annotations

import logging
import math
import threading
import time

import cv2
import numpy as np
import pytest
import zmq

from calibration.camera_model import CameraModel
from engine import wire
from tests.waiting import WAIT_S
from vision.client import TracksSubscriber
from vision.detection import MarkerDetector
from vision.grabber import LatestFrameGrabber
from vision.publisher import VisionPublisher
from vision.service import ServiceConfig, VisionService
from vision.sources import Frame, SourceError, SyntheticSource
from vision.synthetic.effects import Effects
from vision.synthetic.motion import Choreography
from vision.synthetic.renderer import TableRenderer


class FlakyCamera:
    """A live source that delivers ``good`` frames, then fails as if unplugged."""

    live = True
    name = "flaky camera"

    def __init__(self, image: np.ndarray, good: int, start: int = 0) -> None:
        self.image, self.good, self.index = image, good, start

    def read(self) -> Frame | None:
        if self.good <= 0:
            raise SourceError("flaky camera stopped delivering frames (unplugged?)")
        self.good -= 1
        self.index += 1
        time.sleep(0.005)  # a camera's frame interval, not a wait for a subscriber
        return Frame(self.image, self.index, time.time(), time.monotonic(), f"f{self.index}")

    def close(self) -> None:
        pass


class Replug:
    """Opens: a camera that dies after 5 frames, then failed opens (unplugged) until the test plugs it back in
    (:attr:`plugged_in`, once it has seen the service report the loss), then a good camera.

    The camera stays away until the report was seen: a fixed absence of a few retries could pass unseen while
    a loaded machine held up the service's heartbeats."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.opens = 0
        self.failed_opens = 0
        self.plugged_in = threading.Event()

    def __call__(self) -> FlakyCamera:
        self.opens += 1
        if self.opens == 1:
            return FlakyCamera(self.image, 5)
        if not self.plugged_in.is_set() or self.failed_opens == 0:
            self.failed_opens += 1
            raise SourceError("flaky camera cannot be opened: is it plugged in?")
        return FlakyCamera(self.image, 10_000, start=1000)


def test_camera_loss_is_reported_the_service_keeps_running_and_reconnects(
        renderer: TableRenderer, camera: CameraModel, caplog: pytest.LogCaptureFixture) -> None:
    image = renderer.render(effects=Effects.clean()).image
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    publisher = VisionPublisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", context=context)
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context, topics=(wire.TOPIC_HEARTBEAT,))
    service = VisionService(ServiceConfig(heartbeat_s=0.01), MarkerDetector(), camera, publisher)
    opener = Replug(image)
    statuses: list[str] = []
    worker = threading.Thread(target=service.run_live, args=(opener,), kwargs={"retry_s": 0.05})
    caplog.set_level(logging.WARNING)
    worker.start()
    try:
        deadline = time.monotonic() + WAIT_S * 3  # the detector's first frames are slow on a loaded machine
        while time.monotonic() < deadline:
            beat = sub.receive(0.5)
            if isinstance(beat, wire.Heartbeat):
                statuses.append(beat.status)
                if beat.status == "reconnecting":
                    opener.plugged_in.set()
                if "reconnecting" in statuses and beat.status == "ok" and service.stats.frames > 20:
                    break
    finally:
        service.stop()
        worker.join(10.0)
        sub.close()
        publisher.close()
        context.term()
    assert not worker.is_alive()
    assert opener.opens >= 3 and opener.failed_opens >= 1
    assert "reconnecting" in statuses
    assert statuses[-1] == "ok"  # back after the camera returned
    assert service.stats.frames > 20
    text = caplog.text
    assert "stopped delivering frames (unplugged?)" in text
    assert "cannot be opened: is it plugged in?" in text
    assert "is back; frames flowing again" in text


def test_the_grabber_hands_out_only_the_newest_frame(renderer: TableRenderer) -> None:
    image = np.zeros((8, 8, 3), np.uint8)
    grabber = LatestFrameGrabber(lambda: FlakyCamera(image, 10_000), retry_s=0.05).start()
    try:
        first = grabber.latest(timeout=WAIT_S)
        assert first is not None
        deadline = time.monotonic() + WAIT_S
        pause = threading.Event()
        while grabber.dropped < 3 and time.monotonic() < deadline:
            pause.wait(0.01)  # a slow consumer: frames pile up meanwhile
        second = grabber.latest(timeout=WAIT_S)
        assert second is not None
        assert second.index > first.index + 1  # skipped the stale ones
        assert grabber.dropped >= 3
    finally:
        grabber.stop()


def wait_for_subscription(publisher: VisionPublisher, sub: TracksSubscriber) -> None:
    """Send throw-away previews until one arrives (the slow-joiner handshake, without sleeping)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        publisher.publish_preview(b"\xff\xd8 handshake", 1, 1, time.time())
        if sub.receive(0.05) is not None:
            while sub.receive(0.05) is not None:  # drain the extra handshakes
                pass
            return
    pytest.fail("preview subscriber never connected")


def test_end_to_end_on_the_synthetic_table(renderer: TableRenderer, camera: CameraModel) -> None:
    """Render → detect → map → track → publish → subscribe: settled positions match the truth."""
    figures = renderer.table.figures
    choreography = Choreography(figures, rest_s=100.0, sweep_every_s=0.0)  # nobody moves for 100 s
    source = SyntheticSource(renderer, choreography, fps=30.0, realtime=False, frames=15,
                             effects=Effects(), seed=3)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    publisher = VisionPublisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", context=context)
    heights = {f.marker_id: f.height_mm for f in figures}
    service = VisionService(ServiceConfig(heights_mm=heights, preview_fps=1000.0), MarkerDetector(), camera,
                            publisher)
    previews = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context,
                                topics=(wire.TOPIC_PREVIEW,))
    try:
        wait_for_subscription(publisher, previews)
        service.run_sequential(source)
        last = publisher.last_tracks
        preview = previews.receive(WAIT_S)
    finally:
        previews.close()
        publisher.close()
        context.term()
    assert isinstance(preview, wire.PreviewMessage)
    picture = cv2.imdecode(np.frombuffer(preview.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (preview.height, preview.width, 3) and preview.width == 640
    assert last is not None and last.frame_index == 14
    assert {m.id for m in last.markers} == {f.marker_id for f in figures}
    for m in last.markers:
        f = next(f for f in figures if f.marker_id == m.id)
        assert m.state == "settled"
        assert math.hypot(m.x_mm - f.x_mm, m.y_mm - f.y_mm) < 0.6
        assert abs((m.angle_deg - f.angle_deg + 180) % 360 - 180) < 1.0
    assert service.stats.heartbeats >= 1
    assert len(service.stats.frame_age_ms) == 15


class BrokenDriver(FlakyCamera):
    """A camera whose driver throws something that is not a SourceError after a few frames."""

    def read(self) -> Frame | None:
        if self.good <= 0:
            raise RuntimeError("driver exploded")
        return super().read()


def test_an_unexpected_driver_error_reopens_the_camera_and_a_bad_frame_is_skipped(
        camera: CameraModel, caplog: pytest.LogCaptureFixture) -> None:
    opens: list[int] = []
    image = np.zeros((camera.image_size[1], camera.image_size[0], 3), np.uint8)

    def open_camera() -> FlakyCamera:
        opens.append(1)
        if len(opens) == 1:
            return BrokenDriver(image, 3)
        return FlakyCamera(image, 10_000)

    class ExplodingDetector(MarkerDetector):
        calls = 0

        def detect(self, frame: np.ndarray) -> list:  # type: ignore[override]
            ExplodingDetector.calls += 1
            if ExplodingDetector.calls == 5:
                raise ValueError("unexpected frame")
            return super().detect(frame)

    service = VisionService(ServiceConfig(max_frames=12), ExplodingDetector(), camera)
    caplog.set_level(logging.WARNING)
    worker = threading.Thread(target=service.run_live, args=(open_camera,), kwargs={"retry_s": 0.01})
    worker.start()
    worker.join(20.0)
    if worker.is_alive():
        service.stop()
        worker.join(5.0)
        pytest.fail("the service did not get its 12 frames after the driver error")
    assert len(opens) >= 2
    assert service.stats.frames == 12 and service.stats.failed_frames == 1
    assert "failed unexpectedly; reopening it" in caplog.text
    assert "could not be processed; skipped" in caplog.text
