"""Prompts: what the table must do next, precise enough for the tablet to show as-is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.board.base import Cell
from engine.i18n import gettext_for
from engine.overlays import Overlay
from engine.pathfinding import Reach

_ = gettext_for(__name__)


class Decider(Enum):
    """Who gives a prompt's answer at this table (a prompt's ``gm`` and whether the table has a game master)."""

    PLAYERS = "players"  # the players (every prompt the rules do not leave to a GM)
    GM = "gm"  # the game master: only the GM's tablet answers
    TABLE = "table"  # the rules leave it to a GM, and this table plays without one: the table decides


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
    hex: Cell | None = None
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
    moves: Mapping[Cell, Reach] = field(default_factory=dict)
    note: str = ""  # why this prompt (e.g. "tie: both roll again")
    gm: bool = False  # the answer is the game master's to give: the rules say the GM decides (see Decider)
    overlay: Overlay | None = None  # what the board shows while the prompt waits (the line a GM rules on)

    def decider(self, gm_at_table: bool) -> Decider:
        """Who answers this prompt at a table with (``gm_at_table``) or without a game master."""
        if not self.gm:
            return Decider.PLAYERS
        return Decider.GM if gm_at_table else Decider.TABLE

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)


def decider_text(decider: Decider) -> str:
    """Who decides, in one sentence for people; empty when the players answer as always."""
    if decider is Decider.GM:
        return _("The game master decides: only the GM's tablet answers.")
    if decider is Decider.TABLE:
        return _("The rules leave this to the game master; this table plays without one, so the table decides.")
    return ""
