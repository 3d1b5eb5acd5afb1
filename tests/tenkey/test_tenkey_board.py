"""Zone terrain from the scenario's [map] to the tablets, checked like the other map keys."""

from __future__ import annotations

import re

import pytest

from companion_app.viewmodels.board_model import build_board
from engine.errors import ScenarioError
from engine.game import Game
from engine.scenario import load_scenario, load_scenario_text
from engine.snapshot import game_snapshot, scenario_to_dict
from tests.tenkey.tenkey_scenarios import scenario_text

FIGURES = [("ann", "party", "1", {}), ("orc", "band", "8", {})]


def test_the_skirmish_has_an_obstacle_hawk_eye_footwork_and_four_against_five() -> None:
    s = load_scenario("tenkey-skirmish")
    assert [s.board.label(z) for z in s.board.zones_with_terrain("obstacle")] == ["5"]
    sides = [f.side for f in s.figures]
    assert sides.count("party") == 4 and sides.count("band") == 5
    abilities = {a for f in s.figures for a in f.fields["abilities"]}
    assert {"hawk_eye", "footwork"} <= abilities


def test_a_zones_terrain_reaches_the_tablet_with_its_draw_style() -> None:
    game = Game(load_scenario_text(scenario_text(FIGURES, obstacles="5")))
    tiles = {t["label"]: t for t in game.scenario.board.to_dict()["tiles"]}
    assert (tiles["5"]["terrain"], tiles["5"]["style"]) == ("obstacle", "rough")
    assert (tiles["4"]["terrain"], tiles["4"]["style"]) == ("floor", "floor")
    view = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    styles = {t.label: t.style for t in view.tiles.values()}
    assert styles["5"] == "rough" and styles["1"] == "floor"


def test_terrain_naming_no_zone_is_refused_with_its_line() -> None:
    text = scenario_text(FIGURES).replace("terrain = {  }", 'terrain = { "0" = "obstacle" }')
    with pytest.raises(ScenarioError, match=re.escape("terrain names zone '0', which is not a zone of the [map]")) \
            as err:
        load_scenario_text(text)
    line = text.splitlines().index('terrain = { "0" = "obstacle" }') + 1
    assert f"line {line}:" in str(err.value) and "Fix: key terrain by a zone label" in str(err.value)


def test_an_unknown_terrain_kind_is_refused_with_the_closest_name() -> None:
    text = scenario_text(FIGURES).replace("terrain = {  }", 'terrain = { "5" = "obstacel" }')
    with pytest.raises(ScenarioError, match="did you mean 'obstacle'"):
        load_scenario_text(text)


def test_terrain_is_a_key_of_zone_boards_only() -> None:
    hex_map = load_scenario("tutorial")
    assert hex_map.board.kind == "hex"
    text = (scenario_text(FIGURES).replace('ruleset = "tenkey"', 'ruleset = "fantasy-battle"')
            .replace('kind = "zones"', 'kind = "hex"'))
    with pytest.raises(ScenarioError, match="not a key of a 'hex' board"):
        load_scenario_text(text)
