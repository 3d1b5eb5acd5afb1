"""A Race turn as three stages: roll 1d6, pick a runner (alone when there is only one), run.

Each stage says what the table must do (``prompt``), changes the state with the answer (``apply``)
and, for a step that needs no decision, moves on by itself (``settle``). The shared dispatcher has
already checked every answer against its prompt: the die's face, an offered runner, a listed hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Move, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.words import verb
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.state import GameState

from .steps import PickRunner, RollDie, Run

if TYPE_CHECKING:
    from .rules import Race

DIE = 6


# -- roll --------------------------------------------------------------------------------------------
def prompt_roll(r: Race, state: GameState, step: RollDie) -> Prompt:
    side = r.player_sides(state)[0]
    finish = sum(1 for v in range(1, DIE + 1) if r.can_finish(state, v))
    return Prompt(
        PromptKind.ROLL,
        side,
        f"{r.active_name(state)}: roll 1d6 — one of your runners runs up to that many hexes, plus its stride.",
        dice=(DieRequest(side, DIE, "running"),),
        outcomes=((Outcome(1, DIE, "hexes to run"),),),
        chances=(Chance("a runner can reach an exit", finish / DIE),),
    )


def apply_roll(r: Race, state: GameState, step: RollDie, roll: Roll, events: list[Event]) -> None:
    (rolled,) = roll.values
    how = "rolled by the app" if roll.virtual else "rolled"
    events.append(Event("rolled", f"{verb(r.active_name(state), 'rolls', 'roll')} {rolled} ({how}).",
                        {"values": list(roll.values), "virtual": roll.virtual}))
    state.step = PickRunner(rolled)


# -- pick ----------------------------------------------------------------------------------------------
def prompt_pick(r: Race, state: GameState, step: PickRunner) -> Prompt:
    options = tuple(
        Option(fid, f"{r.name_of(fid)} at {r.where(state, fid)}: up to {step.rolled + r.stride(fid)} hexes",
               state.figures[fid].hex, fid)
        for fid in r.runners(state)
    )
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0],
                  f"{r.active_name(state)}: which runner runs? ({step.rolled} rolled)", options=options)


def apply_pick(r: Race, state: GameState, step: PickRunner, choice: Choose, events: list[Event]) -> None:
    start(r, state, choice.option, step.rolled)


def settle_pick(r: Race, state: GameState, step: PickRunner, events: list[Event]) -> bool:
    """With a single runner there is nothing to choose."""
    runners = r.runners(state)
    if len(runners) != 1:
        return False
    start(r, state, runners[0], step.rolled)
    return True


def start(r: Race, state: GameState, fid: str, rolled: int) -> None:
    here = state.figures[fid].hex
    assert here is not None
    state.step = Run(fid, rolled + r.stride(fid), here)


# -- run -------------------------------------------------------------------------------------------------
def prompt_run(r: Race, state: GameState, step: Run) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(
        PromptKind.MOVE,
        fig.side,
        f"{r.side_name(fig.side)}: move {r.name_of(fig.id)} up to {step.allowance} hexes (or leave it where it is). "
        "Walls and rock are in the way; runners may be passed but not shared.",
        figure=fig.id,
        moves=r.reachable(state, fig.id),
    )


def apply_run(r: Race, state: GameState, step: Run, move: Move, events: list[Event]) -> None:
    path = r.reachable(state, step.figure)[move.to].path
    state.figures[step.figure].hex = move.to
    name = r.name_of(step.figure)
    if move.to == step.start:
        events.append(Event("stayed", f"{name} stays at {r.label(step.start)}.", {"figure": step.figure}))
    else:
        events.append(Event("moved", f"{name} runs from {r.label(step.start)} to {r.label(move.to)}.", {
            "figure": step.figure, "from": [step.start.q, step.start.r], "to": [move.to.q, move.to.r],
            "path": [[h.q, h.r] for h in path],
        }))
    r.end_phase(state, events)


STAGES = (
    Stage(RollDie, prompt_roll, apply_roll),
    Stage(PickRunner, prompt_pick, apply_pick, settle_pick),
    Stage(Run, prompt_run, apply_run),
)
