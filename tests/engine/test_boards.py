"""The board seam: a zone board beside the hex map, placed through the table sync, declared by a rule set."""

from __future__ import annotations

import pytest

from engine.actions import Move
from engine.board import Board
from engine.board.hex import HexBoard
from engine.board.zones.board import ZoneBoard, keypad_board
from engine.errors import ScenarioError
from engine.game import Game
from engine.hexes import Hex
from engine.prompts import PromptKind
from engine.scenario import Scenario, load_scenario, load_scenario_text
from engine.snapshot import board_to_dict, scenario_to_dict
from engine.table_fusion import FusedMarker
from engine.table_sync import TableSync
from tests.engine.zone_rules import KEYPAD, goal_zone, hp


def keypad() -> Scenario:
    return load_scenario_text(KEYPAD, "keypad.toml")


def test_both_boards_implement_the_board_interface() -> None:
    assert isinstance(keypad_board(), Board) and isinstance(load_scenario("tutorial").board, Board)


def test_keypad_zones_are_labelled_like_a_keypad_and_touch_side_by_side() -> None:
    b = keypad_board(50.0)
    assert b.ordered_labels() == ["7", "8", "9", "4", "5", "6", "1", "2", "3"]
    five = b.from_label("5")
    assert sorted(b.label(n) for n in b.neighbours(five)) == ["2", "4", "6", "8"]
    assert sorted(b.label(n) for n in b.neighbours(b.from_label("7"))) == ["4", "8"]
    assert b.label(b.locate(125.0, 25.0)) == "9" and b.centre_mm(five) == (75.0, 75.0)
    with pytest.raises(ValueError, match="'0' is not a zone of the board; zones: 7, 8, 9"):
        b.from_label("0")


def test_a_zone_keeps_a_marker_until_it_is_clearly_past_the_border() -> None:
    b = keypad_board(50.0)
    seven, eight = b.from_label("7"), b.from_label("8")
    assert b.locate(55.0, 25.0, previous=seven, margin=0.15) == seven  # 5 mm past: stays
    assert b.locate(60.0, 25.0, previous=seven, margin=0.15) == eight  # 10 mm past (0.2 zone): moves
    assert b.locate(45.0, 25.0, previous=eight, margin=0.15) == eight


def test_the_printed_zone_mat_and_the_zone_board_agree_on_the_anchor_tags() -> None:
    from calibration.printables.zone_mat import zone_mat_geometry

    geo = zone_mat_geometry("a4")
    board = keypad_board(geo.zone_mm)
    mine = board.mat_anchors_mm()
    assert set(mine) == set(geo.anchors)
    for tag, centre in geo.anchors.items():
        assert mine[tag] == pytest.approx(centre)
    for number, centre in geo.zone_centres.items():
        assert board.centre_mm(board.from_label(str(number))) == pytest.approx(centre)


def test_a_zone_scenario_loads_the_rule_sets_fields_victories_and_tables() -> None:
    s = keypad()
    assert isinstance(s.board, ZoneBoard) and s.board.zone_mm == 52.0
    assert s.board.level(s.board.from_label("8")) == 1
    bo, cy = s.figure("bo"), s.figure("cy")
    assert bo.fields == {"hp": 4} and hp(cy) == 3 and bo.start == cy.start  # stacked: the rule set allows it
    assert [(v.type, s.label(goal_zone(v))) for v in s.victory] == [("reach", "8")]
    assert [(s.label(row["zone"]), row["cost"]) for row in s.tables["zone_costs"]] == [("5", 2)]
    assert s.anchors == {94: s.board.from_label("5")}
    assert s.anchor_points_mm() == {94: (78.0, 78.0)}  # the scenario's own anchors replace the mat's corner tags
    no_anchors = load_scenario_text(KEYPAD.replace('anchors = { 94 = "5" }\n', ""))
    assert no_anchors.anchors == {}
    assert no_anchors.anchor_points_mm() == no_anchors.board.mat_anchors_mm()
    assert set(no_anchors.anchor_points_mm()) == {90, 91, 92, 93}


def test_no_victory_given_publishes_none_unless_the_rule_set_has_a_default() -> None:
    text = KEYPAD[: KEYPAD.index("[[victory]]")] + KEYPAD[KEYPAD.index("[[zone_costs]]"):]
    assert keypad().victory and load_scenario_text(text).victory == ()
    assert scenario_to_dict(load_scenario_text(text))["victory"] == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("hp = 4", "hp = 40"), r"keypad.toml, line 37: 'hp' is 40, outside 1 to 10"),
        (("hp = 4", "hpp = 4"), r"line 37: key 'hpp' is not a key of \[\[figures\]\].*did you mean 'hp'"),
        (("hp = 4", "hp = 6"), r"line 37: Bo is too strong for level 0. Fix: start it higher"),
        (('zone = "8"', 'zone = "0"'), r"line 48: '0' is not a zone of the board; zones: 7, 8, 9, 4, 5, 6, 1, 2, 3"),
        (('zone = "8"', 'zone = "8"\ntoken = "x"'), r"line 49: key 'token' is not a key of \[\[victory\]\]"),
        (('type = "reach"', 'type = "bring"'), r"line 47: 'type' 'bring' is not one of the allowed values.*reach"),
        (("cost = 2", "cost = -2"), r"line 52: 'cost' is -2, outside 0 to 99"),
        (("zone_mm = 52", "zone_mm = 52\ndrawing = '.'"), r"line 9: key 'drawing' is not a key of a 'zones' board"),
        (('at = "1"', 'at = "A1"'), r"line 30: 'A1' is not a zone of the board"),
    ],
)
def test_the_rule_sets_own_keys_are_checked_with_the_line(change: tuple[str, str], message: str) -> None:
    assert change[0] in KEYPAD
    with pytest.raises(ScenarioError, match=message):
        load_scenario_text(KEYPAD.replace(*change, 1), "keypad.toml")


