"""Coming down: forced drops, jumping onto an enemy, pushes, the fall check and falls to lower spaces.

- A forced drop (to a space 2 or more levels lower) rolls 1d6 on the forced drop table.
- Jumping onto an enemy (only from at least a level higher) rolls 1d6 on the jump table; the jumper then
  lands on a space next to the enemy, its side's choice. A fall into a space holding a character is
  played the same way.
- A pushed enemy rolls the fall table at once (+1 for a hard push); on a fall the pusher picks the space.
- The fall check phase: each character that ran or fought this turn rolls 1d6 (+1 already off-balance,
  +2 already down): 1–3 nothing, 4–5 the next turn starts off-balance, 6 a fall: the opponent moves it to
  an adjacent space of the same or a lower level, 1 damage per level, and it starts the next turn down; a
  fall with no change of level costs the points on page 41 of the opponent's book instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import chart, resume
from .condition import DOWN, FOUGHT, OFF_BALANCE, RAN, balance, conscious, hurt, set_balance
from .dice import table_prompt
from .moving import drop_weapon
from .steps import DropRoll, FallCheck, FallPoints, FallWhere, LandBeside, OntoRoll, PushRoll

if TYPE_CHECKING:
    from .rules import LostWorlds

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
    words = {"safe": "", "off_balance": "off-balance", "down": "down", "down_hurt": "down"}[what]
    if what == "down_hurt" and levels > 0:
        hurt_word = hurt(state, fig, levels)
        words += f", {levels} damage" + (f": {r.name_of(fig.id)} {hurt_word}" if hurt_word else "")
    return words


# -- forced drop ------------------------------------------------------------------------------------------
def prompt_drop(r: LostWorlds, state: GameState, step: DropRoll) -> Prompt:
    fig = state.figures[step.figure]
    return table_prompt(fig.side, fig.id, "forced_drop", f"{r.name_of(fig.id)} drops {step.levels} levels.",
                        "forced drop")


def apply_drop(r: LostWorlds, state: GameState, step: DropRoll, roll: Roll, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    row = chart.lookup("forced_drop", roll.values[0])
    words = effect(r, state, fig, str(row.values["jumper"]), step.levels)
    events.append(Event("dropped", f"Forced drop: {roll.values[0]} — {r.name_of(fig.id)} {row.values['text']}"
                        f"{f' ({words})' if words else ''}.", {"figure": fig.id, "die": roll.values[0]}))
    resume.go_on(r, state, f"act {fig.id}", events)


# -- coming down on a character -------------------------------------------------------------------------------
def prompt_onto(r: LostWorlds, state: GameState, step: OntoRoll) -> Prompt:
    fig = state.figures[step.figure]
    return table_prompt(fig.side, fig.id, "jump_onto", f"{r.name_of(fig.id)} comes down on "
                        f"{r.name_of(step.target)} from {step.levels} levels up.", "jump onto an enemy")


def apply_onto(r: LostWorlds, state: GameState, step: OntoRoll, roll: Roll, events: list[Event]) -> None:
    fig, target = state.figures[step.figure], state.figures[step.target]
    row = chart.lookup("jump_onto", roll.values[0]).values
    effect(r, state, fig, str(row["jumper"]), step.levels)
    effect(r, state, target, str(row["target"]), 0)
    if row["target_damage"]:
        hurt(state, target, int(row["target_damage"]))
    if row["target_drops_weapon"]:
        drop_weapon(state, target)
    events.append(Event("jump_result", f"Jump: {roll.values[0]} — {row['text']}.",
                        {"figure": fig.id, "target": target.id, "die": roll.values[0]}))
    state.step = LandBeside(fig.id, target.id, step.then)
    if not landings(r, state, fig, target):
        resume.go_on(r, state, step.then, events)


def landings(r: LostWorlds, state: GameState, fig: FigureState, target: FigureState) -> list[Option]:
    if target.hex is None:
        return []
    return [Option(f"land-{r.label(n)}", f"land on {r.label(n)} (level {r.board.level(n)})", n)
            for n in r.board.neighbours(target.hex)
            if r.spaces.standable(n) and (n == fig.hex or not r.spaces.others_conscious(state, n, fig.id))]


def prompt_land(r: LostWorlds, state: GameState, step: LandBeside) -> Prompt:
    fig, target = state.figures[step.figure], state.figures[step.target]
    return Prompt(PromptKind.CHOOSE, fig.side, f"{r.name_of(fig.id)} lands next to {r.name_of(target.id)}: "
                  "pick the space.", figure=fig.id, options=tuple(landings(r, state, fig, target)))


def apply_land(r: LostWorlds, state: GameState, step: LandBeside, choice: Choose, events: list[Event]) -> None:
    to = r.board.from_label(choice.option.removeprefix("land-"))
    state.put(step.figure, to)
    events.append(Event("landed", f"{r.name_of(step.figure)} lands on {r.where(state, step.figure)}.",
                        {"figure": step.figure, "to": [to.q, to.r]}))
    resume.go_on(r, state, step.then, events)


# -- a push -----------------------------------------------------------------------------------------------
def prompt_push(r: LostWorlds, state: GameState, step: PushRoll) -> Prompt:
    target = state.figures[step.target]
    m = fall_modifier(target, step.hard)
    return table_prompt(target.side, target.id, "fall", f"{r.name_of(target.id)} is pushed by "
                        f"{r.name_of(step.figure)} and rolls the fall table now.", "fall table", m)


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
    events.append(Event("fall_check", f"Fall table: {total} — {r.name_of(fig.id)}: {row.values['text']}.",
                        {"figure": fig.id, "total": total, "result": result}))
    if result == "off_balance" and balance(fig) == "normal":
        set_balance(fig, "off_balance")
    if result == "fall":
        state.step = FallWhere(fig.id, chooser, then)
        if not fall_spaces(r, state, fig):
            _fall_in_place(r, state, fig, then)
        return
    resume.go_on(r, state, then, events)


# -- the fall check phase -------------------------------------------------------------------------------------
def prompt_fall(r: LostWorlds, state: GameState, step: FallCheck) -> Prompt:
    fig = state.figures[step.figures[0]]
    return table_prompt(fig.side, fig.id, "fall", f"Fall check: {r.name_of(fig.id)} at {r.where(state, fig.id)}.",
                        "fall check", fall_modifier(fig))


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
            onto = f", onto {r.name_of(who[0].id)}" if who else ""
            out.append(Option(f"fall-{r.label(n)}", f"{r.label(n)} (level {r.board.level(n)}, "
                              f"{lvl - r.board.level(n)} levels down{onto})", n))
    return out


def prompt_where(r: LostWorlds, state: GameState, step: FallWhere) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(PromptKind.CHOOSE, step.chooser, f"{r.name_of(fig.id)} falls: {r.side_name(step.chooser)}, move "
                  "it to an adjacent space of the same or a lower level (1 damage per level fallen).",
                  figure=fig.id, options=tuple(fall_spaces(r, state, fig)))


def apply_where(r: LostWorlds, state: GameState, step: FallWhere, choice: Choose, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    assert fig.hex is not None
    to = r.board.from_label(choice.option.removeprefix("fall-"))
    levels = r.board.level(fig.hex) - r.board.level(to)
    who = r.spaces.others_conscious(state, to, fig.id)
    set_balance(fig, "down")
    if levels == 0 and not who:
        state.put(fig.id, to)
        events.append(Event("fell", f"{r.name_of(fig.id)} falls to {r.where(state, fig.id)} without a change of "
                            "level.", {"figure": fig.id}))
        state.step = FallPoints(fig.id, step.then)
        return
    words = hurt(state, fig, levels)
    events.append(Event("fell", f"{r.name_of(fig.id)} falls {levels} levels to {r.label(to)}: {levels} damage"
                        f"{f', {r.name_of(fig.id)} {words}' if words else ''}.", {"figure": fig.id, "levels": levels}))
    if who and fig.alive:
        state.step = OntoRoll(fig.id, who[0].id, levels, step.then)
        return
    state.put(fig.id, to)
    resume.go_on(r, state, step.then, events)


def _fall_in_place(r: LostWorlds, state: GameState, fig: FigureState, then: str) -> None:
    set_balance(fig, "down")
    state.step = FallPoints(fig.id, then)


def prompt_points(r: LostWorlds, state: GameState, step: FallPoints) -> Prompt:
    fig = state.figures[step.figure]
    page = chart.fall_page()
    options = tuple(Option(str(n), f"{n} points" if n else "no points", figure=fig.id if n else None)
                    for n in range(MAX_PAGE_POINTS + 1))
    return Prompt(PromptKind.CHOOSE, fig.side, f"{r.name_of(fig.id)} falls without a change of level: enter the "
                  f"points on page {page} of the opponent's book (the damage it takes).", figure=fig.id,
                  options=options[1:] + options[:1])


def apply_points(r: LostWorlds, state: GameState, step: FallPoints, choice: Choose, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    n = int(choice.option)
    words = hurt(state, fig, n)
    events.append(Event("fall_points", f"{r.name_of(fig.id)} takes {n} damage from the fall"
                        f"{f' and {words}' if words else ''}.", {"figure": fig.id, "damage": n}))
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
