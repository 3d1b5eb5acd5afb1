"""Roles at the table, through a real engine with CURVE keys whose GM is ``gm-tablet``: what the table leaves to
the game master (taking back, placing figures, starting and loading games, the language) is refused to a player's
tablet with the role and the fix in the table's language, the GM does it, and every tablet is told which commands
are the GM's. Without a GM the table decides, as the wire protocol's examples show."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import zmq

from engine.service.client import EngineClient
from engine.service.roles import RULES
from engine.wire import ENGINE_COMMANDS
from tests.app.gm_examples import verdict_actions
from tests.service.gm_table import GM_TABLET, engine_on, keyed_table
from tests.waiting import WAIT_S

GMS = {"undo", "override", "new_game", "load", "language", "gm"}


@pytest.fixture
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield ctx
    ctx.term()


def history(tablet: EngineClient) -> int:
    return len(tablet.request("snapshot", WAIT_S).fields["game"]["history"])


def refused(tablet: EngineClient, cmd: str, **fields: object) -> str:
    reply = tablet.request(cmd, WAIT_S, **fields)
    assert not reply.ok, f"{cmd} from a player's tablet was accepted"
    return str(reply.error)


def test_every_command_has_its_role() -> None:
    assert set(RULES) == set(ENGINE_COMMANDS)


@contextmanager
def at_the_verdict(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[tuple[EngineClient,
                                                                                               EngineClient]]:
    """The keyed table (GM ``gm-tablet``) after the players played up to the GM's verdict and the GM gave it."""
    with keyed_table(context, tmp_path) as (_, master, player):
        for action in verdict_actions():
            assert player.request("action", WAIT_S, action=action).ok
        assert master.request("action", WAIT_S, action={"kind": "choose", "option": "miss"}).ok  # the GM's verdict
        yield master, player


def test_with_a_gm_named_a_player_cannot_undo_the_gms_verdict(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    with at_the_verdict(context, tmp_path) as (master, player):
        played = history(player)
        said = refused(player, "undo")
        assert said.startswith("only the GM may take actions back here: this tablet is not the GM. Fix: ask the GM")
        assert f"{GM_TABLET!r}" in said and "enter the GM code the engine printed" in said
        assert history(player) == played

        scenario = player.request("snapshot", WAIT_S).fields["scenario"]
        assert set(scenario["gm_only"]) == GMS
        assert said.startswith(scenario["gm_only"]["undo"])  # the tablets grey the control with its reason

        assert master.request("language", WAIT_S, lang="ja").ok  # the GM's: the refusals read in Japanese now
        said_ja = refused(player, "undo")
        assert "行動を取り消すのはGMだけです" in said_ja and f"{GM_TABLET!r}" in said_ja
        assert "テーブルの言語を変えるのはGMだけです" in refused(player, "language", lang="en")
        assert master.request("language", WAIT_S, lang="en").ok

        undone = master.request("undo", WAIT_S)
        assert undone.ok and undone.fields["undone"] == "choose miss" and history(player) == played - 1


def test_with_a_gm_named_a_player_cannot_place_figures_by_override(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    with at_the_verdict(context, tmp_path) as (master, player):
        assert "place figures outside the rules" in refused(player, "override", figure="orc", to="I5")
        assert refused(player, "gm", op="place", figure="orc", to="I5").startswith("only the GM may use the game")
        assert player.request("snapshot", WAIT_S).fields["game"]["state"]["figures"]["orc"]["hex"] != [8, 0]
        assert master.request("override", WAIT_S, figure="orc", to="I5").fields["to"] == [8, 0]


def test_with_a_gm_named_a_player_cannot_start_or_load_a_game(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    with at_the_verdict(context, tmp_path) as (master, player):
        assert "start a new game" in refused(player, "new_game", scenario="tutorial")
        assert player.request("snapshot", WAIT_S).fields["game_id"] == 1
        assert master.request("new_game", WAIT_S, scenario="tutorial").fields["game_id"] == 2
        assert "load another game" in refused(player, "load", game_id=1)
        assert player.request("snapshot", WAIT_S).fields["game_id"] == 2
        assert master.request("load", WAIT_S, game_id=1).ok


def test_without_a_gm_the_table_decides_and_only_the_gm_tools_need_the_code(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    engine = engine_on(context, tmp_path, scenario="tutorial", gm_code="code")
    try:
        tablet = engine.tablet()
        assert set((tablet.scenario or {})["gm_only"]) == {"gm"}
        assert tablet.request("action", WAIT_S, action={"kind": "roll", "values": [2, 5]}).ok
        assert tablet.request("undo", WAIT_S).ok
        assert tablet.request("override", WAIT_S, figure="goblin-2", to="F4").ok
        assert tablet.request("new_game", WAIT_S, scenario="tutorial").ok
    finally:
        engine.stop()
