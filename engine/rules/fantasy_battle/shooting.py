"""The ranged phase of Fantasy Battle (RULES.md §1): choose a shooter or wizard, roll-off for an unclear
line, the hit roll and the target's save, or the spell roll. Results apply at once; a figure that shot
or cast does nothing else this turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import N_, gettext_for
from engine.lines import Sight
from engine.prompts import Chance, Option, Outcome, Prompt, PromptKind
from engine.rules.fantasy_battle.constants import MAGIC_KILLS_AT, SHOT_HITS_AT, span
from engine.rules.fantasy_battle.steps import LineRollOff, Magic, Ranged, ShotHit, ShotSave
from engine.rules.fantasy_battle.tokens import kill
from engine.state import GameState
from engine.texts import agreeing, possessive

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle

_ = gettext_for(__name__)
# Sentences in the two forms that agree with a name (Goblins roll / Red rolls), translated alike.
ROLLS_FOR = (N_("{side} rolls 1d6 for {name}"), N_("{side} roll 1d6 for {name}"))


def rolls_for(side: str, name: str) -> str:
    """"Goblins roll 1d6 for Goblin" / 「ゴブリン側がゴブリンの1d6を振る」."""
    return _(agreeing(side, *ROLLS_FOR), side=side, name=name)


# -- choosing who shoots ---------------------------------------------------------------------------
def prompt_ranged(r: FantasyBattle, state: GameState, step: Ranged) -> Prompt:
    options = []
    for shooter, info in r.ranged_options(state):
        sight = _("clear") if info.sight is Sight.CLEAR else _("unclear line: roll-off first")
        target = state.figures[info.target]
        fill = {"name": r.fname(shooter), "target": r.fname(info.target), "cell": r.at(state, info.target),
                "range": info.range, "sight": sight}
        options.append(
            Option(
                f"{shooter}>{info.target}",
                _("{name} shoots at {target} at {cell} (range {range}, {sight})", **fill) if info.action == "shoot"
                else _("{name} casts at {target} at {cell} (range {range}, {sight})", **fill),
                target.hex,
                info.target,
            )
        )
    options.append(Option("done", _("Finish shooting and casting")))
    return Prompt(
        PromptKind.CHOOSE,
        r.player_sides(state)[0],
        _("{player}: ranged phase — choose who shoots or casts, or finish.", player=r.active_name(state)),
        options=tuple(options),
    )


def apply_ranged(r: FantasyBattle, state: GameState, step: Ranged, action: Choose, events: list[Event]) -> None:
    if action.option == "done":
        r.end_phase(state, events)
        return
    shooter, target = action.option.split(">")
    state.add_to_set("acted", shooter)
    info = next(i for i in r.targets(state, shooter) if i.target == target)
    fill = {"name": r.fname(shooter), "target": r.fname(target), "range": info.range}
    events.append(
        Event(
            "attack_declared",
            _("{name} shoots at {target} (range {range}).", **fill) if info.action == "shoot"
            else _("{name} casts a spell at {target} (range {range}).", **fill),
            {"figure": shooter, "target": target, "action": info.action, "sight": info.sight.value},
        )
    )
    if info.sight is Sight.AMBIGUOUS:
        state.step = LineRollOff(shooter, target, info.action, info.reason)
    else:
        state.step = _attack(shooter, target, info.action)


def _attack(shooter: str, target: str, act: str) -> ShotHit | Magic:
    return ShotHit(shooter, target) if act == "shoot" else Magic(shooter, target)


def settle_ranged(r: FantasyBattle, state: GameState, step: Ranged, events: list[Event]) -> bool:
    if r.ranged_options(state):
        return False
    r.end_phase(state, events)
    return True


# -- an unclear line ---------------------------------------------------------------------------------
def prompt_rolloff(r: FantasyBattle, state: GameState, step: LineRollOff) -> Prompt:
    shooter, target = state.figures[step.shooter], state.figures[step.target]
    fill = {"first": rolls_for(r.sname(shooter.side), r.fname(shooter.id)),
            "second": rolls_for(r.sname(target.side), r.fname(target.id)), "name": r.fname(shooter.id)}
    return Prompt(
        PromptKind.ROLL,
        shooter.side,
        _("Unclear line: {first}, {second}. {name} may shoot only by rolling higher; a failed roll-off still spends "
          "the action.", **fill) if step.act == "shoot" else
        _("Unclear line: {first}, {second}. {name} may cast only by rolling higher; a failed roll-off still spends "
          "the action.", **fill),
        figure=shooter.id,
        dice=(
            r.die(shooter.side, _("roll-off for an unclear line"), shooter.id),
            r.die(target.side, _("roll-off for an unclear line"), target.id),
        ),
        outcomes=(
            (Outcome(1, 6, _("must be higher than the target's die")),),
            (Outcome(1, 6, _("a tie stops the shot")),),
        ),
        chances=(Chance(_("the shot may go ahead"), 15 / 36), Chance(_("no shot, action spent"), 21 / 36)),
        note=step.why,
    )


def apply_rolloff(r: FantasyBattle, state: GameState, step: LineRollOff, roll: Roll, events: list[Event]) -> None:
    s, t = roll.values
    shoots = step.act == "shoot"
    name = r.fname(step.shooter)
    events.append(r.rolled(roll, _("Roll-off, {name} against {target}", name=name, target=r.fname(step.target))))
    if s <= t:
        events.append(
            Event(
                "rolloff_failed",
                _("Roll-off lost: {name} cannot shoot; its action is spent.", name=name) if shoots
                else _("Roll-off lost: {name} cannot cast; its action is spent.", name=name),
                {"figure": step.shooter},
            )
        )
        state.step = Ranged()
        return
    won = _("Roll-off won: {name} may shoot.", name=name) if shoots else _("Roll-off won: {name} may cast.", name=name)
    events.append(Event("rolloff_won", won, {"figure": step.shooter}))
    state.step = _attack(step.shooter, step.target, step.act)


# -- the shot ------------------------------------------------------------------------------------------
def prompt_shot_hit(r: FantasyBattle, state: GameState, step: ShotHit) -> Prompt:
    shooter = state.figures[step.shooter]
    p = (7 - SHOT_HITS_AT) / 6
    return Prompt(
        PromptKind.ROLL,
        shooter.side,
        _("{side}: roll 1d6 for {name} shooting at {target} — {hits}–6 hits, 1–{misses} misses.",
          side=r.sname(shooter.side), name=r.fname(shooter.id), target=r.fname(step.target), hits=SHOT_HITS_AT,
          misses=SHOT_HITS_AT - 1),
        figure=shooter.id,
        dice=(r.die(shooter.side, _("shot"), shooter.id),),
        outcomes=((Outcome(1, SHOT_HITS_AT - 1, _("miss")), Outcome(SHOT_HITS_AT, 6, _("hit"))),),
        chances=(Chance(_("hit"), p), Chance(_("miss"), 1 - p)),
    )


def apply_shot_hit(r: FantasyBattle, state: GameState, step: ShotHit, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, _("Shot by {name}", name=r.fname(step.shooter))))
    if v >= SHOT_HITS_AT:
        events.append(Event("hit", _("Hit! {name} must roll to survive.", name=r.fname(step.target)),
                            {"target": step.target}))
        state.step = ShotSave(step.shooter, step.target)
    else:
        events.append(Event("miss", _("{name} misses.", name=r.fname(step.shooter)), {"figure": step.shooter}))
        state.step = Ranged()


def prompt_shot_save(r: FantasyBattle, state: GameState, step: ShotSave) -> Prompt:
    target = state.figures[step.target]
    at = r.save_at(target.id)
    p = (7 - at) / 6
    return Prompt(
        PromptKind.ROLL,
        target.side,
        _("{side}: {name} is hit — roll 1d6: {saves} shrugs it off, {dies} dies.", side=r.sname(target.side),
          name=r.fname(target.id), saves=span(at, 6), dies=span(1, at - 1)),
        figure=target.id,
        dice=(r.die(target.side, _("save against a hit"), target.id),),
        outcomes=((Outcome(1, at - 1, _("dies")), Outcome(at, 6, _("shrugs off the hit"))),),
        chances=(Chance(_("survives"), p), Chance(_("dies"), 1 - p)),
    )


def apply_shot_save(r: FantasyBattle, state: GameState, step: ShotSave, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, _("Save roll for {name}", name=r.fname(step.target))))
    if v >= r.save_at(step.target):
        events.append(Event("shrugged", _("{name} shrugs off the hit.", name=r.fname(step.target)),
                            {"figure": step.target}))
    else:
        kill(r, state, step.target, _("{name} is shot dead.", name=r.fname(step.target)), events)
    state.step = Ranged()


# -- the spell -----------------------------------------------------------------------------------------
def prompt_magic(r: FantasyBattle, state: GameState, step: Magic) -> Prompt:
    wizard = state.figures[step.wizard]
    return Prompt(
        PromptKind.ROLL,
        wizard.side,
        _("{side}: roll 1d6 for {owner} spell at {target} — 6 kills, anything else fails.",
          side=r.sname(wizard.side), owner=possessive(r.fname(wizard.id)), target=r.fname(step.target)),
        figure=wizard.id,
        dice=(r.die(wizard.side, _("attack magic"), wizard.id),),
        outcomes=((Outcome(1, MAGIC_KILLS_AT - 1, _("the spell fails")),
                   Outcome(MAGIC_KILLS_AT, 6, _("the target dies"))),),
        chances=(Chance(_("the target dies"), 1 / 6), Chance(_("the spell fails"), 5 / 6)),
    )


def apply_magic(r: FantasyBattle, state: GameState, step: Magic, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, _("Spell roll for {name}", name=r.fname(step.wizard))))
    if v >= MAGIC_KILLS_AT:
        kill(r, state, step.target, _("{name} is struck down by magic.", name=r.fname(step.target)), events)
    else:
        events.append(Event("spell_failed", _("{owner} spell fails.", owner=possessive(r.fname(step.wizard))),
                            {"figure": step.wizard}))
    state.step = Ranged()


STAGES = (
    Stage(Ranged, prompt_ranged, apply_ranged, settle_ranged),
    Stage(LineRollOff, prompt_rolloff, apply_rolloff),
    Stage(ShotHit, prompt_shot_hit, apply_shot_hit),
    Stage(ShotSave, prompt_shot_save, apply_shot_save),
    Stage(Magic, prompt_magic, apply_magic),
)
