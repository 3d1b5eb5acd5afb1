"""Small Filtwiz scenarios written in the scenario format, for tests of whole turns."""

from __future__ import annotations

from engine.game import Game
from engine.scenario import Scenario, load_scenario_text

HEAD = """
[scenario]
id = "filtwiz-test"
name = "Test"
ruleset = "filtwiz"

[map]
orientation = "flat"
hex_across_flats_mm = 50
drawing = \"\"\"
{drawing}
\"\"\"

[[sides]]
id = "explorers"
name = "Explorers"
colour = "red"

[[sides]]
id = "bandits"
name = "Bandits"
colour = "blue"
"""

# An archer in A1 that stays put, with range 3, and a bandit in B2: on a map with rocks in B1 and A2 its line to
# the bandit runs along the side the rocks share (the sight ruling's tests).
ARCHER_AND_BANDIT = """
[[figures]]
name = "Archer"
marker = 0
side = "explorers"
at = "A1"
movement = 0
attack_range = 3

[[figures]]
name = "Bandit"
marker = 1
side = "bandits"
at = "B2"
movement = 0
"""


def scenario(drawing: str, figures: str, options: str = "") -> Scenario:
    """A scenario on ``drawing`` (the scenario format's map drawing) with the ``[[figures]]`` given."""
    text = HEAD.format(drawing=drawing.strip("\n"))
    if options:
        text = text.replace("[map]", f"[options]\n{options}\n\n[map]")
    return load_scenario_text(text + figures, "test scenario")


def started(s: Scenario, first: str = "explorers") -> Game:
    """A game past the roll-off, ``first`` to play."""
    from engine.actions import Roll

    game = Game(s)
    game.apply(Roll((6, 1) if first == "explorers" else (1, 6)))
    return game
