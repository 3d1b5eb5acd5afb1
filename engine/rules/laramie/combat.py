"""The combat phase, highest combat value first: each unit fires (normal or suppressive), fights a melee
with an enemy in its hex, or holds. A unit with 2 shots fires twice (one of each type if it likes); melee
takes the unit's whole go.

- Normal fire rolls 1d10 for the chosen target; a miss checks the next unit of the target's side in that
  hex (the scenario's order), and so on; a hit takes the weapon's damage off HP (0: killed in action). A hit
  on a hero ends the check even when he evades.
- Suppressive fire hits the whole stack: for each unit the players read the outcome from their own table
  (the original does not print it) and record it here.
- A hero hit by either fire evades on 1d10 at or under his combat value.
- A line in doubt (nudged one way it reads otherwise than nudged the other: see ``sight``) is ruled by a
  roll-off first (``line_ruling``); a line ruled blocked leaves the unit to choose again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.turns import RollOff
from engine.i18n import gettext_for, ngettext_for
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import dice, melee, order, scenario_fields, units
from .fire import Shot
from .steps import Act, Evade, FireRoll, LineRollOff, MeleeRoll, SuppressOutcome

if TYPE_CHECKING:
    from .rules import Laramie

NO_EFFECT, HIT = "none", "hit"

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


def enter(r: Laramie, state: GameState) -> Act | RollOff:
    groups = order.ranked(state, r.combat_value, low_first=False, scenario_order=r.ids)
    off = order.roll_off(groups, order.COMBAT)
    return off if off is not None else Act(tuple(g[0] for g in groups))


def next_unit(r: Laramie, state: GameState, ranking: tuple[str, ...], index: int, events: list[Event]) -> None:
    r.forget_line_rulings(state)  # the unit's go is over: the lines it rolled off for are open again
    if index + 1 < len(ranking):
        state.step = Act(ranking, index + 1)
    else:
        r.end_phase(state, events)


def after_shot(r: Laramie, state: GameState, ranking: tuple[str, ...], index: int, shot: int,
               events: list[Event]) -> None:
    """The shot is over: the unit's next shot, or the next unit."""
    fid = ranking[index]
    if state.figures[fid].alive and shot + 1 < scenario_fields.shots(r.specs[fid]):
        state.step = Act(ranking, index, shot + 1)
    else:
        next_unit(r, state, ranking, index, events)


# -- the unit's choice ---------------------------------------------------------------------------------------
def fighter(r: Laramie, fig: FigureState) -> melee.Fighter:
    spec = r.specs[fig.id]
    return melee.Fighter(fig.id, scenario_fields.combat(spec), units.hp_of(fig), scenario_fields.melee(spec),
                         units.rules_of(fig).melee_penalty)


def options(r: Laramie, state: GameState, step: Act) -> tuple[Option, ...]:
    fid = step.order[step.index]
    me = state.figures[fid]
    if not me.alive or me.hex is None:
        return ()
    out: list[Option] = []
    enemies = r.enemies(state, fid)
    for e in enemies:
        shot = r.normal(state, fid, e.id)
        if shot.allowed:
            out.append(Option(f"fire:{e.id}", _("Normal fire at {name} ({hex}): {need} — {breakdown}",
                                                name=r.name_of(e.id), hex=r.where(state, e.id), need=shot.need(),
                                                breakdown=shot.breakdown()), e.hex, e.id))
    seen: set[object] = set()
    for e in enemies:
        if e.hex in seen:
            continue
        for use_damage in (False, True):
            shot = r.suppressive(state, fid, e.id, use_damage)
            if shot.allowed:
                seen.add(e.hex)
                n = len(r.stack(state, e.hex)) if e.hex is not None else 0
                where = {"hex": r.where(state, e.id), "value": shot.hit_value, "breakdown": shot.value_breakdown()}
                text = (_n("Suppressive fire at {hex} ({n} unit), damage value {value} ({breakdown})",
                           "Suppressive fire at {hex} ({n} units), damage value {value} ({breakdown})", n, **where)
                        if use_damage else
                        _n("Suppressive fire at {hex} ({n} unit), hit value {value} ({breakdown})",
                           "Suppressive fire at {hex} ({n} units), hit value {value} ({breakdown})", n, **where))
                out.append(Option(f"suppress:{e.id}:{'damage' if use_damage else 'hit'}", text, e.hex))
    if step.shot == 0 and units.state_of(me) != units.BROKEN:
        for e in enemies:
            if e.hex == me.hex:
                if units.state_of(e) == units.BROKEN:
                    label = _("Melee with {name}: morale broken, it surrenders", name=r.name_of(e.id))
                else:
                    odds = melee.chances(fighter(r, me), fighter(r, e))
                    win = sum(p for (a, _b), p in odds.items() if a)
                    lose = sum(p for (_a, b), p in odds.items() if b)
                    label = _("Melee with {name}: you kill {win}%, you fall {lose}% (both may fall)",
                              name=r.name_of(e.id), win=round(win * 100), lose=round(lose * 100))
                out.append(Option(f"melee:{e.id}", label, e.hex, e.id))
    if out:
        out.append(Option("hold", _("Hold fire")))
    return tuple(out)


