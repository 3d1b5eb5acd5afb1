"""The game master's and the skill shapes' view models against a real Filtwiz engine session: the tablet builds
the commands from what the scenario declares, the engine answers, the view models show the answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion_app.viewmodels.calc_form import FormError, read_form, refusal_lines, result_lines
from companion_app.viewmodels.gm_model import GmAccess, GmDesk, GmTools
from companion_app.viewmodels.session import GameSession
from engine.errors import EngineError
from engine.hexes import from_label
from engine.service.session import EngineSession, open_session
from engine.wire.commands import parse_request
from tests.app.gm_examples import MASS_COMBAT_FORM, REFUSED_PC_SHARES, verdict_actions

SCENARIO = "filtwiz-river-ambush"


@pytest.fixture()
def engine(tmp_path: Path) -> Iterator[EngineSession]:
    session = open_session(str(tmp_path / "journal.sqlite"), SCENARIO, new=True)
    yield session
    session.close()


def ask(engine: EngineSession, cmd: str, gm: bool = False, **fields: Any) -> dict[str, Any]:
    """One command as the tablet sends it (through the wire's checks), answered by the engine."""
    request = parse_request(json.dumps({"cmd": cmd, "id": "t", **fields}))
    return engine.handle(request, gm=gm)[0]


def tablet(engine: EngineSession) -> GameSession:
    s = GameSession()
    s.set_scenario(engine.scenario_dict())
    s.set_snapshot(engine.snapshot_dict())
    return s


def key(label: str) -> tuple[int, int]:
    h = from_label(label)
    return (h.q, h.r)


def test_the_gm_tools_are_what_the_rule_set_declares(engine: EngineSession) -> None:
    tools = tablet(engine).gm_tools
    assert {t.name for t in tools.terrain} >= {"blocking", "floor", "underwater", "indoor"}
    assert [r.name for r in tools.rulings] == ["sight", "party_hit", "grounded"]
    assert tools.rulings[0].values == ("clear", "blocked")
    assert [c.name for c in tools.calculators] == ["mass_combat", "duel", "difficulty", "cl_adjustment"]
    assert tools.modes == ("terrain", "place", "out", "ruling", "calculate")
    # A rule set that declares nothing offers only moving and taking out.
    assert GmTools.of({"board": {"terrain_kinds": [{"name": "floor"}]}}).modes == ("place", "out")


def test_becoming_gm_by_key_or_by_a_code_the_engine_takes() -> None:
    access = GmAccess()
    assert not access.is_gm and access.fields() == {}
    assert not access.took("wrong", {"ok": True, "gm": False})
    assert "did not take that GM code" in access.refused and not access.is_gm
    assert access.took("right", {"ok": True, "gm": True})
    assert access.is_gm and access.fields() == {"gm_code": "right"}
    assert GmAccess(by_key=True).is_gm and GmAccess(by_key=True).fields() == {}


def test_marking_a_cell_is_drawn_by_its_kind_in_the_board(engine: EngineSession) -> None:
    s = tablet(engine)
    desk = s.gm_desk
    desk.use("terrain")
    c2 = key("C2")
    assert desk.tap(c2, s.board).kind == "note"  # no kind picked yet
    desk.terrain = "blocking"
    step = desk.tap(c2, s.board)
    assert step.kind == "send"
    assert s.board is not None and s.board.tiles[c2].style == "floor"
    ask(engine, "gm", gm=True, **step.fields)
    s.set_snapshot(engine.snapshot_dict())
    assert s.board.marks == ((c2, "blocking"),)
    assert s.board.tiles[c2].terrain == "blocking" and s.board.tiles[c2].style == "solid"
    assert s.board.map_tiles[c2].style == "floor"  # the map itself is kept
    ask(engine, "gm", gm=True, op="terrain", cell=list(c2), terrain="floor")  # its map terrain: the mark goes
    s.set_snapshot(engine.snapshot_dict())
    assert s.board.marks == () and s.board.tiles[c2].style == "floor"


def test_moving_any_figure_and_taking_one_out(engine: EngineSession) -> None:
    s = tablet(engine)
    desk = s.gm_desk
    assert s.board is not None
    orc = s.board.figures["orc"].key
    assert orc is not None
    assert desk.tap(orc, s.board).text == "Orc picked: tap where it goes"
    step = desk.tap(key("H4"), s.board)
    assert step.fields == {"op": "place", "figure": "orc", "to": list(key("H4"))}
    ask(engine, "gm", gm=True, **step.fields)
    s.set_snapshot(engine.snapshot_dict())
    assert s.board.figures["orc"].key == key("H4")
    desk.use("out")
    assert desk.take_out().kind == "note"
    assert "Take Orc out" in desk.tap(key("H4"), s.board).text
    ask(engine, "gm", gm=True, **desk.take_out().fields)
    s.set_snapshot(engine.snapshot_dict())
    assert not s.board.figures["orc"].alive


def test_a_ruling_with_its_subject_from_taps(engine: EngineSession) -> None:
    s = tablet(engine)
    desk = s.gm_desk
    desk.use("ruling")
    assert s.board is not None
    desk.tap(key("B3"), s.board)  # Nue stands there: her id
    assert desk.subject == "nue"
    desk.subject = ""
    desk.tap(key("E4"), s.board)
    desk.tap(key("F6"), s.board)
    assert desk.subject == "E4:F6"
    ask(engine, "gm", gm=True, **GmTools.ruling("sight", desk.subject, "blocked"))
    assert engine.snapshot_dict()["state"]["rulings"] == {"sight:E4:F6": "blocked"}
    with pytest.raises(EngineError, match="takes clear, blocked"):
        ask(engine, "gm", gm=True, **GmTools.ruling("sight", "E4:F6", "maybe"))


def test_the_mass_combat_form_gives_the_originals_example(engine: EngineSession) -> None:
    tools = tablet(engine).gm_tools
    command = tools.calculate("mass_combat", MASS_COMBAT_FORM)
    assert command["input"]["pcs"][0] == {"id": "nue", "hp": 40, "armour": 6}
    assert command["input"]["pc_attacks"][0] == {"damage": 30, "multi_hit": True}
    result = ask(engine, "gm", gm=True, **command)["result"]
    lines = result_lines(result)
    assert "pc damage: 200" in lines and "enemy armour: 4" in lines and "to enemies: 196" in lines
    assert "to pcs: 70" in lines
    shared = tools.calculate("mass_combat", {**MASS_COMBAT_FORM, "pc_shares": REFUSED_PC_SHARES})
    with pytest.raises(EngineError) as refused:
        ask(engine, "gm", gm=True, **shared)
    desk = GmDesk(tools)
    shown = list(desk.calculated({"ok": False, "error": str(refused.value)}))
    assert shown == refusal_lines(str(refused.value))
    assert "to enemies: 196" in desk.calculated({"ok": True, "result": result})
    assert shown[0].startswith("Refused by the rules (Mass combat")
    assert any("rose would go to -10 HP" in line for line in shown[1:])
    assert any("add up to 60, not the 70" in line for line in shown[1:])


def test_a_calculator_form_says_which_field_it_cannot_read(engine: EngineSession) -> None:
    calc = tablet(engine).gm_tools.calculator("mass_combat")
    with pytest.raises(FormError, match="pcs: needed"):
        read_form(calc, {})
    with pytest.raises(FormError, match="pcs line 1: 'hp40' is not name=value"):
        read_form(calc, {**MASS_COMBAT_FORM, "pcs": "id=a hp40"})
    assert "super_combo" not in read_form(calc, {**MASS_COMBAT_FORM, "super_combo": False})
    assert read_form(calc, {**MASS_COMBAT_FORM, "super_combo": True})["super_combo"] is True


def test_a_plain_tap_asks_no_shape_and_a_shape_is_aimed_by_a_tap(engine: EngineSession) -> None:
    s = tablet(engine)
    assert [q.what for q in s.shapes] == ["range", "area", "fan"]
    assert [q.what for q, _ in s.asks_for("nue")] == ["reachable", "targets"]
    assert s.pick_shape("fan") is None  # nobody shown yet
    assert s.tap(key("B3")).kind == "select"
    s.select("nue")
    aim = s.pick_shape("fan")
    assert aim is not None and aim.wants_cell
    s.answer("nue", ask(engine, "query", what="reachable", figure="nue")["overlay"])
    assert s.selection is not None and s.selection.overlays() == []  # the shape alone while in hand
    aim.grow(+2)
    tapped = s.tap(key("D3"))  # aiming, not selecting what stands there
    assert tapped.kind == "aim" and tapped.cell == key("D3")
    assert aim.fields() == {"what": "fan", "figure": "nue", "cell": list(key("D3")), "size": 3}
    reply = ask(engine, "query", **aim.fields())
    s.answer("nue", reply["overlay"])
    assert s.selection is not None
    shown = s.selection.answers["fan"]
    assert len(shown.cells) == 7 and shown.texts[0].startswith("fan of range 3")
    assert any("(friend)" in t for t in shown.texts)
    assert s.selection.overlays() == [shown]
    assert s.pick_shape("fan") is None and "fan" not in s.selection.answers  # the same again: put down
    assert s.shape is None and [o.query for o in s.selection.overlays()] == ["reachable"]


def test_an_area_shows_who_is_inside_friend_or_foe(engine: EngineSession) -> None:
    s = tablet(engine)
    s.select("nue")
    aim = s.pick_shape("area")
    assert aim is not None
    s.tap(s.board.figures["goblin-shaman"].key if s.board else None)
    aim.grow(+1, start=1)
    reply = ask(engine, "query", **aim.fields())
    s.answer("nue", reply["overlay"])
    assert s.selection is not None
    texts = s.selection.answers["area"].texts
    assert texts[0].startswith("within 2 hexes of")
    assert any("(foe)" in t for t in texts)


def test_a_tap_on_an_empty_hex_asks_who_sees_it(engine: EngineSession) -> None:
    s = tablet(engine)
    tapped = s.tap(key("E4"))
    assert tapped.kind == "cell" and tapped.cell == key("E4")
    shown = s.select_cell(key("E4"))
    for q in s.cell_asks:
        s.answer_cell(key("E4"), ask(engine, "query", what=q.what, cell=list(key("E4")))["overlay"])
    assert shown.answers["seen_by"].texts[0].endswith("characters see E4")
    assert {line.verdict for line in shown.sight_lines} <= {"clear", "blocked"} and shown.sight_lines
    s.set_snapshot(engine.snapshot_dict())  # the same game again: the cell stays shown
    assert s.selection is shown


def test_a_new_desk_for_non_gm_tools_refuses_an_unknown_tool(engine: EngineSession) -> None:
    desk = GmDesk(GmTools())
    with pytest.raises(ValueError, match="no tool 'terrain'"):
        desk.use("terrain")


def to_the_verdict(engine: EngineSession) -> None:
    for action in verdict_actions():  # the players' prompts, from a tablet that is not the GM
        assert ask(engine, "action", action=action)["n"] >= 1


def test_a_verdict_is_greyed_with_its_reason_until_the_tablet_is_the_gm(engine: EngineSession) -> None:
    engine.gm_tablet = "gm-tablet"  # hexa engine --gm gm-tablet
    to_the_verdict(engine)
    s = tablet(engine)
    prompt = s.prompt
    assert prompt is not None and prompt.kind == "choose" and prompt.decider == "gm"
    assert prompt.why_not_here.startswith("Only the game master answers this")
    assert prompt.decider_text.startswith("The game master decides")
    with pytest.raises(ValueError, match="Only the game master answers this"):
        prompt.choose("miss")
    assert s.gm.took("the-code", {"ok": True, "gm": True})  # the engine took this tablet's GM code
    s.gm_changed()
    assert s.prompt is prompt and prompt.why_not_here == ""  # the same prompt, open to the GM
    assert prompt.choose("miss") == {"kind": "choose", "option": "miss"}


def test_without_a_gm_the_verdict_is_anyones_and_says_the_table_decides(engine: EngineSession) -> None:
    to_the_verdict(engine)
    prompt = tablet(engine).prompt
    assert prompt is not None and prompt.decider == "table" and prompt.why_not_here == ""
    assert "so the table decides" in prompt.decider_text
    assert prompt.choose("hit") == {"kind": "choose", "option": "hit"}


def test_the_players_prompts_are_never_greyed_for_want_of_a_gm(engine: EngineSession) -> None:
    engine.gm_tablet = "gm-tablet"
    prompt = tablet(engine).prompt
    assert prompt is not None and prompt.kind == "roll" and prompt.decider == "players"
    assert prompt.why_not_here == "" and prompt.virtual_roll()["kind"] == "roll"
