"""Tablets that never read hold a bounded part of the engine: a short queue each, the rest dropped for them alone."""

from __future__ import annotations

import json

import zmq

from engine import wire
from engine.service.publisher import PEER_QUEUE
from tests.service.conftest import Rig

COMMANDS = 1500  # each publishes game.events and game.state: several MB in all, far beyond one peer's share


def _frozen(rig: Rig, kind: int, endpoint: str) -> zmq.Socket[bytes]:
    socket = rig.context.socket(kind)
    socket.setsockopt(zmq.LINGER, 0)
    socket.setsockopt(zmq.RCVHWM, 1)
    socket.setsockopt(zmq.RCVBUF, 4096)
    if kind == zmq.SUB:
        socket.setsockopt(zmq.SUBSCRIBE, b"")
    socket.connect(endpoint)
    return socket


def _drain(socket: zmq.Socket[bytes], last_seq: int) -> tuple[int, int]:
    """Messages and bytes that were waiting for a peer (``seq`` up to ``last_seq``), read once it wakes up."""
    count = size = 0
    while socket.poll(1000):
        frames = socket.recv_multipart()
        if json.loads(frames[-1])["seq"] > last_seq:
            break  # published after the tablet woke up (the heartbeat goes on)
        count, size = count + 1, size + sum(len(f) for f in frames)
    return count, size


def test_a_tablet_that_never_reads_holds_a_bounded_queue(rig: Rig) -> None:
    subscriber = _frozen(rig, zmq.SUB, rig.server.pub_endpoint)
    dealer = _frozen(rig, zmq.DEALER, rig.server.commands_endpoint)
    try:
        assert subscriber.poll(5000), "the frozen tablet never got its first message"
        published = 0
        for i in range(COMMANDS):
            if i % 2 == 0:
                rig.act("action", action={"kind": "roll", "values": [2, 5]})
            else:
                rig.act("undo")
            published += 2
            dealer.send(wire.encode_request("snapshot", i), flags=zmq.NOBLOCK)  # replies it never reads
        last_seq = rig.act("snapshot")["last_seq"]  # every request before it has been answered (or dropped)
        updates, update_bytes = _drain(subscriber, last_seq)
        replies, reply_bytes = _drain(dealer, last_seq)
    finally:
        subscriber.close(linger=0)
        dealer.close(linger=0)
    print(f"\nfrozen tablet: {updates} of {published} updates ({update_bytes / 1e6:.2f} MB), "
          f"{replies} of {COMMANDS} replies ({reply_bytes / 1e6:.2f} MB) were held for it")
    assert updates < published // 4, f"{updates} updates were queued for a tablet that never reads"
    assert replies < 4 * PEER_QUEUE, f"{replies} replies were queued for a tablet that never reads"
