"""Tenkey battle played through the engine: moves, obstruction, shots, misfire, areas, lines, damage, victory."""

from __future__ import annotations

import copy
import json

import pytest

from engine.actions import Move
from engine.autoplay import AutoPlayer, play_out
from engine.errors import IllegalActionError
from engine.game import Game
from engine.prompts import PromptKind
from engine.scenario import load_scenario, load_scenario_text
from engine.service.overrides import place_figure
from tests.tenkey.tenkey_scenarios import act, game, option_ids, zone


def test_initiative_decides_who_acts_first() -> None:
    g = game([("ann", "party", "1", {}), ("orc", "band", "8", {})], first=1)
    assert g.prompt.side == "band" and option_ids(g) == ["orc", "end"]


def test_the_move_prompt_offers_whole_steps_only() -> None:
    g = game([("ann", "party", "2", {"movement": 9}), ("orc", "band", "9", {})])
    act(g, "ann", "normal")
    assert g.prompt.kind is PromptKind.MOVE
    assert {g.scenario.label(h) for h in g.prompt.moves} == {"1", "2", "3"}  # 9 m never change row
    with pytest.raises(IllegalActionError, match="5 needs 10 m"):
        g.apply(Move("ann", zone(g, "5")))
    act(g, ("ann", "3"))
    assert g.state.figures["ann"].hex == zone(g, "3")


def test_full_move_reaches_further_and_ends_the_characters_action() -> None:
    g = game([("ann", "party", "1", {"movement": 8}), ("bob", "party", "2", {}), ("orc", "band", "9", {})])
    act(g, "ann", "full")
    assert zone(g, "9") not in g.prompt.moves and g.prompt.moves[zone(g, "7")].cost == 20  # 24 m: 1→9 needs 26
    act(g, ("ann", "7"))
    assert g.prompt.text.endswith("who acts next?") and option_ids(g) == ["bob", "end"]


def test_example_1_an_enemy_in_five_stops_a_walker_at_four_and_both_stand_there() -> None:
    g = game([("b", "party", "7", {"movement": 20}), ("a", "band", "5", {})])
    act(g, "b", "normal", ("b", "1"))
    assert g.prompt.side == "band" and option_ids(g) == ["a@4", "pass"]
    act(g, "a@4")
    assert g.state.figures["a"].hex == g.state.figures["b"].hex == zone(g, "4")
    assert "attack A in melee" in [o.label for o in g.prompt.options]


def test_example_2_footwork_reaches_two_zones_sideways_but_not_across_a_melee_area() -> None:
    walker = ("b", "party", "7", {"movement": 20})
    g = game([walker, ("a", "band", "6", {})])
    act(g, "b", "normal", ("b", "1"))
    assert g.prompt.text.endswith("attack or cast?")  # nobody could obstruct: the move went through
    g = game([walker, ("d", "band", "6", {"abilities": ["footwork"]})])
    act(g, "b", "normal", ("b", "1"))
    assert option_ids(g) == ["d@4", "pass"]
    g = game([walker, ("d", "band", "6", {"abilities": ["footwork"]}), ("a", "band", "5", {}),
              ("c", "party", "5", {})])
    act(g, "b", "normal", ("b", "1"))
    assert g.prompt.text.endswith("attack or cast?")  # examples 3 and 4: A fights C, D would cross 5


def test_several_cheapest_ways_are_the_movers_choice() -> None:
    g = game([("b", "party", "1", {"movement": 13}), ("a", "band", "9", {})])
    act(g, "b", "normal", ("b", "5"))
    assert [o.label for o in g.prompt.options] == ["by 1 → 4 → 5", "by 1 → 2 → 5"]


def test_an_obstacle_blocks_the_shot_past_it_unless_hawk_eye() -> None:
    plain = game([("ann", "party", "2", {"shot_range": 30}), ("orc", "band", "8", {})], obstacles="5")
    act(plain, "ann", "stay")
    assert option_ids(plain) == ["none"]
    (info,) = plain.targets("ann")
    assert not info.allowed and info.blocker == zone(plain, "5") and info.range == 20
    seer = game([("ann", "party", "2", {"shot_range": 30, "abilities": ["hawk_eye"]}), ("orc", "band", "8", {})],
                obstacles="5")
    act(seer, "ann", "stay")
    assert "shot:orc" in option_ids(seer)


