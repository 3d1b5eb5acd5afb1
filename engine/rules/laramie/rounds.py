"""Rounds: every unit of every side plays each phase; there are no players' turns (the flow's turn order)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.events import Event
from engine.flow.steps import Step
from engine.state import GameState

if TYPE_CHECKING:
    from engine.flow.machine import FlowRuleSet


@dataclass(frozen=True)
class Rounds:
    """Round after round, from the first phase; the players all play in every round."""

    def first_step(self, rules: FlowRuleSet, state: GameState) -> Step:
        state.turn_order = list(range(len(rules.scenario.players)))
        state.round = 1
        state.phase = rules.flow.phases[0].name
        return rules.flow.phases[0].enter(rules, state)

    def next_turn(self, rules: FlowRuleSet, state: GameState, events: list[Event]) -> None:
        state.round += 1
        rules.start_turn(state, events)
