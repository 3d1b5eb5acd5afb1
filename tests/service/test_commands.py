"""Commands on the engine's request socket: every one answered, with a clear error when refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zmq

from engine import wire
from engine.record import parse_record
from engine.scenario import bundled_scenarios
from engine.service.session import CommandError, EngineSession, open_session
from engine.wire import GameEventsMessage, GameScenarioMessage, GameStateMessage
from tests.engine.zone_rules import KEYPAD
from tests.service.conftest import START, Rig, goblin_to_move
from tests.waiting import WAIT_S


def test_snapshot_carries_scenario_game_table_and_the_last_published_seq(rig: Rig) -> None:
    reply = rig.tablet.request("snapshot")
    assert reply.ok and reply.error is None
    fields = reply.fields
    assert fields["scenario"]["id"] == "tutorial" and len(fields["scenario"]["figures"]) == 6
    assert fields["game"]["prompt"]["kind"] == "roll"
    assert set(fields["table"]) >= {"cameras", "lifted", "desync", "illegal", "registration"}
    assert fields["last_seq"] == reply.seq and reply.seq >= rig.tablet.last_seq


def test_actions_are_published_as_events_then_state_with_growing_seq(rig: Rig) -> None:
    before = rig.tablet.last_seq
    fields = rig.act("action", action={"kind": "roll", "values": [2, 5]})
    assert fields["n"] == 1 and fields["action"] == "roll 2 5"
    events = rig.tablet.wait_for(b"game.events", WAIT_S)
    state = rig.tablet.wait_for(b"game.state", WAIT_S)
    assert isinstance(events, GameEventsMessage) and events.n == 1 and events.source == "tablet"
    assert isinstance(state, GameStateMessage) and [h["n"] for h in state.history] == [1]
    assert rig.tablet.game is not None and len(rig.tablet.game["history"]) == 1
    assert before < events.seq < state.seq


def test_refused_actions_name_the_problem_and_change_nothing(rig: Rig) -> None:
    reply = rig.tablet.request("action", action={"kind": "move", "figure": "goblin-1", "to": [5, -1]})
    assert not reply.ok and "answer with the die results" in (reply.error or "")
    reply = rig.tablet.request("action", action={"kind": "fly"})
    assert not reply.ok and "unknown action kind 'fly'" in (reply.error or "")
    reply = rig.tablet.request("action", action={"kind": "roll", "values": [9, 1]})
    assert not reply.ok and "9 is not a result of a 6-sided die" in (reply.error or "")
    assert rig.game()["history"] == []


def test_undo_takes_back_the_last_action_and_refuses_when_there_is_none(rig: Rig) -> None:
    reply = rig.tablet.request("undo")
    assert not reply.ok and "nothing to undo" in (reply.error or "")
    rig.act("action", action={"kind": "roll", "values": [2, 5]})
    assert rig.act("undo")["undone"] == "roll 2 5"
    assert rig.game()["history"] == []
    rows = rig.journal_rows()
    assert [r.undone for r in rows] == [True]


def test_override_accepts_the_tables_position_and_is_journaled(rig: Rig) -> None:
    goblin_to_move(rig)
    fields = rig.act("override", figure="goblin-1", to="C2")
    assert fields["to"] == [2, 0]
    game = rig.game()
    assert game["state"]["figures"]["goblin-1"]["hex"] == [2, 0]
    assert game["history"][-1]["text"] == "move goblin-1 C2"  # the move ends where the figure stands
    from engine.journal import Journal
    from engine.service.overrides import OverrideLog, resume

    with Journal(rig.session.journal.path, read_only=True) as journal:  # beside the engine writing it
        log = OverrideLog(journal)
        try:
            resumed = resume(journal, log, rig.session.game_id)
        finally:
            log.close()
        assert resumed.game.state.figures["goblin-1"].hex is not None
        assert [resumed.game.state.figures["goblin-1"].hex.q, resumed.game.state.figures["goblin-1"].hex.r] == [2, 0]
    reply = rig.tablet.request("override", figure="dragon", to="C2")
    assert not reply.ok and "no figure 'dragon'" in (reply.error or "")
    reply = rig.tablet.request("override", figure="goblin-2", to="Z99")
    assert not reply.ok and "not on the map" in (reply.error or "")


def test_a_move_and_an_override_name_the_hex_as_a_label_or_q_r(rig: Rig) -> None:
    goblin_to_move(rig)
    fields = rig.act("action", action={"kind": "move", "figure": "goblin-1", "to": "F2"})
    assert fields["action"] == "move goblin-1 F2" and fields["events"][0]["data"]["to"] == [5, -1]
    rig.act("undo")
    assert rig.act("action", action={"kind": "move", "figure": "goblin-1", "to": [5, -1]})["action"] == \
        "move goblin-1 F2"
    assert rig.act("override", figure="goblin-2", to=[2, 0])["to"] == [2, 0]
    assert rig.act("override", figure="goblin-2", to="C3")["to"] == [2, 1]
    refused = [
        ({"action": {"kind": "move", "figure": "goblin-1", "to": "F0"}}, "'F0': rows are numbered from 1"),
        ({"action": {"kind": "move", "figure": "goblin-1"}}, "action field 'to' is missing (a move action needs it)"),
        ({"figure": "goblin-2", "to": None}, "override.to: expected a hex label such as 'F2' or [q, r], got None"),
        ({"figure": "goblin-2", "to": [1]}, "override.to: expected a hex label such as 'F2' or [q, r], got [1]"),
    ]
    for fields_, error in refused:
        reply = rig.tablet.request("action" if "action" in fields_ else "override", **fields_)
        assert not reply.ok and reply.error == error, reply.error


def test_new_game_load_and_save(rig: Rig, tmp_path: Path) -> None:
    first = rig.session.game_id
    rig.act("action", action={"kind": "roll", "values": [2, 5]})
    new = rig.act("new_game", scenario="goblins-treasure")
    scenario = rig.tablet.wait_for(b"game.scenario", WAIT_S)
    assert isinstance(scenario, GameScenarioMessage) and scenario.scenario["id"] == "goblins-treasure"
    assert new["game_id"] != first and rig.game()["history"] == []
    reply = rig.tablet.request("new_game", scenario="no-such-scenario")
    assert not reply.ok and "no scenario named 'no-such-scenario'" in (reply.error or "")
    assert "tutorial" in (reply.error or "")
    rig.act("load", game_id=first)
    assert len(rig.game()["history"]) == 1
    reply = rig.tablet.request("load", game_id=99)
    assert not reply.ok and "there is no game 99" in (reply.error or "")
    saved = rig.act("save", path="first.txt")
    assert saved["path"] == "first.txt"
    record = parse_record((tmp_path / "first.txt").read_text(), "saved")
    assert record.scenario_ref == "tutorial" and len(record.lines) == 1
    reply = rig.tablet.request("save", path="../../escape.txt")
    assert not reply.ok and "not a plain file name" in (reply.error or "")


def test_queries_answer_reachable_targets_and_threatened(rig: Rig) -> None:
    goblin_to_move(rig)
    reach = rig.act("query", what="reachable", figure="goblin-1")
    assert {m["label"] for m in reach["moves"]} == {"E1", "E2", "E3", "F1", "F2", "F3", "G1", "G2"}
    targets = rig.act("query", what="targets", figure="bowman")
    assert {t["target"] for t in targets["targets"]} >= {"goblin-slinger"}
    threatened = rig.act("query", what="threatened", side="goblins")
    assert isinstance(threatened["hexes"], list)
    reply = rig.tablet.request("query", what="reachable", figure="nobody")
    assert not reply.ok and "no figure 'nobody'" in (reply.error or "")
    reply = rig.tablet.request("query", what="sight")
    assert not reply.ok and "query.what: must be one of reachable, targets, threatened" in (reply.error or "")


def test_bad_requests_get_an_error_reply_naming_the_problem(rig: Rig) -> None:
    cases = [
        ([b"{not json"], "not valid JSON"),
        ([b'{"cmd": "dance"}'], "unknown command 'dance'"),
        ([b"[1, 2]"], "expected a JSON object"),
        ([b"\xff\xfe"], "not UTF-8"),
        ([b'{"cmd": "load"}'], "load.game_id: missing"),
        ([b'{"cmd": "snapshot", "version": 7}'], "protocol 7 is not supported"),
        ([json.dumps({"cmd": "snapshot", "pad": "x" * (wire.MAX_REQUEST_BYTES + 10)}).encode()], "exceeds the limit"),
        ([b"a", b"b"], "expected one frame"),
    ]
    for frames, expected in cases:
        rig.tablet.send_raw(frames)
        reply = rig.tablet.wait_reply(None, WAIT_S)
        assert not reply.ok and expected in (reply.error or ""), (frames[0][:40], reply.error)
    assert rig.act("snapshot")["game_id"] == rig.session.game_id


def test_a_req_client_is_answered_too(rig: Rig) -> None:
    req = rig.context.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    try:
        req.connect(rig.server.commands_endpoint)
        req.send(wire.encode_request("snapshot"))
        assert req.poll(int(WAIT_S * 1000), zmq.POLLIN)
        reply = wire.parse_reply(req.recv())
        assert reply.ok and reply.fields["game"]["prompt"]["kind"] == "roll"
    finally:
        req.close(linger=0)


def test_a_tablet_joining_late_gets_the_snapshot_then_only_newer_updates(rig: Rig) -> None:
    rig.act("action", action={"kind": "roll", "values": [2, 5]})
    late = rig.client()
    try:
        assert late.game is not None and len(late.game["history"]) == 1
        snapshot_revision = late.revision
        assert snapshot_revision is not None
        rig.act("action", action={"kind": "choose", "option": "done"})
        state = late.wait_for(b"game.state", WAIT_S, lambda m: m.revision > snapshot_revision)
        assert isinstance(state, GameStateMessage) and state.history_from == 2 and len(state.history) == 1
        assert len(late.game["history"]) == 2 and late.game["history"][0]["action"]["kind"] == "roll"
        assert state.seq > int(late.last_seq) - 1
    finally:
        late.close()
    rig.show(START, lambda m: m.TOPIC == b"table.view")


def test_assign_marker_ties_a_tag_to_a_figure_and_refuses_anchors(rig: Rig) -> None:
    fields = rig.act("assign_marker", marker=42, figure="goblin-1")
    assert (fields["figure"], fields["marker"], fields["former_marker"]) == ("goblin-1", 42, 10)
    reply = rig.tablet.request("assign_marker", marker=90, figure="goblin-2")
    assert not reply.ok and "board anchor" in (reply.error or "")
    reply = rig.tablet.request("assign_marker", marker="x", figure="goblin-2")
    assert not reply.ok and "assign_marker.marker: expected an integer" in (reply.error or "")


def test_scenarios_lists_what_new_game_can_start_on_this_engine(rig: Rig) -> None:
    listed = rig.act("scenarios")["scenarios"]
    assert [s["name"] for s in listed] == sorted(bundled_scenarios())  # each bundled scenario, by name
    tutorial = listed[-1]
    assert tutorial["title"] == "Tutorial Skirmish" and tutorial["ruleset"] == "fantasy-battle"
    assert tutorial["ruleset_title"] == "Hexa-System Fantasy Battle" and tutorial["description"]


def _session_on(folder: Path, files: dict[str, str]) -> EngineSession:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return open_session(str(folder / "journal.sqlite"), str(folder / next(iter(files))))


def _ask(session: EngineSession, **request: object) -> dict[str, object]:
    reply, _changes = session.handle(wire.parse_request(json.dumps(request)))
    return reply


def test_scenarios_names_the_engines_folder_and_what_is_wrong_in_a_file(tmp_path: Path) -> None:
    session = _session_on(tmp_path, {"keypad.toml": KEYPAD, "broken.toml": KEYPAD.replace("[map]", "[mapp]")})
    try:
        listed = {s["name"]: s for s in _ask(session, cmd="scenarios")["scenarios"]}  # type: ignore[union-attr]
        assert set(listed) == {"keypad", "broken", *bundled_scenarios()}
        assert listed["keypad"]["title"] == "Keypad steps" and listed["keypad"]["ruleset"] == "zone-steps"
        assert "error" not in listed["keypad"]
        assert "broken.toml" in listed["broken"]["error"] and "title" not in listed["broken"]
        # What it lists is what new_game starts.
        assert _ask(session, cmd="new_game", scenario="keypad")["game_id"]
    finally:
        session.close()


def test_query_takes_the_rule_sets_own_kinds_and_refuses_others(tmp_path: Path) -> None:
    session = _session_on(tmp_path, {"keypad.toml": KEYPAD})
    try:
        reply = _ask(session, cmd="query", what="steps", figure="ash")
        overlay = reply["overlay"]
        assert reply["what"] == "steps" and reply["figure"] == "ash" and "moves" not in reply
        assert overlay["texts"] == ["2 zones to step to"]  # type: ignore[index]
        assert {c["style"] for c in overlay["cells"]} == {"outline"}  # type: ignore[index]
        scenario = session.scenario_dict()
        assert [q["name"] for q in scenario["queries"]] == ["steps"] and scenario["points"] == {}
        assert [g["term"] for g in scenario["glossary"]] == ["zone step", "goal"]
        with pytest.raises(CommandError, match=r"query.what: must be one of steps \(the queries of Zone steps"):
            _ask(session, cmd="query", what="reachable", figure="ash")
        with pytest.raises(CommandError, match=r"query\.figure: missing: 'steps' is asked about a figure"):
            _ask(session, cmd="query", what="steps", side="allies")
    finally:
        session.close()


def test_a_move_on_a_zone_board_names_its_zone_by_label(tmp_path: Path) -> None:
    session = _session_on(tmp_path, {"keypad.toml": KEYPAD})
    try:
        reply = _ask(session, cmd="action", action={"kind": "move", "figure": "ash", "to": "4"})
        assert reply["action"] == "move ash 4"
        assert session.game.state.figures["ash"].hex == session.scenario.board.from_label("4")
        history = session.snapshot_dict()["history"]
        assert [h["text"] for h in history] == ["move ash 4"]  # type: ignore[index]
        with pytest.raises(CommandError, match=r"'F2' is not a zone of the board; zones: 7, 8, 9, 4, 5, 6, 1, 2, 3"):
            _ask(session, cmd="action", action={"kind": "move", "figure": "bo", "to": "F2"})
        assert _ask(session, cmd="undo")["undone"] == "move ash 4"
    finally:
        session.close()
