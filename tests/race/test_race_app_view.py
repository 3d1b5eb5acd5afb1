"""The app's view models draw a Race game from the engine's dicts alone: the app holds no rules, Race's or any."""

from __future__ import annotations

from typing import Any

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.setup_model import setup_view
from engine.actions import action_from_dict
from engine.game import Game
from engine.snapshot import game_snapshot, scenario_to_dict


def session_for(game: Game) -> GameSession:
    s = GameSession()
    s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    s.set_snapshot(game_snapshot(game))
    return s


def play(game: Game, session: GameSession, action: dict[str, Any]) -> None:
    game.apply(action_from_dict(action))
    session.set_snapshot(game_snapshot(game))


def test_the_race_board_shows_exits_walls_and_runners(game: Game) -> None:
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    assert board.kind == "hex" and len(board.tiles) == len(game.scenario.board.tiles)  # walls did not make it "wall"
    exits = sorted(t.label for t in board.tiles.values() if "exit" in t.tokens)
    assert exits == ["M1", "M3", "M5"]
    assert {e.label for e in board.edges if e.state == "wall"} == {"D3|E3", "F1|G1", "F4|G4", "E5|F5", "J2|K2",
                                                                      "J4|K4", "L3|M3"}
    dash, zip_ = board.figures["dash"], board.figures["zip"]
    assert dash.label == "A1" and dash.letter == "D" and zip_.letter == "Z"  # no kinds in Race: the name's initial
    assert dash.colour != zip_.colour and dash.shape != zip_.shape


def test_setup_lists_the_runners_and_the_way_to_win(game: Game) -> None:
    view = setup_view(scenario_to_dict(game.scenario, game.points()))
    assert [line.name for line in view.sides] == ["Red", "Blue"]
    assert "Dash" in view.sides[0].figures and view.warning == ""


def test_a_turn_through_the_session_roll_pick_and_drag(game: Game) -> None:
    s = session_for(game)
    assert s.prompt is not None and s.prompt.kind == "roll" and s.prompt.opposed  # the roll-off
    play(game, s, {"kind": "roll", "values": [5, 2], "virtual": False})
    p = s.prompt
    assert p is not None and p.kind == "roll" and not p.opposed
    assert p.dice[0].summary == "Red rolls 1d6 (running): 1–6: hexes to run"
    assert p.chances == ["a runner can reach an exit: 0%"]
    action = p.enter_face(3)
    assert action == {"kind": "roll", "values": [3], "virtual": False}
    play(game, s, action)
    assert s.prompt is not None and s.prompt.kind == "choose"
    s.select("dash")
    tap = s.tap((0, 0))  # Dash's hex, tapped again: picks it
    assert tap.kind == "action" and tap.action == {"kind": "choose", "option": "dash"}
    play(game, s, tap.action)
    assert s.prompt is not None and s.prompt.kind == "move" and s.board is not None
    refused = s.drag((0, 0), (4, -2))  # E1: rock
    assert refused.kind == "refused" and "not a legal move" in refused.text
    ok = s.drag((0, 0), (3, -1))  # D1
    assert ok.action == {"kind": "move", "figure": "dash", "to": [3, -1]}
    play(game, s, ok.action)
    assert s.board.figures["dash"].label == "D1"
    assert s.header.text == "Round 1 · Blue's turn · Run"
