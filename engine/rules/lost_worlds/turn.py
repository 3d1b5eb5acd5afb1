"""The round after the movement phase: recovery, the combat phase, the fall checks, the victory check.

Players move in initiative order (the flow's turns); when the last has moved, unconscious characters
roll for recovery, regeneration and mana recovery take effect, the players start combats in initiative
order, those who ran or fought roll the fall check, and the victory check ends the round (a new
initiative roll starts the next).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import Event
from engine.i18n import gettext_for, ngettext_for
from engine.state import GameState
from engine.texts import join_list

from . import falling, objects, recovery, scenario_fields, wraith
from .condition import (
    CARRY_PAID,
    FOUGHT,
    HARD_PUSHER,
    HELD,
    HP,
    MANA,
    MANA_LEFT,
    MOVED,
    RAN,
    RAN_LAST_TURN,
    REGEN,
    STARRED,
    conscious,
    out_of_fight,
    start_turn,
)
from .steps import FallCheck, PickFight, RecoveryRoll

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


def after_movement(r: LostWorlds, state: GameState, events: list[Event]) -> None:
    """The movement phase is over: wraiths take shape, regeneration and mana recovery, then the recovery rolls."""
    if wraith.materialise(r, state, events):
        return  # a touch first; its last step comes back here
    _regenerate(r, state, events)
    state.phase = "recovery"
    who = recovery.rollers(r, state)
    if who:
        state.step = RecoveryRoll(who)
    else:
        start_combat(r, state, events)


def _regenerate(r: LostWorlds, state: GameState, events: list[Event]) -> None:
    for fig in state.alive():
        gain, mana = int(fig.values.get(REGEN, 0)), int(fig.values.get(MANA_LEFT, 0))
        fig.mark(REGEN, None)
        fig.mark(MANA_LEFT, None)
        if not (gain or mana):
            continue
        if r.spaces.enemies_in_range(state, fig):
            events.append(Event("no_regeneration", _("{name} ends the movement phase in an enemy's battle range: no "
                                                     "regeneration or mana recovery.", name=r.name_of(fig.id)),
                                {"figure": fig.id}))
            continue
        spec = r.specs[fig.id]
        if gain:
            fig.values[HP] = min(scenario_fields.hit_points(spec), int(fig.values.get(HP, 0)) + gain)
            events.append(Event("regenerated", _("{name} regenerates to {hp} hit points.", name=r.name_of(fig.id),
                                                 hp=fig.values[HP]), {"figure": fig.id}))
        if mana:
            fig.values[MANA] = min(scenario_fields.mana(spec), int(fig.values.get(MANA, 0)) + mana)
            events.append(Event("mana", _("{name} recovers mana to {mana}.", name=r.name_of(fig.id),
                                          mana=fig.values[MANA]), {"figure": fig.id}))


def start_combat(r: LostWorlds, state: GameState, events: list[Event]) -> None:
    state.phase = "combat"
    state.active = 0
    events.append(Event("phase", _("Combat phase: players start combats in initiative order."), {"phase": "combat"}))
    state.step = PickFight()


def next_combat_player(r: LostWorlds, state: GameState, events: list[Event]) -> None:
    if state.active + 1 < len(state.turn_order):
        state.active += 1
        state.step = PickFight()
        return
    state.phase = "falls"
    next_fall(r, state, falling.fallers(r, state), events)


def next_fall(r: LostWorlds, state: GameState, left: tuple[str, ...], events: list[Event]) -> None:
    left = tuple(f for f in left if conscious(state.figures[f]))
    if left:
        state.step = FallCheck(left)
        return
    end_round(r, state, events)


def end_round(r: LostWorlds, state: GameState, events: list[Event]) -> None:
    """The victory check; then the turn's marks are cleared and the next round rolls initiative."""
    state.phase = "victory"
    r.check_victory(state, events)
    if state.winner is not None:
        return
    for fig in state.figures.values():
        fig.mark(RAN_LAST_TURN, fig.flag(RAN))
        for mark in (RAN, FOUGHT, HELD, STARRED, HARD_PUSHER, MOVED, CARRY_PAID):
            fig.mark(mark, None)
        start_turn(fig)  # the fall table's "the next turn starts off-balance / down"
    state.turn_sets.clear()
    objects.land(r, state, events)  # the next movement phase begins
    state.active = len(state.turn_order) - 1
    r.flow.order.next_turn(r, state, events)


# -- victory and experience ------------------------------------------------------------------------------
def achieved(r: LostWorlds, state: GameState, side: str, kind: str, spec_figures: tuple[str, ...],
             cells: tuple[object, ...]) -> bool:
    if kind == "destroy":
        return scenario_fields.DESTROY.won(state, side, in_fight=lambda f: not out_of_fight(f))
    if kind == "kill":
        return all(out_of_fight(state.figures[fid]) for fid in spec_figures)
    return any(conscious(f) and f.hex in cells for f in state.alive() if f.side == side)


def victory(r: LostWorlds, state: GameState) -> tuple[str, str] | None:
    for v in r.scenario.victory:
        figures = scenario_fields.named_figures(v) if v.type == "kill" else ()
        cells = scenario_fields.named_cells(v) if v.type == "reach" else ()
        if achieved(r, state, v.side, v.type, figures, cells):
            return v.side, _("{victory}. {experience}", victory=v.text or v.type,
                             experience=experience_text(r, state, v.side, scenario_fields.victory_points(v)))
    return None


def experience(state: GameState, side: str, points: int) -> dict[str, int]:
    """Victory points shared out as experience among the winning side's survivors (rounded down)."""
    survivors = [f.id for f in state.figures.values() if f.side == side and f.alive]
    if not survivors:
        return {}
    return {fid: points // len(survivors) for fid in survivors}


def experience_text(r: LostWorlds, state: GameState, side: str, points: int) -> str:
    shares = experience(state, side, points)
    if not shares or not points:
        return _("No victory points to share.")
    each = next(iter(shares.values()))
    names = join_list(r.name_of(f) for f in shares)
    return _n("{n} victory point: {each} experience each for {names}.",
              "{n} victory points: {each} experience each for {names}.", points, each=each, names=names)
