"""No peer may stall the engine: a subscriber flooding random subscriptions, then hanging up, again and again,
while a tablet's commands are answered within 100 ms (bar rare scheduling blips) and every subscriber keeps its
heartbeats."""

from __future__ import annotations

import random
import socket
import struct
import threading
import time
from pathlib import Path

import zmq

from engine import wire
from engine.service.publisher import MAX_SUBSCRIPTION_BYTES
from engine.service.server import ServerConfig
from tests.service.conftest import ANY_PORT, serve_engine

ANSWER_WITHIN_S = 0.100
# A 2-core machine under load may delay a thread now and then whatever the engine does: at most 1 % of the answers
# may miss 100 ms, none by much (a stalled publisher held answers for seconds; before the fix: 0.7-2 s).
LATE_SHARE = 0.01
NEVER_LATER_S = 0.500
# … plus the worst delay a bystander thread saw in the same run (it asks to wake every few ms and notes how late it
# woke): when the machine itself holds every thread back (a 2-core CI beside other jobs), answers are held back as
# much, and that is no stall of the engine's.
PROBE_S = 0.005
FLOOD_S = 5.0  # how long the subscriptions pour in (at least MIN_ROUNDS connections)
MIN_ROUNDS = 3
PACE_MS = 10
SUBSCRIPTIONS_PER_ROUND = 150_000


def _frame(body: bytes, command: bool = False) -> bytes:
    flags = 0x04 if command else 0x00
    if len(body) > 255:
        return bytes([flags | 0x02]) + struct.pack(">Q", len(body)) + body
    return bytes([flags, len(body)]) + body


GREETING = b"\xff" + bytes(7) + b"\x01\x7f" + bytes([3, 1]) + b"NULL".ljust(20, b"\0") + bytes(32)  # ZMTP 3.1
READY = _frame(b"\x05READY" + bytes([11]) + b"Socket-Type" + struct.pack(">I", 3) + b"SUB", command=True)


def _handshake(peer: socket.socket) -> None:
    """Greet the engine as a SUB socket does and wait for its greeting and READY."""
    peer.sendall(GREETING + READY)
    expected = len(GREETING) + 2 + len(b"\x05READY\x0bSocket-Type\x00\x00\x00\x03PUB")
    received = b""
    while len(received) < expected:
        chunk = peer.recv(expected - len(received))
        if not chunk:
            raise ConnectionError("the engine closed the connection during the handshake")
        received += chunk


def _subscriptions(rng: random.Random, count: int) -> bytes:
    """Random subscription frames within the engine's size limit."""
    return b"".join(_frame(b"\x01" + rng.randbytes(rng.randint(1, 48))) for _ in range(count))


def _flood(host: str, port: int, payloads: list[bytes], stop: threading.Event, rounds: list[int]) -> None:
    """Until ``stop``: connect, send a payload as far as the engine takes it within a second, hang up."""
    while not stop.is_set():
        with socket.create_connection((host, port)) as peer:
            peer.settimeout(1.0)
            try:
                _handshake(peer)
                peer.sendall(payloads[len(rounds) % len(payloads)])
                peer.shutdown(socket.SHUT_WR)
                hang_up_by = time.monotonic() + 2.0  # matching subscriptions may keep the engine talking
                while peer.recv(1 << 16) and time.monotonic() < hang_up_by:
                    pass
            except OSError:
                pass  # the engine stopped reading (or hung up on an oversized subscription)
        rounds.append(1)


def _bystander(stop: threading.Event, delays: list[float]) -> None:
    """Until ``stop``: sleep ``PROBE_S`` at a time and note how much later than asked each wake-up came."""
    while not stop.is_set():
        before = time.monotonic()
        time.sleep(PROBE_S)
        delays.append(time.monotonic() - before - PROBE_S)


def test_subscription_flood_never_delays_the_answers(context: zmq.Context[zmq.Socket[bytes]],
                                                    tmp_path: Path) -> None:
    config = ServerConfig(pub=ANY_PORT, commands=ANY_PORT, heartbeat_s=0.2)
    session, server, thread = serve_engine(context, str(tmp_path / "journal.sqlite"), "tutorial", config)
    dealer = context.socket(zmq.DEALER)
    listener = context.socket(zmq.SUB)
    try:
        dealer.setsockopt(zmq.LINGER, 0)
        listener.setsockopt(zmq.LINGER, 0)
        listener.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_ENGINE_HEARTBEAT)
        dealer.connect(server.commands_endpoint)
        listener.connect(server.pub_endpoint)
        assert listener.poll(5000), "no heartbeat before the flood"
        host, port = server.pub_endpoint.removeprefix("tcp://").rsplit(":", 1)
        payload = _subscriptions(random.Random(7), SUBSCRIPTIONS_PER_ROUND)
        oversized = _frame(b"\x01" + bytes(MAX_SUBSCRIPTION_BYTES + 10))  # the engine hangs up on this one
        payloads = [payload, payload, payload[:len(payload) // 2] + oversized + payload]
        stop, rounds = threading.Event(), []
        flooder = threading.Thread(target=_flood, args=(host, int(port), payloads, stop, rounds), daemon=True)
        delays: list[float] = [0.0]
        bystander = threading.Thread(target=_bystander, args=(stop, delays), daemon=True)
        latencies: list[float] = []
        heartbeats: list[float] = []
        flooder.start()
        bystander.start()
        request_id = 0
        flood_until = time.monotonic() + FLOOD_S
        while time.monotonic() < flood_until or len(rounds) < MIN_ROUNDS:
            assert time.monotonic() < flood_until + 60.0, "the flooder did not finish its rounds"
            request_id += 1
            sent = time.monotonic()
            dealer.send(wire.encode_request("snapshot", request_id))
            assert dealer.poll(5000), "the engine stopped answering during the flood"
            reply = wire.parse_reply(dealer.recv_multipart()[-1])
            latencies.append(time.monotonic() - sent)
            assert reply.ok and reply.id == request_id
            while listener.poll(PACE_MS):  # a tablet's pace: a request every few milliseconds, not a busy loop
                listener.recv_multipart()
                heartbeats.append(time.monotonic())
            assert time.monotonic() - (heartbeats[-1] if heartbeats else sent) < 3.0, "heartbeats stopped"
        stop.set()
        flooder.join(30.0)
        bystander.join(5.0)
        latencies.sort()
        p50, p95 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.95)]
        held = max(delays)
        print(f"\nflood: {len(latencies)} answers, p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
              f"max {latencies[-1] * 1000:.1f} ms; {len(heartbeats)} heartbeats, {len(rounds)} flood rounds; "
              f"a bystander thread held back {held * 1000:.0f} ms at most")
        late = [t for t in latencies if t >= ANSWER_WITHIN_S]
        assert len(late) <= LATE_SHARE * len(latencies), f"{len(late)} of {len(latencies)} answers took 100 ms or more"
        assert latencies[-1] < NEVER_LATER_S + held, (
            f"an answer took {latencies[-1] * 1000:.0f} ms during the flood (a bystander thread was held back "
            f"{held * 1000:.0f} ms at most)")
    finally:
        dealer.close(linger=0)
        listener.close(linger=0)
        server.stop()
        thread.join(10.0)
    assert not thread.is_alive(), "the engine loop did not stop"
    assert session.game_id >= 1
