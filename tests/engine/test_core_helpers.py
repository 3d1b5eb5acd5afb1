"""The helpers every rule set shares: a figure out of the game, the last side standing, names, the first state,
and the shared turn orders that replaced Tenkey's own initiative step and Laramie's own turn start."""

from __future__ import annotations

import pytest

from engine.actions import Choose
from engine.events import Event
from engine.flow.machine import FlowRuleSet
from engine.flow.turns import FirstPlayer, FixedOrder, InitiativeEntered, RollOff, Rounds
from engine.game import Game
from engine.prompts import PromptKind
from engine.rules import registered_rulesets
from engine.rules.victory import LastSideStanding, last_side_standing, sides_in_fight
from engine.scenario import load_scenario
from engine.state import GameState


def _tutorial() -> Game:
    return Game(load_scenario("tutorial"))


def test_kill_marks_the_figure_out_and_awaits_its_removal_once() -> None:
    state = _tutorial().state
    fid = next(iter(state.figures))
    state.kill(fid)
    state.kill(fid)  # told twice (a fall and a wound at once): still one removal to confirm
    assert not state.figures[fid].alive and state.pending_removals == [fid]


def _only(state: GameState, *standing: str) -> None:
    for f in state.figures.values():
        f.alive = f.side in standing


def test_the_last_side_standing_with_and_without_a_survivor_of_its_own() -> None:
    state = _tutorial().state
    sides = sorted({f.side for f in state.figures.values()})
    a, b = sides
    strict, lenient = LastSideStanding(), LastSideStanding(needs_survivor=False)
    _only(state, a, b)
    assert sides_in_fight(state) == {a, b} and last_side_standing(state) is None
    assert not strict.won(state, a) and not lenient.won(state, a)
    _only(state, a)
    assert last_side_standing(state) == a and strict.won(state, a) and lenient.won(state, a)
    assert not strict.won(state, b) and not lenient.won(state, b)
    _only(state)  # the last of both fall together
    assert last_side_standing(state) is None and not strict.won(state, a) and lenient.won(state, a)
    _only(state, a, b)
    assert lenient.won(state, a, in_fight=lambda f: f.alive and f.side == a)  # the rule set's own test


def test_every_flow_rule_set_names_figures_by_their_scenario_names() -> None:
    game = _tutorial()
    rules = game.rules
    assert isinstance(rules, FlowRuleSet)
    for spec in game.scenario.figures:
        assert rules.name_of(spec.id) == spec.name
    side = game.scenario.sides[0]
    assert rules.name_of(side.id) == side.name and rules.name_of("nobody") == "nobody"


def test_the_shared_new_state_puts_every_figure_on_its_start_and_asks_the_turn_order() -> None:
    for cls in registered_rulesets():
        if not issubclass(cls, FlowRuleSet):
            continue
        for sid in cls.scenarios():
            game = Game(load_scenario(sid))
            starts = {f.id: f.start for f in game.scenario.figures}
            assert {fid: f.hex for fid, f in game.state.figures.items()} == starts, sid
            assert game.state.step.kind in ("order", "first_player") or isinstance(cls.flow.order, Rounds), sid


def test_tenkeys_initiative_is_the_shared_entered_initiative() -> None:
    game = Game(load_scenario("tenkey-skirmish"))
    assert isinstance(game.rules.flow.order, InitiativeEntered)  # type: ignore[attr-defined]
    assert isinstance(game.state.step, FirstPlayer)
    prompt = game.prompt
    assert prompt.kind is PromptKind.CHOOSE and [o.id for o in prompt.options] == ["0", "1"]
    events = game.apply(Choose("1"))
    assert game.state.turn_order == [1, 0] and game.state.active == 0 and game.state.round == 1
    assert [e.kind for e in events][:2] == ["initiative", "turn"]


def test_laramies_rounds_start_without_a_players_turn() -> None:
    game = Game(load_scenario("laramie-station"))
    order = game.rules.flow.order  # type: ignore[attr-defined]
    assert isinstance(order, Rounds) and not isinstance(order, FixedOrder)
    assert game.state.round == 1 and game.state.turn_order == list(range(len(game.scenario.players)))
    events: list[Event] = []
    order.next_turn(game.rules, game.state, events)  # type: ignore[arg-type]
    assert game.state.round == 2 and [e.kind for e in events] == ["turn"] and events[0].data == {"round": 2}


def test_a_figure_roll_off_needs_the_rule_sets_word_for_what_it_orders() -> None:
    game = _tutorial()
    with pytest.raises(NotImplementedError, match="figures_ordered"):
        game.rules.figures_ordered(game.state, RollOff((("a",),), of="figures"), ("a",), [])  # type: ignore[attr-defined]
