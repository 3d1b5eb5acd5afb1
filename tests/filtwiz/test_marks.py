"""Terrain marks made in play reach the rules through the board (engine.board.marks), and the override log's
terrain op clears a mark that restores the map's own terrain."""

from __future__ import annotations

import pytest

from engine.board import Terrain
from engine.board.hex import board_from
from engine.board.marks import MarkError, board_in_play, check_mark
from engine.game import Game
from engine.hexes import Hex
from engine.rules.gm import RulingError
from engine.scenario import load_scenario
from engine.service.overrides import mark_terrain, set_ruling


def test_the_board_in_play_has_the_marks_and_the_scenario_board_is_untouched() -> None:
    board = board_from([Hex(0, 0), Hex(1, 0)])
    marked = board_in_play(board, {Hex(1, 0): "blocking"})
    assert marked.terrain(Hex(1, 0)) is Terrain.BLOCKING  # type: ignore[attr-defined]
    assert board.terrain(Hex(1, 0)) is Terrain.FLOOR
    assert board_in_play(board, {}) is board
    assert board_in_play(board, {Hex(1, 0): "blocking"}) is marked  # one board per set of marks
    with pytest.raises(MarkError, match="not on the board"):
        check_mark(board, Hex(5, 5), "blocking")
    with pytest.raises(MarkError, match="use one of floor, blocking, low, water"):
        check_mark(board, Hex(0, 0), "lava")


def test_marking_a_hex_with_its_own_terrain_clears_the_mark_and_rulings_are_checked() -> None:
    game = Game(load_scenario("filtwiz-river-ambush"))
    h = game.scenario.board.from_label("D1")
    mark_terrain(game, h, "blocking")
    assert game.state.marks == {h: Terrain.BLOCKING}
    mark_terrain(game, h, game.scenario.board.terrain(h))  # type: ignore[attr-defined]
    assert game.state.marks == {}
    set_ruling(game, "party_hit:rose", "yes")
    assert game.state.rulings == {"party_hit:rose": "yes"}
    set_ruling(game, "party_hit:rose", None)
    assert game.state.rulings == {}
    with pytest.raises(RulingError, match="sight:<two hexes: B3:D4>"):
        set_ruling(game, "weather:rain", "yes")
