"""The shared turn flow: typed steps and their plain form, answer checks, roll-offs, turn orders, contests."""

import json
from typing import ClassVar

import pytest
from fb_tables import Choose, Move, Roll, h, make_game

from engine.errors import IllegalActionError
from engine.flow import contest
from engine.flow.answers import check_answer
from engine.flow.machine import Flow
from engine.flow.steps import Setup, step_from_dict
from engine.flow.turns import InitiativeEachTurn, RollOff, order_by_value, regroup
from engine.flow.words import possessive, verb
from engine.prompts import DieRequest, Prompt, PromptKind
from engine.rules.fantasy_battle import FantasyBattle
from engine.rules.fantasy_battle.steps import MoveStep, Retreat
from engine.state import GameState

FIELD = """
.   .   .   .   .
  .   .   .   .
.   K   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   b
"""


def test_typed_steps_round_trip_through_json_with_the_state() -> None:
    game = make_game(FIELD)
    game.apply(Choose("K"))
    game.apply(Roll((5,)))
    assert isinstance(game.state.step, MoveStep)
    plain = json.loads(json.dumps(game.state.to_dict()))
    k = game.state.figures["K"].hex
    assert k is not None
    assert plain["step"] == {"kind": "move", "figure": "K", "allowance": 3, "start": [k.q, k.r]}
    assert GameState.from_dict(plain) == game.state
    retreat = Retreat("K", "b", (h("C3"), h("D3")))
    assert step_from_dict(json.loads(json.dumps(retreat.to_dict()))) == retreat


def test_the_old_plain_step_forms_still_load() -> None:
    old = step_from_dict({"kind": "order", "groups": [[0, 1]], "tied": True})
    assert old == RollOff((("0", "1"),), tied=True)
    assert step_from_dict({}) == Setup()
    with pytest.raises(ValueError, match="unknown step kind 'teleport'"):
        step_from_dict({"kind": "teleport"})


def ten_sided() -> Prompt:
    return Prompt(PromptKind.ROLL, "red", "roll 1d10", dice=(DieRequest("red", 10, "fire"),))


def test_rolls_are_checked_against_the_dice_the_prompt_asks_for() -> None:
    name, label, why = (lambda s: s), (lambda x: str(x)), (lambda f, x: "no")
    check_answer(ten_sided(), Roll((10,)), name, label, why)
    with pytest.raises(IllegalActionError, match="11 is not a result of a 10-sided die"):
        check_answer(ten_sided(), Roll((11,)), name, label, why)
    with pytest.raises(IllegalActionError, match=r"needs 1 die result\(s\) \(red 1d10\), got 2"):
        check_answer(ten_sided(), Roll((1, 2)), name, label, why)
    with pytest.raises(IllegalActionError, match="answer with the die results"):
        check_answer(ten_sided(), Choose("x"), name, label, why)


def test_a_move_outside_the_prompted_hexes_is_refused_with_the_reason() -> None:
    game = make_game(FIELD)
    game.apply(Choose("K"))
    game.apply(Roll((1,)))
    start = game.state.figures["K"].hex
    assert start is not None
    far = max(game.scenario.board, key=start.distance)
    with pytest.raises(IllegalActionError, match=r"may move 2\. Legal hexes: "):
        game.apply(Move("K", far))


def test_roll_offs_split_by_result_and_keep_ties_together() -> None:
    s = RollOff((("a", "b", "c", "d"),), of="figures")
    s = regroup(s, (3, 5, 3, 1))
    assert s.groups == (("b",), ("a", "c"), ("d",)) and s.pending() == ("a", "c")
    s = regroup(s, (2, 4))
    assert s.settled() and s.order() == ("b", "c", "a", "d")
    low = regroup(RollOff((("x", "y"),), high_first=False, sides=10), (7, 2))
    assert low.order() == ("y", "x")


def test_order_by_value_leaves_ties_for_a_roll_off() -> None:
    values = {"gary": 5, "jack": 3, "jesse": 5, "tom": 2}
    assert order_by_value(values, values.__getitem__, low_first=True) == (("tom",), ("jack",), ("gary", "jesse"))


class InitiativeBattle(FantasyBattle):
    """Fantasy Battle's turn with Lost Worlds' initiative: a roll-off before every round."""

    flow: ClassVar[Flow] = Flow(FantasyBattle.flow.phases, FantasyBattle.flow.stages, InitiativeEachTurn())


def test_initiative_every_round_rolls_again_before_each_round() -> None:
    game = make_game(FIELD, start=False)
    rules = InitiativeBattle(game.scenario)
    state = rules.new_state()
    rules.apply(state, Roll((6, 2)))
    assert state.turn_order == [0, 1] and state.round == 1
    rules.apply(state, Choose("end"))  # red's turn ends: blue plays
    assert state.active == 1
    rules.apply(state, Choose("end"))  # the round ends: initiative again
    p = rules.prompt(state)
    assert p.kind is PromptKind.ROLL and "initiative" in p.text and state.round == 2
    events = rules.apply(state, Roll((1, 4)))
    assert state.turn_order == [1, 0] and any(e.text.startswith("Round 2: blue") for e in events)


def test_contests_resolve_opposed_and_simultaneous_rolls() -> None:
    assert contest.higher(4, 4) is None and contest.higher(2, 5) == 1
    assert contest.first_to_reach(5, 6, 5, 6) == 1  # both reach: the higher die
    assert contest.first_to_reach(5, 6, 5, 6, both="reroll") is None
    assert contest.each_reaches((1, 9), (5, 5), at_most=True) == (True, False)
    p = contest.odds(lambda a, b: contest.higher(a, b), (6, 6))
    assert p == {0: pytest.approx(0.5), 1: pytest.approx(0.5)}
    assert contest.odds(lambda a: a if a > 8 else None, (10,)) == {9: 0.5, 10: 0.5}


def test_words_agree_with_side_names() -> None:
    assert verb("Goblins", "rolls", "roll") == "Goblins roll" and verb("Red", "rolls", "roll") == "Red rolls"
    assert possessive("Goblins") == "Goblins'" and possessive("Red") == "Red's"
