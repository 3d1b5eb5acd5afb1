"""A line in doubt: nudged one way it reads otherwise than nudged the other (``sight``), so the shot differs.

The two players — the shooter's side and the target's — roll 1d10 each; the higher chooses which reading
counts, a tie rolls again (the rules' third reading). The choice holds for the rest of the shooter's go (it
is kept in the game state's rulings and forgotten when the next unit has its go); the chosen attack then goes
on as the reading gives it, or the unit chooses again when that reading blocks the line.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import gettext_for
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.state import GameState

from . import combat, dice
from .fire import Shot
from .sight import MINUS, PLUS
from .steps import Act, LineChoice, LineRollOff

if TYPE_CHECKING:
    from .rules import Laramie

_ = gettext_for(__name__)


def prompt_line_roll_off(r: Laramie, state: GameState, step: LineRollOff) -> Prompt:
    shooter = state.figures[step.order[step.index]]
    target = state.figures[step.target]
    who = {"name": r.name_of(shooter.id), "target": r.name_of(target.id), "a": r.side_name(shooter.side),
           "b": r.side_name(target.side)}
    text = (_("Tie: {a} and {b} roll 1d10 again for the line from {name} to {target}.", **who) if step.tied else
            _("The line from {name} to {target} runs along a side or through a corner, and nudged one way it reads "
              "otherwise than nudged the other: {a} and {b} roll 1d10 each, the higher chooses.", **who))
    return Prompt(PromptKind.ROLL, shooter.side, text, figure=shooter.id,
                  dice=(DieRequest(shooter.side, dice.DIE, _("line roll-off"), shooter.id),
                        DieRequest(target.side, dice.DIE, _("line roll-off"), target.id)),
                  outcomes=((Outcome(1, dice.DIE, _("higher chooses")),), (Outcome(1, dice.DIE, _("higher chooses")),)),
                  chances=(Chance(_("{side} chooses", side=who["a"]), 0.5),
                           Chance(_("{side} chooses", side=who["b"]), 0.5)))


def apply_line_roll_off(r: Laramie, state: GameState, step: LineRollOff, roll: Roll, events: list[Event]) -> None:
    shooter = state.figures[step.order[step.index]]
    target = state.figures[step.target]
    a, b = roll.values
    who = {"a": r.side_name(shooter.side), "b": r.side_name(target.side), "a_die": a, "b_die": b}
    if a == b:
        events.append(Event("rolled", _("Line roll-off: {a} {a_die}, {b} {b_die} — a tie, roll again.", **who),
                            {"values": [a, b]}))
        state.step = replace(step, tied=True)
        return
    side = shooter.side if a > b else target.side
    events.append(Event("rolled", _("Line roll-off: {a} {a_die}, {b} {b_die} — {winner} to choose.",
                                    winner=r.side_name(side), **who), {"values": [a, b], "side": side}))
    state.step = LineChoice(step.order, step.index, step.shot, step.action, step.target, side)


def _reading_text(shot: Shot, way: int) -> str:
    what = (_("{need} — {breakdown}", need=shot.need(), breakdown=shot.breakdown()) if shot.allowed else
            _("no shot: {reason}", reason=shot.reason))
    if shot.kind == "suppressive" and shot.allowed:
        what = _("the line is clear")
    return (_("Nudged one way: {what}", what=what) if way == PLUS else
            _("Nudged the other way: {what}", what=what))


LINE_OPTIONS = ("line_plus", "line_minus")  # the choice's option ids, by reading (sight.PLUS, sight.MINUS)


def prompt_line_choice(r: Laramie, state: GameState, step: LineChoice) -> Prompt:
    shooter = step.order[step.index]
    shot = combat.shot_of(r, state, shooter, step.action)
    readings = shot.readings or (shot, shot)
    opts = tuple(Option(LINE_OPTIONS[way], _reading_text(readings[way], way)) for way in (PLUS, MINUS))
    return Prompt(PromptKind.CHOOSE, step.side, _("{side} won the roll-off: choose how the line from {name} to "
                                                  "{target} counts.", side=r.side_name(step.side),
                                                  name=r.name_of(shooter), target=r.name_of(step.target)),
                  figure=shooter, options=opts)


def apply_line_choice(r: Laramie, state: GameState, step: LineChoice, choice: Choose, events: list[Event]) -> None:
    shooter = step.order[step.index]
    way = LINE_OPTIONS.index(choice.option)
    r.rule_line(state, shooter, step.target, way)
    events.append(Event("ruled", _("Ruled by {side}: {reading}.", side=r.side_name(step.side),
                                   reading=_reading_text(combat.shot_of(r, state, shooter, step.action), way)),
                        {"figure": shooter, "target": step.target, "reading": "plus" if way == PLUS else "minus"}))
    combat.apply(r, state, Act(step.order, step.index, step.shot), Choose(step.action), events)


STAGES = (
    Stage(LineRollOff, prompt_line_roll_off, apply_line_roll_off),
    Stage(LineChoice, prompt_line_choice, apply_line_choice),
)