def prompt(r: Laramie, state: GameState, step: Act) -> Prompt:
    fid = step.order[step.index]
    fig = state.figures[fid]
    shots = scenario_fields.shots(r.specs[fid])
    who = {"name": r.name_of(fid), "hex": r.where(state, fid)}
    text = (_("Combat: {name} at {hex} (shot {shot} of {shots}) — fire, fight or hold.", shot=step.shot + 1,
              shots=shots, **who) if shots > 1 else _("Combat: {name} at {hex} — fire, fight or hold.", **who))
    return Prompt(PromptKind.CHOOSE, fig.side, text, figure=fid, options=options(r, state, step))


def settle(r: Laramie, state: GameState, step: Act, events: list[Event]) -> bool:
    """A fallen unit, or one with nothing to attack, is passed over."""
    if not step.order:
        r.end_phase(state, events)
        return True
    if options(r, state, step):
        return False
    next_unit(r, state, step.order, step.index, events)
    return True


def apply(r: Laramie, state: GameState, step: Act, choice: Choose, events: list[Event]) -> None:
    fid = step.order[step.index]
    name = r.name_of(fid)
    what, _sep, rest = choice.option.partition(":")
    if what == "hold":
        events.append(Event("held", _("{name} holds fire.", name=name), {"figure": fid}))
        next_unit(r, state, step.order, step.index, events)
    elif what in ("fire", "suppress") and shot_of(r, state, fid, choice.option).in_doubt:
        state.step = LineRollOff(step.order, step.index, step.shot, choice.option, rest.partition(":")[0])
    elif what in ("fire", "suppress") and not shot_of(r, state, fid, choice.option).allowed:
        target_name = r.name_of(rest.partition(":")[0])
        events.append(Event("blocked", _("The line from {name} to {target} is blocked: {name} chooses again.",
                                         name=name, target=target_name), {"figure": fid}))
        state.step = Act(step.order, step.index, step.shot)
    elif what == "fire":
        target = state.figures[rest]
        others = tuple(f.id for f in r.stack(state, target.hex) if f.side == target.side and f.id != rest) \
            if target.hex is not None else ()
        state.step = FireRoll(step.order, step.index, step.shot, rest, others)
    elif what == "suppress":
        target_id, _sep, mode = rest.partition(":")
        target = state.figures[target_id]
        shot = r.suppressive(state, fid, target_id, mode == "damage")
        assert target.hex is not None
        queue = (target_id, *(f.id for f in r.stack(state, target.hex) if f.id not in (target_id, fid)))
        text = (_("{name} lays suppressive fire on {hex} (damage value {value}).", name=name, hex=r.label(target.hex),
                  value=shot.hit_value) if mode == "damage" else
                _("{name} lays suppressive fire on {hex} (hit value {value}).", name=name, hex=r.label(target.hex),
                  value=shot.hit_value))
        events.append(Event("fired", text, {"figure": fid, "hex": [target.hex.q, target.hex.r]}))
        state.step = SuppressOutcome(step.order, step.index, step.shot, shot.hit_value, queue)
    else:  # melee
        enemy = state.figures[rest]
        if units.state_of(enemy) == units.BROKEN:
            r.kill(state, rest, units.SURRENDERED, events)
            next_unit(r, state, step.order, step.index, events)
        else:
            state.step = MeleeRoll(step.order, step.index, fid, rest)


