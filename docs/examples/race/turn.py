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
from engine.i18n import N_, gettext_for
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.state import GameState
from engine.texts import agreeing, cell_noun, cells

from .steps import PickRunner, RollDie, Run

if TYPE_CHECKING:
    from .rules import Race

_ = gettext_for(__name__)

DIE = 6
# The roll's log line in the two forms that agree with a name (Red rolls / Goblins roll), translated alike.
ROLLS = (N_("{name} rolls {rolled} (rolled)."), N_("{name} roll {rolled} (rolled)."))
ROLLS_BY_APP = (N_("{name} rolls {rolled} (rolled by the app)."), N_("{name} roll {rolled} (rolled by the app)."))


# -- roll --------------------------------------------------------------------------------------------
def prompt_roll(r: Race, state: GameState, step: RollDie) -> Prompt:
    side = r.player_sides(state)[0]
    finish = sum(1 for v in range(1, DIE + 1) if r.can_finish(state, v))
    return Prompt(
        PromptKind.ROLL,
        side,
        _("{player}: roll 1d6 — one of your runners runs up to that many {cells}, plus its stride.",
          player=r.active_name(state), cells=cell_noun(r.board.kind)),
        dice=(DieRequest(side, DIE, _("running")),),
        outcomes=((Outcome(1, DIE, _("{cells} to run", cells=cell_noun(r.board.kind))),),),
        chances=(Chance(_("a runner can reach an exit"), finish / DIE),),
    )


def apply_roll(r: Race, state: GameState, step: RollDie, roll: Roll, events: list[Event]) -> None:
    (rolled,) = roll.values
    name = r.active_name(state)
    text = (_(agreeing(name, *ROLLS_BY_APP), name=name, rolled=rolled) if roll.virtual
            else _(agreeing(name, *ROLLS), name=name, rolled=rolled))
    events.append(Event("rolled", text, {"values": list(roll.values), "virtual": roll.virtual}))
    state.step = PickRunner(rolled)


# -- pick ----------------------------------------------------------------------------------------------
def prompt_pick(r: Race, state: GameState, step: PickRunner) -> Prompt:
    options = tuple(
        Option(fid, _("{name} at {cell}: up to {count}", name=r.name_of(fid), cell=r.where(state, fid),
                      count=cells(r.board.kind, step.rolled + r.stride(fid))), state.figures[fid].hex, fid)
        for fid in r.runners(state)
    )
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0],
                  _("{player}: which runner runs? ({rolled} rolled)", player=r.active_name(state), rolled=step.rolled),
                  options=options)


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
        _("{side}: move {name} up to {count} (or leave it where it is). Walls and rock are in the way; runners "
          "may be passed but not shared.", side=r.side_name(fig.side), name=r.name_of(fig.id),
          count=cells(r.board.kind, step.allowance)),
        figure=fig.id,
        moves=r.reachable(state, fig.id),
    )


def apply_run(r: Race, state: GameState, step: Run, move: Move, events: list[Event]) -> None:
    path = r.reachable(state, step.figure)[move.to].path
    state.figures[step.figure].hex = move.to
    name = r.name_of(step.figure)
    if move.to == step.start:
        events.append(Event("stayed", _("{name} stays at {cell}.", name=name, cell=r.label(step.start)),
                            {"figure": step.figure}))
    else:
        said = _("{name} runs from {start} to {end}.", name=name, start=r.label(step.start), end=r.label(move.to))
        events.append(Event("moved", said, {
            "figure": step.figure, "from": [step.start.q, step.start.r], "to": [move.to.q, move.to.r],
            "path": [[h.q, h.r] for h in path],
        }))
    r.end_phase(state, events)


STAGES = (
    Stage(RollDie, prompt_roll, apply_roll),
    Stage(PickRunner, prompt_pick, apply_pick, settle_pick),
    Stage(Run, prompt_run, apply_run),
)
