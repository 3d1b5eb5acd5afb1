"""The victory every rule set shares: the last side standing (a :class:`LastSideStanding` victory type).

A rule set declares it among its ``victory_types`` with its own words and asks it in its ``victory`` hook;
what counts as "still in the fight" is the rule set's (alive by default; Lost Worlds: conscious too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.i18n import N_
from engine.rules.base import VictoryType

if TYPE_CHECKING:
    from engine.state import FigureState, GameState

InFight = Callable[["FigureState"], bool]


def _alive(fig: FigureState) -> bool:
    return fig.alive


def sides_in_fight(state: GameState, in_fight: InFight = _alive) -> set[str]:
    """The sides that still have a figure in the fight."""
    return {f.side for f in state.figures.values() if in_fight(f)}


def last_side_standing(state: GameState, in_fight: InFight = _alive) -> str | None:
    """The one side that still has figures in the fight, or None (several sides, or none)."""
    sides = sides_in_fight(state, in_fight)
    return next(iter(sides)) if len(sides) == 1 else None


@dataclass(frozen=True)
class LastSideStanding(VictoryType):
    """A side wins once no figure of another side is left in the fight.

    ``needs_survivor``: the side must have a figure left itself, so when the last figures of every side fall
    together nobody has won (Fantasy Battle, Filtwiz, Tenkey); without it the side wins then too (Laramie,
    Lost Worlds).
    """

    name: str = "destroy"
    help: str = N_("every enemy figure is down")
    default_text: str = N_("destroy every enemy figure")
    needs_survivor: bool = True

    def won(self, state: GameState, side: str, in_fight: InFight = _alive) -> bool:
        standing = sides_in_fight(state, in_fight)
        return standing == {side} if self.needs_survivor else standing <= {side}
