"""Coming down: forced drops, jumping onto an enemy, pushes, the fall check and falls to lower spaces.

- A forced drop (to a space 2 or more levels lower) rolls 1d6 on the forced drop table.
- Jumping onto an enemy (only from at least a level higher, and only with a free space beside it) rolls 1d6
  on the jump table; the jumper then lands on a space next to the enemy no higher than its level, its
  side's choice. A fall into a space holding a character gives the fall's damage (or the page-41 points)
  and then the jump table, and lands the same way.
- A pushed enemy rolls the fall table at once (+1 for a hard push); on a fall the pusher picks the space.
- The fall check phase: each character that ran or fought this turn rolls 1d6 (+1 already off-balance,
  +2 already down): 1–3 nothing, 4–5 the next turn starts off-balance, 6 a fall: the opponent moves it to
  an adjacent space of the same or a lower level, 1 damage per level, and it starts the next turn down; a
  fall with no change of level costs the points on page 41 of the opponent's book instead. "The next turn
  starts …" waits for the next turn (:func:`.condition.start_turn`).
- A body that lands unconscious (knocked out by the jump table or by the fall itself) is marked moved: it
  rolls no recovery this turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import gettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import chart, resume
from .condition import (
    DOWN,
    FOUGHT,
    OFF_BALANCE,
    RAN,
    balance,
    conscious,
    hurt,
    move_body,
    next_turn_starts,
    set_balance,
)
from .dice import table_prompt
from .object_actions import drop_weapon
from .steps import DropRoll, FallCheck, FallPoints, FallWhere, LandBeside, OntoRoll, PushRoll

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

MAX_PAGE_POINTS = 9


def fall_modifier(fig: FigureState, hard_pushed: bool = False) -> int:
    """+1 already off-balance, +2 already down, +1 pushed hard."""
    mods = chart.fall_modifiers()
    m = 0
    if fig.flag(DOWN):
        m += mods["down"]
    elif fig.flag(OFF_BALANCE):
        m += mods["off_balance"]
    if hard_pushed:
        m += mods["hard_pushed"]
    return m


def effect(r: LostWorlds, state: GameState, fig: FigureState, what: str, levels: int) -> str:
    """Apply a table's effect on a character (never lifts one from down to off-balance)."""
    if what == "off_balance" and balance(fig) == "normal":
        set_balance(fig, "off_balance")
    elif what in ("down", "down_hurt"):
        set_balance(fig, "down")
    words = {"safe": "", "off_balance": _("off-balance"), "down": _("down"), "down_hurt": _("down")}[what]
    if what == "down_hurt" and levels > 0:
        hurt_word = hurt(state, fig, levels)
        if hurt_word:
            return _("{state}, {n} damage: {name} {words}", state=words, n=levels, name=r.name_of(fig.id),
                     words=hurt_word)
        return _("{state}, {n} damage", state=words, n=levels)
    return words


# -- forced drop ------------------------------------------------------------------------------------------
def prompt_drop(r: LostWorlds, state: GameState, step: DropRoll) -> Prompt:
    fig = state.figures[step.figure]
    return table_prompt(fig.side, fig.id, "forced_drop", _("{name} drops {levels} levels.", name=r.name_of(fig.id),
                                                            levels=step.levels), _("forced drop"))


