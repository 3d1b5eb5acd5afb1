"""Table sync without sockets: fusion, hex hysteresis, hand moves as actions, illegal moves, desync, removals."""

from __future__ import annotations

import math

import pytest

from engine.actions import Choose, Move, Remove, Roll
from engine.game import Game
from engine.hexes import Hex, from_label
from engine.prompts import PromptKind
from engine.scenario import Scenario, load_scenario
from engine.table_fusion import CellHysteresis, FusedMarker, Sighting, fuse
from engine.table_sync import TableSync


def hx(label: str) -> Hex:
    return from_label(label)


def table_at(scenario: Scenario, where: dict[str, str], state: dict[str, str] | None = None) -> dict[int, FusedMarker]:
    """Fused markers for figures standing on labelled hexes (map mm, at the hex centres)."""
    out = {}
    for figure, label in where.items():
        marker = scenario.figure(figure).marker_id
        x, y = scenario.layout.hex_to_mm(hx(label))
        out[marker] = FusedMarker(marker, x, y, (state or {}).get(figure, "settled"), 0.9, ("cam",))
    return out


START = {"swordsman": "A2", "bowman": "A3", "spearman": "A4", "goblin-1": "G2", "goblin-slinger": "G3",
         "goblin-2": "G4"}


def goblin_move_game() -> Game:
    game = Game(load_scenario("tutorial"))
    for action in (Roll((2, 5)), Choose("done"), Choose("goblin-1"), Roll((3,))):
        game.apply(action)
    assert game.prompt.kind is PromptKind.MOVE and game.prompt.figure == "goblin-1"
    return game


def test_fusion_averages_overlapping_cameras_and_reports_far_apart_duplicates() -> None:
    fused = fuse([Sighting(5, 100.0, 50.0, "settled", 0.9, "a"), Sighting(5, 102.0, 50.0, "settled", 0.9, "b"),
                  Sighting(7, 0.0, 0.0, "lifted", 0.5, "a"), Sighting(7, 10.0, 0.0, "settled", 0.8, "b"),
                  Sighting(9, 0.0, 0.0, "settled", 0.9, "a"), Sighting(9, 400.0, 0.0, "settled", 0.8, "b")], 50.0)
    five = fused.markers[5]
    assert math.isclose(five.x_mm, 101.0) and five.cameras == ("a", "b") and five.state == "settled"
    assert fused.markers[7].state == "settled" and fused.markers[7].x_mm == 10.0  # one camera still sees it
    assert fused.duplicates == (9,)
    assert fused.markers[9].x_mm == 0.0  # the more confident sighting, never the average of two tags


def test_fusion_of_unseen_marker_says_lifted_before_lost() -> None:
    fused = fuse([Sighting(3, 0.0, 0.0, "lost", 0.2, "a"), Sighting(3, 0.0, 0.0, "lifted", 0.3, "b")], 50.0)
    assert fused.markers[3].state == "lifted" and not fused.markers[3].visible


def test_hysteresis_keeps_a_marker_on_its_hex_across_the_border_until_clearly_past() -> None:
    scenario = load_scenario("tutorial")
    layout = scenario.layout
    hexes = CellHysteresis(scenario.board, margin=0.15)
    a, b = hx("C3"), hx("D3")
    (ax, ay), (bx, by) = layout.hex_to_mm(a), layout.hex_to_mm(b)
    assert hexes.locate(1, ax, ay) == a
    flips = 0
    last = a
    for i in range(40):  # jitter on the shared border, a little into b
        t = 0.5 + 0.05 * math.sin(i)
        h = hexes.locate(1, ax + t * (bx - ax), ay + t * (by - ay))
        flips += h != last
        last = h
    assert flips == 0 and last == a
    assert hexes.locate(1, ax + 0.8 * (bx - ax), ay + 0.8 * (by - ay)) == b
    plain = [layout.mm_to_hex(ax + (0.5 + 0.05 * math.sin(i)) * (bx - ax), ay + (0.5 + 0.05 * math.sin(i)) * (by - ay))
             for i in range(40)]
    assert len(set(plain)) == 2  # without hysteresis the same jitter flickers


def test_a_legal_hand_move_answers_the_move_prompt_once() -> None:
    game = goblin_move_game()
    sync = TableSync(game.scenario)
    sync.observe(table_at(game.scenario, START), game)
    assert sync.step(game).action is None
    sync.observe(table_at(game.scenario, START, {"goblin-1": "lifted"}), game)
    report = sync.step(game)
    assert report.in_hand == ("goblin-1",) and report.desync == ()
    sync.observe(table_at(game.scenario, {**START, "goblin-1": "F2"}), game)
    report = sync.step(game)
    assert report.action == Move("goblin-1", hx("F2"))
    game.apply(report.action)
    again = sync.step(game)
    assert again.action is None and again.desync == () and again.illegal is None