def shot_of(r: Laramie, state: GameState, fid: str, option: str) -> Shot:
    """The shot an attack option of :func:`options` fires ("fire:jesse", "suppress:jesse:damage")."""
    what, _sep, rest = option.partition(":")
    target, _sep, mode = rest.partition(":")
    return r.normal(state, fid, target) if what == "fire" else r.suppressive(state, fid, target, mode == "damage")


# -- normal fire -----------------------------------------------------------------------------------------------
def prompt_fire(r: Laramie, state: GameState, step: FireRoll) -> Prompt:
    shooter = step.order[step.index]
    shot = r.normal(state, shooter, step.target, step.stack_check)
    side = state.figures[shooter].side
    hits = dice.faces(lambda d: dice.succeeds(d, shot.die_modifier, shot.hit_value))
    return Prompt(PromptKind.ROLL, side, _("{name} fires at {target}: roll {need} to hit ({breakdown}).",
                                           name=r.name_of(shooter), target=r.name_of(step.target), need=shot.need(),
                                           breakdown=shot.breakdown()), figure=shooter,
                  dice=(DieRequest(side, dice.DIE, _("normal fire"), shooter),),
                  outcomes=(tuple(Outcome(d, d, _("hit") if d in hits else _("miss")) for d in range(1, 11)),),
                  chances=(Chance(_("{name} is hit", name=r.name_of(step.target)), shot.chance),))


def damage(r: Laramie, state: GameState, shooter: str, fid: str, events: list[Event]) -> None:
    """A hit: HP minus the shooter's weapon damage; at 0 the unit is killed in action."""
    fig = state.figures[fid]
    left = units.hp_of(fig) - scenario_fields.damage(r.specs[shooter])
    fig.values[units.HP] = max(left, 0)
    events.append(Event("hit", _("{name} is hit by {shooter}: HP {hp}.", name=r.name_of(fid),
                                 shooter=r.name_of(shooter), hp=max(left, 0)),
                        {"figure": fid, "hp": max(left, 0)}))
    if left <= 0:
        r.kill(state, fid, units.KILLED, events)


def apply_fire(r: Laramie, state: GameState, step: FireRoll, roll: Roll, events: list[Event]) -> None:
    shooter = step.order[step.index]
    shot = r.normal(state, shooter, step.target, step.stack_check)
    (rolled,) = roll.values
    hit = dice.succeeds(rolled, shot.die_modifier, shot.hit_value)
    who = {"name": r.name_of(shooter), "die": rolled, "target": r.name_of(step.target)}
    text = (_("{name} rolls {die} at {target}: hit.", **who) if hit
            else _("{name} rolls {die} at {target}: miss.", **who))
    events.append(Event("rolled", text, {"values": [rolled], "hit": hit}))
    if hit:
        if scenario_fields.hero(r.specs[step.target]):
            state.step = Evade(step.order, step.index, step.shot, step.target, HIT)
        else:
            damage(r, state, shooter, step.target, events)
            after_shot(r, state, step.order, step.index, step.shot, events)
        return
    for i, other in enumerate(step.rest):  # the rest of the side in the hex, whatever their states
        if state.figures[other].alive:
            state.step = FireRoll(step.order, step.index, step.shot, other, step.rest[i + 1:], stack_check=True)
            return
    after_shot(r, state, step.order, step.index, step.shot, events)


