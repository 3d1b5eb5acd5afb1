"""The demo's launcher: free ports, a child that fails is reported with its own words, nothing left running."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.demo.launcher import DemoEndpoints, DemoError, DemoServices, free_ports, port_of
from companion_app.demo.window import app_arguments
from engine.scenario import load_scenario
from vision.synthetic.control import ControlledTable, handle_request
from vision.synthetic.scenario_scene import scenario_table


def test_free_ports_are_distinct_loopback_ports() -> None:
    ports = free_ports(6)
    assert len(set(ports)) == 6 and all(1024 <= p < 65536 for p in ports)
    endpoints = DemoEndpoints.allocate()
    assert all(e.startswith("tcp://127.0.0.1:") for e in vars(endpoints).values())


def test_the_app_talks_to_the_hand_and_listens_to_the_engine() -> None:
    ep = DemoEndpoints.allocate()
    args = app_arguments(ep, "1280x800")
    assert args[args.index("--command-port") + 1] == str(port_of(ep.hand))
    assert args[args.index("--pub-port") + 1] == str(port_of(ep.engine_pub))
    assert args[args.index("--vision") + 1] == ep.vision_pub and args[-2:] == ["--size", "1280x800"]


def test_a_child_that_fails_is_reported_with_its_output_and_nothing_stays() -> None:
    lines: list[str] = []
    services = DemoServices("no-such-scenario", say=lines.append)
    with pytest.raises(DemoError) as caught, services:
        pass
    text = str(caught.value)
    assert "the camera service stopped (exit code 2)" in text and "no-such-scenario" in text
    # What it said: that it started the camera service, and nothing else but waiting notes (a loaded machine
    # takes long enough to start the child that one may come before it dies).
    assert lines[0] == "Starting the camera service on the synthetic table (no-such-scenario)…"
    assert all(line.startswith("  … waiting for the camera service") for line in lines[1:]), lines
    assert services.children == []


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)
_commands = st.fixed_dictionaries({"cmd": st.sampled_from(["place", "lift", "remove", "list", "x"])},
                                  optional={"marker": st.integers(-2, 120) | _json, "x_mm": _json | st.floats(),
                                            "y_mm": _json | st.floats(), "angle_deg": _json})


@settings(max_examples=150, deadline=None)
@given(request=_commands | _json)
def test_any_request_gets_a_reply_never_an_exception(request: object) -> None:
    drawing, _ = scenario_table(load_scenario("tutorial"))
    table = ControlledTable(drawing.figures, drawing.size_mm)
    reply = handle_request(table, json.dumps(request, allow_nan=True).encode())
    assert reply["ok"] or reply["error"]
    assert len(table.at(10.0)[0]) <= len(drawing.figures)
