"""Tenkey on the tablet's view models (no window): the zone board with its obstacle and its crowded zones, and the
queries a player turns on and off."""

from __future__ import annotations

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.session import GameSession
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, query_to_dict, scenario_to_dict


def _session(game: Game) -> GameSession:
    s = GameSession()
    s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    s.set_snapshot(game_snapshot(game))
    return s


def _answer(s: GameSession, game: Game, figure: str) -> None:
    s.select(figure)
    for ask, subject in s.asks_for(figure):
        s.answer(figure, query_to_dict(game, ask.what, subject)["overlay"])


def test_the_obstacle_zone_reads_by_pattern_and_name_and_a_crowded_zone_names_everyone() -> None:
    game = Game(load_scenario("tenkey-skirmish"))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    zones = {t.label: t for t in board.tiles.values()}
    assert zones["5"].caption == "obstacle" and zones["5"].pattern and zones["5"].pattern_mm > board.size_mm
    assert all(not zones[z].caption for z in "12346789")
    garrick, odo = board.figures["garrick"], board.figures["odo"]
    assert garrick.key == odo.key == zones["2"].key
    assert garrick.centre != odo.centre and garrick.name_left is not None and odo.name_left is not None
    for f in (garrick, odo):  # inside zone 2, each its own disc with room for its name
        assert f.centre is not None and board.hex_at(*f.centre) == zones["2"].key and f.name_width > 0
    lone = board.figures["wren"]
    assert lone.centre == zones["1"].centre and lone.name_left is None and lone.scale == 1.0
    assert board.mark_at(zones["5"].key) != zones["5"].centre  # query labels clear of the figures


def test_only_the_moves_are_drawn_until_the_player_turns_another_query_on() -> None:
    game = Game(load_scenario("tenkey-skirmish"))
    s = _session(game)
    assert [(q.what, q.shown) for q in s.queries] == [
        ("reachable", True), ("full_moves", False), ("targets", False), ("area", False), ("line", False),
        ("obstruct", False)]
    _answer(s, game, "odo")
    sel = s.selection
    assert sel is not None and len(sel.answers) == 6
    assert [o.query for o in sel.overlays()] == ["reachable"]
    s.toggle_query("targets")
    s.toggle_query("reachable")
    assert [o.query for o in sel.overlays()] == ["targets"] and not s.query_shown("reachable")
    assert any("Chief Varg in 8: 20 m, blocked" in line for line in sel.lines())
    _answer(s, game, "ilse")  # the choice holds for the next figure tapped
    assert s.selection is not None and [o.query for o in s.selection.overlays()] == ["targets"]


def test_fantasy_battle_draws_every_query_at_once_as_before() -> None:
    game = Game(load_scenario("goblins-treasure"))
    s = _session(game)
    assert all(q.shown for q in s.queries) and not s.hidden_queries
    _answer(s, game, "ranger")
    assert s.selection is not None and [o.query for o in s.selection.overlays()] == [
        q.what for q in s.queries if q.what in s.selection.answers]
