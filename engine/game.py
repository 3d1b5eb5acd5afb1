"""A game in play: one scenario, its rule set, the state, and the actions that led there.

Actions are applied to a copy of the state, so a refused action changes nothing. Undo restores the
snapshot taken before the last action (cheap and exact, like python-chess's move stack).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

from engine.action_sentences import action_sentence
from engine.actions import Action
from engine.board.base import Cell
from engine.events import Event
from engine.i18n import gettext_for
from engine.pathfinding import Reach
from engine.prompts import Prompt
from engine.rules import find_ruleset
from engine.rules.base import RuleSet, TargetInfo
from engine.scenario import Scenario
from engine.state import GameState

_ = gettext_for(__name__)


@dataclass(frozen=True)
class Played:
    """One applied action with what it caused."""

    action: Action
    events: tuple[Event, ...]


class Game:
    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.rules: RuleSet = find_ruleset(scenario.ruleset)(scenario)
        self.state: GameState = self.rules.new_state()
        self.history: list[Played] = []
        self._snapshots: list[GameState] = []
        self._prompt: Prompt | None = None
        self._sentences: dict[int, str] = {}  # history entry (1-based) → its sentence, once said

    @classmethod
    def replay(cls, scenario: Scenario, actions: list[Action]) -> Game:
        game = cls(scenario)
        for action in actions:
            game.apply(action)
        return game

    @property
    def prompt(self) -> Prompt:
        if self._prompt is None:
            self._prompt = self.rules.prompt(self.state)
        return self._prompt

    @property
    def actions(self) -> list[Action]:
        return [p.action for p in self.history]

    @property
    def over(self) -> bool:
        return self.state.winner is not None

    def apply(self, action: Action) -> list[Event]:
        """Apply an action; raises IllegalActionError (and changes nothing) if it does not fit the prompt."""
        trial = copy.deepcopy(self.state)
        events = self.rules.apply(trial, action)
        if self._prompt is not None:  # the prompt it answered is at hand: say it now, for nothing
            self._sentences[len(self.history) + 1] = action_sentence(action, self.scenario, self._prompt, self.state)
        self._snapshots.append(self.state)
        self.state = trial
        self.history.append(Played(action, tuple(events)))
        self._prompt = None
        return events

    def sentence(self, n: int) -> str:
        """History entry ``n`` (1-based) as a sentence people read (:mod:`engine.action_sentences`)."""
        said = self._sentences.get(n)
        if said is None:
            before = self._snapshots[n - 1]
            prompt = self.rules.prompt(copy.deepcopy(before))  # a replayed game never asked: ask the state it had
            said = self._sentences[n] = action_sentence(self.history[n - 1].action, self.scenario, prompt, before)
        return said

    def undo(self) -> Played:
        """Take back the last action; returns it. Raises IndexError when nothing was played."""
        if not self.history:
            raise IndexError(_("nothing to undo: no action has been played yet"))
        self.state = self._snapshots.pop()
        self._prompt = None
        self._sentences.pop(len(self.history), None)
        return self.history.pop()

    def replace_state(self, state: GameState) -> None:
        """Put a state in place outside the rules (the service's overrides: "accept this move anyway").

        Undo still restores the snapshot taken before the last action.
        """
        self.state = state
        self._prompt = None

    def reachable(self, figure: str) -> Mapping[Cell, Reach]:
        return self.rules.reachable(self.state, figure)

    def targets(self, figure: str) -> list[TargetInfo]:
        return self.rules.targets(self.state, figure)

    def threatened(self, side: str) -> set[Cell]:
        return self.rules.threatened(self.state, side)

    def points(self) -> dict[str, int]:
        return self.rules.points()
