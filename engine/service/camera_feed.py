"""One vision service as the engine listens to it: SUB for tracks, dice and heartbeats, DEALER for its snapshot.

The Clone pattern: subscribe first, then ask for a snapshot; the snapshot's tracks are taken only
if newer than what the subscription already delivered. Messages on the subscription are in order,
so a lower ``seq`` there means the camera service restarted and is taken as it is. The link is
``waiting`` until the first message, then takes the heartbeat's status, and is ``silent`` when
nothing arrived for ``silent_after_s`` (3 s).

A camera service holding another table's key (or none, when the engine has keys, or the other way
round) fails the handshake on every reconnection and sends nothing, which would look like a camera
that is off. Socket monitors on both links see the failed handshakes: the link is then ``refused``
(logged once, published to the tablets) until a handshake succeeds.
"""

from __future__ import annotations

import logging
import time

import zmq
from zmq.utils.monitor import recv_monitor_message

from engine import wire
from engine.i18n import gettext_for
from engine.service.log_limit import SUMMARY_EVERY_S, LimitedLog
from engine.service.security import REFUSED_HANDSHAKES, ClientKeys
from engine.wire import (
    CameraLink,
    DiceMessage,
    Heartbeat,
    TracksMessage,
    VisionSnapshot,
    VisionSnapshotRequest,
    WireError,
)

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

SILENT_AFTER_S = 3.0
SNAPSHOT_RETRY_S = 2.0
MAX_SUB_BYTES = wire.MAX_MESSAGE_BYTES + 1024
# Messages read from one socket per turn of the server's loop. A camera sends 30 a second, so a turn never
# leaves one behind; a flood (a broken or hostile camera service) is read a share at a time, and the loop
# answers commands and beats between the shares instead of reading the flood to its end first.
MAX_MESSAGES_PER_TURN = 100


def snapshot_endpoint_for(pub_endpoint: str) -> str:
    """The vision service's snapshot endpoint next to its PUB one (the port after it, as its defaults are)."""
    head, _colon, port = pub_endpoint.rpartition(":")
    if not port.isdigit():
        raise ValueError(_("{endpoint!r}: give the vision endpoint as tcp://HOST:PORT (optionally PUB,SNAPSHOT when "
                           "the snapshot port is not PUB+1)", endpoint=pub_endpoint))
    return f"{head}:{int(port) + 1}"


