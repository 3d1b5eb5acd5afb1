"""The river ambush played to its end, the party limit, and what the tablets get: glossary, queries as overlays,
the GM's rulings and calculators in the scenario message."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.autoplay import AutoPlayer, play_out
from engine.cli.play import prompt_lines
from engine.game import Game
from engine.hexes import Hex
from engine.rules.content import QueryInput
from engine.rules.filtwiz.rules import Filtwiz
from engine.scenario import load_scenario
from engine.snapshot import query_to_dict, scenario_to_dict
from tests.engine.test_cli_play import hexa

from .scenarios import scenario, started

AMBUSH = "filtwiz-river-ambush"


def test_the_ambush_has_a_party_of_four_a_flyer_a_river_and_a_house() -> None:
    s = load_scenario(AMBUSH)
    party = [f for f in s.figures if f.fields["party"] == "Dawn company"]
    assert len(party) == 4 and all(f.fields["pc"] for f in party)
    assert any(f.fields["flight"].value == "full" for f in s.figures if f.side == "bandits")
    terrains = {s.board.terrain(h) for h in s.board}  # type: ignore[attr-defined]
    assert {"underwater", "indoor", "blocking"} <= terrains


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_the_auto_player_plays_the_ambush_to_a_winner(seed: int) -> None:
    game = Game(load_scenario(AMBUSH))
    play_out(game, AutoPlayer(seed), max_steps=2000)
    assert game.state.winner in ("explorers", "bandits")


def test_hexa_play_auto_plays_the_ambush_to_its_end(tmp_path: Path) -> None:
    result = hexa(["play", "--auto", "--seed", "2", AMBUSH], tmp_path)
    assert result.returncode == 0, result.stderr
    assert any(line.startswith("Winner: ") for line in result.stdout.splitlines())
    assert "What happened?" in result.stdout and "(★気絶)" in result.stdout  # the GM's verdicts, answered
    assert "w" in result.stdout.split("Winner:")[0]  # the map draws the rule set's own symbols


def test_at_one_terminal_the_verdict_says_the_table_decides() -> None:
    game = Game(load_scenario(AMBUSH))
    player = AutoPlayer(2)
    for _n in range(200):  # the first verdict comes within the first turns
        if game.prompt.gm:
            break
        game.apply(player.choose(game))
    lines = prompt_lines(game, game.prompt)
    assert lines[0].endswith("What happened?") and not lines[0].startswith("GM")
    assert ("  (The rules leave this to the game master; this table plays without one, so the table decides.)"
            in lines)


PARTY = "".join(f"""
[[figures]]
name = "Member {i}"
marker = {i}
side = "explorers"
at = "A{i + 1}"
party = "big"
""" for i in range(7)) + """
[[figures]]
name = "Foe"
marker = 9
side = "bandits"
at = "G1"
"""
COLUMN = "\n".join([".   .   .   .", "  .   .   ."] * 7)


def test_a_party_holds_six_unless_the_gm_allows_more() -> None:
    with pytest.raises(ValueError, match=r"party .big. has 7 members, more than 6.*party_limit = 7"):
        scenario(COLUMN, PARTY)
    assert len(scenario(COLUMN, PARTY, options="party_limit = 7").figures) == 8


def test_the_scenario_message_carries_the_glossary_queries_rulings_and_calculators() -> None:
    sent = scenario_to_dict(load_scenario(AMBUSH))
    terms = {t["term"]: t for t in sent["glossary"]}
    assert {"fan", "line of sight", "full flight", "underwater", "mass combat"} <= set(terms)
    assert "terrain:underwater" in terms["underwater"]["press"]
    queries = {q["name"]: q for q in sent["queries"]}
    assert queries["area"]["takes"] == ["cell", "size"] and queries["seen_by"]["about"] == "cell"
    assert {r["name"] for r in sent["rulings"]} == {"sight", "party_hit", "grounded"}
    assert {c["name"] for c in sent["calculators"]} == {"mass_combat", "duel", "difficulty", "cl_adjustment"}
    assert sent["terrain_marks"] is True


OPEN = "\n".join([".   .   .   .", "  .   .   ."] * 4)
THREE = """
[[figures]]
name = "Mage"
marker = 0
side = "explorers"
at = "B2"
party = "p"
attack = "area"
attack_range = 4
attack_size = 1

[[figures]]
name = "Friend"
marker = 1
side = "explorers"
at = "C2"
party = "p"

[[figures]]
name = "Foe"
marker = 2
side = "bandits"
at = "D2"
"""


def test_shape_previews_show_who_is_inside_friend_or_foe_and_who_is_hit() -> None:
    game = started(scenario(OPEN, THREE))
    board = game.scenario.board
    centre = board.from_label("C2")
    area = query_to_dict(game, "area", "mage", QueryInput(centre, None))["overlay"]
    texts = " | ".join(area["texts"])
    assert "Friend at C2 (friend): spared: the user's party" in texts
    assert "Foe at D2 (foe): hit" in texts
    assert {tuple(c["hex"]) for c in area["cells"]} == {(h.q, h.r) for h in board if h.distance(centre) <= 1}
    bigger = query_to_dict(game, "area", "mage", QueryInput(centre, 2))["overlay"]
    assert len(bigger["cells"]) > len(area["cells"])
    fan = query_to_dict(game, "fan", "mage", QueryInput(board.from_label("D2"), 2))["overlay"]
    assert fan["texts"][0].startswith("fan of range 2") and len(fan["cells"]) <= 4
    reach = query_to_dict(game, "range", "mage", QueryInput(None, 1))["overlay"]
    assert reach["texts"][0] == f"{len(reach['cells'])} hexes within range 1"
    seen = query_to_dict(game, "seen_by", "D2")["overlay"]
    assert {line["target"] for line in seen["lines"]} == {"mage", "friend"}
    assert all(line["verdict"] == "clear" for line in seen["lines"])


def test_the_attack_prompt_offers_only_areas_that_reach_an_enemy_in_sight() -> None:
    game = started(scenario(OPEN, THREE))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    options = rules.attack_options(game.state, "mage")
    assert options and all(o.use.hit and all(f.side == "bandits" for f in o.use.hit) for o in options)
    foe = game.state.figures["foe"].hex
    assert all(o.hex is not None and o.hex.distance(foe) <= 1 for o in options)
    assert Hex(0, 0) not in {o.hex for o in options}
