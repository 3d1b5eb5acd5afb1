"""The camera service loop: frames → tags → table millimetres → tracks → messages.

Topics, on a ZeroMQ PUB socket (default ``tcp://127.0.0.1:5555``, option ``--pub``); layouts in
:mod:`engine.wire`:

``tracks``     one per processed frame: every tracked tag (id, x/y mm, angle, state, confidence).
``heartbeat``  every ``heartbeat_s`` (1 s), also while the camera is away (status says why).
``preview``    ``preview_fps`` times a second (default 0 = off; ``--preview`` gives 2): a
               ``preview_width`` (640) pixel JPEG with the tags outlined in their state's colour.
``dice``       with ``--dice`` (trays read in this camera's frames) or ``--dice-camera SOURCE`` (a second
               camera that sees the tray): one per processed frame in which a tray's tags are in view,
               every die in it (:class:`engine.wire.DiceMessage`; the reader is :mod:`vision.dice.reader`).
               A die is read once it has settled (still 0.25 s); a die that cannot be read surely carries a
               doubt instead of a value. ``camera_id`` is the camera's, ``…:dice`` for the dice camera.

Snapshots: a ROUTER socket (default ``tcp://127.0.0.1:5556``, ``--snapshot``) answers
``vision.snapshot?`` with the newest ``tracks``. TUIO 2.0: optional OSC/UDP bundles to
``127.0.0.1:3333`` (``--tuio``). Tracking parameters: see :class:`vision.tracking.TrackerConfig`
(settle radius 2.5 mm; a tag settles once three poses agree within the measured jitter and no hand
has been near it for two frames, :mod:`vision.hand_watch`; grace 0.5 s, lost 5 s). Heights per tag id from the
configuration, default 0 mm.

Only this module's :class:`VisionService` touches threads and sockets; the per-frame work is the
pure :func:`process_frame`.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from calibration.camera_model import CameraModel
from engine.i18n import gettext_for
from engine.wire import DieKind, MarkerTrack, TraySeen
from vision.area import TableArea, outside_warnings
from vision.detection import DetectedMarker, Detector
from vision.dice.camera import DiceCamera
from vision.dice.read_failures import ReadFailures, failure_text
from vision.dice.reader import DiceReader
from vision.dice.reading_thread import TrayReadingThread
from vision.grabber import ENDED, OK, LatestFrameGrabber
from vision.hand_watch import HandWatch
from vision.mapping import TableMarker, to_table
from vision.preview import draw_detections, encode_jpeg
from vision.publisher import VisionPublisher
from vision.sources import Frame, FrameSource
from vision.tracking import Tracker, TrackerConfig, TrackUpdate
from vision.tuio import TuioSender

_ = gettext_for(__name__)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServiceConfig:
    """Everything the loop needs besides its collaborators; defaults as documented above."""

    camera_id: str = "0"
    heights_mm: dict[int, float] = field(default_factory=dict)
    default_height_mm: float = 0.0
    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    heartbeat_s: float = 1.0
    preview_fps: float = 0.0
    preview_width: int = 640
    max_frames: int | None = None
    track: bool = True  # False for image folders: every image is an independent frame
    area: TableArea | None = None  # the table area given by the caller: tags outside it are warned about, not dropped


@dataclass
class FrameResult:
    """What one frame gave: the tags in pixels, on the table (with a calibration) and the tracks."""

    frame: Frame
    detected: list[DetectedMarker]
    placed: list[TableMarker] | None
    update: TrackUpdate | None
    detect_ms: float
    problem: str = ""  # why there are no table positions for this frame, if there should be
    trays: list[TraySeen] | None = None  # the dice trays in view, when dice are read in this camera's frames
    dice_ms: float = 0.0
    dice_px: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)  # (tray, track) → die centre
    dice_only: bool = False  # the dice of a frame whose tags went out before (read on the dice thread)
    dice_error: Exception | None = None  # why the trays of this frame could not be read (its tags still were)


def process_frame(frame: Frame, detector: Detector, camera: CameraModel | None, tracker: Tracker | None,
                  config: ServiceConfig, watch: HandWatch | None = None,
                  dice: DiceReader | None = None, read_dice: bool = True) -> FrameResult:
    """Detect, map and track one frame, and read its dice trays when given a reader (no I/O; with ``read_dice``
    False the reader only tells which tags are a tray's, and the trays are read elsewhere); ``watch`` tells the
    tracker which tags have a hand near them."""
    if frame.error:
        return FrameResult(frame, [], None, None, 0.0)
    start = time.perf_counter()
    detected = detector.detect(frame.image)
    detect_ms = (time.perf_counter() - start) * 1000.0
    placed = update = None
    problem = ""
    if camera is not None:
        size = (frame.image.shape[1], frame.image.shape[0])
        if size != camera.image_size:
            problem = (_("frame is {value}x{value2} but the calibration is for {value3}x{value4}: set the camera to "
                         "that size (--resolution) or recalibrate",
                         value=size[0], value2=size[1], value3=camera.image_size[0], value4=camera.image_size[1]))
        else:
            placed = to_table(detected, camera, config.heights_mm, config.default_height_mm)  # one per tag found
            figures = placed
            if dice is not None:  # a tray's own tags are no figures: the engine would report them as unknown
                figures = [m for m in placed if m.marker_id not in dice.tag_ids]
            if tracker is not None:
                near_hand = None if watch is None else watch.near_hand(frame.image, detected)
                update = tracker.update(figures, frame.monotonic, near_hand)
                if config.area is not None:
                    update.warnings.extend(outside_warnings(update, config.area).values())
    result = FrameResult(frame, detected, placed, update, detect_ms, problem)
    if dice is not None and read_dice:
        start = time.perf_counter()
        try:  # a tray that cannot be read costs this frame its dice, not its tags
            trays = dice.read(frame.image, detected, frame.monotonic)
            result.dice_px = {(t.tray, d.track_id): dice.pixel_of(t.tray, d.x_mm, d.y_mm)
                              for t in trays for d in t.dice}
        except Exception as exc:
            result.dice_error = exc
        else:
            result.trays = trays
        result.dice_ms = (time.perf_counter() - start) * 1000.0
    return result


def wire_tracks(update: TrackUpdate, heights: dict[int, float] | None = None,
                default_height_mm: float = 0.0) -> list[MarkerTrack]:
    """The tracker's tracks in the wire schema's shape, each with the tag height its position was computed for."""
    heights = heights or {}
    return [MarkerTrack(t.marker_id, round(t.x_mm, 2), round(t.y_mm, 2), round(t.angle_deg, 2), t.state,
                        round(min(max(t.confidence, 0.0), 1.0), 3), round(t.x_px, 2), round(t.y_px, 2),
                        heights.get(t.marker_id, default_height_mm))
            for t in update.tracks]


def jsonl_record(result: FrameResult) -> dict[str, Any]:
    """One line of ``--jsonl`` output: the frame's name and every tag's centre (px, and mm when calibrated), and its
    dice when they were read in the loop; from a live camera the dice are read on a thread of their own and come on
    a line of their own (the frame's name and ``dice`` only), after the frame's tags."""
    if result.dice_only:
        return {"frame": result.frame.name or str(result.frame.index), "dice": dice_records(result)}
    states = {t.marker_id: t.state for t in result.update.tracks} if result.update else {}
    placed: list[TableMarker | None] = list(result.placed) if result.placed else [None] * len(result.detected)
    markers = []
    for m, p in zip(result.detected, placed, strict=True):
        x_px, y_px = m.centre_px
        entry: dict[str, Any] = {"id": m.marker_id, "x_px": round(x_px, 2), "y_px": round(y_px, 2),
                                 "angle_px_deg": round(m.angle_deg, 2), "confidence": round(m.confidence, 3),
                                 "corners_px": [[round(float(v), 2) for v in c] for c in m.corners_px]}
        if p is not None and p.on_table:
            entry.update(x_mm=round(p.x_mm, 2), y_mm=round(p.y_mm, 2), angle_deg=round(p.angle_deg, 2),
                         height_mm=p.height_mm)
        if m.marker_id in states:
            entry["state"] = states[m.marker_id]
        markers.append(entry)
    record: dict[str, Any] = {"frame": result.frame.name or str(result.frame.index), "markers": markers}
    if result.frame.error or result.problem:
        record["error"] = result.frame.error or result.problem
    if result.update and result.update.warnings:
        record["warnings"] = result.update.warnings
    if result.trays is not None:
        record["dice"] = dice_records(result)
    if result.dice_error is not None:
        record["dice_error"] = failure_text(result.dice_error)
    return record


def dice_records(result: FrameResult) -> list[dict[str, Any]]:
    """The ``dice`` of a ``--jsonl`` line: every die of every tray read in ``result``'s frame."""
    return [{"sides": 6 if d.kind == DieKind.D6 else 10, "value": d.value,
             "center_px": [round(v, 1) for v in result.dice_px.get((t.tray, d.track_id), (0.0, 0.0))],
             "settled": d.settled, "confidence": d.confidence, "tray": t.tray,
             "doubt": None if d.doubt is None else str(d.doubt)}
            for t in result.trays or [] for d in t.dice]


class JsonlWriter:
    """Writes one JSON object per frame to a text stream, flushed per line for piping."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def __call__(self, result: FrameResult) -> None:
        self.stream.write(json.dumps(jsonl_record(result), separators=(",", ":")) + "\n")
        self.stream.flush()


@dataclass
class ServiceStats:
    """What a run did, for the CLI's summary and the benchmarks."""

    frames: int = 0
    detect_ms: list[float] = field(default_factory=list)
    frame_age_ms: list[float] = field(default_factory=list)  # capture → tracks message sent
    heartbeats: int = 0
    previews: int = 0
    failed_frames: int = 0
    dice_messages: int = 0
    dice_ms: list[float] = field(default_factory=list)


class VisionService:
    """Runs the loop for one source; sockets, TUIO and sinks are optional collaborators."""

    def __init__(self, config: ServiceConfig, detector: Detector, camera: CameraModel | None,
                 publisher: VisionPublisher | None = None, tuio: TuioSender | None = None,
                 sinks: list[Callable[[FrameResult], None]] | None = None, dice: DiceReader | None = None,
                 dice_camera: DiceCamera | None = None) -> None:
        self.config = config
        self.dice = dice  # reads the trays in this camera's frames (on a thread of its own from a live source)
        self._reading: TrayReadingThread | None = None
        self.dice_camera = dice_camera  # or in a camera of their own (its thread reads, this loop publishes)
        self.detector = detector
        self.camera = camera
        self.publisher = publisher
        self.tuio = tuio
        self.sinks = sinks or []
        self.tracker = Tracker(config.tracker) if camera is not None and config.track else None
        self.watch = HandWatch() if self.tracker is not None else None
        self.stats = ServiceStats()
        self.stop_event = threading.Event()
        self._recent: deque[float] = deque(maxlen=120)
        self._next_heartbeat = 0.0
        self._next_preview = 0.0
        self._last_problem = ""
        self._warned_outside: set[int] = set()
        self._dice_failures = ReadFailures(log, "dice")  # trays read in the loop (a finite source)

    def stop(self) -> None:
        self.stop_event.set()

    # ------------------------------------------------------------------ loops

    def run_sequential(self, source: FrameSource) -> ServiceStats:
        """Process every frame of a finite source in order (video file, image folder, fast synthetic)."""
        try:
            while not self._done():
                frame = source.read()
                if frame is None:
                    break
                self._handle_safely(frame)
                self._housekeeping(OK, source.name)
        finally:
            source.close()
        self._housekeeping(ENDED, f"{source.name} ended", force=True)
        return self.stats

    def run_live(self, open_source: Callable[[], FrameSource], retry_s: float = 1.0) -> ServiceStats:
        """Process the newest frame of a live source; survive it failing and reconnect. The dice trays are read on
        a thread of their own, so a roll's first reading does not hold the tags back."""
        grabber = LatestFrameGrabber(open_source, retry_s).start()
        self._reading = TrayReadingThread(self.dice).start() if self.dice is not None else None
        try:
            while not self._done():
                frame = grabber.latest(timeout=0.02)
                if frame is not None:
                    self._handle_safely(frame)
                elif grabber.status == ENDED:
                    break
                self._housekeeping(grabber.status, grabber.detail)
        finally:
            grabber.stop()
            if self._reading is not None:
                self._reading.stop()
        self._housekeeping(ENDED, "stopped", force=True)
        self._reading = None
        return self.stats

    # ------------------------------------------------------------------ per frame

    def _done(self) -> bool:
        limit = self.config.max_frames
        return self.stop_event.is_set() or (limit is not None and self.stats.frames >= limit)

    def _handle_safely(self, frame: Frame) -> None:
        """A frame that breaks something is logged and skipped: the service keeps running."""
        try:
            self._handle(frame)
        except Exception:
            self.stats.failed_frames += 1
            log.exception("frame %s could not be processed; skipped (please report this with the frame)",
                          frame.name or frame.index)

    def _handle(self, frame: Frame) -> None:
        result = process_frame(frame, self.detector, self.camera, self.tracker, self.config, self.watch, self.dice,
                               read_dice=self._reading is None)
        if result.problem and result.problem != self._last_problem:
            log.error("%s", result.problem)
        self._last_problem = result.problem
        if result.dice_error is not None:
            self._dice_failures.failed(result.dice_error, frame.name or str(frame.index))
        elif result.trays is not None:
            self._dice_failures.read()
        self._warn_outside_once(result)
        self.stats.frames += 1
        self.stats.detect_ms.append(result.detect_ms)
        self._recent.append(time.monotonic())
        if self.publisher is not None and result.update is not None:
            tracks = wire_tracks(result.update, self.config.heights_mm, self.config.default_height_mm)
            camera_mm = None
            if self.camera is not None:
                x, y, z = (round(float(v), 2) for v in self.camera.camera_position_mm)
                camera_mm = (x, y, z)
            message = self.publisher.publish_tracks(frame.index, frame.captured_at, tracks, result.update.warnings,
                                                    camera_mm)
            self.stats.frame_age_ms.append((message.sent_at - frame.captured_at) * 1000.0)
        self._publish_trays(result)
        if self._reading is not None and not frame.error:
            self._reading.offer(frame, result.detected)  # read on its own thread, published by _housekeeping
        if self.tuio is not None and result.update is not None:
            self.tuio.send(result.update.tracks, frame.captured_at)
        for sink in self.sinks:
            sink(result)
        if (self.publisher is not None and self.config.preview_fps > 0 and not frame.error
                and time.monotonic() >= self._next_preview):
            self._next_preview = time.monotonic() + 1.0 / self.config.preview_fps
            states = {t.marker_id: t.state for t in result.update.tracks} if result.update else {}
            small = draw_detections(frame.image, result.detected, states, self.config.preview_width)
            self.publisher.publish_preview(encode_jpeg(small), small.shape[1], small.shape[0], frame.captured_at)
            self.stats.previews += 1

    def _publish_trays(self, result: FrameResult) -> None:
        """Publish the trays read in ``result``'s frame (when its dice were read)."""
        if result.trays is None:
            return
        self.stats.dice_ms.append(result.dice_ms)
        if self.publisher is not None and result.trays:
            self.publisher.publish_dice(result.frame.index, result.frame.captured_at, result.trays)
            self.stats.dice_messages += 1

    def _take_trays_read(self) -> None:
        """Publish what the dice thread read since the last look; sinks get each such frame's dice on a result of
        their own, without its tags (those went out with the frame)."""
        if self._reading is None:
            return
        for read in self._reading.take():
            result = FrameResult(read.frame, [], None, None, 0.0, trays=read.trays, dice_ms=read.dice_ms,
                                 dice_px=read.dice_px, dice_only=True)
            self._publish_trays(result)
            for sink in self.sinks:
                sink(result)

    def _warn_outside_once(self, result: FrameResult) -> None:
        """Log each tag outside the area once (one standing on the edge may cross it at every frame)."""
        if self.config.area is None or result.update is None:
            return
        for marker_id, text in outside_warnings(result.update, self.config.area).items():
            if marker_id not in self._warned_outside:
                self._warned_outside.add(marker_id)
                log.warning("%s", text)

    def dice_problem(self) -> str:
        """Why the dice are not being read, when reads fail (in the loop, on the dice thread, or by a dice camera)."""
        failures = [self._dice_failures]
        if self._reading is not None:
            failures.append(self._reading.failures)
        if self.dice_camera is not None:
            failures.append(self.dice_camera.failures)
        return next((f.problem for f in failures if f.problem), "")

    def _fps(self) -> float:
        now = time.monotonic()
        recent = [t for t in self._recent if now - t <= 1.0]
        return float(len(recent))

    def _housekeeping(self, status: str, detail: str, force: bool = False) -> None:
        self._take_trays_read()
        if self.publisher is None:
            return
        if self.dice_camera is not None:
            for seen in self.dice_camera.take():
                self.publisher.publish_dice(seen.frame_index, seen.captured_at, seen.trays,
                                            camera_id=self.dice_camera.camera_id)
                self.stats.dice_messages += 1
        self.publisher.serve_snapshots(0)
        now = time.monotonic()
        if force or now >= self._next_heartbeat:
            self._next_heartbeat = now + self.config.heartbeat_s
            self.publisher.publish_heartbeat(status, self._fps(), detail, self.dice_problem())
            self.publisher.log_refusals()
            self.stats.heartbeats += 1