# -- suppressive fire ------------------------------------------------------------------------------------------
def outcomes(r: Laramie) -> tuple[str, ...]:
    states = (NO_EFFECT, units.SUPPRESSED_1, units.SUPPRESSED_2)
    return (*states, *((units.BROKEN,) if r.morale_in_use else ()), HIT)


def outcome_text(r: Laramie, outcome: str, shooter: str, capital: bool = False) -> str:
    """A suppressive-fire outcome for people: "no effect", "hit: HP − 2", a state; ``capital`` for an option."""
    if outcome == NO_EFFECT:
        return _("No effect") if capital else _("no effect")
    if outcome == HIT:
        damage = scenario_fields.damage(r.specs[shooter])
        return _("Hit: HP − {damage}", damage=damage) if capital else _("hit: HP − {damage}", damage=damage)
    return units.label(outcome) if capital else units.label(outcome).lower()


def prompt_suppress(r: Laramie, state: GameState, step: SuppressOutcome) -> Prompt:
    shooter = step.order[step.index]
    fid = step.queue[0]
    fig = state.figures[fid]
    opts = tuple(Option(o, outcome_text(r, o, shooter, capital=True)) for o in outcomes(r))
    return Prompt(PromptKind.CHOOSE, state.figures[shooter].side,
                  _("Suppressive fire by {shooter} with value {value}: read the suppressive-fire table for {name} "
                    "({state}) and enter the outcome.", shooter=r.name_of(shooter), value=step.value,
                    name=r.name_of(fid), state=units.label(units.state_of(fig)).lower()),
                  figure=fid, options=opts)


def effect(r: Laramie, state: GameState, shooter: str, fid: str, outcome: str, events: list[Event]) -> None:
    fig = state.figures[fid]
    if outcome == HIT:
        damage(r, state, shooter, fid, events)
    elif outcome != NO_EFFECT:
        now = units.worse(units.state_of(fig), outcome)
        units.set_state(fig, now)
        events.append(Event("state", _("{name} is {state}.", name=r.name_of(fid), state=units.label(now).lower()),
                            {"figure": fid, "state": now}))


def next_in_queue(r: Laramie, state: GameState, ranking: tuple[str, ...], index: int, shot: int, value: int,
                  queue: tuple[str, ...], events: list[Event]) -> None:
    left = tuple(f for f in queue if state.figures[f].alive)
    if left:
        state.step = SuppressOutcome(ranking, index, shot, value, left)
    else:
        after_shot(r, state, ranking, index, shot, events)


def apply_suppress(r: Laramie, state: GameState, step: SuppressOutcome, choice: Choose, events: list[Event]) -> None:
    shooter = step.order[step.index]
    fid = step.queue[0]
    if choice.option == NO_EFFECT:
        events.append(Event("suppressed", _("{name}: no effect.", name=r.name_of(fid)), {"figure": fid}))
    elif scenario_fields.hero(r.specs[fid]):
        state.step = Evade(step.order, step.index, step.shot, fid, choice.option, step.queue[1:], step.value)
        return
    else:
        effect(r, state, shooter, fid, choice.option, events)
    next_in_queue(r, state, step.order, step.index, step.shot, step.value, step.queue[1:], events)


# -- a hero's evasion ------------------------------------------------------------------------------------------
def prompt_evade(r: Laramie, state: GameState, step: Evade) -> Prompt:
    fig = state.figures[step.figure]
    need = r.combat_value(step.figure)
    ok = dice.faces(lambda d: dice.succeeds(d, 0, need))
    shooter = step.order[step.index]
    return Prompt(PromptKind.ROLL, fig.side, _("{name} is a hero: roll 1d10 — {need} or less and he evades "
                                               "({effect}).", name=r.name_of(step.figure), need=need,
                                               effect=outcome_text(r, step.effect, shooter)), figure=step.figure,
                  dice=(DieRequest(fig.side, dice.DIE, _("evasion"), step.figure),),
                  outcomes=(tuple(Outcome(d, d, _("evades") if d in ok else _("does not evade"))
                                  for d in range(1, 11)),),
                  chances=(Chance(_("{name} evades", name=r.name_of(step.figure)), len(ok) / dice.DIE),))


