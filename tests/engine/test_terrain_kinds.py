"""Terrain kinds declared by a rule set: the scenario draws them, the board reports them, the snapshot
carries name and draw style, the app draws them by style; a misspelt kind is refused with its line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import pytest

from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import build_board
from engine import rules
from engine.board import DRAW_STYLES, CellInfo, Terrain, TerrainKind, terrain_kinds
from engine.board.hex import board_from
from engine.board.hex.ascii_map import render_map
from engine.game import Game
from engine.hexes import Hex, from_label
from engine.rules.base import MapSymbol
from engine.scenario import ScenarioError, load_scenario_text
from engine.snapshot import board_to_dict, game_snapshot, scenario_to_dict
from tests.engine.terrain_rules import YARD, LumberYard


def _line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_rule_set_s_own_terrain_is_drawn_and_reported_by_the_board() -> None:
    board = load_scenario_text(YARD).board
    assert board.terrain(from_label("C1")) == "lumber" and board.terrain(from_label("D1")) == "lumber"
    assert board.terrain(from_label("E1")) == "house"  # the scenario's own symbol H
    assert board.terrain(from_label("E2")) is Terrain.WATER  # the shared kinds read as before
    lumber, house = board.terrain_kind(from_label("C1")), board.terrain_kind(from_label("E1"))
    assert (lumber.standable, lumber.blocks_sight, lumber.style) == (True, False, "rough")
    assert (house.standable, house.blocks_sight, house.style) == (False, True, "building")
    assert board.terrain_kind(from_label("A1")).style == "floor"


def test_the_snapshot_carries_each_tile_s_terrain_name_and_draw_style() -> None:
    scenario = load_scenario_text(YARD)
    tiles = {t["label"]: t for t in board_to_dict(scenario)["tiles"]}
    assert (tiles["C1"]["terrain"], tiles["C1"]["style"]) == ("lumber", "rough")
    assert (tiles["E1"]["terrain"], tiles["E1"]["style"]) == ("house", "building")
    assert (tiles["E2"]["terrain"], tiles["E2"]["style"]) == ("water", "water")
    assert (tiles["A1"]["terrain"], tiles["A1"]["style"]) == ("floor", "floor")
    kinds = {k["name"]: k for k in board_to_dict(scenario)["terrain_kinds"]}
    assert kinds["lumber"]["style"] == "rough" and kinds["blocking"]["style"] == "solid"


def test_the_app_draws_a_rule_set_s_terrain_by_its_style() -> None:
    game = Game(load_scenario_text(YARD))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    by_label = {t.label: t for t in board.tiles.values()}
    lumber, house, floor = by_label["C1"], by_label["E1"], by_label["A1"]
    assert lumber.terrain == "lumber" and lumber.style == "rough"
    assert lumber.fill == palette.TERRAIN_FILL["rough"] != floor.fill and lumber.pattern == "dots"
    assert house.style == "building" and house.pattern == "roof" and house.fill == palette.TERRAIN_FILL["building"]
    assert floor.pattern == "" and by_label["E2"].pattern == "waves"


def test_the_app_draws_an_unknown_style_as_floor() -> None:
    game = Game(load_scenario_text(YARD))
    scenario = scenario_to_dict(game.scenario)
    for t in scenario["board"]["tiles"]:
        t["style"] = "lava"
    board = build_board(scenario, game_snapshot(game))
    assert {t.style for t in board.tiles.values()} == {"floor"}


def test_the_app_knows_every_draw_style_the_engine_offers() -> None:
    assert set(palette.TERRAIN_FILL) == set(palette.TERRAIN_PATTERN) == set(DRAW_STYLES)


def test_a_misspelt_terrain_name_is_refused_with_its_line_and_the_closest_name() -> None:
    text = YARD.replace('symbols = { H = "house" }', 'symbols = { H = "hose" }')
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text, "yard.toml")
    message = str(err.value)
    assert f"yard.toml, line {_line_of(text, 'symbols =')}:" in message
    assert "'hose'" in message and "did you mean 'house'?" in message and "lumber" in message


def test_a_scenario_symbol_must_be_one_character() -> None:
    text = YARD.replace('symbols = { H = "house" }', 'symbols = { HH = "house" }')
    with pytest.raises(ScenarioError, match="not one character"):
        load_scenario_text(text, "yard.toml")


def test_a_terrain_symbol_of_another_rule_set_is_not_drawn() -> None:
    """Fantasy Battle declares no lumber: its drawings refuse the symbol, naming the ones it knows."""
    text = YARD.replace('ruleset = "lumber-yard"', 'ruleset = "fantasy-battle"').replace(
        'symbols = { H = "house" }', 'symbols = { H = "lumber" }')
    with pytest.raises(ScenarioError, match=r"'lumber', which .*Fantasy Battle does not have"):
        load_scenario_text(text, "yard.toml")


def test_a_rule_set_whose_symbol_draws_an_undeclared_kind_is_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    class Muddled(LumberYard):
        name: ClassVar[str] = "muddled-yard"
        map_symbols: ClassVar[Mapping[str, MapSymbol]] = {"M": MapSymbol("mud")}

    monkeypatch.setitem(rules._REGISTRY, Muddled.name, Muddled)  # only for this test
    text = YARD.replace('ruleset = "lumber-yard"', 'ruleset = "muddled-yard"')
    with pytest.raises(ScenarioError, match="'mud', which is not a declared terrain kind"):
        load_scenario_text(text, "yard.toml")


def test_terrain_kinds_are_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="draw style 'lava'"):
        TerrainKind("magma", "hot", style="lava")
    with pytest.raises(ValueError, match="lower-case word"):
        TerrainKind("Lumber Yard", "wood")
    with pytest.raises(ValueError, match="declared twice"):
        terrain_kinds((TerrainKind("water", "again"),))


def test_the_shared_kinds_keep_their_constants() -> None:
    assert CellInfo("floor").terrain is Terrain.FLOOR and CellInfo().terrain is Terrain.FLOOR
    assert CellInfo("low").terrain is Terrain.LOW_OBSTACLE and Terrain.BLOCKING == "blocking"
    board = board_from([Hex(0, 0), Hex(1, 0)], terrain={Hex(1, 0): Terrain.WATER})
    assert board.to_dict()["tiles"][1]["terrain"] == "water" and board.to_dict()["tiles"][1]["style"] == "water"


def test_a_drawing_of_own_terrain_renders_back_with_the_rule_set_s_symbols() -> None:
    board = load_scenario_text(YARD).board
    symbols = {"L": ("lumber", None), "H": ("house", None)}
    drawn = render_map(board, symbols=symbols)
    assert drawn.splitlines()[0] == ".   L   H   ." and "?" not in drawn
    assert "?" in render_map(board)  # without them a kind it cannot name shows as ?
