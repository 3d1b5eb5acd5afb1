"""A whole scripted game: two turns of movement, blocking, combat, falls, recovery and the coup de grâce, to victory."""

from __future__ import annotations

from engine.prompts import PromptKind
from engine.rules.lost_worlds.condition import HP, UNCONSCIOUS
from tests.lost_worlds.tower import FLAT_3x3, choose, game, options, roll, tower


def test_a_scripted_game_to_its_end() -> None:
    s = tower(FLAT_3x3, (
        {"name": "Hero", "side": "a", "at": "A2", "height": 4, "hp": 12},
        {"name": "Orc", "side": "b", "at": "C2", "height": 4, "hp": 6},
        {"name": "Goblin", "side": "b", "at": "E3", "height": 3, "hp": 5},
    ))
    g = game(s)  # turn 1: the heroes move first
    choose(g, "to-B2")  # next to the orc: it may block the hero there
    if g.prompt.options and options(g) == ["block", "pass"]:
        choose(g, "pass")
    choose(g, "end")
    choose(g, "keep")
    for who in ("orc", "goblin"):  # the monsters stand
        if g.prompt.kind is PromptKind.CHOOSE and who in options(g):
            choose(g, who)
        choose(g, "end")
        choose(g, "keep")
    # Combat phase: the hero attacks the orc; one book round knocks it out.
    assert "hero:orc" in options(g)
    choose(g, "hero:orc")
    choose(g, "1")
    choose(g, "normal")
    choose(g, "6")  # the orc to 0: unconscious, its state is not asked
    state = g.state
    assert state.figures["orc"].flag(UNCONSCIOUS) and state.figures["hero"].values[HP] == 11
    # The monsters have no combat to start (the goblin has nobody in range): on to the fall checks.
    assert g.prompt.kind is PromptKind.ROLL and "Fall check: Hero" in g.prompt.text
    roll(g, 2)  # the hero's fall check: nothing
    assert g.prompt.kind is PromptKind.ROLL and "initiative" in g.prompt.text  # the goblin still stands
    roll(g, 6, 1)  # turn 2
    choose(g, "to-C2")  # into the unconscious orc's space
    choose(g, "coup-orc")
    assert g.state.figures["hero"].values["mp"] == 0 and options(g) == ["end", "lie_down"]
    choose(g, "end")
    choose(g, "keep")
    choose(g, "to-D2")  # the goblin closes in, 1 + 1 + 1 of its 3 points as it likes
    if options(g) == ["block", "pass"]:
        choose(g, "pass")
    choose(g, "end")
    choose(g, "keep")
    # End of movement: the orc rolls for recovery with +3: a 6 is held to 8: 0 → -3.
    assert "roll 1d6 +3" in g.prompt.text
    roll(g, 6)
    assert g.state.figures["orc"].values[HP] == -3
    choose(g, "hero:goblin")
    choose(g, "0")
    choose(g, "normal")
    choose(g, "5")  # the goblin to 0
    roll(g, 1)  # the hero's fall check
    assert g.over and g.state.winner == "a"
    last = g.history[-1].events[-1].text
    assert last.startswith("Heroes win:")
