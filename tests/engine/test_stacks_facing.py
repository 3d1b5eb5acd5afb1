"""Stacks and facing in the core: figures_at, the face action, the tag's angle to a board direction with
hysteresis, and the table sync turning figures and stacking them (the Skirmish test rule set, loaded from its
folder through HEXA_RULESETS)."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from engine import rules
from engine.actions import Choose, Face, Move, Roll, action_from_dict, action_from_text, action_to_dict, action_to_text
from engine.board.hex import HexBoard
from engine.errors import IllegalActionError
from engine.game import Game
from engine.hexes import DIRECTIONS, Hex, Orientation, from_label, opposite, turn
from engine.layout import Layout
from engine.scenario import Scenario, load_scenario
from engine.state import FigureState, GameState
from engine.table_fusion import FacingHysteresis, FusedMarker, Sighting, circular_mean, fuse, heading_deg
from engine.table_sync import TableSync
from tests.rulesets import SKIRMISH_FOLDER, SKIRMISH_SCENARIO

B2, C2 = from_label("B2"), from_label("C2")


@pytest.fixture()
def skirmish(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scenario]:
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(SKIRMISH_FOLDER))
    rules.reload_plugins()
    yield load_scenario(str(SKIRMISH_SCENARIO))
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


def tag_angle(heading: float) -> float:
    """The tag angle (its top edge's direction) of a figure looking along ``heading``."""
    return heading + 90.0


def seen(scenario: Scenario, where: dict[str, tuple[Hex, float]], offsets: dict[str, tuple[float, float]] | None = None
         ) -> dict[int, FusedMarker]:
    """Fused, settled markers for figures on hexes, each looking along a heading (degrees, map frame)."""
    out = {}
    for figure, (h, heading) in where.items():
        marker = scenario.figure(figure).marker_id
        x, y = scenario.layout.hex_to_mm(h)
        dx, dy = (offsets or {}).get(figure, (0.0, 0.0))
        out[marker] = FusedMarker(marker, x + dx, y + dy, "settled", 0.9, ("cam",), tag_angle(heading))
    return out


def direction_deg(board: HexBoard, d: int) -> float:
    return board.direction_deg(Hex(0, 0), d)


# -- geometry -----------------------------------------------------------------------------------------------
def test_directions_turn_counter_clockwise_from_plus_q_and_each_heading_finds_its_own() -> None:
    board = HexBoard({}, layout=Layout.from_flat_width(Orientation.FLAT, 50.0))
    angles = [direction_deg(board, d) for d in range(6)]
    assert angles == pytest.approx([30.0, -30.0, -90.0, -150.0, 150.0, 90.0])  # y down: -90 is up the table
    assert [board.facing_toward(Hex(2, 1), a) for a in angles] == list(range(6))
    assert turn(5, 1) == 0 and turn(0, -1) == 5 and opposite(1) == 4
    assert Hex(0, 0).neighbour(opposite(2)) == DIRECTIONS[5]


def test_a_rotated_layout_turns_the_directions_with_it() -> None:
    board = HexBoard({}, layout=Layout.from_flat_width(Orientation.FLAT, 50.0, rotation_deg=40.0))
    assert direction_deg(board, 0) == pytest.approx(70.0)
    assert board.facing_toward(Hex(0, 0), 70.0) == 0 and board.facing_toward(Hex(0, 0), 30.0 + 40.0 - 60.0) == 1


def test_facing_keeps_its_direction_until_clearly_past_the_sector_border() -> None:
    board = HexBoard({}, layout=Layout.from_flat_width(Orientation.FLAT, 50.0))
    facings = FacingHysteresis(board, margin_deg=10.0)
    assert facings.locate(7, Hex(0, 0), tag_angle(30.0)) == 0
    # jitter across the border at 0° (between direction 0 at 30° and direction 1 at -30°)
    jitter = [facings.locate(7, Hex(0, 0), tag_angle(6.0 * math.sin(i) - 3.0)) for i in range(40)]
    assert set(jitter) == {0}
    assert [HexBoard({}).facing_toward(Hex(0, 0), 6.0 * math.sin(i) - 3.0) for i in range(40)].count(1) > 0
    assert facings.locate(7, Hex(0, 0), tag_angle(-12.0)) == 1  # turned 12° past the border: direction 1
    assert facings.locate(7, Hex(0, 0), tag_angle(5.0)) == 1  # and now it sticks on that side
    assert facings.locate(7, Hex(0, 0), None) is None


def test_the_tag_top_is_where_the_figure_looks() -> None:
    assert heading_deg(0.0) == pytest.approx(-90.0)  # a tag read upright looks up the table (y down)
    assert heading_deg(90.0) == pytest.approx(0.0)
    assert heading_deg(-135.0) == pytest.approx(135.0)


def test_fusion_takes_the_circular_mean_of_the_cameras_angles() -> None:
    fused = fuse([Sighting(5, 100.0, 50.0, "settled", 0.9, "a", 170.0),
                  Sighting(5, 101.0, 50.0, "settled", 0.9, "b", -170.0),
                  Sighting(6, 0.0, 0.0, "settled", 0.9, "a", None)], 50.0)
    assert abs(abs(fused.markers[5].angle_deg or 0.0) - 180.0) < 1e-6  # not 0: the way across ±180
    assert fused.markers[6].angle_deg is None
    assert circular_mean([10.0, 50.0], [3.0, 1.0]) == pytest.approx(19.69, abs=0.01)


# -- state and actions --------------------------------------------------------------------------------------
def test_figures_at_lists_a_stack_in_the_order_it_arrived() -> None:
    figures = {i: FigureState(i, "s", Hex(0, 0)) for i in ("a", "b", "c")}
    state = GameState("x", "fantasy-battle", figures, {}, {})
    assert [f.id for f in state.figures_at(Hex(0, 0))] == ["a", "b", "c"]
    state.put("a", Hex(1, 0))
    state.serial = 3
    state.put("a", Hex(0, 0))
    assert [f.id for f in state.figures_at(Hex(0, 0))] == ["b", "c", "a"]
    state.figures["b"].alive = False
    assert [f.id for f in state.figures_at(Hex(0, 0))] == ["c", "a"] and state.figure_at(Hex(0, 0)) is figures["c"]
    state.figures["c"].level = 2
    again = GameState.from_dict(state.to_dict())
    assert again.figures == state.figures
    old = state.to_dict()["figures"]["a"]
    del old["level"], old["arrived"]
    assert FigureState.from_dict(old).level is None  # states saved before levels and stacks still load


def test_face_has_a_dict_and_a_text_form() -> None:
    face = Face("knight", 3)
    assert action_from_dict(action_to_dict(face)) == face
    board = HexBoard({})
    assert action_to_text(face, board) == "face knight 3" and action_from_text("face knight 3", board) == face
    with pytest.raises(IllegalActionError, match="'direction' must be a int"):
        action_from_dict({"kind": "face", "figure": "knight", "direction": "left"})


def test_the_skirmish_flow_takes_face_at_any_time_and_stacks(skirmish: Scenario) -> None:
    game = Game(skirmish)
    assert game.prompt.figure == "squire"
    events = game.apply(Face("knight", 4))  # not the knight's move: turning is free at any time
    assert game.state.figures["knight"].facing == 4 and "Knight faces A3" in events[0].text
    assert game.prompt.figure == "squire"
    events = game.apply(Move("squire", B2))
    assert "joining Knight" in events[0].text
    assert [f.id for f in game.state.figures_at(B2)] == ["knight", "squire"]
    with pytest.raises(IllegalActionError, match=r"give 0\.\.5"):
        game.apply(Face("knight", 6))
    game.undo()
    game.undo()
    assert game.state.figures["knight"].facing == 0


def test_fantasy_battle_refuses_face() -> None:
    game = Game(load_scenario("tutorial"))
    with pytest.raises(IllegalActionError, match="Fantasy Battle has no facing"):
        game.apply(Face("swordsman", 2))


# -- the table sync ---------------------------------------------------------------------------------------
def test_the_tags_angle_turns_the_figure_with_hysteresis(skirmish: Scenario) -> None:
    game = Game(skirmish)
    sync = TableSync(skirmish)
    where = {"squire": (C2, -90.0), "knight": (B2, 150.0), "bandit": (from_label("E3"), -90.0)}
    sync.observe(seen(skirmish, where), game)
    applied = []
    while (action := sync.step(game).action) is not None:  # first sight: the tags say how they face
        game.apply(action)
        applied.append(action)
    assert applied == [Face("squire", 2), Face("knight", 4), Face("bandit", 2)]
    for jitter in (-10.0, 5.0, -25.0, 20.0):  # wobbling within the knight's sector and its margins
        sync.observe(seen(skirmish, {**where, "knight": (B2, 150.0 + jitter)}), game)
        assert sync.step(game).action is None
    sync.observe(seen(skirmish, {**where, "knight": (B2, 150.0 - 45.0)}), game)  # 15° past the border
    report = sync.step(game)
    assert report.action == Face("knight", 5) and report.desync == ()
    game.apply(report.action)
    assert sync.step(game).action is None


def test_a_facing_set_from_a_tablet_stays_until_the_tag_is_turned(skirmish: Scenario) -> None:
    game = Game(skirmish)
    sync = TableSync(skirmish)
    where = {"squire": (C2, -90.0), "knight": (B2, -90.0), "bandit": (from_label("E3"), -90.0)}
    sync.observe(seen(skirmish, where), game)
    while (action := sync.step(game).action) is not None:
        game.apply(action)
    game.apply(Face("knight", 0))  # a tablet overrides
    sync.forget_intents("knight")
    sync.observe(seen(skirmish, where), game)
    assert sync.step(game).action is None and game.state.figures["knight"].facing == 0
    sync.observe(seen(skirmish, {**where, "knight": (B2, 90.0)}), game)
    assert sync.step(game).action == Face("knight", 5)


def test_two_figures_in_one_hex_are_both_there(skirmish: Scenario) -> None:
    game = Game(skirmish)
    sync = TableSync(skirmish)
    where = {"squire": (C2, -90.0), "knight": (B2, -90.0), "bandit": (from_label("E3"), -90.0)}
    sync.observe(seen(skirmish, where), game)
    while (action := sync.step(game).action) is not None:
        game.apply(action)
    side_by_side = {"knight": (-20.0, 0.0), "squire": (20.0, 0.0)}
    sync.observe(seen(skirmish, {**where, "squire": (B2, -90.0)}, side_by_side), game)
    report = sync.step(game)
    assert report.action == Move("squire", B2)
    game.apply(report.action)
    report = sync.step(game)
    assert report.action is None and report.desync == ()
    assert [f.id for f in game.state.figures_at(B2)] == ["knight", "squire"]
    # The knight, under the squire, steps out of the stack: that figure moves, the squire stays.
    a2 = from_label("A2")
    sync.observe(seen(skirmish, {**where, "squire": (B2, -90.0), "knight": (a2, -90.0)}, side_by_side), game)
    report = sync.step(game)
    assert report.action == Move("knight", a2)
    game.apply(report.action)
    assert [f.id for f in game.state.figures_at(B2)] == ["squire"]
    # The bandit put on the stack's hex out of reach: the report names the bandit, not the hex's figures.
    sync.observe(seen(skirmish, {"squire": (B2, -90.0), "knight": (a2, -90.0), "bandit": (B2, -90.0)},
                      {"squire": (20.0, 0.0), "bandit": (-20.0, 0.0)}), game)
    report = sync.step(game)
    assert report.action is None and report.illegal is not None and report.illegal.figure == "bandit"
    assert [d.figure for d in report.desync] == ["bandit"] and report.desync[0].text.startswith("Bandit may not")


def test_fantasy_battle_never_gets_a_face_action_from_turned_tags() -> None:
    game = Game(load_scenario("tutorial"))
    for action in (Roll((2, 5)), Choose("done")):
        game.apply(action)
    sync = TableSync(game.scenario)
    markers = {}
    for spec in game.scenario.figures:
        x, y = game.scenario.layout.hex_to_mm(spec.start)
        markers[spec.marker_id] = FusedMarker(spec.marker_id, x, y, "settled", 0.9, ("cam",), 0.0)
    sync.observe(markers, game)
    turned = {m: FusedMarker(m, f.x_mm, f.y_mm, "settled", 0.9, ("cam",), 135.0) for m, f in markers.items()}
    sync.observe(turned, game)
    report = sync.step(game)
    assert report.action is None and report.desync == ()
    assert all(f.facing == 0 for f in game.state.figures.values())
