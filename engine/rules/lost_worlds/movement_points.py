"""Movement points and the movement chart's rows: what a character has left to spend, and what one chart action
costs it (starred actions never share a turn with a run; a jump makes a character that has not run yet run).

One option of the movement prompt is a :class:`ChartChoice`: the option shown and the chart action it takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.prompts import Option
from engine.state import FigureState

from . import chart
from .condition import (
    DOWN,
    HELD,
    MP,
    RAN,
    RAN_LAST_TURN,
    STARRED,
)

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)


@dataclass(frozen=True)
class ChartChoice:
    """One thing a character may do now: the prompt's option and what it does."""

    option: Option
    action: str  # a movement chart id, or "end"
    cost: int = 0
    to: Hex | None = None
    target: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


def mp(fig: FigureState) -> int:
    return int(fig.values.get(MP, 0))


def spend(fig: FigureState, points: int) -> None:
    fig.values[MP] = max(0, mp(fig) - points)


def may_run(fig: FigureState) -> bool:
    """Not two turns running, not after a starred action, not while down or held."""
    return not (fig.flag(RAN) or fig.flag(RAN_LAST_TURN) or fig.flag(STARRED) or fig.flag(DOWN)
                or fig.flag(HELD))


def starred_ok(fig: FigureState) -> bool:
    return not fig.flag(RAN)


def row_choice(r: LostWorlds, action: str, fid: str, text: str = "") -> ChartChoice:
    row = chart.action(action)
    cost = _("{cost} MP", cost=row.cost) if not row.all_points else _("all movement points")
    said = dict(action=text or row.name, cost=cost)
    label = _("{action} ({cost}, starred)", **said) if row.starred else _("{action} ({cost})", **said)
    return ChartChoice(Option(action, label), action, row.cost)


def jump_budget(fig: FigureState, left: int) -> int:
    """The points a jump may spend: a jump makes a character that has not run yet run, so the run's bonus counts."""
    return left + (chart.run_bonus() if not fig.flag(RAN) else 0)


def why_starred(r: LostWorlds, fig: FigureState, action: str, left: int) -> str:
    """Why a chart action cannot be paid now (its points, a run this turn), or ""."""
    row = chart.action(action)
    if row.starred and fig.flag(RAN):
        return _("{action} is starred: not in a turn {name} runs", action=row.name, name=r.name_of(fig.id))
    if left < row.cost:
        return _("{action} costs {cost} MP; {left} left", action=row.name, cost=row.cost, left=left)
    return ""
