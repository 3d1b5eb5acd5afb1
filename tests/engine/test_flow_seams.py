"""The smallest rule set on the shared flow: what it need not write, and a turn that wins ends the game there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase, Stage
from engine.flow.steps import GameOver, Step, step
from engine.game import Game
from engine.hexes import Hex
from engine.pathfinding import Reach
from engine.prompts import Option, Prompt, PromptKind
from engine.rules import register
from engine.rules.base import VictoryType
from engine.scenario import load_scenario_text
from engine.state import FigureState, GameState


@step("seams.call")
@dataclass(frozen=True)
class Call(Step):
    """The player calls the game won, or passes."""


def prompt_call(r: FlowRuleSet, state: GameState, s: Call) -> Prompt:
    options = (Option("win", "call it won"), Option("pass", "pass"))
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0], "win or pass?", options=options)


def apply_call(r: FlowRuleSet, state: GameState, s: Call, choice: Choose, events: list[Event]) -> None:
    if choice.option == "win":
        state.add_to_set("called", r.player_sides(state)[0])
    r.end_phase(state, events)  # the call ends the turn, won or not


@register
class Calling(FlowRuleSet):
    """No ranged attacks, no contact: it writes neither ``targets`` nor ``threatened``."""

    name: ClassVar[str] = "seams-calling"
    title: ClassVar[str] = "Calling (a test rule set)"
    victory_types: ClassVar[tuple[VictoryType, ...]] = (VictoryType("call", "call it", default_text="call it won"),)
    flow: ClassVar[Flow] = Flow(phases=(Phase("call", lambda r, s: Call()),), stages=(Stage(Call, prompt_call,
                                                                                             apply_call),))

    def new_state(self) -> GameState:
        figures = {f.id: FigureState(f.id, f.side, f.start) for f in self.scenario.figures}
        state = GameState(self.scenario.id, self.name, figures, {}, {})
        state.step = self.flow.order.first_step(self, state)
        return state

    def victory(self, state: GameState) -> tuple[str, str] | None:
        called = state.turn_sets.get("called", [])
        return (called[0], "called it") if called else None

    def reachable(self, state: GameState, figure: str) -> dict[Hex, Reach]:
        return {}

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        return "nobody moves"


SCENARIO = """
[scenario]
name = "Calling"
ruleset = "seams-calling"
[map]
drawing = '''
.   .
  .
'''
[[sides]]
id = "red"
name = "Red"
[[sides]]
id = "blue"
name = "Blue"
[[figures]]
name = "R"
marker = 1
side = "red"
at = "A1"
[[figures]]
name = "B"
marker = 2
side = "blue"
at = "C1"
"""


def test_a_rule_set_without_ranged_attacks_or_contact_needs_no_targets_or_threatened() -> None:
    game = Game(load_scenario_text(SCENARIO))
    assert game.targets("r") == [] and game.threatened("red") == set()


def test_a_turn_that_wins_ends_the_game_without_starting_the_next_turn() -> None:
    game = Game(load_scenario_text(SCENARIO))
    game.apply(Roll((5, 2)))  # the roll-off for the turn order: Red first
    assert game.prompt.text == "win or pass?" and game.state.active == 0
    game.apply(Choose("pass"))
    assert game.state.active == 1  # Blue's turn
    events = game.apply(Choose("win"))
    assert [e.kind for e in events] == ["victory"]
    assert events[0].text == "Blue wins: called it"
    assert game.state.winner == "blue" and game.state.active == 1 and game.state.round == 1
    assert isinstance(game.state.step, GameOver) and game.prompt.kind is PromptKind.GAME_OVER


def test_a_victory_without_text_reads_as_its_type_says() -> None:
    scenario = load_scenario_text(SCENARIO + '[[victory]]\nside = "red"\ntype = "call"\n')
    assert [v.text for v in scenario.victory] == ["Red: call it won"]
