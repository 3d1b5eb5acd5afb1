"""Movement in Fantasy Battle (RULES.md §1): the next figure, doors and locked doors, the movement roll,
the move, and the combat that contact with an enemy starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Move, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.words import possessive, their, verb
from engine.hexes import Edge
from engine.prompts import Chance, Option, Outcome, Prompt, PromptKind
from engine.rules.fantasy_battle.combat import fight, start_combat
from engine.rules.fantasy_battle.constants import MOVE_LONG, MOVE_SHORT, UNLOCK_AT
from engine.rules.fantasy_battle.steps import Door, MoveRoll, MoveStep, Select, Unlock
from engine.rules.fantasy_battle.tokens import pick_up
from engine.state import GameState

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle


# -- the next figure ---------------------------------------------------------------------------------------
def prompt_select(r: FantasyBattle, state: GameState, step: Select) -> Prompt:
    opts = [
        Option(fid, f"move {r.fname(fid)} ({r.at(state, fid)})", state.figures[fid].hex, fid)
        for fid in r.selectable(state)
    ]
    opts.append(Option("end", "End the turn (the others stay where they are)"))
    return Prompt(
        PromptKind.CHOOSE,
        r.player_sides(state)[0],
        f"{r.active_name(state)}: choose the next figure to move, or end the turn.",
        options=tuple(opts),
    )


def apply_select(r: FantasyBattle, state: GameState, step: Select, action: Choose, events: list[Event]) -> None:
    if action.option == "end":
        name = r.active_name(state)
        events.append(Event("turn_ended", f"{verb(name, 'ends', 'end')} {their(name)} turn.", {}))
        r.end_phase(state, events)
        return
    fig = state.figures[action.option]
    state.add_to_set("acted", fig.id)
    if r.terrain(state).contact_enemies(fig) and not state.in_set("initiated", fig.id):
        # In contact since a fight earlier this turn: the contact rule applies where it stands.
        start_combat(r, state, fig.id, events)
    elif r.closed_doors(state, fig):
        state.step = Door(fig.id)
    else:
        state.step = MoveRoll(fig.id)


def settle_select(r: FantasyBattle, state: GameState, step: Select, events: list[Event]) -> bool:
    if r.selectable(state):
        return False
    events.append(Event("turn_ended", f"{possessive(r.active_name(state))} figures have all acted.", {}))
    r.end_phase(state, events)
    return True


# -- doors -----------------------------------------------------------------------------------------------
def prompt_door(r: FantasyBattle, state: GameState, step: Door) -> Prompt:
    fig = state.figures[step.figure]
    assert fig.hex is not None
    opts = []
    for e in r.closed_doors(state, fig):
        lab, beyond = r.board.edge_label(e), e.other(fig.hex)  # the option's hex: where the door leads
        if state.doors[e] == "locked":
            opts.append(Option(f"unlock:{lab}", f"try the locked door {lab} (1d6: {UNLOCK_AT}–6 opens)", beyond))
        else:
            opts.append(Option(f"open:{lab}", f"open the door {lab}", beyond))
    opts.append(Option("move", "leave the door shut and move"))
    return Prompt(
        PromptKind.CHOOSE,
        fig.side,
        f"{r.sname(fig.side)}: {r.fname(fig.id)} stands at a door — open it, or just move?",
        figure=fig.id,
        options=tuple(opts),
    )


def apply_door(r: FantasyBattle, state: GameState, step: Door, action: Choose, events: list[Event]) -> None:
    if action.option == "move":
        state.step = MoveRoll(step.figure)
        return
    verb_, lab = action.option.split(":", 1)
    if verb_ == "unlock":
        state.step = Unlock(step.figure, lab)
        return
    open_door(r, state, step.figure, r.edge_by_label(lab), events)


def open_door(r: FantasyBattle, state: GameState, fid: str, e: Edge, events: list[Event]) -> None:
    """The door opens; an enemy in the hex beyond means combat at once and the end of the move."""
    fig = state.figures[fid]
    assert fig.hex is not None
    state.doors[e] = "open"
    events.append(
        Event(
            "door_opened",
            f"{r.fname(fid)} opens the door {r.board.edge_label(e)}.",
            {"figure": fid, "edge": [e.a.q, e.a.r, e.b.q, e.b.r]},
        )
    )
    beyond = state.figure_at(e.other(fig.hex))
    if beyond is not None and beyond.side != fig.side:
        events.append(
            Event(
                "ambush",
                f"{r.fname(beyond.id)} stands behind the door: combat at once, {possessive(r.fname(fid))} move ends.",
                {"figure": fid, "enemy": beyond.id},
            )
        )
        state.add_to_set("initiated", fid)
        fight(r, state, fid, beyond.id, events)
    else:
        state.step = MoveRoll(fid)


def prompt_unlock(r: FantasyBattle, state: GameState, step: Unlock) -> Prompt:
    fig = state.figures[step.figure]
    name = r.fname(fig.id)
    return Prompt(
        PromptKind.ROLL,
        fig.side,
        f"{r.sname(fig.side)}: roll 1d6 for {name} at the locked door — {UNLOCK_AT}–6 opens it and {name} moves "
        f"(an enemy behind the door means combat at once instead), 1–{UNLOCK_AT - 1} fails and the move ends.",
        figure=fig.id,
        dice=(r.die(fig.side, "locked door", fig.id),),
        outcomes=((Outcome(1, UNLOCK_AT - 1, "stays locked"), Outcome(UNLOCK_AT, 6, "opens")),),
        chances=(Chance("the door opens", (7 - UNLOCK_AT) / 6), Chance("stays locked", (UNLOCK_AT - 1) / 6)),
    )


def apply_unlock(r: FantasyBattle, state: GameState, step: Unlock, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, f"Lock roll for {r.fname(step.figure)}"))
    if v >= UNLOCK_AT:
        open_door(r, state, step.figure, r.edge_by_label(step.door), events)
    else:
        events.append(
            Event("lock_held", f"The lock holds; {possessive(r.fname(step.figure))} move ends.",
                  {"figure": step.figure})
        )
        state.step = Select()


# -- the move -------------------------------------------------------------------------------------------------
def prompt_move_roll(r: FantasyBattle, state: GameState, step: MoveRoll) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(
        PromptKind.ROLL,
        fig.side,
        f"{r.sname(fig.side)}: roll 1d6 for {r.fname(fig.id)} — 5–6 moves up to {MOVE_LONG} hexes, "
        f"1–4 up to {MOVE_SHORT}.",
        figure=fig.id,
        dice=(r.die(fig.side, "movement", fig.id),),
        outcomes=((Outcome(1, 4, f"up to {MOVE_SHORT} hexes"), Outcome(5, 6, f"up to {MOVE_LONG} hexes")),),
        chances=(Chance(f"up to {MOVE_LONG} hexes", 2 / 6), Chance(f"up to {MOVE_SHORT} hexes", 4 / 6)),
    )


def apply_move_roll(r: FantasyBattle, state: GameState, step: MoveRoll, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    allowance = MOVE_LONG if v >= 5 else MOVE_SHORT
    events.append(r.rolled(roll, f"Movement roll for {r.fname(step.figure)}", f"up to {allowance} hexes"))
    fig = state.figures[step.figure]
    assert fig.hex is not None
    state.step = MoveStep(step.figure, allowance, fig.hex)


def prompt_move(r: FantasyBattle, state: GameState, step: MoveStep) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(
        PromptKind.MOVE,
        fig.side,
        f"{r.sname(fig.side)}: move {r.fname(fig.id)} up to {step.allowance} hexes "
        "(or leave it where it is). Entering a hex next to an enemy stops the move and starts a fight.",
        figure=fig.id,
        moves=r.reachable(state, fig.id),
    )


def apply_move(r: FantasyBattle, state: GameState, step: MoveStep, action: Move, events: list[Event]) -> None:
    fid = step.figure
    moves = r.reachable(state, fid)
    fig = state.figures[fid]
    start = fig.hex
    assert start is not None
    fig.hex = action.to
    if action.to == start:
        events.append(Event("stayed", f"{r.fname(fid)} stays at {r.label(start)}.", {"figure": fid}))
    else:
        events.append(
            Event(
                "moved",
                f"{r.fname(fid)} moves from {r.label(start)} to {r.label(action.to)}.",
                {
                    "figure": fid,
                    "from": [start.q, start.r],
                    "to": [action.to.q, action.to.r],
                    "path": [[h.q, h.r] for h in moves[action.to].path],
                },
            )
        )
        pick_up(r, state, fig, events)
    if action.to != start and r.terrain(state).contact_enemies(fig) and not state.in_set("initiated", fid):
        start_combat(r, state, fid, events)
    else:
        state.step = Select()


STAGES = (
    Stage(Select, prompt_select, apply_select, settle_select),
    Stage(Door, prompt_door, apply_door),
    Stage(Unlock, prompt_unlock, apply_unlock),
    Stage(MoveRoll, prompt_move_roll, apply_move_roll),
    Stage(MoveStep, prompt_move, apply_move),
)