def test_a_rule_set_refuses_a_board_it_is_not_played_on() -> None:
    text = KEYPAD[: KEYPAD.index("[[victory]]")].replace('ruleset = "zone-steps"', 'ruleset = "fantasy-battle"')
    with pytest.raises(ScenarioError, match=r"line 7: Hexa-System Fantasy Battle is not played on a 'zones' board. "
                                            r"Fix: use kind = one of \['hex'\]"):
        load_scenario_text(text, "keypad.toml")


def test_the_board_dict_names_its_kind() -> None:
    zones = board_to_dict(keypad())
    assert zones["kind"] == "zones" and zones["zone_mm"] == 52.0 and zones["anchors"] == {"94": [1, 1]}
    assert {t["label"]: t["rect_mm"] for t in zones["tiles"]}["6"] == [104.0, 52.0, 156.0, 104.0]
    hexes = board_to_dict(load_scenario("tutorial"))
    assert hexes["kind"] == "hex" and hexes["orientation"] == "flat" and hexes["tiles"][0]["label"]


# -- the table sync on a zone board ------------------------------------------------------------------------------
def at(scenario: Scenario, marker: int, x: float, y: float, state: str = "settled") -> FusedMarker:
    return FusedMarker(marker, x, y, state, 0.9, ("cam",))


def zone_centre(s: Scenario, label: str) -> tuple[float, float]:
    return s.board.centre_mm(s.board.from_label(label))


def test_a_hand_move_between_zones_answers_the_move_prompt() -> None:
    s = keypad()
    game, sync = Game(s), TableSync(s)
    markers = {m: at(s, m, *zone_centre(s, z)) for m, z in ((1, "1"), (2, "9"), (3, "9"))}
    sync.observe(markers, game)
    assert sync.step(game).desync == ()
    assert game.prompt.kind is PromptKind.MOVE and game.prompt.figure == "ash"
    x, y = zone_centre(s, "2")
    sync.observe({**markers, 1: at(s, 1, x, y)}, game)
    report = sync.step(game)
    assert report.action == Move("ash", s.board.from_label("2"))


def test_a_marker_near_a_zone_border_stays_on_its_zone() -> None:
    s = keypad()
    game, sync = Game(s), TableSync(s)
    one = s.board.from_label("1")
    x0, _, x1, _ = s.board.rect_mm(one)
    markers = {m: at(s, m, *zone_centre(s, z)) for m, z in ((1, "1"), (2, "9"), (3, "9"))}
    sync.observe(markers, game)
    y = zone_centre(s, "1")[1]
    sync.observe({**markers, 1: at(s, 1, x1 + 0.1 * s.board.zone_mm, y)}, game)  # a little into zone 2
    report = sync.step(game)
    assert report.action is None and report.desync == () and sync.views["ash"].settled_hex == one
    sync.observe({**markers, 1: at(s, 1, x1 + 0.3 * s.board.zone_mm, y)}, game)  # clearly in zone 2
    assert sync.step(game).action == Move("ash", s.board.from_label("2"))
    assert x0 == 0.0


def test_a_diagonal_hand_move_is_illegal_with_the_legal_zones_named() -> None:
    s = keypad()
    game, sync = Game(s), TableSync(s)
    markers = {m: at(s, m, *zone_centre(s, z)) for m, z in ((1, "1"), (2, "9"), (3, "9"))}
    sync.observe(markers, game)
    sync.observe({**markers, 1: at(s, 1, *zone_centre(s, "5"))}, game)
    report = sync.step(game)
    assert report.action is None and report.illegal is not None
    assert report.illegal.to == s.board.from_label("5") and sorted(report.illegal.legal) == ["2", "4"]
    assert report.desync[0].text.startswith("Ash may not stop on 5 (a figure steps to a zone beside its own")
    assert "put it back on 1 or on a legal zone" in report.desync[0].text


def test_hex_maps_keep_placing_through_the_board() -> None:
    board = load_scenario("tutorial").board
    assert isinstance(board, HexBoard)
    a1 = Hex(0, 0)
    x, y = board.centre_mm(a1)
    assert board.locate(x + 0.6 * board.cell_mm, y, previous=a1) == a1


def test_a_figure_may_not_carry_a_tag_printed_on_the_zone_mat() -> None:
    text = KEYPAD.replace('anchors = { 94 = "5" }\n', "").replace("marker = 2\n", "marker = 91\n")
    with pytest.raises(ScenarioError, match=r"line \d+: anchor tag 91 printed on the board is also the marker of "
                                            r"figure 'Bo'"):
        load_scenario_text(text)
    load_scenario_text(KEYPAD.replace("marker = 2\n", "marker = 91\n"))  # named anchors: the printed ones are none


def test_a_tablet_names_the_cells_by_the_words_the_engine_sent() -> None:
    """The app holds no board kinds: the board dict carries its cells' words in the table's language."""
    from engine.scenario import load_scenario
    from engine.snapshot import scenario_to_dict
    from engine.texts import cell_noun, cells, words_from_wire

    sent = scenario_to_dict(load_scenario("tenkey-skirmish"))["board"]["cell_words"]
    assert sent == {"one": "zone", "many": "zones", "english": ["zone", "zones"]}
    words_from_wire("flagstones-of-a-tablet-test", "flagstone", "flagstones")
    assert cell_noun("flagstones-of-a-tablet-test", 1) == "flagstone"
    assert cells("flagstones-of-a-tablet-test", 3) == "3 flagstones"
    assert cells("a-kind-nobody-named", 2) == "2 cells"