def apply_drop(r: LostWorlds, state: GameState, step: DropRoll, roll: Roll, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    row = chart.lookup("forced_drop", roll.values[0])
    words = effect(r, state, fig, str(row.values["jumper"]), step.levels)
    said = dict(die=roll.values[0], name=r.name_of(fig.id), text=row.values["text"], words=words)
    text = _("Forced drop: {die} — {name} {text} ({words}).", **said) if words \
        else _("Forced drop: {die} — {name} {text}.", **said)
    events.append(Event("dropped", text, {"figure": fig.id, "die": roll.values[0]}))
    resume.go_on(r, state, f"act {fig.id}", events)


# -- coming down on a character -------------------------------------------------------------------------------
def prompt_onto(r: LostWorlds, state: GameState, step: OntoRoll) -> Prompt:
    fig = state.figures[step.figure]
    return table_prompt(fig.side, fig.id, "jump_onto", _("{name} comes down on {target} from {levels} levels up.",
                                                          name=r.name_of(fig.id), target=r.name_of(step.target),
                                                          levels=step.levels), _("jump onto an enemy"))


def apply_onto(r: LostWorlds, state: GameState, step: OntoRoll, roll: Roll, events: list[Event]) -> None:
    fig, target = state.figures[step.figure], state.figures[step.target]
    row = chart.lookup("jump_onto", roll.values[0]).values
    effect(r, state, fig, str(row["jumper"]), step.levels)
    effect(r, state, target, str(row["target"]), 0)
    if row["target_damage"]:
        hurt(state, target, int(row["target_damage"]))
    if row["target_drops_weapon"]:
        drop_weapon(state, target)
    events.append(Event("jump_result", _("Jump: {die} — {text}.", die=roll.values[0], text=row["text"]),
                        {"figure": fig.id, "target": target.id, "die": roll.values[0]}))
    state.step = LandBeside(fig.id, target.id, step.then)
    if not landings(r, state, fig, target):
        resume.go_on(r, state, step.then, events)


def landings(r: LostWorlds, state: GameState, fig: FigureState, target: FigureState) -> list[Option]:
    return [Option(f"land-{r.label(n)}", _("land on {space} (level {level})", space=r.label(n),
                                           level=r.board.level(n)), n)
            for n in r.spaces.landing_spaces(state, fig, target)]


def prompt_land(r: LostWorlds, state: GameState, step: LandBeside) -> Prompt:
    fig, target = state.figures[step.figure], state.figures[step.target]
    assert target.hex is not None
    return Prompt(PromptKind.CHOOSE, fig.side, _("{name} lands next to {target}: pick a space no higher than its "
                                                 "level ({level}).", name=r.name_of(fig.id),
                                                 target=r.name_of(target.id), level=r.board.level(target.hex)),
                  figure=fig.id, options=tuple(landings(r, state, fig, target)))


def apply_land(r: LostWorlds, state: GameState, step: LandBeside, choice: Choose, events: list[Event]) -> None:
    to = r.board.from_label(choice.option.removeprefix("land-"))
    move_body(state, state.figures[step.figure], to)
    events.append(Event("landed", _("{name} lands on {space}.", name=r.name_of(step.figure),
                                    space=r.where(state, step.figure)),
                        {"figure": step.figure, "to": [to.q, to.r]}))
    resume.go_on(r, state, step.then, events)


# -- a push -----------------------------------------------------------------------------------------------
def prompt_push(r: LostWorlds, state: GameState, step: PushRoll) -> Prompt:
    target = state.figures[step.target]
    m = fall_modifier(target, step.hard)
    return table_prompt(target.side, target.id, "fall", _("{name} is pushed by {pusher} and rolls the fall table now.",
                                                          name=r.name_of(target.id), pusher=r.name_of(step.figure)),
                        _("fall table"), m)


def apply_push(r: LostWorlds, state: GameState, step: PushRoll, roll: Roll, events: list[Event]) -> None:
    target = state.figures[step.target]
    pusher_side = state.figures[step.figure].side
    fall_result(r, state, target, roll.values[0] + fall_modifier(target, step.hard), pusher_side,
                f"act {step.figure}", events)


def fall_result(r: LostWorlds, state: GameState, fig: FigureState, total: int, chooser: str, then: str,
                events: list[Event]) -> None:
    """Apply the fall table's row for ``total`` (the die with its modifiers)."""
    row = chart.lookup("fall", total)
    result = str(row.values["result"])
    events.append(Event("fall_check", _("Fall table: {total} — {name}: {text}.", total=total, name=r.name_of(fig.id),
                                        text=row.values["text"]),
                        {"figure": fig.id, "total": total, "result": result}))
    if result == "off_balance":
        next_turn_starts(fig, "off_balance")
    if result == "fall":
        state.step = FallWhere(fig.id, chooser, then)
        if not fall_spaces(r, state, fig):
            _fall_in_place(r, state, fig, then)
        return
    resume.go_on(r, state, then, events)


# -- the fall check phase -------------------------------------------------------------------------------------
def prompt_fall(r: LostWorlds, state: GameState, step: FallCheck) -> Prompt:
    fig = state.figures[step.figures[0]]
    return table_prompt(fig.side, fig.id, "fall", _("Fall check: {name} at {space}.", name=r.name_of(fig.id),
                                                    space=r.where(state, fig.id)), _("fall check"), fall_modifier(fig))


def apply_fall(r: LostWorlds, state: GameState, step: FallCheck, roll: Roll, events: list[Event]) -> None:
    fig = state.figures[step.figures[0]]
    rest = " ".join(step.figures[1:])
    fall_result(r, state, fig, roll.values[0] + fall_modifier(fig), opponent_side(r, state, fig.id),
                f"falls {rest}".strip(), events)


def opponent_side(r: LostWorlds, state: GameState, fid: str) -> str:
    """The side of the character's last opponent this turn, else the first other side."""
    fought = state.turn_sets.get(f"opponent:{fid}", [])
    if fought:
        return state.figures[fought[-1]].side
    me = state.figures[fid].side
    return next(s.id for s in r.scenario.sides if s.id != me)


def fall_spaces(r: LostWorlds, state: GameState, fig: FigureState) -> list[Option]:
    """Adjacent spaces of the same or a lower level a falling character may be moved to."""
    if fig.hex is None:
        return []
    lvl = r.board.level(fig.hex)
    out = []
    for n in r.spaces.steps(fig.hex):
        if r.board.level(n) <= lvl:
            who = r.spaces.others_conscious(state, n, fig.id)
            said = dict(space=r.label(n), level=r.board.level(n), levels=lvl - r.board.level(n))
            text = _("{space} (level {level}, {levels} levels down, onto {name})", name=r.name_of(who[0].id),
                     **said) if who else _("{space} (level {level}, {levels} levels down)", **said)
            out.append(Option(f"fall-{r.label(n)}", text, n))
    return out


def prompt_where(r: LostWorlds, state: GameState, step: FallWhere) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(PromptKind.CHOOSE, step.chooser, _("{name} falls: {side}, move it to an adjacent space of the same "
                                                     "or a lower level (1 damage per level fallen).",
                                                     name=r.name_of(fig.id), side=r.side_name(step.chooser)),
                  figure=fig.id, options=tuple(fall_spaces(r, state, fig)))


def apply_where(r: LostWorlds, state: GameState, step: FallWhere, choice: Choose, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    assert fig.hex is not None
    to = r.board.from_label(choice.option.removeprefix("fall-"))
    levels = r.board.level(fig.hex) - r.board.level(to)
    who = r.spaces.others_conscious(state, to, fig.id)
    next_turn_starts(fig, "down")
    if levels == 0 and who:  # the points on page 41, then the jump-onto table, then it lands beside
        events.append(Event("fell", _("{name} falls onto {target} at {space} without a change of level.",
                                      name=r.name_of(fig.id), target=r.name_of(who[0].id), space=r.label(to)),
                            {"figure": fig.id, "onto": who[0].id}))
        state.step = FallPoints(fig.id, step.then, who[0].id)
        return
    if levels == 0:  # the points on page 41; it is moved as it takes them
        space = _("{space} (level {level})", space=r.label(to), level=r.board.level(to))
        events.append(Event("fell", _("{name} falls to {space} without a change of level.", name=r.name_of(fig.id),
                                      space=space), {"figure": fig.id}))
        state.step = FallPoints(fig.id, step.then, to=to)
        return
    words = hurt(state, fig, levels)  # as it lands: a character knocked out by its fall is a body that fell
    said = dict(name=r.name_of(fig.id), levels=levels, space=r.label(to), words=words)
    text = _("{name} falls {levels} levels to {space}: {levels} damage, {name} {words}.", **said) if words \
        else _("{name} falls {levels} levels to {space}: {levels} damage.", **said)
    events.append(Event("fell", text, {"figure": fig.id, "levels": levels}))
    if who and fig.alive:
        state.step = OntoRoll(fig.id, who[0].id, levels, step.then)
        return
    move_body(state, fig, to)
    resume.go_on(r, state, step.then, events)


def _fall_in_place(r: LostWorlds, state: GameState, fig: FigureState, then: str) -> None:
    next_turn_starts(fig, "down")
    state.step = FallPoints(fig.id, then)


def prompt_points(r: LostWorlds, state: GameState, step: FallPoints) -> Prompt:
    fig = state.figures[step.figure]
    page = chart.fall_page()
    options = tuple(Option(str(n), _("{n} points", n=n) if n else _("no points"), figure=fig.id if n else None)
                    for n in range(MAX_PAGE_POINTS + 1))
    return Prompt(PromptKind.CHOOSE, fig.side, _("{name} falls without a change of level: enter the points on page "
                                                 "{page} of the opponent's book (the damage it takes).",
                                                 name=r.name_of(fig.id), page=page), figure=fig.id,
                  options=options[1:] + options[:1])


def apply_points(r: LostWorlds, state: GameState, step: FallPoints, choice: Choose, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    n = int(choice.option)
    words = hurt(state, fig, n)
    said = dict(name=r.name_of(fig.id), n=n, words=words)
    text = _("{name} takes {n} damage from the fall and {words}.", **said) if words \
        else _("{name} takes {n} damage from the fall.", **said)
    events.append(Event("fall_points", text, {"figure": fig.id, "damage": n}))
    if step.to is not None:
        move_body(state, fig, step.to)
    if step.onto and fig.alive:  # it fell into a character's space: the jump-onto table too
        state.step = OntoRoll(fig.id, step.onto, 0, step.then)
        return
    resume.go_on(r, state, step.then, events)


def fallers(r: LostWorlds, state: GameState) -> tuple[str, ...]:
    """Who rolls the fall check: conscious characters that ran or fought this turn, in initiative order."""
    order = {side: i for i, p in enumerate(state.turn_order) for side in r.scenario.players[p].sides}
    who = [f for f in state.alive() if conscious(f) and (f.flag(RAN) or f.flag(FOUGHT))]
    return tuple(f.id for f in sorted(who, key=lambda f: (order.get(f.side, 99), list(state.figures).index(f.id))))


STAGES = (
    Stage(DropRoll, prompt_drop, apply_drop),
    Stage(OntoRoll, prompt_onto, apply_onto),
    Stage(LandBeside, prompt_land, apply_land),
    Stage(PushRoll, prompt_push, apply_push),
    Stage(FallCheck, prompt_fall, apply_fall),
    Stage(FallWhere, prompt_where, apply_where),
    Stage(FallPoints, prompt_points, apply_points),
)
