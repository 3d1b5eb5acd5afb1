"""Melee in Fantasy Battle (RULES.md §1): forced combats, picking the enemy, the combat roll, falling
back or the decisive battle, and the winner's advance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.prompts import Option, Outcome, Prompt, PromptKind
from engine.rules.fantasy_battle import melee
from engine.rules.fantasy_battle.constants import span
from engine.rules.fantasy_battle.shooting import rolls_for
from engine.rules.fantasy_battle.steps import Advance, Decisive, ForcedPick, Melee, PickEnemy, Retreat, Select
from engine.rules.fantasy_battle.tokens import kill, pick_up
from engine.state import GameState
from engine.texts import possessive

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle

_ = gettext_for(__name__)


# -- starting a fight ----------------------------------------------------------------------------------
def start_combat(r: FantasyBattle, state: GameState, fid: str, events: list[Event]) -> None:
    """``fid`` initiates its one combat of the turn: against its only enemy in contact, or the one chosen."""
    state.add_to_set("initiated", fid)
    state.add_to_set("fought", fid)
    enemies = r.terrain(state).contact_enemies(state.figures[fid])
    if len(enemies) > 1:
        state.step = PickEnemy(fid)
        return
    fight(r, state, fid, enemies[0].id, events)


def fight(r: FantasyBattle, state: GameState, attacker: str, defender: str, events: list[Event]) -> None:
    events.append(
        Event(
            "combat",
            _("{name} fights {enemy}.", name=r.fname(attacker), enemy=r.fname(defender)),
            {"attacker": attacker, "defender": defender},
        )
    )
    state.step = Melee(attacker, defender)


def after_combat(r: FantasyBattle, state: GameState) -> None:
    state.step = ForcedPick() if state.phase == "forced" else Select()


# -- forced combats ----------------------------------------------------------------------------------------
def prompt_forced_pick(r: FantasyBattle, state: GameState, step: ForcedPick) -> Prompt:
    opts = tuple(
        Option(fid, _("{name} ({cell}) fights", name=r.fname(fid), cell=r.at(state, fid)), state.figures[fid].hex, fid)
        for fid in r.pending_forced(state)
    )
    return Prompt(
        PromptKind.CHOOSE,
        r.player_sides(state)[0],
        _("{player}: these figures began the turn next to an enemy and must fight. Choose who fights first.",
          player=r.active_name(state)),
        options=opts,
    )


def apply_forced_pick(
    r: FantasyBattle, state: GameState, step: ForcedPick, action: Choose, events: list[Event]
) -> None:
    start_combat(r, state, action.option, events)


def settle_forced_pick(r: FantasyBattle, state: GameState, step: ForcedPick, events: list[Event]) -> bool:
    pending = r.pending_forced(state)
    if len(pending) > 1:
        return False
    if pending:
        start_combat(r, state, pending[0], events)
    else:
        r.end_phase(state, events)
    return True


# -- which enemy -------------------------------------------------------------------------------------------
def prompt_pick_enemy(r: FantasyBattle, state: GameState, step: PickEnemy) -> Prompt:
    fig = state.figures[step.figure]
    enemies = r.terrain(state).contact_enemies(fig)
    opts = tuple(Option(e.id, _("fight {name} ({cell})", name=r.fname(e.id), cell=r.at(state, e.id)), e.hex, e.id)
                 for e in enemies)
    return Prompt(
        PromptKind.CHOOSE,
        fig.side,
        _("{side}: {name} is next to several enemies — choose which one it fights.", side=r.sname(fig.side),
          name=r.fname(fig.id)),
        figure=fig.id,
        options=opts,
    )


def apply_pick_enemy(r: FantasyBattle, state: GameState, step: PickEnemy, action: Choose, events: list[Event]) -> None:
    fight(r, state, step.figure, action.option, events)


def settle_pick_enemy(r: FantasyBattle, state: GameState, step: PickEnemy, events: list[Event]) -> bool:
    enemies = r.terrain(state).contact_enemies(state.figures[step.figure])
    if len(enemies) != 1:
        return False
    fight(r, state, step.figure, enemies[0].id, events)
    return True


# -- the combat roll ---------------------------------------------------------------------------------------
def prompt_melee(r: FantasyBattle, state: GameState, step: Melee) -> Prompt:
    a, d = state.figures[step.attacker], state.figures[step.defender]
    a_at, d_at = r.kill_numbers(a.id, d.id)
    an, dn = r.fname(a.id), r.fname(d.id)
    return Prompt(
        PromptKind.ROLL,
        a.side,
        _("Combat: {first}, {second}. Higher wins; equal dice roll again; {attacker} kills on {a_at}, {defender} "
          "kills on {d_at}.", first=rolls_for(r.sname(a.side), an), second=rolls_for(r.sname(d.side), dn),
          attacker=an, defender=dn, a_at=span(a_at, 6), d_at=span(d_at, 6)),
        figure=a.id,
        dice=(r.die(a.side, _("combat (attacker)"), a.id), r.die(d.side, _("combat (defender)"), d.id)),
        outcomes=(
            (Outcome(a_at, 6, _("kills {enemy} unless {owner} die is equal or higher", enemy=dn,
                                owner=possessive(dn))),),
            (Outcome(d_at, 6, _("kills {enemy} unless {owner} die is equal or higher", enemy=an,
                                owner=possessive(an))),),
        ),
        chances=melee.melee_chances(an, dn, a_at, d_at),
        note=step.note,
    )


def apply_melee(r: FantasyBattle, state: GameState, step: Melee, roll: Roll, events: list[Event]) -> None:
    a_die, d_die = roll.values
    a, d = step.attacker, step.defender
    events.append(r.rolled(roll, _("Combat {attacker} vs {defender}", attacker=r.fname(a), defender=r.fname(d))))
    result = melee.melee_roll(a_die, d_die, *r.kill_numbers(a, d))
    if result.reroll:
        note = _("Tie ({a}–{d}): both roll again.", a=a_die, d=d_die)
        events.append(Event("tie", note, {}))
        state.step = Melee(a, d, note)
        return
    winner, loser = (a, d) if result.winner == "attacker" else (d, a)
    if result.kill:
        kill(r, state, loser, _("{winner} strikes a vital blow: {loser} dies.", winner=r.fname(winner),
                                loser=r.fname(loser)), events)
        after_combat(r, state)
        return
    events.append(Event("beaten", _("{winner} beats {loser}.", winner=r.fname(winner), loser=r.fname(loser)),
                        {"winner": winner, "loser": loser}))
    fall_back(r, state, winner, loser, events)


# -- falling back ------------------------------------------------------------------------------------------
def fall_back(r: FantasyBattle, state: GameState, winner: str, loser: str, events: list[Event]) -> None:
    opts = melee.retreat_options(r.terrain(state), state.figures[loser], state.figures[winner])
    if len(opts.hexes) == 1:
        retreat(r, state, winner, loser, opts.hexes[0], events)
    elif opts.hexes:
        state.step = Retreat(winner, loser, opts.hexes)
    elif opts.friend_in_the_way:
        events.append(
            Event(
                "decisive",
                _("{name} cannot fall back: a friend is in the way. Decisive battle!", name=r.fname(loser)),
                {"favoured": winner, "other": loser},
            )
        )
        state.step = Decisive(winner, loser)
    else:
        kill(r, state, loser, _("{name} has nowhere to fall back and dies.", name=r.fname(loser)), events)
        after_combat(r, state)


def retreat(r: FantasyBattle, state: GameState, winner: str, loser: str, to: Hex, events: list[Event]) -> None:
    fig = state.figures[loser]
    assert fig.hex is not None
    left = fig.hex
    fig.hex = to
    events.append(
        Event(
            "retreated",
            _("{name} falls back from {start} to {end}.", name=r.fname(loser), start=r.label(left), end=r.label(to)),
            {"figure": loser, "from": [left.q, left.r], "to": [to.q, to.r]},
        )
    )
    state.step = Advance(winner, left)


def prompt_retreat(r: FantasyBattle, state: GameState, step: Retreat) -> Prompt:
    loser = state.figures[step.loser]
    opts = tuple(Option(r.label(h), _("fall back to {cell}", cell=r.label(h)), h) for h in step.options)
    return Prompt(
        PromptKind.CHOOSE,
        loser.side,
        _("{side}: {name} lost and must fall back one hex — choose where.", side=r.sname(loser.side),
          name=r.fname(loser.id)),
        figure=loser.id,
        options=opts,
    )


def apply_retreat(r: FantasyBattle, state: GameState, step: Retreat, action: Choose, events: list[Event]) -> None:
    to = next(h for h in step.options if r.label(h) == action.option)
    retreat(r, state, step.winner, step.loser, to, events)


# -- the winner's advance ------------------------------------------------------------------------------------
def prompt_advance(r: FantasyBattle, state: GameState, step: Advance) -> Prompt:
    winner = state.figures[step.winner]
    return Prompt(
        PromptKind.CHOOSE,
        winner.side,
        _("{side}: {name} won — advance into {cell} or stay?", side=r.sname(winner.side), name=r.fname(winner.id),
          cell=r.label(step.to)),
        figure=winner.id,
        options=(Option("advance", _("advance to {cell}", cell=r.label(step.to)), step.to), Option("stay", _("stay"))),
    )


def apply_advance(r: FantasyBattle, state: GameState, step: Advance, action: Choose, events: list[Event]) -> None:
    if action.option == "advance":
        fig = state.figures[step.winner]
        assert fig.hex is not None
        left, fig.hex = fig.hex, step.to
        events.append(
            Event(
                "advanced",
                _("{name} advances from {start} to {end}.", name=r.fname(fig.id), start=r.label(left),
                  end=r.label(step.to)),
                {"figure": fig.id, "from": [left.q, left.r], "to": [step.to.q, step.to.r]},
            )
        )
        pick_up(r, state, fig, events)
    after_combat(r, state)


# -- the decisive battle ---------------------------------------------------------------------------------------
def prompt_decisive(r: FantasyBattle, state: GameState, step: Decisive) -> Prompt:
    fav, oth = state.figures[step.favoured], state.figures[step.other]
    fn, on = r.fname(fav.id), r.fname(oth.id)
    rule = r.decisive_rule(fav.id, oth.id)
    if rule.both == "higher":
        both = _("If both reach their number, the higher die wins (equal dice roll again); if neither does, "
                 "roll again.")
    else:
        both = _("If both or neither win, roll again.")
    return Prompt(
        PromptKind.ROLL,
        fav.side,
        _("Decisive battle: {other} cannot fall back because a friend is in the way. {first} (wins on {f_at}), "
          "{second} (wins on {o_at}). {both} The loser dies.", other=on,
          first=rolls_for(r.sname(fav.side), fn), f_at=span(rule.favoured_at, 6),
          second=rolls_for(r.sname(oth.side), on), o_at=span(rule.other_at, 6), both=both),
        figure=fav.id,
        dice=(r.die(fav.side, _("decisive battle (favoured)"), fav.id), r.die(oth.side, _("decisive battle"), oth.id)),
        outcomes=((Outcome(rule.favoured_at, 6, _("{name} wins", name=fn)),),
                  (Outcome(rule.other_at, 6, _("{name} wins", name=on)),)),
        chances=melee.decisive_chances(fn, on, rule),
        note=step.note,
    )


def apply_decisive(r: FantasyBattle, state: GameState, step: Decisive, roll: Roll, events: list[Event]) -> None:
    f_die, o_die = roll.values
    fav, oth = step.favoured, step.other
    events.append(r.rolled(roll, _("Decisive battle {favoured} vs {other}", favoured=r.fname(fav),
                                   other=r.fname(oth))))
    result = melee.decisive_roll(f_die, o_die, r.decisive_rule(fav, oth))
    if result is None:
        note = _("No decision ({f}–{o}): both roll again.", f=f_die, o=o_die)
        events.append(Event("tie", note, {}))
        state.step = Decisive(fav, oth, note)
        return
    winner, loser = (fav, oth) if result == "favoured" else (oth, fav)
    kill(r, state, loser, _("{winner} wins the decisive battle: {loser} dies.", winner=r.fname(winner),
                            loser=r.fname(loser)), events)
    after_combat(r, state)


STAGES = (
    Stage(ForcedPick, prompt_forced_pick, apply_forced_pick, settle_forced_pick),
    Stage(PickEnemy, prompt_pick_enemy, apply_pick_enemy, settle_pick_enemy),
    Stage(Melee, prompt_melee, apply_melee),
    Stage(Retreat, prompt_retreat, apply_retreat),
    Stage(Advance, prompt_advance, apply_advance),
    Stage(Decisive, prompt_decisive, apply_decisive),
)
