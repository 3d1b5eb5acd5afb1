"""The game master through a real engine service: terrain marks, moving anyone, rulings and the calculators,
refused to other tablets, kept by the journal when the engine starts again, and a GM named by its CURVE key."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq

from engine.board import Terrain
from engine.hexes import Hex
from engine.journal import Journal
from engine.lines import sight_line
from engine.scenario import load_scenario
from engine.service.client import EngineClient
from engine.service.keys import main as keys_main
from engine.service.overrides import OverrideLog
from engine.service.security import KeyFileError
from engine.service.server import EngineServer, ServerConfig
from engine.service.session import EngineSession
from tests.app.engine_process import EngineProcess
from tests.app.gm_examples import verdict_actions
from tests.service.conftest import ANY_PORT
from tests.service.gm_table import SCENARIO, Engine, engine_on, keyed_table
from tests.waiting import WAIT_S

CODE = "test-gm-code"


@pytest.fixture
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield ctx
    ctx.term()


def _engine(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, **config: Any) -> Engine:
    return engine_on(context, tmp_path, **config)


def gm(tablet: EngineClient, op: str, code: str | None = CODE, **fields: Any) -> dict[str, Any]:
    extra = {"gm_code": code} if code is not None else {}
    reply = tablet.request("gm", WAIT_S, op=op, **fields, **extra)
    assert reply.ok, reply.error
    return reply.fields


def seen_by(tablet: EngineClient, cell: str) -> dict[str, str]:
    reply = tablet.request("query", WAIT_S, what="seen_by", cell=cell)
    assert reply.ok, reply.error
    return {line["target"]: line["verdict"] for line in reply.fields["overlay"]["lines"]}


def a_crossed_floor_hex(session: EngineSession, a: Hex, b: Hex) -> Hex:
    board = session.scenario.board
    inner = sorted(sight_line(a, b).crossed_hexes - {a, b})
    return next(h for h in inner if board.terrain(h) is Terrain.FLOOR)  # type: ignore[attr-defined]


def test_the_gm_marks_terrain_moves_anyone_rules_and_calculates_and_the_journal_keeps_it(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    engine = _engine(context, tmp_path, gm_code=CODE)
    try:
        tablet = engine.tablet()
        assert tablet.request("snapshot", WAIT_S).fields["gm"] is False
        assert tablet.request("snapshot", WAIT_S, gm_code=CODE).fields["gm"] is True
        scenario = load_scenario(SCENARIO)
        rose, orc = scenario.figure("rose").start, scenario.figure("orc").start
        label = scenario.label
        assert seen_by(tablet, label(orc))["rose"] == "clear"
        wall = a_crossed_floor_hex(engine.session, rose, orc)

        refused = tablet.request("gm", WAIT_S, op="terrain", cell=label(wall), terrain="blocking")
        assert not refused.ok and "only the game master" in str(refused.error)
        wrong = tablet.request("gm", WAIT_S, op="terrain", cell=label(wall), terrain="blocking", gm_code="guess")
        assert not wrong.ok and "only the game master" in str(wrong.error)

        gm(tablet, "terrain", cell=label(wall), terrain="blocking")
        assert seen_by(tablet, label(orc))["rose"] == "blocked"  # the rules read the mark
        state = tablet.request("snapshot", WAIT_S).fields["game"]["state"]
        assert state["marks"] == [[wall.q, wall.r, "blocking"]]

        gm(tablet, "place", figure="harpy", to="E1")  # any figure, off turn
        gm(tablet, "out", figure="goblin-shaman")  # the GM's word: out of the fight
        prompt = tablet.request("snapshot", WAIT_S).fields["game"]["prompt"]
        assert prompt["kind"] == "remove" and prompt["figure"] == "goblin-shaman"
        assert tablet.request("action", WAIT_S, action={"kind": "remove", "figure": "goblin-shaman"}).ok
        gm(tablet, "ruling", key=f"sight:{label(rose)}:{label(orc)}", value="clear")
        assert seen_by(tablet, label(orc))["rose"] == "clear"  # the GM's verdict beats the geometry
        bad = tablet.request("gm", WAIT_S, op="ruling", key="sight:A1:B2", value="maybe", gm_code=CODE)
        assert not bad.ok and "clear, blocked" in str(bad.error)

        result = gm(tablet, "calculate", calculator="mass_combat", input={
            "pcs": [{"id": "nue", "hp": 40, "armour": 30}], "enemies": [{"id": "orc", "hp": 55, "armour": 4}],
            "pc_attacks": [{"damage": 200}], "enemy_attacks": [{"damage": 100}],
            "enemy_shares": {"orc": 196}})["result"]
        assert (result["to_enemies"], result["to_pcs"]) == (196, 70)
        assert result["enemies"]["out"] == ["orc"]
        assert result["pcs"]["hp"] == {"nue": 0} and result["pcs"]["out"] == ["nue"]  # 70 > 40: exactly 0
        broken = tablet.request("gm", WAIT_S, op="calculate", calculator="mass_combat", gm_code=CODE, input={
            "pcs": [{"id": "nue", "hp": 40}, {"id": "rose", "hp": 30}], "enemies": [{"id": "orc", "hp": 55}],
            "pc_attacks": [{"damage": 10}], "enemy_attacks": [{"damage": 50}], "pc_shares": {"rose": 50}})
        assert not broken.ok and "rose would go to -20 HP" in str(broken.error)
    finally:
        engine.stop()

    again = _engine(context, tmp_path, gm_code=CODE)  # the same journal: the game resumes with the GM's work
    try:
        state = again.session.game.state
        assert state.marks == {wall: "blocking"}
        assert state.figures["harpy"].hex == scenario.board.from_label("E1")
        assert state.rulings == {f"sight:{label(rose)}:{label(orc)}": "clear"}
        assert not state.figures["goblin-shaman"].alive and not state.figures["goblin-shaman"].on_table
        game_id = again.session.game_id
    finally:
        again.stop()
    with Journal(tmp_path / "journal.sqlite") as journal:
        log = OverrideLog(journal)
        kinds = [o.kind for o in log.of_game(game_id)]
        log.close()
    assert kinds == ["terrain", "place", "out", "ruling", "calculation"]  # the refused ones left no trace


def test_a_gm_named_by_its_key_needs_no_code_and_other_keyed_tablets_are_refused(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    with keyed_table(context, tmp_path) as (engine, master, player):
        assert master.request("snapshot", WAIT_S).fields["gm"] is True
        assert gm(master, "place", code=None, figure="orc", to="H5")["to"] == [7, 1]
        refused = player.request("gm", WAIT_S, op="place", figure="orc", to="I5")
        assert not refused.ok and "not the GM" in str(refused.error)
        assert gm(player, "place", code=engine.server.gm.code, figure="orc", to="I5")  # the code still works


def test_with_a_gm_named_the_verdicts_are_the_gms_and_the_players_prompts_anyones(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    with keyed_table(context, tmp_path) as (_, master, player):
        for action in verdict_actions():  # the players' prompts, from the tablet that is not the GM
            reply = player.request("action", WAIT_S, action=action)
            assert reply.ok, reply.error
        prompt = player.sync(WAIT_S).fields["game"]["prompt"]  # as the tablets get it
        assert prompt["decider"] == "gm" and prompt["options"][-1]["id"] == "miss"
        refused = player.request("action", WAIT_S, action={"kind": "choose", "option": "miss"})
        assert not refused.ok and "the game master decides this" in str(refused.error)
        assert "'gm-tablet'" in str(refused.error)
        assert master.request("action", WAIT_S, action={"kind": "choose", "option": "miss"}).ok


def _no_session() -> EngineSession:
    raise AssertionError("the engine must refuse to start before it opens a game")


def test_a_gm_name_without_keys_or_an_unknown_key_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="needs --keys"):
        EngineServer(_no_session, ServerConfig(pub=ANY_PORT, commands=ANY_PORT, gm="gm-tablet"))
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), "--client", "player"]) == 0
    with pytest.raises(KeyFileError, match="player"):
        EngineServer(_no_session, ServerConfig(pub=ANY_PORT, commands=ANY_PORT, keys_dir=keys, gm="nobody"))


def test_any_tablet_previews_a_skill_shape_and_asks_who_sees_a_hex(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> None:
    engine = _engine(context, tmp_path)
    try:
        tablet = engine.tablet()
        queries = {q["name"]: q for q in (tablet.scenario or {})["queries"]}
        assert queries["fan"]["takes"] == ["cell", "size"]
        area = tablet.request("query", WAIT_S, what="area", figure="rose", cell="B3", size=1)
        assert area.ok, area.error
        texts = area.fields["overlay"]["texts"]
        assert texts[0] == "within 1 hexes of B3: 7 hexes"
        assert "Nue at B3 (friend): spared: the user's party" in texts
        fan = tablet.request("query", WAIT_S, what="fan", figure="rose", cell="E5", size=2)
        assert fan.ok and len(fan.fields["overlay"]["cells"]) == 4
        seen = tablet.request("query", WAIT_S, what="seen_by", cell="H5")
        assert seen.ok and seen.fields["cell"] == "H5" and len(seen.fields["overlay"]["lines"]) == 9
    finally:
        engine.stop()


def test_hexa_engine_prints_the_gm_code_a_loopback_tablet_uses() -> None:
    engine = EngineProcess(scenario=SCENARIO)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    client = EngineClient(engine.pub, engine.commands, context)
    try:
        client.sync(WAIT_S)  # answered once the engine runs, after it printed its start lines
        found = re.search(r"whoever enters the GM code (\S+)", engine.log_text())
        assert found, engine.log_text()
        assert "no GM tablet named (--gm): the table decides the prompts the rules leave to the GM" in engine.log_text()
        refused = client.request("gm", WAIT_S, op="out", figure="orc")
        assert not refused.ok
        assert client.request("gm", WAIT_S, op="out", figure="orc", gm_code=found.group(1)).ok
    finally:
        client.close()
        context.term()
        engine.stop()
