"""The board view model draws a zone board from the scenario message: labelled rectangles, no rules."""

from __future__ import annotations

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.overlays import table_overlay
from engine.game import Game
from engine.scenario import load_scenario_text
from engine.snapshot import game_snapshot, scenario_to_dict
from tests.engine.zone_rules import KEYPAD


def test_a_zone_board_is_drawn_as_labelled_rectangles_with_its_figures() -> None:
    game = Game(load_scenario_text(KEYPAD))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    assert board.kind == "zones" and len(board.tiles) == 9
    by_label = {t.label: t for t in board.tiles.values()}
    assert list(by_label) == ["7", "4", "1", "8", "5", "2", "9", "6", "3"]
    five = by_label["5"]
    assert five.corners == ((52.0, 52.0), (104.0, 52.0), (104.0, 104.0), (52.0, 104.0)) and five.centre == (78.0, 78.0)
    assert by_label["8"].level == 1 and by_label["8"].fill != five.fill
    assert board.hex_at(60.0, 100.0) == five.key and board.hex_at(200.0, 10.0) is None
    assert board.label(five.key) == "5" and board.bounds_mm() == (0.0, 0.0, 156.0, 156.0)
    ash, bo, cy = (board.figures[f] for f in ("ash", "bo", "cy"))
    assert ash.label == "1" and ash.centre == by_label["1"].centre
    assert bo.key == cy.key == by_label["9"].key and bo.centre != cy.centre  # two in one zone, both visible
    for f in (bo, cy):
        assert f.centre is not None and board.hex_at(*f.centre) == by_label["9"].key


def test_hex_maps_still_draw_from_the_layout() -> None:
    from engine.scenario import load_scenario

    game = Game(load_scenario("tutorial"))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    assert board.kind == "hex" and len(next(iter(board.tiles.values())).corners) == 6
    key = next(iter(board.tiles))
    assert board.hex_at(*board.centre(key)) == key and board.size_mm == board.layout.size_mm


def test_the_table_overlay_reads_zone_labels_the_engine_sends() -> None:
    game = Game(load_scenario_text(KEYPAD))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    by_label = {t.label: t.key for t in board.tiles.values()}
    assert board.cell_of("4") == by_label["4"] and board.cell_of("E4") is None
    table = {"illegal": {"figure": "ash", "to": list(by_label["5"]), "reason": "not beside it", "legal": ["4", "2"]},
             "lifted": [{"figure": "ash", "moves": [list(by_label["4"]), list(by_label["2"])]}]}
    overlay = table_overlay(table, board)
    assert overlay.illegal_legal == (by_label["4"], by_label["2"])
    assert overlay.illegal is not None and overlay.illegal.end == by_label["5"]
    assert overlay.lines(board)[0] == "Ash is lifted: 2 legal zones shown as ghosts"
    assert board.label((5, 5)) == "(5,5)"  # off the mat: no hex label
