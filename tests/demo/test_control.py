"""The synthetic table's control socket over real ZeroMQ sockets, and the hand's motion on the table's clock."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import zmq

from engine.scenario import load_scenario
from tests.waiting import WAIT_S
from vision.synthetic.control import (
    ControlError,
    ControlledTable,
    ControlServer,
    TableControlClient,
    handle_request,
    motion_seconds,
)
from vision.synthetic.scenario_scene import scenario_table

ANY_PORT = "tcp://127.0.0.1:*"


@pytest.fixture()
def table() -> ControlledTable:
    drawing, _ = scenario_table(load_scenario("tutorial"))
    return ControlledTable(drawing.figures, drawing.size_mm)


@pytest.fixture()
def served(table: ControlledTable) -> Iterator[tuple[ControlServer, TableControlClient]]:
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    server = ControlServer(ANY_PORT, table, context)
    client = TableControlClient(server.endpoint, context, timeout_s=WAIT_S)
    try:
        yield server, client
    finally:
        client.close()
        server.close()
        context.term()


def _positions(table: ControlledTable, t: float) -> dict[int, tuple[float, float]]:
    figures, _ = table.at(t)
    return {f.marker_id: (f.x_mm, f.y_mm) for f in figures}


def test_figures_stand_still_until_told(table: ControlledTable) -> None:
    assert _positions(table, 0.0) == _positions(table, 30.0)
    assert table.at(30.0)[1] == ()  # no hands


def test_place_moves_the_figure_with_a_hand_then_settles(table: ControlledTable) -> None:
    marker = table.markers()[0]["marker"]
    start = _positions(table, 1.0)[marker]
    seconds = table.place(marker, start[0] + 100.0, start[1], 15.0)
    assert seconds == pytest.approx(motion_seconds(100.0))
    halfway, hands = table.at(1.0 + seconds / 2)
    moving = next(f for f in halfway if f.marker_id == marker)
    assert start[0] < moving.x_mm < start[0] + 100.0 and hands  # carried by a visible hand
    assert table.markers()[0]["state"] == "moving"
    done, hands = table.at(1.0 + seconds + 0.01)
    placed = next(f for f in done if f.marker_id == marker)
    assert (placed.x_mm, placed.y_mm, placed.angle_deg) == (start[0] + 100.0, start[1], 15.0)
    assert hands == () and table.markers()[0]["state"] == "on_table"


def test_lift_hides_and_place_brings_it_back_under_a_hand(table: ControlledTable) -> None:
    marker = table.markers()[1]["marker"]
    table.at(2.0)
    table.take(marker, "in_hand")
    assert marker not in _positions(table, 2.1)
    seconds = table.place(marker, 50.0, 60.0)
    figures, hands = table.at(2.1 + seconds * 0.2)
    assert marker not in {f.marker_id for f in figures} and hands  # still in the palm
    assert _positions(table, 2.1 + seconds + 0.01)[marker] == (50.0, 60.0)


def test_requests_over_real_sockets(served: tuple[ControlServer, TableControlClient], table: ControlledTable) -> None:
    _, client = served
    markers = client.markers()
    assert set(markers) == {m["marker"] for m in table.markers()}
    marker = next(iter(markers))
    client.place(marker, 100.0, 90.0, 30.0)
    assert client.markers()[marker]["state"] == "moving"
    assert (client.markers()[marker]["x_mm"], client.markers()[marker]["y_mm"]) == (100.0, 90.0)
    client.remove(marker)
    assert client.markers()[marker]["state"] == "off_table"
    client.lift(marker)
    assert client.markers()[marker]["state"] == "in_hand"


@pytest.mark.parametrize(("request_", "error"), [
    ({"cmd": "place", "marker": 77, "x_mm": 1, "y_mm": 1}, "marker 77 is not on this synthetic table"),
    ({"cmd": "place", "marker": True, "x_mm": 1, "y_mm": 1}, "expected a marker id"),
    ({"cmd": "place", "marker": 1, "y_mm": 1}, "x_mm: expected a finite number"),
    ({"cmd": "place", "marker": 1, "x_mm": 5000, "y_mm": 1}, "off the table"),
    ({"cmd": "fly"}, "unknown command 'fly'"),
])
def test_bad_requests_get_clear_errors(served: tuple[ControlServer, TableControlClient], request_: dict[str, object],
                                       error: str) -> None:
    _, client = served
    cmd = str(request_.pop("cmd"))
    with pytest.raises(ControlError, match=error):
        client.request(cmd, **request_)
    client.markers()  # the server keeps serving


def test_malformed_frames_and_a_req_client(served: tuple[ControlServer, TableControlClient],
                                           table: ControlledTable) -> None:
    server, _ = served
    assert handle_request(table, b"\xff not json")["error"].startswith("not a JSON object")
    assert not handle_request(table, b"[1, 2]")["ok"]
    context = zmq.Context.instance()
    req = context.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    try:
        req.connect(server.endpoint)
        req.send(json.dumps({"cmd": "list"}).encode())
        assert req.poll(2000, zmq.POLLIN)
        assert json.loads(req.recv())["ok"]
    finally:
        req.close(linger=0)


def test_only_loopback_and_a_busy_port_are_refused(table: ControlledTable,
                                                   served: tuple[ControlServer, TableControlClient]) -> None:
    with pytest.raises(ControlError, match="loopback only"):
        ControlServer("tcp://0.0.0.0:5557", table)
    with pytest.raises(ControlError, match="cannot bind"):
        ControlServer(served[0].endpoint, table)


def test_nobody_answering_is_a_timeout() -> None:
    client = TableControlClient("tcp://127.0.0.1:9", timeout_s=0.3)
    try:
        with pytest.raises(TimeoutError, match="did not answer"):
            client.markers()
    finally:
        client.close()


def test_hexa_vision_control_needs_the_synthetic_table(capsys: pytest.CaptureFixture[str]) -> None:
    from vision.cli import main

    assert main(["--images", ".", "--control", "tcp://127.0.0.1:5557", "--jsonl", "-"]) == 2
    assert "--control moves figures on the synthetic table: use it with --synthetic" in capsys.readouterr().err