def apply_evade(r: Laramie, state: GameState, step: Evade, roll: Roll, events: list[Event]) -> None:
    shooter = step.order[step.index]
    (rolled,) = roll.values
    if dice.succeeds(rolled, 0, r.combat_value(step.figure)):
        events.append(Event("evaded", _("{name} rolls {die}: evades.", name=r.name_of(step.figure), die=rolled),
                            {"figure": step.figure, "values": [rolled]}))
    else:
        events.append(Event("rolled", _("{name} rolls {die}: does not evade.", name=r.name_of(step.figure), die=rolled),
                            {"figure": step.figure, "values": [rolled]}))
        effect(r, state, shooter, step.figure, step.effect, events)
    next_in_queue(r, state, step.order, step.index, step.shot, step.value, step.queue, events)


# -- melee -----------------------------------------------------------------------------------------------------
def prompt_melee(r: Laramie, state: GameState, step: MeleeRoll) -> Prompt:
    a, b = state.figures[step.attacker], state.figures[step.defender]
    fa, fb = fighter(r, a), fighter(r, b)
    ka = dice.faces(lambda d: melee.kills(d, fa, fb))
    kb = dice.faces(lambda d: melee.kills(d, fb, fa))
    odds = melee.chances(fa, fb)
    na, nb = r.name_of(a.id), r.name_of(b.id)

    def mod(x: melee.Fighter, y: melee.Fighter) -> str:
        return f"{melee.die_modifier(x, y):+d}"

    text = _("Melee: {a} (strength {a_strength}, die {a_die}) and {b} (strength {b_strength}, die {b_die}) roll 1d10 "
             "each at once — 5 or less (modified) kills.", a=na, a_strength=fa.strength, a_die=mod(fa, fb), b=nb,
             b_strength=fb.strength, b_die=mod(fb, fa))
    return Prompt(PromptKind.ROLL, a.side, text,
                  figure=a.id, dice=(DieRequest(a.side, dice.DIE, _("melee"), a.id),
                                     DieRequest(b.side, dice.DIE, _("melee"), b.id)),
                  outcomes=(tuple(Outcome(d, d, _("kills {name}", name=nb) if d in ka else _("misses"))
                                  for d in range(1, 11)),
                            tuple(Outcome(d, d, _("kills {name}", name=na) if d in kb else _("misses"))
                                  for d in range(1, 11))),
                  chances=(Chance(_("{name} falls", name=nb), sum(p for (x, _y), p in odds.items() if x)),
                           Chance(_("{name} falls", name=na), sum(p for (_x, y), p in odds.items() if y)),
                           Chance(_("both fall"), odds.get((True, True), 0.0))))


def apply_melee(r: Laramie, state: GameState, step: MeleeRoll, roll: Roll, events: list[Event]) -> None:
    a, b = state.figures[step.attacker], state.figures[step.defender]
    da, db = roll.values
    a_kills, b_kills = melee.resolve(fighter(r, a), fighter(r, b), da, db)
    events.append(Event("rolled", _("Melee: {a} rolls {a_die}, {b} rolls {b_die}.", a=r.name_of(a.id), a_die=da,
                                    b=r.name_of(b.id), b_die=db),
                        {"values": [da, db]}))
    if not (a_kills or b_kills):
        events.append(Event("melee", _("Nobody falls."), {}))
    if a_kills:
        r.kill(state, b.id, units.KILLED, events)
    if b_kills:
        r.kill(state, a.id, units.KILLED, events)
    next_unit(r, state, step.order, step.index, events)


STAGES = (
    Stage(Act, prompt, apply, settle),
    Stage(FireRoll, prompt_fire, apply_fire),
    Stage(SuppressOutcome, prompt_suppress, apply_suppress),
    Stage(Evade, prompt_evade, apply_evade),
    Stage(MeleeRoll, prompt_melee, apply_melee),
)