def test_an_illegal_hand_move_is_flagged_with_reason_and_legal_hexes_until_put_back() -> None:
    game = goblin_move_game()
    sync = TableSync(game.scenario)
    sync.observe(table_at(game.scenario, START), game)
    sync.observe(table_at(game.scenario, {**START, "goblin-1": "C2"}), game)
    report = sync.step(game)
    assert report.action is None and report.illegal is not None
    assert report.illegal.figure == "goblin-1" and report.illegal.to == hx("C2")
    assert "C2" in report.illegal.reason and "F2" in report.illegal.legal and "C2" not in report.illegal.legal
    assert [d.figure for d in report.desync] == ["goblin-1"] and "put it back on G2" in report.desync[0].text
    sync.observe(table_at(game.scenario, START), game)  # put back where it was: nothing to apply, no desync
    report = sync.step(game)
    assert report.action is None and report.illegal is None and report.desync == ()
    assert game.prompt.kind is PromptKind.MOVE


def test_a_standing_disagreement_is_desync_never_an_action() -> None:
    game = goblin_move_game()
    sync = TableSync(game.scenario)
    # the engine (re)starts while goblin-1 already stands on a legal hex: no hand was seen moving it
    sync.observe(table_at(game.scenario, {**START, "goblin-1": "F2", "spearman": "B4"}), game)
    report = sync.step(game)
    assert report.action is None
    texts = {d.figure: d for d in report.desync}
    assert set(texts) == {"goblin-1", "spearman"}
    assert texts["spearman"].expected == hx("A4") and texts["spearman"].seen == hx("B4")
    assert "put Spearman back on A4" in texts["spearman"].text
    sync.observe(table_at(game.scenario, START), game)
    assert sync.step(game).desync == ()


def test_a_figure_the_camera_does_not_see_is_desync_with_no_hex_seen() -> None:
    game = goblin_move_game()
    sync = TableSync(game.scenario)
    where = dict(START)
    del where["bowman"]
    sync.observe(table_at(game.scenario, where), game)
    (entry,) = sync.step(game).desync
    assert entry.figure == "bowman" and entry.seen is None and "does not see" in entry.text


def test_a_move_made_during_the_movement_roll_counts_once_the_move_prompt_comes() -> None:
    game = Game(load_scenario("tutorial"))
    for action in (Roll((2, 5)), Choose("done"), Choose("goblin-1")):
        game.apply(action)
    sync = TableSync(game.scenario)
    sync.observe(table_at(game.scenario, START), game)
    sync.observe(table_at(game.scenario, {**START, "goblin-1": "F2"}), game)
    report = sync.step(game)
    assert report.action is None and [p.figure for p in report.pending] == ["goblin-1"] and report.desync == ()
    game.apply(Roll((3,)))
    assert sync.step(game).action == Move("goblin-1", hx("F2"))


def test_a_figure_taken_off_answers_its_removal_prompt() -> None:
    game = Game(load_scenario("tutorial"))
    for action in (Roll((2, 5)), Choose("goblin-slinger>swordsman"), Roll((5,)), Roll((1,))):
        game.apply(action)
    assert game.prompt.kind is PromptKind.REMOVE and game.prompt.figure == "swordsman"
    sync = TableSync(game.scenario)
    sync.observe(table_at(game.scenario, START), game)
    assert sync.step(game).action is None
    gone = dict(START)
    del gone["swordsman"]
    sync.observe(table_at(game.scenario, gone), game)
    report = sync.step(game)
    assert report.action == Remove("swordsman")
    game.apply(report.action)
    assert sync.step(game).desync == ()


def test_unknown_markers_are_listed_and_anchors_are_not() -> None:
    game = goblin_move_game()
    sync = TableSync(game.scenario)
    markers = table_at(game.scenario, START)
    markers[42] = FusedMarker(42, 0.0, 0.0, "settled", 0.9, ("cam",))
    markers[90] = FusedMarker(90, 0.0, 0.0, "settled", 0.9, ("cam",))  # an anchor of the tutorial map
    sync.observe(markers, game)
    assert sync.step(game).unknown_markers == (42,)


def test_an_assigned_tag_plays_the_figure_and_its_former_tag_becomes_unknown() -> None:
    game = goblin_move_game()
    scenario = game.scenario
    sync = TableSync(scenario)
    table = table_at(scenario, START)
    spare = FusedMarker(42, *scenario.layout.hex_to_mm(hx("G2")), "settled", 0.9, ("cam",))
    table.pop(scenario.figure("goblin-1").marker_id)
    table[42] = spare  # the goblin's tag was lost; a spare tag 42 stands on its base instead
    sync.observe(table, game)
    assert 42 in sync.unknown_markers
    assert sync.assign(42, "goblin-1") == scenario.figure("goblin-1").marker_id
    sync.observe(table, game)
    assert 42 not in sync.unknown_markers and sync.figure_of(42) == "goblin-1"
    table[42] = FusedMarker(42, *scenario.layout.hex_to_mm(hx("F2")), "settled", 0.9, ("cam",))
    sync.observe(table, game)
    assert sync.step(game).action == Move("goblin-1", hx("F2"))


def test_anchor_tags_cannot_be_given_to_figures() -> None:
    sync = TableSync(load_scenario("tutorial"))
    with pytest.raises(ValueError, match="board anchor"):
        sync.assign(90, "swordsman")
