"""The state-update phase, lowest combat value first: each unit chooses its state from those its present
state allows, turns into the next by itself (suppressed-2 → suppressed-1 → normal), or, morale broken,
rolls 1d10: at or under its combat value it recovers to suppressed-2."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import N_, gettext_for
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.state import GameState

from . import dice, units
from .data import states
from .steps import UpdateState

if TYPE_CHECKING:
    from .rules import Laramie

_ = gettext_for(__name__)

# What each state means, on the choice.
MEANS = {
    units.NORMAL: N_("moves 1 hex, fires"),
    units.PRONE: N_("does not move; fires from open ground at −2"),
    units.DASH: N_("moves 2 hexes, cannot fire"),
    units.CRAWL: N_("moves 1 hex lying prone, cannot fire"),
    units.JUMP_PRONE: N_("jumps 1 hex and lies prone on 1d10 ≦ combat value (else suppressed-1); fires from open "
                         "ground at −3"),
}


def enter(r: Laramie, state: GameState) -> UpdateState:
    ranking = sorted(r.ids, key=lambda f: (r.combat_value(f), r.ids.index(f)))  # lowest first; ties: scenario order
    return UpdateState(tuple(f for f in ranking if state.figures[f].alive))


def advance(r: Laramie, state: GameState, step: UpdateState, events: list[Event]) -> None:
    if step.index + 1 < len(step.order):
        state.step = UpdateState(step.order, step.index + 1)
    else:
        r.end_phase(state, events)


def prompt(r: Laramie, state: GameState, step: UpdateState) -> Prompt:
    fid = step.order[step.index]
    fig = state.figures[fid]
    now = units.rules_of(fig)
    name = r.name_of(fid)
    if units.state_of(fig) == units.BROKEN:
        need = r.combat_value(fid)
        ok = dice.chance(0, need)
        return Prompt(PromptKind.ROLL, fig.side, _("{name} is morale broken: roll 1d10 — {need} or less and it "
                                                   "recovers to suppressed-2.", name=name, need=need), figure=fid,
                      dice=(DieRequest(fig.side, dice.DIE, _("morale"), fid),),
                      outcomes=((Outcome(1, need, _("recovers: suppressed-2")), Outcome(need + 1, dice.DIE,
                                 _("stays morale broken"))) if 1 <= need < dice.DIE else (),),
                      chances=(Chance(_("{name} recovers", name=name), ok),))
    options = tuple(Option(c, _("{state}: {means}", state=units.label(c), means=_(MEANS[c]) if c in MEANS else ""))
                    for c in now.choices)
    return Prompt(PromptKind.CHOOSE, fig.side, _("State update: {name} ({state}, combat value {combat}) at {hex} — "
                                                 "choose its state.", name=name, state=units.label(now.name),
                                                 combat=r.combat_value(fid), hex=r.where(state, fid)),
                  figure=fid, options=options)


def apply(r: Laramie, state: GameState, step: UpdateState, answer: Choose | Roll, events: list[Event]) -> None:
    fid = step.order[step.index]
    fig = state.figures[fid]
    name = r.name_of(fid)
    if isinstance(answer, Roll):
        (rolled,) = answer.values
        if dice.succeeds(rolled, 0, r.combat_value(fid)):
            units.set_state(fig, units.SUPPRESSED_2)
            events.append(Event("state", _("{name} rolls {die}: recovers, suppressed-2.", name=name, die=rolled),
                                {"figure": fid, "state": units.SUPPRESSED_2, "values": [rolled]}))
        else:
            events.append(Event("state", _("{name} rolls {die}: stays morale broken.", name=name, die=rolled),
                                {"figure": fid, "state": units.BROKEN, "values": [rolled]}))
    else:
        units.set_state(fig, answer.option)
        events.append(Event("state", _("{name} is {state}.", name=name, state=units.label(answer.option).lower()),
                            {"figure": fid, "state": answer.option}))
    advance(r, state, step, events)


def settle(r: Laramie, state: GameState, step: UpdateState, events: list[Event]) -> bool:
    """A fallen unit is passed over; a suppressed one turns into its next state by itself."""
    if not step.order:
        r.end_phase(state, events)
        return True
    fig = state.figures[step.order[step.index]]
    if not fig.alive:
        advance(r, state, step, events)
        return True
    becomes = states()[units.state_of(fig)].becomes
    if becomes:
        before = units.label(units.state_of(fig)).lower()
        units.set_state(fig, becomes)
        events.append(Event("state", _("{name}: {before} → {after}.", name=r.name_of(fig.id), before=before,
                                       after=units.label(becomes).lower()),
                            {"figure": fig.id, "state": becomes}))
        advance(r, state, step, events)
        return True
    return False


STAGES = (Stage(UpdateState, prompt, apply, settle),)
