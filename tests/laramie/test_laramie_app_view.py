"""The app's view models draw the station duel from the engine's dicts alone: terrain, walls and black lines,
each figure's facing and its state badge, a stack's count, the to-hit overlay."""

from __future__ import annotations

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.header_model import header_view
from engine.actions import Choose
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, overlay_to_dict, scenario_to_dict
from tests.laramie.town import set_unit


def test_the_board_shows_the_town_the_badges_the_facing_and_stacks() -> None:
    game = Game(load_scenario("laramie-station"))
    set_unit(game, "joe", at="N9", state="prone")  # onto Jesse's hex: a stack of two
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    kinds = {t.label: t.terrain for t in board.tiles.values()}
    assert kinds["E1"] == "station" and kinds["B3"] == "house" and kinds["F4"] == "lumber"
    styles = {e.label: e.state for e in board.edges}
    assert styles["E2|E3"] == "fence" and styles["B3|B4"] == "black_line"
    gary, joe, jesse = board.figures["gary"], board.figures["joe"], board.figures["jesse"]
    assert gary.badges[:3] == ("[N] normal", "HP 6", "[*] hero") and gary.facing_deg is not None
    assert joe.badges[0] == "[P] prone"
    assert joe.stack == jesse.stack == 2


def test_the_to_hit_overlay_travels_as_plain_data() -> None:
    game = Game(load_scenario("laramie-station"))
    set_unit(game, "jesse", at="D2", facing=0)
    overlay = overlay_to_dict(game.rules.query(game.state, "to_hit", "gary"))
    jesse = next(line for line in overlay["lines"] if line["target"] == "jesse")
    assert jesse["verdict"] == "clear" and "1d10" in jesse["text"] and "range" in jesse["text"]
    assert any(c["style"] == "outline" and c["label"].startswith("≦") for c in overlay["cells"])


def test_the_header_names_the_side_whose_unit_has_its_go() -> None:
    game = Game(load_scenario("laramie-station"))
    scenario = scenario_to_dict(game.scenario)
    header = header_view(scenario, game_snapshot(game), build_board(scenario, game_snapshot(game)))
    assert header.text == "Round 1 · Outlaws' turn · State-update phase"  # Tom, combat value 3, goes first
    while game.prompt.figure != "gary":
        game.apply(Choose("normal"))
    header = header_view(scenario, game_snapshot(game), build_board(scenario, game_snapshot(game)))
    assert header.text == "Round 1 · Sheriffs' turn · State-update phase"
