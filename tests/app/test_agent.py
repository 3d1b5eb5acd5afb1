"""The network agent against a real engine service on loopback: sync, commands, two tablets, restarts, bad input."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import zmq

from companion_app.net.agent import AgentEvent, NetworkAgent
from tests.app.engine_process import EngineProcess, free_port
from tests.waiting import WAIT_S


@pytest.fixture()
def engine() -> Iterator[EngineProcess]:
    proc = EngineProcess()
    try:
        yield proc
    finally:
        proc.stop()


def agent_for(engine: EngineProcess, **kwargs: float) -> NetworkAgent:
    agent = NetworkAgent(engine.pub, engine.commands, **kwargs)  # type: ignore[arg-type]
    agent.start()
    return agent


def reply_to(agent: NetworkAgent, rid: str, timeout_s: float = 10.0) -> dict[str, object]:
    ev = agent.wait_for("reply", timeout_s, lambda e: e.data["reply"].get("id") == rid)
    return ev.data["reply"]  # type: ignore[no-any-return]


def history_len(ev: AgentEvent) -> int:
    return len(ev.data["snapshot"]["history"])


def test_agent_syncs_then_goes_live_and_plays_an_action(engine: EngineProcess) -> None:
    agent = agent_for(engine)
    try:
        states: list[str] = []
        live = agent.wait_for("state", 20.0, lambda e: states.append(e.data["state"]) or e.data["state"] == "live")
        assert live.data["state"] == "live"
        assert states[0] == "connecting" and "live" in states
        # The snapshot came with the scenario and the game.
        rid = agent.request("snapshot")
        snap = reply_to(agent, rid)
        assert snap["ok"] is True and snap["scenario"]["id"] == "goblins-treasure"  # type: ignore[index]
        rid = agent.request("action", action={"kind": "roll", "values": [5, 3], "virtual": False})
        assert reply_to(agent, rid)["ok"] is True
        state = agent.wait_for("snapshot", 10.0, lambda e: history_len(e) == 1)
        assert state.data["snapshot"]["prompt"]["kind"] == "choose"
        events = agent.wait_for("events", 10.0)
        assert events.data["action"] == "roll 5 3"
        # A refused action says why and changes nothing.
        rid = agent.request("action", action={"kind": "choose", "option": "nobody"})
        refused = reply_to(agent, rid)
        assert refused["ok"] is False and "nobody" in str(refused["error"])
    finally:
        agent.stop()
    assert agent.state == "stopped"


def test_undo_on_one_tablet_shows_on_the_other(engine: EngineProcess) -> None:
    a, b = agent_for(engine), agent_for(engine)
    try:
        for agent in (a, b):
            agent.wait_for("state", 20.0, lambda e: e.data["state"] == "live")
        rid = a.request("action", action={"kind": "roll", "values": [6, 2], "virtual": True})
        assert reply_to(a, rid)["ok"] is True
        b.wait_for("snapshot", 10.0, lambda e: history_len(e) == 1)
        rid = b.request("undo")
        undone = reply_to(b, rid)
        assert undone["ok"] is True and undone["undone"] == "roll! 6 2"
        for agent in (a, b):
            agent.wait_for("snapshot", 10.0, lambda e: history_len(e) == 0)
    finally:
        a.stop()
        b.stop()


def test_agent_goes_stale_when_the_engine_stops_and_resyncs_after_a_restart(engine: EngineProcess) -> None:
    agent = agent_for(engine, stale_after_s=1.5, reconnect_after_s=1.5)
    try:
        agent.wait_for("state", 20.0, lambda e: e.data["state"] == "live")
        rid = agent.request("action", action={"kind": "roll", "values": [4, 1], "virtual": False})
        assert reply_to(agent, rid)["ok"] is True
        first_run, seq_before = agent.engine_run, agent.last_seq
        agent.poll()  # drop what came so far: the waits below see only what follows the halt
        engine.halt()
        stale = agent.wait_for("state", 10.0, lambda e: e.data["state"] == "stale")
        assert "nothing heard" in stale.data["detail"]
        engine.restart()
        agent.wait_for("state", 30.0, lambda e: e.data["state"] == "live")
        snap = agent.wait_for("snapshot", 10.0, lambda e: e.data["seq"] > seq_before)
        assert history_len(snap) == 1  # the journal kept the game; the tablet picked it up by itself
        assert agent.engine_run != first_run
    finally:
        agent.stop()


def test_malformed_messages_are_dropped_and_the_agent_keeps_running(engine: EngineProcess) -> None:
    ctx = zmq.Context.instance()
    bad_pub = ctx.socket(zmq.PUB)
    bad_pub.setsockopt(zmq.LINGER, 0)
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    bad_pub.bind(endpoint)
    agent = NetworkAgent(endpoint, engine.commands)
    agent.start()
    try:
        agent.wait_for("state", 20.0, lambda e: e.data["state"] == "live")
        deadline = time.monotonic() + WAIT_S
        while agent.dropped == 0 and time.monotonic() < deadline:
            bad_pub.send_multipart([b"game.state", b"{not json"])
            bad_pub.send_multipart([b"table", b"1", b"2"])
            agent.poll()
            time.sleep(0.05)  # pacing the sender only; the assertion waits on the counter
        assert agent.dropped > 0
        rid = agent.request("snapshot")
        assert reply_to(agent, rid)["ok"] is True
    finally:
        agent.stop()
        bad_pub.close(linger=0)


def test_with_curve_keys_the_tablet_goes_live_and_without_them_it_never_does(tmp_path: object) -> None:
    from pathlib import Path

    from engine.service.keys import main as keys_main
    from engine.service.security import load_client_keys

    keys = Path(str(tmp_path)) / "keys"
    assert keys_main(["--dir", str(keys)]) == 0
    engine = EngineProcess(extra=["--keys", str(keys)])
    with_keys = NetworkAgent(engine.pub, engine.commands, keys=load_client_keys(keys))
    without = NetworkAgent(engine.pub, engine.commands, stale_after_s=1.0)
    try:
        with_keys.start()
        without.start()
        live = with_keys.wait_for("state", 20.0, lambda e: e.data["state"] == "live")
        assert live.data["state"] == "live"
        assert without.state != "live"
        with pytest.raises(TimeoutError):
            without.wait_for("state", 3.0, lambda e: e.data["state"] == "live")
    finally:
        with_keys.stop()
        without.stop()
        engine.stop()


def test_the_agent_shows_the_whole_game_built_from_the_changes_published(engine: EngineProcess) -> None:
    """game.state carries only new history entries; the agent's snapshot events hold the whole history."""
    agent = agent_for(engine)
    try:
        agent.wait_for("state", 20.0, lambda e: e.data["state"] == "live")
        roll = {"kind": "roll", "values": [5, 3], "virtual": False}
        assert reply_to(agent, agent.request("action", action=roll))["ok"] is True
        first = agent.wait_for("snapshot", 10.0, lambda e: history_len(e) == 1)
        option = first.data["snapshot"]["prompt"]["options"][-1]["id"]
        assert reply_to(agent, agent.request("action", action={"kind": "choose", "option": option}))["ok"] is True
        shown = agent.wait_for("snapshot", 10.0, lambda e: history_len(e) == 2)
        assert [h["n"] for h in shown.data["snapshot"]["history"]] == [1, 2]
        assert shown.data["snapshot"]["history"][0]["text"] == "roll 5 3"
    finally:
        agent.stop()


