"""Whole turns driven by a replayed camera stream through the real engine sockets."""

from __future__ import annotations

from engine.wire import EngineMessage, GameEventsMessage, GameStateMessage, TableMessage, TableViewMessage
from tests.service.conftest import START, Rig, goblin_to_move
from tests.waiting import WAIT_S


def figure_hex(message: EngineMessage, figure: str) -> list[int] | None:
    assert isinstance(message, GameStateMessage)
    hex_: list[int] | None = message.state["figures"][figure]["hex"]
    return hex_


def is_table(predicate: object) -> object:
    return lambda m: isinstance(m, TableMessage) and predicate(m)  # type: ignore[operator]


def test_the_camera_view_is_registered_on_the_map_from_the_anchors(rig: Rig) -> None:
    view = rig.show(START, lambda m: isinstance(m, TableViewMessage) and len(m.figures) >= 6)
    assert isinstance(view, TableViewMessage)
    hexes = {f.figure: f.hex for f in view.figures if f.figure}
    assert hexes["goblin-1"] == [6, -2]  # G2, although the table frame is turned and shifted
    table = rig.show(START, is_table(lambda m: m.registration["mode"] == "anchors" and m.cameras[0].status == "ok"))
    assert isinstance(table, TableMessage)
    assert table.registration["ok"] is True and table.registration["residual_mm"] < 1.0
    assert table.desync == () and table.unknown_markers == ()


def test_a_legal_move_on_the_table_is_played_and_published(rig: Rig) -> None:
    goblin_to_move(rig)
    rig.show(START, is_table(lambda m: m.registration["mode"] == "anchors" and not m.desync))
    rig.show({**START, "goblin-1": "G2"}, is_table(lambda m: [x["figure"] for x in m.lifted] == ["goblin-1"]),
             states={"goblin-1": "lifted"})
    table = rig.tablet.table
    assert table is not None
    (lifted,) = table["lifted"]
    assert {m["label"] for m in lifted["moves"]} == {"E1", "E2", "E3", "F1", "F2", "F3", "G1", "G2"}
    events = rig.show({**START, "goblin-1": "F2"}, lambda m: isinstance(m, GameEventsMessage) and m.source == "camera")
    assert isinstance(events, GameEventsMessage)
    assert events.action == "move goblin-1 F2" and events.events[0]["kind"] == "moved"
    state = rig.tablet.wait_for(b"game.state", WAIT_S)
    assert figure_hex(state, "goblin-1") == [5, -1]
    assert rig.journal_rows()[-1].action.kind == "move"  # journaled as it was played


def test_an_illegal_move_is_flagged_at_once_and_clears_when_put_back(rig: Rig) -> None:
    goblin_to_move(rig)
    rig.show(START, is_table(lambda m: m.registration["mode"] == "anchors" and not m.desync))
    refused = rig.show({**START, "goblin-1": "C2"},
                       lambda m: isinstance(m, GameEventsMessage) and m.events[0]["kind"] == "illegal_move")
    assert isinstance(refused, GameEventsMessage)
    assert "C2" in refused.events[0]["text"] and "Legal hexes" in refused.events[0]["text"]
    table = rig.show({**START, "goblin-1": "C2"}, is_table(lambda m: m.illegal is not None))
    assert isinstance(table, TableMessage) and table.illegal is not None
    assert table.illegal["figure"] == "goblin-1" and "F2" in table.illegal["legal"]
    assert table.illegal["reason"] == "C2 is 4 hexes away by the shortest open way; Goblin may move 2"
    assert [d["figure"] for d in table.desync] == ["goblin-1"] and table.desync[0]["expected"] == [6, -2]
    assert len(rig.game()["history"]) == 4  # nothing applied
    rig.show(START, is_table(lambda m: m.illegal is None and not m.desync))
    assert rig.game()["prompt"]["figure"] == "goblin-1"  # still waiting for the move


def test_an_undo_on_the_tablet_puts_the_table_in_desync_until_the_figure_goes_back(rig: Rig) -> None:
    goblin_to_move(rig)
    rig.show(START, is_table(lambda m: m.registration["mode"] == "anchors"))
    rig.show({**START, "goblin-1": "F2"}, lambda m: isinstance(m, GameEventsMessage) and m.source == "camera")
    rig.act("undo")
    table = rig.show({**START, "goblin-1": "F2"}, is_table(lambda m: bool(m.desync)))
    assert isinstance(table, TableMessage)
    (entry,) = table.desync
    assert entry["figure"] == "goblin-1" and entry["expected"] == [6, -2] and entry["seen"] == [5, -1]
    assert "put Goblin (goblin-1) back on G2" in entry["text"]
    assert len(rig.game()["history"]) == 4  # the standing figure did not redo the move
    rig.show(START, is_table(lambda m: not m.desync))


def test_a_figure_taken_off_the_table_answers_its_removal(rig: Rig) -> None:
    for action in ({"kind": "roll", "values": [2, 5]}, {"kind": "choose", "option": "goblin-slinger>swordsman"},
                   {"kind": "roll", "values": [5]}, {"kind": "roll", "values": [1]}):
        rig.act("action", action=action)
    rig.show(START, is_table(lambda m: m.registration["mode"] == "anchors"))
    gone = {k: v for k, v in START.items() if k != "swordsman"}
    events = rig.show(gone, lambda m: isinstance(m, GameEventsMessage) and m.action == "remove swordsman")
    assert isinstance(events, GameEventsMessage) and events.source == "camera"
    assert rig.game()["state"]["figures"]["swordsman"]["on_table"] is False


def test_unknown_and_duplicate_markers_are_reported_without_stopping_the_service(rig: Rig) -> None:
    from engine.wire import MarkerTrack

    rig.cameras[0].extra = [MarkerTrack(55, 10.0, 10.0, 0.0, "settled", 0.9, 0.0, 0.0),
                            MarkerTrack(10, 900.0, 900.0, 0.0, "settled", 0.5, 0.0, 0.0)]  # a second goblin-1 tag
    table = rig.show(START, is_table(lambda m: m.unknown_markers == (55,) and m.duplicates == (10,)))
    assert isinstance(table, TableMessage)
    assert rig.act("snapshot")["game_id"] == rig.session.game_id
