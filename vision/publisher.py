"""ZeroMQ side of the camera service: PUB for tracks/heartbeat/preview/dice, ROUTER for snapshots.

Used from the service loop's thread only (ZeroMQ sockets are not thread-safe). Message layouts are
in :mod:`engine.wire`; this module only numbers, sends and answers.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

import zmq

from engine import wire
from engine.i18n import gettext_for
from engine.service.security import CurveServer, KeyFileError, OpenBindError, refuse_open_bind
from engine.wire import (
    DiceMessage,
    Heartbeat,
    MarkerTrack,
    PreviewMessage,
    TracksMessage,
    TraySeen,
    VisionSnapshot,
    WireError,
)

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

DEFAULT_PUB = "tcp://127.0.0.1:5555"
DEFAULT_SNAPSHOT = "tcp://127.0.0.1:5556"


class PublishError(RuntimeError):
    """The service cannot open its sockets (address in use, bad endpoint); the text says what to do."""


def _bind(socket: zmq.Socket[bytes], endpoint: str, option: str, secured: bool = False) -> str:
    try:
        refuse_open_bind(endpoint, option, secured)
    except OpenBindError as exc:
        socket.close(linger=0)
        raise PublishError(str(exc)) from None
    try:
        socket.bind(endpoint)
    except zmq.ZMQError as exc:
        socket.close(linger=0)
        raise PublishError(_("cannot bind {endpoint} ({strerror}): is another 'hexa vision' running? Stop it, or "
                             "pass {option} with another port.",
                             endpoint=endpoint, strerror=exc.strerror, option=option)) from None
    last = socket.getsockopt(zmq.LAST_ENDPOINT)
    return last.decode() if isinstance(last, bytes) else str(last)


class VisionPublisher:
    """Numbers and sends the vision messages; remembers the newest tracks for snapshot requests."""

    def __init__(self, endpoint: str = DEFAULT_PUB, snapshot_endpoint: str = DEFAULT_SNAPSHOT,
                 camera_id: str = "0", context: zmq.Context[zmq.Socket[bytes]] | None = None,
                 keys_dir: str | Path | None = None) -> None:
        self.camera_id = camera_id
        self._context = context or zmq.Context.instance()
        # With keys, both sockets are CURVE servers: only subscribers holding an allowed key (the engine's,
        # made by 'hexa keys') get anything, and a subscriber can tell this camera from an impostor.
        self.curve: CurveServer | None = None
        if keys_dir is not None:
            try:
                self.curve = CurveServer(self._context, keys_dir)
            except KeyFileError as exc:
                raise PublishError(str(exc)) from None
        self._pub = self._context.socket(zmq.PUB)
        self._pub.setsockopt(zmq.SNDHWM, 100)
        self._router = self._context.socket(zmq.ROUTER)
        self._monitors = [] if self.curve is None else [self.curve.secure(self._pub, "camera PUB"),
                                                         self.curve.secure(self._router, "camera snapshots")]
        try:
            self.endpoint = _bind(self._pub, endpoint, "--pub", self.curve is not None)
            self.snapshot_endpoint = _bind(self._router, snapshot_endpoint, "--snapshot", self.curve is not None)
        except PublishError:
            self.close()
            raise
        self._seq = 0
        self.last_tracks: TracksMessage | None = None
        log.info("publishing on %s, snapshots on %s", self.endpoint, self.snapshot_endpoint)

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _send(self, message: wire.Message) -> None:
        self._pub.send_multipart(message.to_frames(), copy=False)

    def publish_tracks(self, frame_index: int, captured_at: float, markers: Sequence[MarkerTrack],
                       warnings: Sequence[str] = (), camera_mm: tuple[float, float, float] | None = None
                       ) -> TracksMessage:
        message = TracksMessage(seq=self._next(), sent_at=time.time(), camera_id=self.camera_id,
                                frame_index=frame_index, captured_at=captured_at, markers=tuple(markers),
                                warnings=tuple(warnings), camera_mm=camera_mm)
        self._send(message)
        self.last_tracks = message
        return message

    def publish_dice(self, frame_index: int, captured_at: float, trays: Sequence[TraySeen],
                     camera_id: str | None = None) -> DiceMessage:
        """The dice trays seen in one frame (of this camera, or of the dice camera ``camera_id``)."""
        message = DiceMessage(seq=self._next(), sent_at=time.time(), camera_id=camera_id or self.camera_id,
                              frame_index=frame_index, captured_at=captured_at, trays=tuple(trays))
        self._send(message)
        return message

    def publish_heartbeat(self, status: str, fps: float, detail: str = "", problem: str = "") -> Heartbeat:
        last = self.last_tracks.seq if self.last_tracks is not None else -1
        message = Heartbeat(seq=self._next(), sent_at=time.time(), camera_id=self.camera_id, status=status,
                            fps=fps, last_tracks_seq=last, detail=detail, problem=problem)
        self._send(message)
        return message

    def publish_preview(self, jpeg: bytes, width: int, height: int, captured_at: float) -> PreviewMessage:
        message = PreviewMessage(seq=self._next(), sent_at=time.time(), camera_id=self.camera_id,
                                 captured_at=captured_at, width=width, height=height, jpeg=jpeg)
        self._send(message)
        return message

    def serve_snapshots(self, timeout_ms: int = 0) -> int:
        """Answer every pending snapshot request (waiting up to ``timeout_ms`` for the first one)."""
        served = 0
        while self._router.poll(timeout_ms if served == 0 else 0, zmq.POLLIN):
            frames = self._router.recv_multipart()
            identity, rest = frames[0], frames[1:]
            delimiter = [b""] if rest and rest[0] == b"" else []  # REQ clients add an empty frame
            body = rest[len(delimiter):]
            try:
                wire.VisionSnapshotRequest.from_json(body[1] if len(body) == 2 else b"")
            except WireError as exc:
                log.warning("malformed snapshot request (%s); answering with the snapshot anyway", exc)
            reply = VisionSnapshot(seq=self._seq, sent_at=time.time(), camera_id=self.camera_id,
                                   tracks=self.last_tracks)
            self._router.send_multipart([identity, *delimiter, *reply.to_frames()])
            served += 1
            timeout_ms = 0
        return served

    def log_refusals(self) -> int:
        """Log subscribers refused for want of an allowed CURVE key (call now and then)."""
        return sum(self.curve.log_refusals(m) for m in self._monitors) if self.curve is not None else 0

    def close(self) -> None:
        self._pub.close(linger=0)
        self._router.close(linger=0)
        if self.curve is not None:
            self.curve.close()
            self.curve = None
