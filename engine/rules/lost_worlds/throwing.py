"""Throwing weapons during movement: the range, the hit the players judge, the damage from page 19.

The longest throw is the thrower's height + 2, +1 per level the target stands lower. A hit leaves the
target off-balance and costs it the points on page 19 of its book plus the thrower's ranged modifier,
1 less beyond the weapon's effective range (club 2, dagger and hand axe 3, rock and spear 4). An object
of the scenario is thrown as the weapon it names (a rock unless it says). A thrown weapon not picked up in
the combat phase is dropped on the space it was thrown at at the start of the next movement phase: until
then it is in flight (:mod:`.objects`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import gettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import GameState

from . import chart, objects, resume, scenario_fields
from .condition import balance, hurt, set_balance
from .steps import ThrowDamage, ThrowHit

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

MAX_POINTS = 9


def damage(points: int, ranged_modifier: int, beyond: bool) -> int:
    """The page-19 points plus the ranged modifier, less 1 beyond the effective range (never below 0)."""
    return max(0, points + ranged_modifier + (chart.throwing()["beyond_effective"] if beyond else 0))


def _land(state: GameState, thrower: str, target: str, weapon: str) -> None:
    """The thrown item flies at the target's space; it lies there from the next movement phase (:func:`objects.land`)
    unless picked up before."""
    at = state.figures[target].hex
    assert at is not None
    objects.throw(state, state.figures[thrower], weapon, at)


def prompt_hit(r: LostWorlds, state: GameState, step: ThrowHit) -> Prompt:
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("{name} throws the {weapon} at {target}: did it hit (judged as the books judge a throw)?",
                    name=r.name_of(step.figure), weapon=objects.name(r, step.weapon), target=r.name_of(step.target)),
                  figure=step.figure, options=(Option("hit", _("it hits")), Option("miss", _("it misses"))))


def apply_hit(r: LostWorlds, state: GameState, step: ThrowHit, choice: Choose, events: list[Event]) -> None:
    _land(state, step.figure, step.target, step.weapon)
    if choice.option == "hit":
        state.step = ThrowDamage(step.figure, step.target, step.weapon, step.beyond)
        return
    events.append(Event("missed", _("The {weapon} misses {target}.", weapon=objects.name(r, step.weapon),
                                    target=r.name_of(step.target)), {"figure": step.figure}))
    resume.go_on(r, state, f"act {step.figure}", events)


def prompt_damage(r: LostWorlds, state: GameState, step: ThrowDamage) -> Prompt:
    mod = scenario_fields.ranged_modifier(r.specs[step.figure])
    page = chart.throwing()["page"]
    options = tuple(Option(str(n), _("{n} points: {damage} damage", n=n, damage=damage(n, mod, step.beyond)),
                           figure=step.target if n else None) for n in range(MAX_POINTS + 1))
    words = dict(weapon=objects.name(r, step.weapon), target=r.name_of(step.target), page=page, mod=mod)
    if step.beyond:
        text = _("The {weapon} hits {target}: it is off-balance. Enter the points on page {page} of its book (damage = "
                 "points {mod:+d} ranged modifier, -1 beyond the effective range).", **words)
    else:
        text = _("The {weapon} hits {target}: it is off-balance. Enter the points on page {page} of its book (damage = "
                 "points {mod:+d} ranged modifier).", **words)
    return Prompt(PromptKind.CHOOSE, state.figures[step.target].side, text, figure=step.target,
                  options=options[1:] + options[:1])


def apply_damage(r: LostWorlds, state: GameState, step: ThrowDamage, choice: Choose, events: list[Event]) -> None:
    target = state.figures[step.target]
    n = damage(int(choice.option), scenario_fields.ranged_modifier(r.specs[step.figure]), step.beyond)
    if balance(target) == "normal":
        set_balance(target, "off_balance")
    words = hurt(state, target, n)
    said = dict(weapon=objects.name(r, step.weapon), target=r.name_of(target.id), n=n, words=words)
    text = _("The {weapon} hits {target} for {n} damage: it {words}.", **said) if words \
        else _("The {weapon} hits {target} for {n} damage.", **said)
    events.append(Event("thrown_hit", text, {"figure": step.figure, "target": target.id, "damage": n}))
    resume.go_on(r, state, f"act {step.figure}", events)


STAGES = (Stage(ThrowHit, prompt_hit, apply_hit), Stage(ThrowDamage, prompt_damage, apply_damage))
