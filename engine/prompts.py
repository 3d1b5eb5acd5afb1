"""Prompts: what the table must do next, precise enough for the tablet to show as-is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.pathfinding import Reach

_ = gettext_for(__name__)


class PromptKind(Enum):
    ROLL = "roll"  # roll the listed dice and enter the results
    CHOOSE = "choose"  # pick one of the options
    MOVE = "move"  # move the named figure to one of the listed hexes
    REMOVE = "remove"  # take the named figure off the table
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class DieRequest:
    """One die to roll: who rolls it, how many sides, for which figure and why."""

    roller: str  # side id
    sides: int
    purpose: str
    figure: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What a range of results of one die will mean (``low``–``high`` inclusive)."""

    low: int
    high: int
    text: str

    def label(self) -> str:
        span = str(self.low) if self.low == self.high else f"{self.low}–{self.high}"
        return _("{span}: {text}", span=span, text=self.text)


@dataclass(frozen=True)
class Chance:
    """The probability of an outcome of the whole roll, known before anyone rolls."""

    text: str
    probability: float


@dataclass(frozen=True)
class Option:
    """One choice; ``hex`` when the choice is a place on the board (retreat hex, target)."""

    id: str
    label: str
    hex: Hex | None = None
    figure: str | None = None


@dataclass(frozen=True)
class Prompt:
    kind: PromptKind
    side: str | None  # the side that must act (for opposed rolls, the first roller's side)
    text: str
    figure: str | None = None
    dice: tuple[DieRequest, ...] = ()
    outcomes: tuple[tuple[Outcome, ...], ...] = ()  # per die
    chances: tuple[Chance, ...] = ()
    options: tuple[Option, ...] = ()
    moves: Mapping[Hex, Reach] = field(default_factory=dict)
    note: str = ""  # why this prompt (e.g. "tie: both roll again")

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)