def test_a_request_the_engine_never_answers_fails_in_the_tables_language() -> None:
    from engine import i18n
    from tests.engine.english_words import english_lines

    ctx = zmq.Context.instance()
    silent = ctx.socket(zmq.ROUTER)  # an engine that takes commands and never answers
    silent.setsockopt(zmq.LINGER, 0)
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    silent.bind(endpoint)
    agent = NetworkAgent(f"tcp://127.0.0.1:{free_port()}", endpoint, request_timeout_s=0.3)
    try:
        i18n.set_language("ja")
        agent.start()
        error = str(reply_to(agent, agent.request("snapshot"), WAIT_S)["error"])
        assert "秒待ってもエンジンが答えません" in error or "エンジンとの接続がリセットされました" in error, error
        assert not english_lines(error), error
    finally:
        agent.stop()
        silent.close(linger=0)
        i18n.set_language("en")


def test_every_event_wakes_the_ui_from_the_agents_thread_and_a_failing_wake_up_leaves_the_link_up(
        engine: EngineProcess) -> None:
    """The app's pump is woken by ``on_event`` the moment an event is queued (not at its clock's next tick); a
    wake-up that raises is logged and the link goes on."""
    woken_on: list[str] = []

    def wake() -> None:
        woken_on.append(threading.current_thread().name)
        if len(woken_on) == 1:
            raise RuntimeError("a wake-up that fails")

    agent = NetworkAgent(engine.pub, engine.commands)
    agent.on_event = wake
    agent.start()
    try:
        seen = [agent.wait_for("state", 20.0, lambda e: e.data["state"] == "live")]
        rid = agent.request("snapshot")
        seen.append(agent.wait_for("reply", 10.0, lambda e: e.data["reply"].get("id") == rid))
        assert seen[-1].data["reply"]["ok"] is True  # the link outlived the failing wake-up
    finally:
        agent.stop()  # its thread joined: every event it queued has had its wake-up
    assert len(woken_on) == len(seen) + len(agent._held) + agent._events.qsize()  # one per event queued
    assert set(woken_on) == {"hexa-network-agent"}
