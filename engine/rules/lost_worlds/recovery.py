"""Recovering consciousness: at the end of each movement phase unconscious characters roll the recovery table.

The die (with modifiers, such as +3 after a coup de grâce, clamped to 0..8) and the current hit points
(0 to -4) give the new hit points, or death. Undead never roll it; nor does a character whose body was
moved while unconscious this turn (the ``moved`` mark, set where a body is put down: see ``condition.move_body``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import gettext_for
from engine.prompts import Chance, DieRequest, Outcome, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import chart, scenario_fields
from .condition import COUP, HP, LOWEST_UNCONSCIOUS, MOVED, UNCONSCIOUS, hp, settle_hp
from .steps import RecoveryRoll

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

DEAD = "D"


def recover(current_hp: int, die: int) -> int | None:
    """The new hit points for an unconscious character's (modified) die; None: it dies."""
    rules = chart.recovery_rules()
    column = min(max(die, rules["lowest_die"]), rules["highest_die"])
    row = chart.recovery_rows()[min(0, max(LOWEST_UNCONSCIOUS, current_hp))]
    result = row[column - rules["lowest_die"]]
    return None if result == DEAD else int(result)


def rollers(r: LostWorlds, state: GameState) -> tuple[str, ...]:
    """The unconscious characters that roll: not undead, not moved during the phase."""
    return tuple(f.id for f in state.alive() if f.flag(UNCONSCIOUS) and not f.flag(MOVED)
                 and not r.has(f.id, scenario_fields.UNDEAD))


def _bonus(fig: FigureState) -> int:
    return int(fig.values.get(COUP, 0))


def prompt_recovery(r: LostWorlds, state: GameState, step: RecoveryRoll) -> Prompt:
    fig = state.figures[step.figures[0]]
    bonus = _bonus(fig)
    now = hp(fig)
    outcomes = []
    awake = dead = 0
    for d in range(1, 7):
        new = recover(now, d + bonus)
        if new is None:
            words = _("dies")
        elif new > 0:
            words = _("{hp} hit points (awake)", hp=new)
        else:
            words = _("{hp} hit points", hp=new)
        outcomes.append(Outcome(d, d, words))
        awake += int(new is not None and new > 0)
        dead += int(new is None)
    if bonus:
        text = _("{name} is unconscious at {hp} hit points: roll 1d6 {bonus:+d} (coup de grâce) on the recovery table.",
                 name=r.name_of(fig.id), hp=now, bonus=bonus)
    else:
        text = _("{name} is unconscious at {hp} hit points: roll 1d6 on the recovery table.", name=r.name_of(fig.id),
                 hp=now)
    return Prompt(PromptKind.ROLL, fig.side, text, figure=fig.id,
                  dice=(DieRequest(fig.side, 6, _("recovery"), fig.id),), outcomes=(tuple(outcomes),),
                  chances=(Chance(_("comes round"), awake / 6), Chance(_("dies"), dead / 6)))


def apply_recovery(r: LostWorlds, state: GameState, step: RecoveryRoll, roll: Roll, events: list[Event]) -> None:
    fig = state.figures[step.figures[0]]
    die = roll.values[0] + _bonus(fig)
    fig.mark(COUP, None)
    new = recover(hp(fig), die)
    if new is None:
        fig.values[HP] = LOWEST_UNCONSCIOUS - 1
    else:
        fig.values[HP] = new
    words = settle_hp(state, fig) or _("stays unconscious")
    result = _("dead") if new is None else _("{hp} hit points", hp=new)
    events.append(Event("recovery", _("Recovery: {name} rolls {die} — {words} ({result}).", name=r.name_of(fig.id),
                                      die=roll.values[0], words=words, result=result), {"figure": fig.id, "die": die}))
    rest = step.figures[1:]
    if rest:
        state.step = RecoveryRoll(rest)
    else:
        r.start_combat(state, events)


STAGES = (Stage(RecoveryRoll, prompt_recovery, apply_recovery),)
