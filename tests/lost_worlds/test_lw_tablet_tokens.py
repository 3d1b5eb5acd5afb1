"""The tablet draws the game's tokens where they lie now (the tower's objects, a thrown weapon), generically:
it reads the snapshot's tokens, knowing no rule set, and the legend names them."""

from __future__ import annotations

from companion_app.viewmodels.board_model import BoardView, build_board, lying_tokens, map_only_tokens
from companion_app.viewmodels.legend import legend_entries
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict


def _view(game: Game) -> BoardView:
    return build_board(scenario_to_dict(game.scenario, game.points()), game_snapshot(game))


def test_the_objects_of_the_tower_are_drawn_where_the_game_has_them_and_the_legend_lists_them() -> None:
    game = Game(load_scenario("lost-worlds-ruined-tower"))
    board = game.scenario.board
    view = _view(game)
    lying = {t.label: t.tokens for t in lying_tokens(view)}
    assert lying == {"A1": ("chest",), "A3": ("stone",), "H3": ("brick",), "E1": ("barrel",)}
    assert not map_only_tokens(view)  # the tower's map marks no token of its own
    entries = legend_entries(scenario_to_dict(game.scenario, game.points()), view)
    assert any(e.kind == "token" for e in entries)
    # The barrel pushed, the stone carried off: the tablet follows the state.
    game.state.tokens["barrel"] = board.from_label("F1")
    game.state.tokens["stone"] = None
    lying = {t.label: t.tokens for t in lying_tokens(_view(game))}
    assert lying["F1"] == ("barrel",) and "A3" not in lying and "E1" not in lying


def test_a_map_token_that_is_no_token_of_the_game_stays_drawn_with_the_map() -> None:
    game = Game(load_scenario("goblins-treasure"))
    view = _view(game)
    assert ("treasure",) in [t.tokens for t in lying_tokens(view)]
    game.state.tokens["treasure"] = None  # carried: no longer drawn on its hex
    assert not lying_tokens(_view(game))
    fixed = [tok for t in map_only_tokens(_view(game)) for tok in t.tokens]
    assert "treasure" not in fixed and fixed.count("exit") == 3  # the exits are the map's: drawn with the tiles
