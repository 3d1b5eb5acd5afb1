"""The engine's PUB socket in a thread of its own, so no subscriber can stall the engine's loop.

libzmq applies the subscriptions a peer sends inside the publisher's ``send`` call, and drops a
disconnected peer's subscriptions there too; a peer flooding random subscriptions could hold the
sending thread for seconds. Here the loop hands each message to this thread over an inproc pipe
without blocking (a full pipe drops the message and says so), and the socket is bounded per peer:

- ``MAXMSGSIZE`` 1 KiB: a longer subscription (or any other frame) disconnects the peer;
  engine topics are at most 16 bytes.
- ``RCVHWM`` 16: a peer's subscriptions wait in a short queue; beyond it libzmq stops reading
  that peer, so its flood is taken at the pace this thread can afford.
- ``SNDHWM`` 100 and a 256 KiB kernel send buffer: a tablet that never reads holds at most that
  much of the engine's memory; newer messages are dropped for it alone (it resyncs with a snapshot).
- ZMTP heartbeats and TCP keepalive drop peers that vanished without closing their connection.
"""

from __future__ import annotations

import logging
import threading
import uuid

import zmq

log = logging.getLogger(__name__)

MAX_SUBSCRIPTION_BYTES = 1024  # CURVE handshake commands (a few hundred bytes) pass too
SUBSCRIPTION_QUEUE = 16
PEER_QUEUE = 100
PEER_SOCKET_BUFFER = 256 * 1024
PIPE_QUEUE = 1000
HEARTBEAT_IVL_MS = 5000
HEARTBEAT_TIMEOUT_MS = 15000


def bound_peer(socket: zmq.Socket[bytes], queue: int) -> None:
    """Per-peer limits every engine socket facing the network shares: queue length and dead-peer detection."""
    socket.setsockopt(zmq.SNDHWM, queue)
    socket.setsockopt(zmq.SNDBUF, PEER_SOCKET_BUFFER)
    socket.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_IVL_MS)
    socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_MS)
    socket.setsockopt(zmq.TCP_KEEPALIVE, 1)
    socket.setsockopt(zmq.TCP_KEEPALIVE_IDLE, 30)


def bound_publisher(socket: zmq.Socket[bytes]) -> None:
    """The limits of the PUB socket (set before it binds)."""
    bound_peer(socket, PEER_QUEUE)
    socket.setsockopt(zmq.MAXMSGSIZE, MAX_SUBSCRIPTION_BYTES)
    socket.setsockopt(zmq.RCVHWM, SUBSCRIPTION_QUEUE)


class Publisher:
    """Owns a bound PUB socket once :meth:`start` ran; :meth:`send` never blocks."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], pub: zmq.Socket[bytes]) -> None:
        self.pub = pub
        address = f"inproc://engine-publisher-{uuid.uuid4().hex}"
        self._in = context.socket(zmq.PAIR)
        self._out = context.socket(zmq.PAIR)
        for socket in (self._in, self._out):
            socket.setsockopt(zmq.LINGER, 0)
        self._in.setsockopt(zmq.SNDHWM, PIPE_QUEUE)
        self._out.setsockopt(zmq.RCVHWM, PIPE_QUEUE)
        self._out.bind(address)
        self._in.connect(address)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="engine-publisher", daemon=True)
        self.dropped = 0

    def start(self) -> None:
        self._thread.start()

    def send(self, frames: list[bytes]) -> bool:
        """Queue one message for the subscribers; False (and counted) when the publisher is behind."""
        try:
            self._in.send_multipart(frames, flags=zmq.NOBLOCK)
        except zmq.Again:
            self.dropped += 1
            return False
        return True

    def _run(self) -> None:
        poller = zmq.Poller()
        poller.register(self._out, zmq.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(100):  # (no getsockopt on the PUB here: it would hold the GIL while libzmq works)
                continue
            for _ in range(PIPE_QUEUE):
                try:
                    frames = self._out.recv_multipart(flags=zmq.NOBLOCK)
                except zmq.Again:
                    break
                try:
                    self.pub.send_multipart(frames, flags=zmq.NOBLOCK)
                except zmq.ZMQError as exc:  # a PUB socket drops rather than blocks; anything else is logged
                    log.warning("could not publish a %s message (%s)", frames[0][:40].decode(errors="replace"),
                                exc.strerror)

    def close(self) -> None:
        """Stop the thread (if started) and close the sockets; the PUB socket is closed by its owner."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5.0)
        self._in.close(linger=0)
        self._out.close(linger=0)
