"""Frame age at publish: capture → ``tracks`` message sent (and received by a subscriber), p50/p95.

A replay camera delivers pre-rendered 1080p frames (20 tags, webcam effects) at a fixed rate with
fresh capture stamps, like a webcam. Ours: the service's newest-frame grabber (a late frame is
dropped, never queued). Baseline: the straightforward loop that processes every frame in arrival
order from a queue. Both publish on real loopback ZeroMQ sockets to a subscriber in this process.
At 30 fps both keep up when the machine is idle; at 250 fps (a camera faster than the detector,
as a slow machine would see at 30) the queue grows and the baseline's frames get older and older
while ours stay fresh.

Usage: ``.venv/bin/python bench/vision_latency.py [--quick] [--seconds S] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time

import zmq
from vision_corpus import corpus, machine, percentile, progress, renderers, write_result

from calibration.camera_model import CameraModel
from engine.wire import TracksMessage
from vision.client import TracksSubscriber
from vision.detection import MarkerDetector
from vision.publisher import VisionPublisher
from vision.service import ServiceConfig, VisionService, process_frame, wire_tracks
from vision.sources import Frame, SourceError
from vision.tracking import Tracker


class ReplayCamera:
    """A live source replaying frames at ``fps`` for ``seconds``, stamped when 'captured'."""

    live = True
    name = "replay camera"

    def __init__(self, images: list[Frame], fps: float, seconds: float) -> None:
        self.images, self.fps, self.seconds = images, fps, seconds
        self.index = 0
        self.start = time.monotonic()

    def read(self) -> Frame | None:
        due = self.start + self.index / self.fps
        if due - self.start >= self.seconds:
            return None
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # the camera's frame interval
        image = self.images[self.index % len(self.images)].image
        self.index += 1
        return Frame(image, self.index - 1, time.time(), time.monotonic(), f"replay#{self.index - 1}")

    def close(self) -> None:
        pass


def _collect(sub: TracksSubscriber, ages: list[float], done: threading.Event) -> None:
    while not done.is_set():
        message = sub.receive(0.1)
        if isinstance(message, TracksMessage):
            ages.append((time.time() - message.captured_at) * 1000.0)


def run_ours(images: list[Frame], model: CameraModel, fps: float, seconds: float) -> dict[str, float]:
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    publisher = VisionPublisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", context=context)
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context)
    received: list[float] = []
    done = threading.Event()
    collector = threading.Thread(target=_collect, args=(sub, received, done))
    collector.start()
    camera = ReplayCamera(images, fps, seconds)

    def open_camera() -> ReplayCamera:
        if camera.index and camera.index / fps >= seconds:
            raise SourceError("replay ended")
        return camera

    service = VisionService(ServiceConfig(), MarkerDetector(), model, publisher)
    try:
        stats = service.run_live(open_camera)
    finally:
        done.set()
        collector.join()
        sub.close()
        publisher.close()
        context.term()
    return _summary(stats.frame_age_ms, received, camera.index, stats.frames)


def run_fifo(images: list[Frame], model: CameraModel, fps: float, seconds: float) -> dict[str, float]:
    """The baseline: a capture thread queues every frame; the loop processes them all, in order."""
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    publisher = VisionPublisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", context=context)
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context)
    received: list[float] = []
    done = threading.Event()
    collector = threading.Thread(target=_collect, args=(sub, received, done))
    collector.start()
    frames: queue.Queue[Frame | None] = queue.Queue()
    camera = ReplayCamera(images, fps, seconds)

    def capture() -> None:
        while (frame := camera.read()) is not None:
            frames.put(frame)
        frames.put(None)

    grabber = threading.Thread(target=capture)
    grabber.start()
    detector, tracker, config = MarkerDetector(), Tracker(), ServiceConfig()
    sent: list[float] = []
    processed = 0
    try:
        while (frame := frames.get()) is not None:
            result = process_frame(frame, detector, model, tracker, config)
            assert result.update is not None
            message = publisher.publish_tracks(frame.index, frame.captured_at, wire_tracks(result.update))
            sent.append((message.sent_at - frame.captured_at) * 1000.0)
            processed += 1
    finally:
        grabber.join()
        done.set()
        collector.join()
        sub.close()
        publisher.close()
        context.term()
    return _summary(sent, received, camera.index, processed)


def _summary(sent: list[float], received: list[float], captured: int, processed: int) -> dict[str, float]:
    return {"captured": captured, "processed": processed, "sent_p50_ms": percentile(sent, 50),
            "sent_p95_ms": percentile(sent, 95), "received_p50_ms": percentile(received, 50),
            "received_p95_ms": percentile(received, 95), "received": len(received)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short run per rate, to check the script works")
    parser.add_argument("--seconds", type=float, help="seconds per run (default 8, quick 0.3)")
    parser.add_argument("--out", help="folder for the JSON result (default bench/results)")
    args = parser.parse_args(argv)
    seconds = args.seconds or (0.3 if args.quick else 8.0)
    print("rendering the replay frames…", file=sys.stderr)
    poses = renderers()[:1]  # one pose: the replayed frames must match the camera model
    model = poses[0].renderer.camera
    rendered = list(corpus(3 if args.quick else 30, poses=poses))
    images = [Frame(f.image, k, 0.0, 0.0) for k, (_, f) in enumerate(rendered)]
    rows: dict[str, dict[str, float]] = {}
    rates = (30.0, 250.0)
    for k, fps in enumerate(rates):
        rows[f"ours @ {fps:.0f} fps"] = run_ours(images, model, fps, seconds)
        rows[f"fifo baseline @ {fps:.0f} fps"] = run_fifo(images, model, fps, seconds)
        progress(k + 1, len(rates), "frame rates")
    result = {"benchmark": "vision_latency", "seconds_per_run": seconds, "quick": args.quick, "runs": rows,
              "note": "ages in milliseconds from the capture stamp",
              "machine": machine()}
    print(f"\n{'run':26} {'captured':>9} {'processed':>10} {'sent p50':>9} {'sent p95':>9} {'recv p50':>9} "
          f"{'recv p95':>9}")
    for name, row in rows.items():
        print(f"{name:26} {row['captured']:9.0f} {row['processed']:10.0f} {row['sent_p50_ms']:9.1f} "
              f"{row['sent_p95_ms']:9.1f} {row['received_p50_ms']:9.1f} {row['received_p95_ms']:9.1f}")
    print(f"wrote {write_result('vision_latency', result, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
