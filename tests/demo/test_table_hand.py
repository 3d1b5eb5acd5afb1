"""The table hand proxy between a tablet and a real engine: forwards commands, turns moves into hand moves."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import zmq

from companion_app.demo.table_hand import TableHandProxy
from engine.actions import Move, action_from_dict, action_to_dict
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.prompts import PromptKind
from engine.scenario import Scenario, load_scenario
from engine.service.client import EngineClient
from engine.service.server import EngineServer, ServerConfig
from tests.service.conftest import serve_engine
from vision.synthetic.control import ControlledTable, ControlServer
from vision.synthetic.scenario_scene import scenario_table

ANY_PORT = "tcp://127.0.0.1:*"


@dataclass
class Rig:
    scenario: Scenario
    server: EngineServer
    table: ControlledTable
    proxy: TableHandProxy
    tablet: EngineClient
    direct: EngineClient

    def history(self) -> list[dict[str, object]]:
        reply = self.tablet.request("snapshot")
        return list(reply.fields["game"]["history"])

    def play_until(self, kind: PromptKind) -> Game:
        """Answer prompts through the proxy (like a tablet) until the engine asks for ``kind``."""
        player = AutoPlayer(3)
        for _ in range(200):
            game = Game.replay(self.scenario, [action_from_dict(h["action"]) for h in self.history()])  # type: ignore[index]
            if game.prompt.kind is kind:
                return game
            action = player.choose(game)
            # moves go straight to the engine here: there is no camera in this rig to judge them
            via = self.direct if isinstance(action, Move) else self.tablet
            reply = via.request("action", action=action_to_dict(action))
            assert reply.ok, reply.error
        raise AssertionError(f"no {kind} prompt within 200 answers")


@pytest.fixture()
def rig() -> Iterator[Rig]:
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    scenario = load_scenario("tutorial")
    _, server, thread = serve_engine(context, ":memory:", "tutorial", ServerConfig(pub=ANY_PORT, commands=ANY_PORT))
    drawing, _ = scenario_table(scenario)
    table = ControlledTable(drawing.figures, drawing.size_mm)
    control = ControlServer(ANY_PORT, table, context)
    proxy = TableHandProxy(ANY_PORT, server.commands_endpoint, server.pub_endpoint, control.endpoint, scenario, context)
    tablet = EngineClient(server.pub_endpoint, proxy.endpoint, context)
    direct = EngineClient(server.pub_endpoint, server.commands_endpoint, context)
    try:
        yield Rig(scenario, server, table, proxy, tablet, direct)
    finally:
        tablet.close()
        direct.close()
        proxy.close()
        control.close()
        server.stop()
        thread.join(5)
        context.term()


def test_commands_pass_through_unchanged(rig: Rig) -> None:
    reply = rig.tablet.sync()
    assert reply.ok and reply.engine_run == rig.server.engine_run
    refused = rig.tablet.request("query", what="reachable", figure="nobody")
    assert not refused.ok and "there is no figure 'nobody'" in (refused.error or "")
    game = rig.play_until(PromptKind.MOVE)
    assert len(game.history) > 0 and rig.proxy.forwarded > len(game.history)
    assert rig.proxy.placed == []


def test_a_move_becomes_a_hand_on_the_table_and_waits_for_the_camera(rig: Rig) -> None:
    game = rig.play_until(PromptKind.MOVE)
    prompt = game.prompt
    assert prompt.figure is not None
    here = game.state.figures[prompt.figure].hex
    to = next(h for h in prompt.moves if h != here)
    played = len(game.history)
    reply = rig.tablet.request("action", action=action_to_dict(Move(prompt.figure, to)))
    assert reply.ok and reply.fields["pending"] == "camera" and reply.engine_run == rig.server.engine_run
    marker = rig.scenario.figure(prompt.figure).marker_id
    placed = next(m for m in rig.table.markers() if m["marker"] == marker)
    assert (placed["x_mm"], placed["y_mm"]) == pytest.approx(rig.scenario.layout.hex_to_mm(to), abs=0.01)
    assert placed["state"] == "moving"
    assert len(rig.history()) == played  # the engine waits for the camera, as with a real figure


def test_staying_put_is_sent_to_the_engine(rig: Rig) -> None:
    game = rig.play_until(PromptKind.MOVE)
    figure = game.prompt.figure
    assert figure is not None
    here = game.state.figures[figure].hex
    assert here is not None and here in game.prompt.moves
    reply = rig.tablet.request("action", action=action_to_dict(Move(figure, here)))
    assert reply.ok and "pending" not in reply.fields
    assert rig.history()[-1]["action"] == action_to_dict(Move(figure, here))
    assert rig.proxy.placed == []


def test_a_move_the_table_cannot_make_is_refused_with_the_reason(rig: Rig) -> None:
    game = rig.play_until(PromptKind.MOVE)
    figure = game.prompt.figure
    rig.table.size_mm = (10.0, 10.0)  # every hex is now off this (shrunken) table
    to = next(h for h in game.prompt.moves if h != game.state.figures[figure or ""].hex)
    reply = rig.tablet.request("action", action=action_to_dict(Move(figure or "", to)))
    error = reply.error or ""
    assert not reply.ok and "could not move the figure" in error and "off the table" in error


def test_a_removal_the_engine_accepts_takes_the_marker_off_the_table(rig: Rig) -> None:
    game = rig.play_until(PromptKind.REMOVE)
    figure = game.prompt.figure
    assert figure is not None
    marker = rig.scenario.figure(figure).marker_id
    assert next(m for m in rig.table.markers() if m["marker"] == marker)["state"] == "on_table"
    reply = rig.tablet.request("action", action={"kind": "remove", "figure": figure})
    assert reply.ok, reply.error
    # the hand acts when the engine's reply passes through, before the tablet gets it
    assert next(m for m in rig.table.markers() if m["marker"] == marker)["state"] == "off_table"
