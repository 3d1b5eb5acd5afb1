"""The state-update phase: lowest combat value first; each state's choices; suppressed units turn back by
themselves; a morale-broken unit rolls to recover (a scenario option)."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.prompts import PromptKind
from tests.laramie.town import choose, fig, move, play, roll, set_unit, town


def game(morale: bool = False) -> Game:
    return Game(town({"gary": {"side": "a", "at": "B2", "combat": 8},
                      "jack": {"side": "a", "at": "B3", "combat": 3},
                      "jesse": {"side": "b", "at": "P8", "combat": 6}}, morale=morale))


def test_the_state_update_goes_lowest_combat_value_first() -> None:
    g = game()
    seen = []
    while g.state.phase == "state":
        seen.append(g.prompt.figure)
        g.apply(choose("normal"))
    assert seen == ["jack", "jesse", "gary"]


@pytest.mark.parametrize(("state", "choices"), [
    ("normal", ["normal", "prone", "dash", "jump_prone"]),
    ("prone", ["normal", "prone", "crawl"]),
    ("dash", ["normal", "prone"]),
    ("crawl", ["normal", "prone", "crawl"]),
    ("jump_prone", ["normal", "prone", "crawl"]),
])
def test_each_state_offers_the_states_the_original_lists(state: str, choices: list[str]) -> None:
    g = game()
    set_unit(g, "jack", state=state)
    assert g.prompt.kind is PromptKind.CHOOSE and g.prompt.figure == "jack"
    assert [o.id for o in g.prompt.options] == choices
    play(g, choose(choices[-1]))
    assert fig(g, "jack").values["state"] == choices[-1]


def test_suppressed_units_turn_back_by_themselves() -> None:
    g = Game(town({"gary": {"side": "a", "at": "B2", "combat": 8},
                   "jack": {"side": "a", "at": "B3", "combat": 3, "state": "suppressed_2"},
                   "jesse": {"side": "b", "at": "P8", "combat": 6, "state": "suppressed_1"}}))
    assert g.prompt.figure == "gary"  # the two below him turned by themselves
    assert fig(g, "jack").values["state"] == "suppressed_1" and fig(g, "jesse").values["state"] == "normal"
    texts = play(g, choose("normal"))
    for _ in range(50):  # through the movement and combat phases: nobody moves, nobody fires
        if g.state.phase == "state":
            break
        p = g.prompt
        if p.kind is PromptKind.ROLL:
            texts += play(g, roll(*(5 for _ in p.dice)))
        elif p.kind is PromptKind.MOVE:
            assert p.figure is not None
            texts += play(g, move(g, p.figure, g.scenario.board.label(fig(g, p.figure).hex)))  # type: ignore[arg-type]
        else:
            texts += play(g, choose("hold"))
    assert "Jack: suppressed-1 → normal." in texts  # the next round's update


def test_a_morale_broken_unit_recovers_to_suppressed_2_on_its_combat_value_or_less() -> None:
    g = game(morale=True)
    set_unit(g, "jack", state="broken")
    assert g.prompt.kind is PromptKind.ROLL and g.prompt.dice[0].sides == 10
    assert "3 or less" in g.prompt.text
    assert play(g, roll(4)) == ["Jack rolls 4: stays morale broken."]
    g = game(morale=True)
    set_unit(g, "jack", state="broken")
    assert play(g, roll(3)) == ["Jack rolls 3: recovers, suppressed-2."]
    assert fig(g, "jack").values["state"] == "suppressed_2"


def test_the_badge_shows_the_state_in_text_and_the_hp() -> None:
    g = game()
    set_unit(g, "jack", state="prone", hp=2)
    assert g.rules.badges(g.state, "jack") == ("[P] prone", "HP 2")
