"""TUIO 2.0 bundles as real UDP packets, decoded by liblo (an OSC library that is not the sender's)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator

import pytest
from tuio_decoder import LibloTuioReceiver, TuioFrame

from vision.area import TableArea
from vision.tracking import Track
from vision.tuio import TuioSender

T0 = 1_700_000_000.25


def track(marker_id: int, x: float, y: float, angle: float, state: str = "settled") -> Track:
    return Track(marker_id, x, y, angle, 0.0, 0.0, 0.9, state, 0.0, (x, y), 0.0, 0.0)


@pytest.fixture
def receiver() -> Iterator[LibloTuioReceiver]:
    receiver = LibloTuioReceiver()
    yield receiver
    receiver.close()


def frames(n: int) -> Callable[[list[TuioFrame]], bool]:
    return lambda got: len(got) >= n


def test_a_frame_bundle_carries_frm_tok_and_alv(receiver: LibloTuioReceiver) -> None:
    sender = TuioSender("127.0.0.1", receiver.port, area=TableArea(-20.0, 10.0, 580.0, 410.0),
                        source="hexa-vision:cam0")
    try:
        sender.send([track(7, 280.0, 110.0, 90.0), track(2, -20.0, 410.0, -90.0), track(5, 1.0, 1.0, 0.0, "lifted")],
                    unix_time=T0)
        [frame] = receiver.receive(frames(1))
    finally:
        sender.close()
    assert receiver.problems == []
    assert frame.source == "hexa-vision:cam0"
    assert frame.unix_time == pytest.approx(T0, abs=1e-5)
    assert frame.dimension == (600, 400)  # the area's size in mm, not the camera's pixels
    toks = {t.component: t for t in frame.tokens}
    assert set(toks) == {7, 2}  # the lifted tag is not on the table
    assert (toks[7].type_user, toks[7].x, toks[7].y) == (0, pytest.approx(0.5), pytest.approx(0.25))
    assert toks[7].angle == pytest.approx(math.pi / 2, abs=1e-5)
    assert (toks[2].x, toks[2].y) == (0.0, 1.0)
    assert toks[2].angle == pytest.approx(3 * math.pi / 2, abs=1e-5)  # angles in [0, 2π)
    assert frame.alive is not None and set(frame.alive) == {toks[7].session, toks[2].session}


def test_positions_past_the_area_are_clamped_to_its_edge(receiver: LibloTuioReceiver) -> None:
    sender = TuioSender("127.0.0.1", receiver.port, area=TableArea(0.0, 0.0, 300.0, 200.0))
    try:
        sender.send([track(1, -4.0, 100.0, 0.0), track(2, 150.0, 260.0, 0.0), track(3, 330.0, -1.0, 0.0)], T0)
        [frame] = receiver.receive(frames(1))
    finally:
        sender.close()
    assert {t.component: (t.x, t.y) for t in frame.tokens} == {1: (0.0, 0.5), 2: (0.5, 1.0), 3: (1.0, 0.0)}


def test_a_tag_put_back_down_gets_a_new_session(receiver: LibloTuioReceiver) -> None:
    sender = TuioSender("127.0.0.1", receiver.port)
    try:
        for k, state in enumerate(("settled", "lifted", "moving")):
            sender.send([track(4, 10.0, 10.0, 0.0, state)], T0 + k / 30)
        got = receiver.receive(frames(3))
    finally:
        sender.close()
    alive = [f.alive for f in got]
    assert alive[0] and alive[1] == () and alive[2]
    assert alive[2][0] != alive[0][0]
    ids = [f.frame_id for f in got]
    assert ids == sorted(set(ids))


def test_stopping_sends_an_empty_frame_so_clients_drop_every_token(receiver: LibloTuioReceiver) -> None:
    sender = TuioSender("127.0.0.1", receiver.port)
    sender.send([track(4, 10.0, 10.0, 0.0), track(9, 50.0, 10.0, 0.0)], T0)
    sender.close()
    sender.close()  # twice is harmless
    first, last = receiver.receive(frames(2))
    assert first.alive and len(first.alive) == 2
    assert last.alive == () and last.tokens == []
    assert last.frame_id > first.frame_id  # also accepted by clients that drop late frames


def run(port: int, start: float, n: int, ids: tuple[int, ...]) -> None:
    sender = TuioSender("127.0.0.1", port)
    try:
        for k in range(n):
            sender.send([track(i, 10.0 * i, 10.0, 0.0) for i in ids], start + k / 30)
    finally:
        sender.close()


def test_a_restarted_sender_continues_above_the_previous_runs_ids(receiver: LibloTuioReceiver) -> None:
    def with_tags(n: int) -> Callable[[list[TuioFrame]], bool]:
        return lambda got: sum(bool(f.alive) for f in got) >= n  # not counting the goodbye frames

    start = time.time()  # the goodbye frame is stamped with the wall clock
    run(receiver.port, start, 90, (1, 2))  # three seconds at 30 fps
    first = [f for f in receiver.receive(with_tags(90)) if f.alive]
    run(receiver.port, start + 3.5, 3, (1, 2))  # restarted half a second later, the same tags on the table
    second = [f for f in receiver.receive(with_tags(93)) if f.alive][90:]
    assert min(f.frame_id for f in second) > max(f.frame_id for f in first)
    old_sessions = {s for f in first for s in f.alive or ()}
    new_sessions = {s for f in second for s in f.alive or ()}
    assert len(new_sessions) == 2 and not new_sessions & old_sessions


def test_frame_ids_grow_even_when_frames_come_faster_than_the_clock(receiver: LibloTuioReceiver) -> None:
    sender = TuioSender("127.0.0.1", receiver.port)
    for _ in range(5):
        sender.send([], T0)  # the same time stamp five times
    sender.close()
    ids = [f.frame_id for f in receiver.receive(frames(6))]
    assert ids == sorted(set(ids)) and ids[0] > 0
