"""TUIO 2.0 bundles received as real UDP packets by python-osc's own server and dispatcher."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import pytest
from pythonosc.dispatcher import Dispatcher
from pythonosc.osc_server import BlockingOSCUDPServer

from vision.tracking import Track
from vision.tuio import TuioSender


def track(marker_id: int, x: float, y: float, angle: float, state: str = "settled") -> Track:
    return Track(marker_id, x, y, angle, 0.0, 0.0, 0.9, state, 0.0, (x, y), 0.0, 0.0)


@pytest.fixture
def receiver() -> Any:
    received: list[tuple[str, tuple[Any, ...]]] = []
    dispatcher = Dispatcher()
    dispatcher.map("/tuio2/*", lambda address, *args: received.append((address, args)))
    server = BlockingOSCUDPServer(("127.0.0.1", 0), dispatcher)
    server.timeout = 5.0
    yield server, received
    server.server_close()


def test_a_frame_bundle_carries_frm_tok_and_alv(receiver: Any) -> None:
    server, received = receiver
    port = server.server_address[1]
    sender = TuioSender("127.0.0.1", port, area_mm=(0.0, 0.0, 600.0, 400.0), sensor_size=(1920, 1080),
                        source="hexa-vision:cam0")
    try:
        sender.send([track(7, 300.0, 100.0, 90.0), track(2, 0.0, 400.0, -90.0), track(5, 1.0, 1.0, 0.0, "lifted")],
                    unix_time=1_700_000_000.25)
        server.handle_request()
    finally:
        sender.close()
    addresses = [a for a, _ in received]
    assert addresses == ["/tuio2/frm", "/tuio2/tok", "/tuio2/tok", "/tuio2/alv"]
    frame_id, (when, fraction), dim, source = received[0][1]
    assert frame_id == 1 and source == "hexa-vision:cam0"
    assert when == datetime(2023, 11, 14, 22, 13, 20)  # 1_700_000_000 s after 1970, as an NTP time tag
    assert dim == (1920 << 16) | 1080
    assert abs(fraction / 2**32 - 0.25) < 1e-6
    toks = {args[2]: args for a, args in received if a == "/tuio2/tok"}
    session7, type_user, cid, x, y, angle = toks[7]
    assert (type_user, cid) == (0, 7)
    assert (x, y) == pytest.approx((0.5, 0.25))
    assert angle == pytest.approx(math.pi / 2, abs=1e-5)
    assert toks[2][5] == pytest.approx(3 * math.pi / 2, abs=1e-5)  # angles in [0, 2π)
    assert set(received[3][1]) == {session7, toks[2][0]}  # the lifted tag is not alive


def test_a_tag_put_back_down_gets_a_new_session(receiver: Any) -> None:
    server, received = receiver
    sender = TuioSender("127.0.0.1", server.server_address[1])
    try:
        for state in ("settled", "lifted", "moving"):
            sender.send([track(4, 10.0, 10.0, 0.0, state)])
            server.handle_request()
    finally:
        sender.close()
    alive = [args for a, args in received if a == "/tuio2/alv"]
    assert alive[0] != () and alive[1] == () and alive[2] != ()
    assert alive[2][0] != alive[0][0]
    frames = [args[0] for a, args in received if a == "/tuio2/frm"]
    assert frames == [1, 2, 3]
