"""The ranged phase of Fantasy Battle (RULES.md §1): choose a shooter or wizard, roll-off for an unclear
line, the hit roll and the target's save, or the spell roll. Results apply at once; a figure that shot
or cast does nothing else this turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.words import possessive, verb
from engine.lines import Sight
from engine.prompts import Chance, Option, Outcome, Prompt, PromptKind
from engine.rules.fantasy_battle.constants import MAGIC_KILLS_AT, SHOT_HITS_AT, span
from engine.rules.fantasy_battle.steps import LineRollOff, Magic, Ranged, ShotHit, ShotSave
from engine.rules.fantasy_battle.tokens import kill
from engine.state import GameState

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle


# -- choosing who shoots ---------------------------------------------------------------------------
def prompt_ranged(r: FantasyBattle, state: GameState, step: Ranged) -> Prompt:
    options = []
    for shooter, info in r.ranged_options(state):
        verb_ = "shoots at" if info.action == "shoot" else "casts at"
        sight = "clear" if info.sight is Sight.CLEAR else "unclear line: roll-off first"
        target = state.figures[info.target]
        options.append(
            Option(
                f"{shooter}>{info.target}",
                f"{r.fname(shooter)} {verb_} {r.fname(info.target)} at {r.at(state, info.target)} "
                f"(range {info.range}, {sight})",
                target.hex,
                info.target,
            )
        )
    options.append(Option("done", "Finish shooting and casting"))
    return Prompt(
        PromptKind.CHOOSE,
        r.player_sides(state)[0],
        f"{r.active_name(state)}: ranged phase — choose who shoots or casts, or finish.",
        options=tuple(options),
    )


def apply_ranged(r: FantasyBattle, state: GameState, step: Ranged, action: Choose, events: list[Event]) -> None:
    if action.option == "done":
        r.end_phase(state, events)
        return
    shooter, target = action.option.split(">")
    state.add_to_set("acted", shooter)
    info = next(i for i in r.targets(state, shooter) if i.target == target)
    says = "shoots at" if info.action == "shoot" else "casts a spell at"
    events.append(
        Event(
            "attack_declared",
            f"{r.fname(shooter)} {says} {r.fname(target)} (range {info.range}).",
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
    act = "shoot" if step.act == "shoot" else "cast"
    return Prompt(
        PromptKind.ROLL,
        shooter.side,
        f"Unclear line: {verb(r.sname(shooter.side), 'rolls', 'roll')} 1d6 for {r.fname(shooter.id)}, "
        f"{verb(r.sname(target.side), 'rolls', 'roll')} 1d6 for {r.fname(target.id)}. "
        f"{r.fname(shooter.id)} may {act} only by rolling higher; a failed roll-off still spends the action.",
        figure=shooter.id,
        dice=(
            r.die(shooter.side, "roll-off for an unclear line", shooter.id),
            r.die(target.side, "roll-off for an unclear line", target.id),
        ),
        outcomes=(
            (Outcome(1, 6, "must be higher than the target's die"),),
            (Outcome(1, 6, "a tie stops the shot"),),
        ),
        chances=(Chance("the shot may go ahead", 15 / 36), Chance("no shot, action spent", 21 / 36)),
        note=step.why,
    )


def apply_rolloff(r: FantasyBattle, state: GameState, step: LineRollOff, roll: Roll, events: list[Event]) -> None:
    s, t = roll.values
    act = "shoot" if step.act == "shoot" else "cast"
    events.append(r.rolled(roll, f"Roll-off, {r.fname(step.shooter)} against {r.fname(step.target)}"))
    if s <= t:
        events.append(
            Event(
                "rolloff_failed",
                f"Roll-off lost: {r.fname(step.shooter)} cannot {act}; its action is spent.",
                {"figure": step.shooter},
            )
        )
        state.step = Ranged()
        return
    events.append(Event("rolloff_won", f"Roll-off won: {r.fname(step.shooter)} may {act}.", {"figure": step.shooter}))
    state.step = _attack(step.shooter, step.target, step.act)


# -- the shot ------------------------------------------------------------------------------------------
def prompt_shot_hit(r: FantasyBattle, state: GameState, step: ShotHit) -> Prompt:
    shooter = state.figures[step.shooter]
    p = (7 - SHOT_HITS_AT) / 6
    return Prompt(
        PromptKind.ROLL,
        shooter.side,
        f"{r.sname(shooter.side)}: roll 1d6 for {r.fname(shooter.id)} shooting at "
        f"{r.fname(step.target)} — {SHOT_HITS_AT}–6 hits, 1–{SHOT_HITS_AT - 1} misses.",
        figure=shooter.id,
        dice=(r.die(shooter.side, "shot", shooter.id),),
        outcomes=((Outcome(1, SHOT_HITS_AT - 1, "miss"), Outcome(SHOT_HITS_AT, 6, "hit")),),
        chances=(Chance("hit", p), Chance("miss", 1 - p)),
    )


def apply_shot_hit(r: FantasyBattle, state: GameState, step: ShotHit, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, f"Shot by {r.fname(step.shooter)}"))
    if v >= SHOT_HITS_AT:
        events.append(Event("hit", f"Hit! {r.fname(step.target)} must roll to survive.", {"target": step.target}))
        state.step = ShotSave(step.shooter, step.target)
    else:
        events.append(Event("miss", f"{r.fname(step.shooter)} misses.", {"figure": step.shooter}))
        state.step = Ranged()


def prompt_shot_save(r: FantasyBattle, state: GameState, step: ShotSave) -> Prompt:
    target = state.figures[step.target]
    at = r.save_at(target.id)
    p = (7 - at) / 6
    return Prompt(
        PromptKind.ROLL,
        target.side,
        f"{r.sname(target.side)}: {r.fname(target.id)} is hit — roll 1d6: {span(at, 6)} shrugs it off, "
        f"{span(1, at - 1)} dies.",
        figure=target.id,
        dice=(r.die(target.side, "save against a hit", target.id),),
        outcomes=((Outcome(1, at - 1, "dies"), Outcome(at, 6, "shrugs off the hit")),),
        chances=(Chance("survives", p), Chance("dies", 1 - p)),
    )


def apply_shot_save(r: FantasyBattle, state: GameState, step: ShotSave, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, f"Save roll for {r.fname(step.target)}"))
    if v >= r.save_at(step.target):
        events.append(Event("shrugged", f"{r.fname(step.target)} shrugs off the hit.", {"figure": step.target}))
    else:
        kill(r, state, step.target, f"{r.fname(step.target)} is shot dead.", events)
    state.step = Ranged()


# -- the spell -----------------------------------------------------------------------------------------
def prompt_magic(r: FantasyBattle, state: GameState, step: Magic) -> Prompt:
    wizard = state.figures[step.wizard]
    return Prompt(
        PromptKind.ROLL,
        wizard.side,
        f"{r.sname(wizard.side)}: roll 1d6 for {possessive(r.fname(wizard.id))} spell at {r.fname(step.target)} "
        "— 6 kills, anything else fails.",
        figure=wizard.id,
        dice=(r.die(wizard.side, "attack magic", wizard.id),),
        outcomes=((Outcome(1, MAGIC_KILLS_AT - 1, "the spell fails"), Outcome(MAGIC_KILLS_AT, 6, "the target dies")),),
        chances=(Chance("the target dies", 1 / 6), Chance("the spell fails", 5 / 6)),
    )


def apply_magic(r: FantasyBattle, state: GameState, step: Magic, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, f"Spell roll for {r.fname(step.wizard)}"))
    if v >= MAGIC_KILLS_AT:
        kill(r, state, step.target, f"{r.fname(step.target)} is struck down by magic.", events)
    else:
        events.append(Event("spell_failed", f"{possessive(r.fname(step.wizard))} spell fails.",
                            {"figure": step.wizard}))
    state.step = Ranged()


STAGES = (
    Stage(Ranged, prompt_ranged, apply_ranged, settle_ranged),
    Stage(LineRollOff, prompt_rolloff, apply_rolloff),
    Stage(ShotHit, prompt_shot_hit, apply_shot_hit),
    Stage(ShotSave, prompt_shot_save, apply_shot_save),
    Stage(Magic, prompt_magic, apply_magic),
)