def test_an_enemy_in_between_is_cover_and_range_counts() -> None:
    g = game([("ann", "party", "1", {"shot_range": 23}), ("gob", "band", "4", {}), ("orc", "band", "9", {})])
    overlay = g.rules.query(g.state, "targets", "ann")
    texts = {line.target: (line.verdict, line.text) for line in overlay.lines}
    assert texts["orc"][0] == "blocked" and "4" in texts["orc"][1]
    assert texts["gob"] == ("clear", "Gob in 4: 10 m, clear")
    g = game([("ann", "party", "1", {"shot_range": 22}), ("orc", "band", "9", {})])
    assert not g.targets("ann")[0].allowed  # 1→9 is 23 m


def test_shooting_into_a_melee_area_misfires_without_guidance() -> None:
    figures = [("ann", "party", "1", {"shot_range": 20}), ("bob", "party", "4", {}), ("orc", "band", "4", {})]
    g = game(figures)
    act(g, "ann", "stay", "shot:orc")
    assert g.prompt.text.startswith("Ann shoots into the melee area in 4") and option_ids(g) == ["bob", "orc"]
    act(g, "bob")
    assert g.prompt.text.startswith("Ann attacks Bob")
    guided = game([("ann", "party", "1", {"shot_range": 20, "abilities": ["precise_shooting"]}), *figures[1:]])
    act(guided, "ann", "stay", "shot:orc")
    assert guided.prompt.text.startswith("Ann attacks Orc")


def test_no_misfire_within_one_zone() -> None:
    g = game([("ann", "party", "4", {"shot_range": 20}), ("bob", "party", "4", {}), ("orc", "band", "4", {})])
    act(g, "ann", "stay", "shot:orc")
    assert g.prompt.text.startswith("Ann attacks Orc")


def test_radius_five_asks_the_caster_for_the_side() -> None:
    g = game([("ann", "party", "2", {"area_range": 20, "area_radius": 5}), ("orc", "band", "5", {}),
              ("gob", "band", "6", {}), ("imp", "band", "4", {})])
    act(g, "ann", "stay", "area:5")
    assert [o.label for o in g.prompt.options] == ["4 and 5", "5 and 6"]
    act(g, "6")
    assert g.prompt.text.startswith("Orc rolls to resist")
    assert g.state.step.targets == ("orc", "gob")  # type: ignore[attr-defined]


def test_radius_six_from_one_at_four_covers_four_and_five() -> None:
    g = game([("ann", "party", "1", {"area_range": 20, "area_radius": 6}), ("orc", "band", "4", {}),
              ("gob", "band", "5", {}), ("imp", "band", "6", {})])
    act(g, "ann", "stay", "area:4")
    assert g.state.step.targets == ("orc", "gob")  # type: ignore[attr-defined]


def test_radius_seven_is_the_gms_ruling_with_the_row_first() -> None:
    g = game([("ann", "party", "2", {"area_range": 20, "area_radius": 7}), ("orc", "band", "5", {}),
              ("imp", "band", "8", {})])
    act(g, "ann", "stay", "area:5")
    assert g.prompt.gm and option_ids(g) == ["row", "around", "all"]  # the GM's to answer, where there is one
    assert g.prompt.text.startswith("A radius of 7 m: which zones")
    act(g, "around")
    assert not g.prompt.gm  # the players' prompts again
    assert g.state.step.targets == ("imp", "orc")  # type: ignore[attr-defined]


def test_a_line_from_five_at_two_covers_five_and_two_only() -> None:
    g = game([("ann", "party", "5", {"line_range": 20}), ("bob", "party", "5", {}), ("orc", "band", "2", {}),
              ("imp", "band", "8", {})])
    act(g, "ann", "stay", "line:orc")
    assert g.state.step.targets == ("bob", "orc")  # type: ignore[attr-defined]


