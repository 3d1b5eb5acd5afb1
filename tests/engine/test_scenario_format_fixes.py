"""Scenario mistakes that used to load without a word, or with a misleading message."""

from __future__ import annotations

import pytest

from engine.cli.play import points_lines
from engine.errors import ScenarioError
from engine.game import Game
from engine.rules.fantasy_battle import FantasyBattle
from engine.scenario import load_scenario_text

BASE = """
[scenario]
name = "Mistakes"
ruleset = "fantasy-battle"

[map]
drawing = '''
.   #   #   .
  ~   #   o
.   .   .   T
  .   .   .
'''
walls = ["A1|B1"]
doors = ["A2|B2"]

[[sides]]
id = "red"
[[sides]]
id = "blue"

[[figures]]
name = "Red Knight"
marker = 1
side = "red"
at = "A1"

[[figures]]
name = "Blue Knight"
marker = 2
side = "blue"
at = "G2"

[[victory]]
side = "red"
type = "bring"
token = "treasure"
to = ["A2"]
"""


def load(text: str) -> object:
    return load_scenario_text(text, "m.toml")


def test_the_base_loads() -> None:
    s = load_scenario_text(BASE)
    assert s.warnings == () and [v.type for v in s.victory] == ["bring"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # a figure starting where no figure may stand
        (('at = "A1"', 'at = "C1"'), r"line 25: figure 'Red Knight' starts at C1, a blocking hex no figure may stand"),
        (('at = "A1"', 'at = "B1"'), r"line 25: .* starts at B1, a water hex"),
        (('at = "A1"', 'at = "F1"'), r"line 25: .* starts at F1, a low obstacle hex.*Fix: start it on a floor hex"),
        # one side both a wall and a door; a door nobody can reach
        (('doors = ["A2|B2"]', 'doors = ["B1|A1"]'),
         r"line 14: doors entry 'B1\|A1' is already listed in walls. Fix: list each side once"),
        (('doors = ["A2|B2"]', 'doors = ["C1|E1"]'), r"line 14: doors entry 'C1\|E1' joins hexes that are not neigh"),
        (('doors = ["A2|B2"]', 'doors = ["C1|D1"]'), r"line 14: doors entry 'C1\|D1' is a door between two blocking"),
        # off the map: named as such, not as "not neighbours"
        (('walls = ["A1|B1"]', 'walls = ["G1|H1"]'),
         r"line 13: walls entry 'G1\|H1' touches a hex that is not on the map: H1 is not on the map"),
        (('walls = ["A1|B1"]', 'walls = ["A1|M4"]'), r"not neighbours, and M4 is not on the map"),
        # a short row of the drawing
        (("  .   .   .\n'''", "  .   .\n'''"),
         r"line 11: the map drawing is wrong: line 4 of the drawing stops earlier than the other rows; draw '-'"),
        (("  ~   #   o\n", "      #   o\n"), r"line 9: .*line 2 of the drawing starts later than the other rows"),
        # a letter is not silently floor in a scenario
        (("  ~   #   o\n", "  K   #   o\n"), r"line 9: the map drawing is wrong: unknown map symbol 'K'.*T treasure"),
        # a victory hex off the map
        (('to = ["A2"]', 'to = ["Z9"]'), r"line 37: 'to' names Z9, which is not on the map"),
        # a colour the tablets do not have
        (('id = "blue"', 'id = "blue"\ncolour = "turquoise"'), r"'colour' 'turquoise' is not one of the allowed"),
    ],
)
def test_mistakes_are_refused_with_the_line_and_the_fix(change: tuple[str, str], message: str) -> None:
    assert change[0] in BASE
    with pytest.raises(ScenarioError, match=message):
        load(BASE.replace(*change, 1))


def test_levels_fantasy_battle_ignores_are_a_warning_shown_when_the_game_starts() -> None:
    text = BASE.replace("walls =", "levels = '''\n0   1   1   0\n'''\nwalls =")
    s = load_scenario_text(text, "m.toml")
    assert s.warnings == ("m.toml, line 13: Hexa-System Fantasy Battle has no height levels; the map's levels are "
                          "drawn on the tablets but change nothing in play",)
    assert any("has no height levels" in line for line in points_lines(Game(s)))


def test_an_option_of_the_wrong_type_says_the_type_in_words() -> None:
    with pytest.raises(ValueError, match=r"option 'shooting_range' must be a whole number \(longest shot"):
        FantasyBattle.validate_options({"shooting_range": "far"})
