"""The regenerating wraith (optional regeneration rule): immaterial while it regenerates in the movement phase.

A wraith that regenerates has no battle range for that movement phase, and anyone may enter or pass its
space freely. A character that ends its move in the wraith's space is touched when the movement phase ends
and the wraith takes shape again: the wraith's side moves it to any adjacent space (a lower one is a fall:
1 damage per level, and it lands down), it takes the touch's damage from the wraith's book, and the wraith
drains that much and regenerates fully.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import Choose
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.steps import Step, step
from engine.flow.words import possessive
from engine.i18n import gettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import scenario_fields
from .condition import HP, IMMATERIAL, conscious, hurt, move_body, set_balance

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

MAX_TOUCH = 9


@step("lw.touch")
@dataclass(frozen=True)
class TouchMove(Step):
    """The wraith takes shape on ``victim``: its side moves the victim to an adjacent space."""

    wraith: str
    victim: str


@step("lw.touched")
@dataclass(frozen=True)
class TouchDamage(Step):
    """The touch's damage, from the wraith's book."""

    wraith: str
    victim: str


def touches(state: GameState) -> list[tuple[str, str]]:
    """(wraith, victim) for every regenerating wraith with a character ending in its space."""
    out: list[tuple[str, str]] = []
    for w in state.alive():
        if w.flag(IMMATERIAL) and w.hex is not None:
            out.extend((w.id, v.id) for v in state.figures_at(w.hex) if v.id != w.id and conscious(v))
    return out


def materialise(r: LostWorlds, state: GameState, events: list[Event]) -> bool:
    """End of the movement phase: wraiths take shape; True when a touch waits for the players."""
    found = touches(state)
    if found:
        state.step = TouchMove(*found[0])
        return True
    for w in state.alive():
        w.mark(IMMATERIAL, None)
    return False


def _spaces(r: LostWorlds, state: GameState, victim: FigureState) -> list[Option]:
    assert victim.hex is not None
    return [Option(f"touch-{r.label(n)}", _("{space} (level {level})", space=r.label(n), level=r.board.level(n)), n)
            for n in r.spaces.steps(victim.hex) if not r.spaces.others_conscious(state, n, victim.id)]


def prompt_move(r: LostWorlds, state: GameState, s: TouchMove) -> Prompt:
    w, v = state.figures[s.wraith], state.figures[s.victim]
    return Prompt(PromptKind.CHOOSE, w.side, _("{wraith} takes shape on {victim}: {side}, move {victim} to an "
                                               "adjacent space.", wraith=r.name_of(w.id), victim=r.name_of(v.id),
                                               side=r.side_name(w.side)), figure=v.id,
                  options=tuple(_spaces(r, state, v)) or (Option("stay", _("no space: it stays")),))


def apply_move(r: LostWorlds, state: GameState, s: TouchMove, choice: Choose, events: list[Event]) -> None:
    v = state.figures[s.victim]
    assert v.hex is not None
    if choice.option != "stay":
        to = r.board.from_label(choice.option.removeprefix("touch-"))
        levels = r.board.level(v.hex) - r.board.level(to)
        words = ""
        if levels > 0:  # a fall: knocked out by it, the body was thrown unconscious (no recovery roll this turn)
            set_balance(v, "down")
            words = hurt(state, v, levels)
        move_body(state, v, to)
        said = dict(name=r.name_of(v.id), space=r.where(state, v.id), levels=levels)
        text = _("{name} is thrown to {space}.", **said)
        if levels > 0:
            text = _("{name} is thrown to {space}, falling {levels} levels: {levels} damage, it {words}.", words=words,
                     **said) if words else _("{name} is thrown to {space}, falling {levels} levels: {levels} damage.",
                                             **said)
        events.append(Event("touched", text, {"figure": v.id, "wraith": s.wraith}))
    state.step = TouchDamage(s.wraith, s.victim)


def prompt_damage(r: LostWorlds, state: GameState, s: TouchDamage) -> Prompt:
    v = state.figures[s.victim]
    options = tuple(Option(str(n), _("{n} damage", n=n), figure=v.id if n else None) for n in range(MAX_TOUCH + 1))
    return Prompt(PromptKind.CHOOSE, v.side, _("{owner} touch: enter the damage its book gives {victim}.",
                                               owner=possessive(r.name_of(s.wraith)), victim=r.name_of(v.id)),
                  figure=v.id, options=options[1:] + options[:1])


def apply_damage(r: LostWorlds, state: GameState, s: TouchDamage, choice: Choose, events: list[Event]) -> None:
    w, v = state.figures[s.wraith], state.figures[s.victim]
    n = int(choice.option)
    words = hurt(state, v, n)
    w.values[HP] = scenario_fields.hit_points(r.specs[w.id])  # the drain and a full regeneration
    w.mark(IMMATERIAL, None)
    said = dict(victim=r.name_of(v.id), n=n, wraith=r.name_of(w.id), hp=w.values[HP], words=words)
    text = _("{victim} takes {n} damage from the touch and {words}; {wraith} drains it and regenerates fully ({hp} "
             "hit points).", **said) if words else _("{victim} takes {n} damage from the touch; {wraith} drains it "
                                                     "and regenerates fully ({hp} hit points).", **said)
    events.append(Event("drained", text, {"figure": v.id, "wraith": w.id, "damage": n}))
    r.after_movement(state, events)


STAGES = (Stage(TouchMove, prompt_move, apply_move), Stage(TouchDamage, prompt_damage, apply_damage))
