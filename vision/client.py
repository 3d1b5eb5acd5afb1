"""Receiving side of the camera service, for the engine, tools and tests (the Clone pattern).

:class:`TracksSubscriber` subscribes first, then asks for a snapshot, then hands out only
``tracks`` newer than the snapshot, so a late joiner neither misses the current set nor applies
an old update on top of a newer one.
"""

from __future__ import annotations

import logging
import time

import zmq

from engine import wire
from engine.i18n import gettext_for
from engine.wire import TracksMessage, VisionSnapshot, VisionSnapshotRequest, WireError
from vision.publisher import DEFAULT_PUB, DEFAULT_SNAPSHOT

_ = gettext_for(__name__)

log = logging.getLogger(__name__)


def request_snapshot(endpoint: str = DEFAULT_SNAPSHOT, timeout_s: float = 2.0,
                     context: zmq.Context[zmq.Socket[bytes]] | None = None) -> VisionSnapshot:
    """Ask the camera service for its current tracks; ``TimeoutError`` if it does not answer."""
    ctx = context or zmq.Context.instance()
    sock = ctx.socket(zmq.REQ)
    sock.setsockopt(zmq.LINGER, 0)
    try:
        sock.connect(endpoint)
        sock.send_multipart(VisionSnapshotRequest(seq=0, sent_at=time.time()).to_frames())
        if not sock.poll(int(timeout_s * 1000), zmq.POLLIN):
            raise TimeoutError(_("no snapshot from {endpoint} within {timeout_s:.1f} s: is 'hexa vision' running "
                                 "there (see its --snapshot option)?", endpoint=endpoint, timeout_s=timeout_s))
        message = wire.decode(sock.recv_multipart())
        if not isinstance(message, VisionSnapshot):
            raise WireError(_("expected a vision.snapshot reply, got {decode}", decode=message.TOPIC.decode()))
        return message
    finally:
        sock.close(linger=0)


class TracksSubscriber:
    """Subscribes to ``tracks`` and keeps the newest; call :meth:`sync` once, then :meth:`receive`."""

    def __init__(self, endpoint: str = DEFAULT_PUB, snapshot_endpoint: str = DEFAULT_SNAPSHOT,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None, topics: tuple[bytes, ...] = (wire.TOPIC_TRACKS,)
                 ) -> None:
        self._context = context or zmq.Context.instance()
        self.snapshot_endpoint = snapshot_endpoint
        self._sub = self._context.socket(zmq.SUB)
        self._sub.setsockopt(zmq.LINGER, 0)
        for topic in topics:
            self._sub.setsockopt(zmq.SUBSCRIBE, topic)
        self._sub.connect(endpoint)
        self.current: TracksMessage | None = None
        self.malformed = 0

    def sync(self, timeout_s: float = 2.0) -> TracksMessage | None:
        """Take the service's current set from a snapshot (None if it has not seen a frame yet)."""
        snapshot = request_snapshot(self.snapshot_endpoint, timeout_s, self._context)
        if snapshot.tracks is not None and (self.current is None or snapshot.tracks.seq > self.current.seq):
            self.current = snapshot.tracks
        return self.current

    def receive(self, timeout_s: float) -> wire.Message | None:
        """The next message newer than what is held (tracks update :attr:`current`); None on timeout."""
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            if not self._sub.poll(int(remaining * 1000), zmq.POLLIN):
                return None
            try:
                message = wire.decode(self._sub.recv_multipart())
            except WireError as exc:
                self.malformed += 1
                log.warning("dropped a malformed message: %s", exc)
                continue
            if isinstance(message, TracksMessage):
                if self.current is not None and message.seq <= self.current.seq:
                    continue  # older than the snapshot we already hold
                self.current = message
            return message

    def close(self) -> None:
        self._sub.close(linger=0)
