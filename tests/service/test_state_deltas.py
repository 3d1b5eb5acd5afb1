"""game.state carries what changed, not the history; tablets rebuild the whole game and resync on a gap."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from engine import wire
from engine.actions import action_to_dict
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.prompts import PromptKind
from engine.scenario import load_scenario
from engine.service.client import EngineClient
from engine.snapshot import game_snapshot
from engine.wire import GameStateMessage
from tests.service.conftest import Rig, close_rig, make_rig
from tests.waiting import WAIT_S

LONG_GAME = 180
UPDATE_LIMIT_BYTES = 16 * 1024  # state, prompt and threatened hexes of a small map, and a few new entries


def plain(value: object) -> object:
    return json.loads(json.dumps(value))


def history_length(message: GameStateMessage) -> int:
    return message.history_from + len(message.history) - 1


@pytest.fixture
def treasure(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[Rig]:
    rig = make_rig(context, str(tmp_path / "journal.sqlite"), cameras=0, scenario="goblins-treasure")
    yield rig
    close_rig(rig)


def listen(context: zmq.Context[zmq.Socket[bytes]], rig: Rig) -> zmq.Socket[bytes]:
    """A raw subscriber to game.state, known to be connected (it heard a heartbeat)."""
    sub = context.socket(zmq.SUB)
    sub.setsockopt(zmq.LINGER, 0)
    sub.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_GAME_STATE)
    sub.setsockopt(zmq.SUBSCRIBE, wire.TOPIC_ENGINE_HEARTBEAT)
    sub.connect(rig.server.pub_endpoint)
    assert sub.poll(int(WAIT_S * 1000) * 2, zmq.POLLIN), "no heartbeat within two periods"
    return sub


def test_a_long_game_publishes_small_updates_and_the_tablet_holds_the_whole_game(
        context: zmq.Context[zmq.Socket[bytes]], treasure: Rig) -> None:
    sub = listen(context, treasure)
    try:
        mirror = Game(load_scenario("goblins-treasure"))
        player = AutoPlayer(seed=7)
        undone = False
        while len(mirror.history) < LONG_GAME and mirror.prompt.kind is not PromptKind.GAME_OVER:
            action = player.choose(mirror)
            mirror.apply(action)
            treasure.act("action", action=action_to_dict(action))
            if len(mirror.history) == LONG_GAME // 2 and not undone:  # on the way, the tablets drop an entry
                treasure.act("undo")
                mirror.undo()
                undone = True
        assert len(mirror.history) >= LONG_GAME * 0.8, "the game ended too early to be a long one"
        treasure.tablet.wait_for(wire.TOPIC_GAME_STATE, WAIT_S, lambda m: history_length(m) == len(mirror.history))
        assert treasure.tablet.resyncs == 0  # every update was applied to the one before
        assert treasure.tablet.game == plain(game_snapshot(mirror))
        sizes = []
        while sub.poll(0, zmq.POLLIN):
            topic, payload = sub.recv_multipart()
            if topic == wire.TOPIC_GAME_STATE:
                sizes.append(len(payload))
        whole = len(json.dumps(game_snapshot(mirror), separators=(",", ":")))
        assert len(sizes) > LONG_GAME * 0.8
        assert max(sizes) < UPDATE_LIMIT_BYTES < whole, (max(sizes), whole)
    finally:
        sub.close(linger=0)


def test_a_tablet_that_missed_an_undo_and_a_new_action_takes_a_snapshot(rig: Rig) -> None:
    """Numbering the entries is not enough: after a missed undo and redo the entry numbers still follow on."""
    late = rig.client()
    try:
        late.sync()
        mirror = Game(load_scenario("tutorial"))
        for action in ({"kind": "roll", "values": [2, 5]}, {"kind": "choose", "option": "done"}):
            rig.act("action", action=action)
        late.wait_for(wire.TOPIC_GAME_STATE, WAIT_S, lambda m: history_length(m) == 2)
        rig.act("undo")
        rig.act("action", action={"kind": "choose", "option": "goblin-slinger>bowman"})
        missed = 0
        while missed < 2:  # the undo's and the new choice's updates never reach this tablet
            assert late.sub.poll(int(WAIT_S * 1000), zmq.POLLIN), "the engine published no game.state"
            frames = late.sub.recv_multipart()
            if frames[0] == wire.TOPIC_GAME_STATE:
                missed += 1
        rig.act("action", action={"kind": "roll", "values": [4, 2]})
        late.wait_for(wire.TOPIC_GAME_STATE, WAIT_S, lambda m: history_length(m) == 3)
        for action in ({"kind": "roll", "values": [2, 5]}, {"kind": "choose", "option": "goblin-slinger>bowman"},
                       {"kind": "roll", "values": [4, 2]}):
            mirror.apply(wire_action(action))
        assert late.resyncs == 1
        assert late.game == plain(game_snapshot(mirror))
        assert [h["action"].get("option") for h in late.game["history"]] == [None, "goblin-slinger>bowman", None]
    finally:
        late.close()


def wire_action(raw: dict[str, object]) -> object:
    from engine.actions import action_from_dict

    return action_from_dict(raw)


def test_the_snapshot_reply_carries_the_whole_game_and_its_revision(rig: Rig) -> None:
    rig.act("action", action={"kind": "roll", "values": [2, 5]})
    state = rig.tablet.wait_for(wire.TOPIC_GAME_STATE, WAIT_S, lambda m: m.revision > 1)
    assert isinstance(state, GameStateMessage) and state.history_from == 1 and len(state.history) == 1
    reply = rig.tablet.request("snapshot")
    assert reply.fields["revision"] == state.revision
    assert len(reply.fields["game"]["history"]) == 1


def test_a_new_game_never_publishes_the_history_of_the_loaded_one(context: zmq.Context[zmq.Socket[bytes]],
                                                                 rig: Rig) -> None:
    sub = listen(context, rig)
    try:
        rig.act("action", action={"kind": "roll", "values": [2, 5]})
        rig.tablet.wait_for(wire.TOPIC_GAME_STATE, WAIT_S)
        new_id = rig.act("new_game", scenario="tutorial")["game_id"]
        fresh = rig.tablet.wait_for(wire.TOPIC_GAME_STATE, WAIT_S, lambda m: m.game_id == new_id)
        assert isinstance(fresh, GameStateMessage) and fresh.history_from == 1 and fresh.history == ()
        rig.act("load", game_id=1)
        while True:
            assert sub.poll(int(WAIT_S * 1000), zmq.POLLIN), "the loaded game was not published"
            message = wire.decode(sub.recv_multipart())
            if isinstance(message, GameStateMessage) and message.game_id == 1 and message.revision > fresh.revision:
                break
        assert message.history_from == 2 and message.history == ()
        # the tablet held game 2: it cannot build game 1 on it, so it took a snapshot
        whole = rig.tablet.wait_for(wire.TOPIC_GAME_STATE, WAIT_S, lambda m: m.game_id == 1)
        assert isinstance(whole, GameStateMessage) and len(whole.history) == 1
        client: EngineClient = rig.tablet
        assert client.resyncs == 1 and client.game is not None and len(client.game["history"]) == 1
    finally:
        sub.close(linger=0)