def test_damage_is_entered_and_the_last_enemy_down_wins() -> None:
    g = game([("ann", "party", "5", {}), ("orc", "band", "5", {"hp": 12})])
    act(g, "ann", "stay", "melee:orc", "hit")
    assert option_ids(g)[:3] == ["12", "11", "10"]
    act(g, "5")
    assert g.rules.hp_left(g.state, "orc") == 7  # type: ignore[attr-defined]
    act(g, "orc", "stay", "melee:ann", "miss", "ann", "stay", "melee:orc", "hit", "7")  # turns pass by themselves
    assert g.state.winner == "party" and g.prompt.kind is PromptKind.REMOVE


def test_a_gm_placement_override_is_what_the_rules_see_next() -> None:
    g = game([("ann", "party", "1", {"shot_range": 30}), ("orc", "band", "9", {})], obstacles="5")
    assert not g.targets("ann")[0].allowed
    place_figure(g, "orc", zone(g, "2"))  # the tablet's "accept this position"
    assert g.targets("ann")[0].allowed and g.targets("ann")[0].range == 10


def test_standard_deployment_is_checked() -> None:
    from tests.tenkey.tenkey_scenarios import scenario

    with pytest.raises(ValueError, match="starts in 5, but its side starts in the bottom row"):
        scenario([("ann", "party", "5", {}), ("orc", "band", "8", {})], options={"deployment": "standard"})
    with pytest.raises(ValueError, match="starts in 2, but its side starts in the rows above"):
        scenario([("ann", "party", "1", {}), ("orc", "band", "2", {})], options={"deployment": "standard"})


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_auto_player_plays_the_skirmish_to_a_winner(seed: int) -> None:
    g = Game(load_scenario("tenkey-skirmish"))
    play_out(g, AutoPlayer(seed))
    assert g.state.winner in ("party", "band")


def test_the_chosen_way_decides_who_may_obstruct() -> None:
    figures = [("b", "party", "1", {"movement": 13}), ("a", "band", "3", {})]
    g = game(figures)
    act(g, "b", "normal", ("b", "5"), "0")  # by 1 → 4 → 5: A in 3 reaches 2 only
    assert g.prompt.text.endswith("attack or cast?") and g.state.figures["b"].hex == zone(g, "5")
    g = game(figures)
    act(g, "b", "normal", ("b", "5"), "1")  # by 1 → 2 → 5
    assert option_ids(g) == ["a@2", "pass"]
    act(g, "pass")
    assert g.state.figures["b"].hex == zone(g, "5")


def test_a_move_into_a_melee_area_ends_there_unless_shadow_run() -> None:
    figures = [("x", "band", "4", {}), ("y", "party", "4", {})]
    g = game([("b", "party", "7", {"movement": 20}), *figures])
    act(g, "b", "normal")
    assert zone(g, "1") not in g.prompt.moves and zone(g, "4") in g.prompt.moves
    g = game([("b", "party", "7", {"movement": 20, "abilities": ["shadow_run"]}), *figures])
    act(g, "b", "normal")
    assert g.prompt.moves[zone(g, "1")].cost == 20


def test_terrain_nobody_stands_on_is_walked_round_and_blocks_shots() -> None:
    from tests.tenkey.tenkey_scenarios import scenario_text

    text = scenario_text([("ann", "party", "2", {"movement": 30, "shot_range": 30}), ("orc", "band", "8", {})])
    g = Game(load_scenario_text(text.replace("terrain = {  }", 'terrain = { "5" = "blocking" }')))
    act(g, "0", "ann", "normal")
    assert zone(g, "5") not in g.prompt.moves and g.prompt.moves[zone(g, "8")].cost == 26  # round by 1 or 3
    assert not g.targets("ann")[0].allowed



def test_a_played_game_replays_and_its_state_survives_its_plain_form() -> None:
    from engine.state import GameState

    g = Game(load_scenario("tenkey-skirmish"))
    states: list[GameState] = []
    play_out(g, AutoPlayer(5), on_step=lambda s: states.append(copy.deepcopy(g.state)))
    for state in states:  # every pending step (routes, targets, …) and the hit points lost, as JSON
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() == state.to_dict()
    again = Game.replay(g.scenario, g.actions)
    assert again.state.to_dict() == g.state.to_dict()
    assert any("hp_lost" in f.values for f in g.state.figures.values())
