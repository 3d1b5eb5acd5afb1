"""The optional regeneration rule's wraith: immaterial while it regenerates, then it touches whoever stands in it."""

from __future__ import annotations

from engine.rules.lost_worlds.condition import HP, IMMATERIAL
from tests.lost_worlds.tower import choose, game, options, tower

FLOOR = """
0   0   0
  0   0
0   0   0
  0   0
"""


def test_a_regenerating_wraith_is_passed_entered_and_then_touches() -> None:
    s = tower(FLOOR, ({"name": "Hero", "side": "a", "at": "A1", "height": 4, "hp": 12},
                      {"name": "Wraith", "side": "b", "at": "B1", "height": 5, "hp": 9,
                       "abilities": ["wraith", "regeneration", "undead"]}), options="regeneration = true")
    g = game(s, first="b")
    g.state.figures["wraith"].values[HP] = 4
    assert "regenerate" in options(g)
    choose(g, "regenerate")
    assert g.state.figures["wraith"].flag(IMMATERIAL)
    choose(g, "end")
    choose(g, "keep")
    # The hero: the wraith has no battle range, so no block; it walks into the wraith's space and stays there.
    choose(g, "to-B1")
    assert options(g)[0] == "end"
    choose(g, "end")
    choose(g, "keep")
    p = g.prompt
    assert p.side == "b" and p.figure == "hero" and "takes shape on Hero" in p.text
    choose(g, "touch-C1")
    choose(g, "3")
    hero, wraith = g.state.figures["hero"], g.state.figures["wraith"]
    assert hero.values[HP] == 9 and wraith.values[HP] == 9 and not wraith.flag(IMMATERIAL)
    assert hero.hex == s.board.from_label("C1")


def test_without_the_option_nobody_regenerates() -> None:
    s = tower(FLOOR, ({"name": "Hero", "side": "a", "at": "A1", "height": 4},
                      {"name": "Wraith", "side": "b", "at": "E2", "height": 5,
                       "abilities": ["wraith", "regeneration"]}))
    g = game(s, first="b")
    assert "regenerate" not in options(g)