class CameraFeed:
    """Receives one camera service's messages; owned by the server's thread."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], index: int, pub_endpoint: str,
                 snapshot_endpoint: str | None = None, silent_after_s: float = SILENT_AFTER_S,
                 keys: ClientKeys | None = None, log_summary_s: float = SUMMARY_EVERY_S) -> None:
        self.index = index
        self.endpoint = pub_endpoint
        self.snapshot_endpoint = snapshot_endpoint or snapshot_endpoint_for(pub_endpoint)
        self.silent_after_s = silent_after_s
        self.camera_id = f"camera-{index}"
        self.status = "waiting"
        self.problem = ""  # what the camera service's last heartbeat said the players should know
        self.last_heard: float | None = None
        self.newest: TracksMessage | None = None
        self.dice: list[DiceMessage] = []  # the dice trays received since the server last took them
        self.dropped = 0
        self._malformed = LimitedLog(log, f"camera {pub_endpoint}: dropped a malformed message", every_s=log_summary_s)
        self.sub = context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.MAXMSGSIZE, MAX_SUB_BYTES)
        self.sub.setsockopt(zmq.RCVHWM, 1000)
        for topic in (wire.TOPIC_TRACKS, wire.TOPIC_DICE, wire.TOPIC_HEARTBEAT):
            self.sub.setsockopt(zmq.SUBSCRIBE, topic)
        self.snap = context.socket(zmq.DEALER)
        self.snap.setsockopt(zmq.LINGER, 0)
        self.snap.setsockopt(zmq.MAXMSGSIZE, MAX_SUB_BYTES)
        # One monitor per link, watching handshakes only; the flags say which link's last one failed.
        self._monitors = [socket.get_monitor_socket(REFUSED_HANDSHAKES | zmq.EVENT_HANDSHAKE_SUCCEEDED)
                          for socket in (self.sub, self.snap)]
        self._refused = [False, False]
        for socket, endpoint in ((self.sub, pub_endpoint), (self.snap, self.snapshot_endpoint)):
            if keys is not None:  # CURVE: only a camera holding the table's server key is heard
                keys.apply(socket)
            try:
                socket.connect(endpoint)
            except zmq.ZMQError as exc:
                self.close()
                raise ValueError(_("camera {n}: cannot connect to {endpoint!r} ({error}). Fix: give --vision "
                                   "tcp://HOST:PORT[,tcp://HOST:SNAPSHOT_PORT]", n=index, endpoint=endpoint,
                                   error=exc.strerror)) from None
        self._snapshot_asked: float | None = None
        self.synced = False
        self.ask_snapshot()

    def ask_snapshot(self) -> None:
        """Send a snapshot request (answered, or retried by :meth:`tick`)."""
        request = VisionSnapshotRequest(seq=0, sent_at=time.time())
        try:
            self.snap.send_multipart([b"", *request.to_frames()], flags=zmq.NOBLOCK)
        except zmq.Again:
            log.debug("camera %s: snapshot socket not connected yet", self.endpoint)
        self._snapshot_asked = time.monotonic()

    def _heard(self, camera_id: str) -> None:
        self.last_heard = time.monotonic()
        self.camera_id = camera_id or self.camera_id

    def _take(self, tracks: TracksMessage) -> bool:
        self._heard(tracks.camera_id)
        if self.status in ("waiting", "silent"):
            self.status = "ok"
        self.newest = tracks
        return True

    def drain_sub(self) -> bool:
        """Read the waiting subscription messages (at most MAX_MESSAGES_PER_TURN); True when new tracks arrived (dice
        go to :attr:`dice`)."""
        got = False
        for _turn in range(MAX_MESSAGES_PER_TURN):
            try:
                frames = self.sub.recv_multipart(flags=zmq.NOBLOCK)
            except zmq.Again:
                break
            try:
                message = wire.decode(frames)
            except WireError as exc:
                self.dropped += 1
                self._malformed(str(exc))
                continue
            if isinstance(message, TracksMessage):
                got = self._take(message) or got
            elif isinstance(message, DiceMessage):
                self._heard(message.camera_id)
                self.dice.append(message)
            elif isinstance(message, Heartbeat):
                self._heard(message.camera_id)
                self.status = message.status
                self.problem = message.problem
        return got

    def drain_snapshot(self) -> bool:
        """Read the snapshot replies (at most MAX_MESSAGES_PER_TURN); True when one brought tracks newer than the
        subscription's."""
        got = False
        for _turn in range(MAX_MESSAGES_PER_TURN):
            try:
                frames = self.snap.recv_multipart(flags=zmq.NOBLOCK)
            except zmq.Again:
                break
            body = frames[1:] if frames and frames[0] == b"" else frames
            try:
                message = wire.decode(body)
                if not isinstance(message, VisionSnapshot):
                    raise WireError(_("expected a vision.snapshot reply, got {topic}", topic=message.TOPIC.decode()))
            except WireError as exc:
                self.dropped += 1
                self._malformed(f"snapshot reply from {self.snapshot_endpoint}: {exc}")
                continue
            self.synced = True
            self._heard(message.camera_id)
            if self.status == "waiting":
                self.status = "ok"
            tracks = message.tracks
            if tracks is not None and (self.newest is None or tracks.seq > self.newest.seq):
                got = self._take(tracks) or got
        return got

    @property
    def refused(self) -> bool:
        """The last CURVE handshake on either link failed: the camera service's key is not this table's."""
        return any(self._refused)

    def check_handshakes(self) -> bool:
        """Read the links' handshake events; True when :attr:`refused` changed (logged once per change)."""
        before = self.refused
        reason = ""
        for i, monitor in enumerate(self._monitors):
            while monitor.poll(0, zmq.POLLIN):
                event = recv_monitor_message(monitor)["event"]
                self._refused[i] = event != zmq.EVENT_HANDSHAKE_SUCCEEDED
                reason = str(zmq.Event(event).name) if self._refused[i] else reason
        if self.refused and not before:
            log.warning("camera %d (%s): refused a camera service with an unknown key (%s). Fix: give the camera "
                        "service and the engine the same --keys folder, made by one 'hexa keys' run",
                        self.index, self.endpoint, reason)
        elif before and not self.refused:
            log.info("camera %d (%s): the CURVE handshake succeeds again", self.index, self.endpoint)
        return self.refused != before

    def tick(self, now: float) -> bool:
        """Handshakes, silence detection and snapshot retries; True when the link's published state changed."""
        self._malformed.flush()
        changed = self.check_handshakes()
        if not self.synced and self._snapshot_asked is not None and now - self._snapshot_asked > SNAPSHOT_RETRY_S:
            self.ask_snapshot()
        if self.last_heard is not None and now - self.last_heard > self.silent_after_s and self.status != "silent":
            log.warning("camera %s (%s) silent for %.1f s", self.camera_id, self.endpoint, now - self.last_heard)
            self.status = "silent"
            return True
        return changed

    def link(self, now: float) -> CameraLink:
        age = None if self.last_heard is None else round(now - self.last_heard, 2)
        return CameraLink(self.camera_id, self.status, age, self.endpoint, self.refused, self.problem)

    def close(self) -> None:
        for monitor in self._monitors:
            monitor.close(linger=0)
        self.sub.close(linger=0)
        self.snap.close(linger=0)
