"""Skirmish: a test rule set for stacks and facing, loaded from its folder through ``HEXA_RULESETS``.

Players take turns in the scenario's order (no roll-off); in a turn each of the player's figures in
turn steps to a neighbouring hex or stays. With the option ``pick`` the player picks which figure
moves next, among those yet to move: a choose prompt naming figures, which may share a hex. Any
number of figures may share a hex (a stack), and figures face a direction, turned by ``face``
actions at any time (from the tags on the table, or a tablet). Nobody wins: it exists to carry
figures through the table sync, the wire and the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from engine.actions import Choose, Move
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase, Stage
from engine.flow.steps import Step, step
from engine.flow.turns import FixedOrder, TurnRules
from engine.hexes import Hex
from engine.pathfinding import Reach
from engine.prompts import Option, Prompt, PromptKind
from engine.rules import register
from engine.rules.base import OptionSpec, TargetInfo
from engine.state import GameState

SCENARIO = Path(__file__).with_name("stacks.toml")


@step("skirmish.move")
@dataclass(frozen=True)
class Step1(Step):
    """The figure whose move it is."""

    figure: str
    left: tuple[str, ...] = ()  # with ``pick``: the player's figures still to move this turn, picked next


@step("skirmish.pick")
@dataclass(frozen=True)
class Pick(Step):
    """With ``pick``: the player picks which of ``left`` moves next."""

    left: tuple[str, ...]


class ScenarioOrder(FixedOrder):
    """Players in the scenario's order from the start, without a roll-off."""

    def first_step(self, rules: TurnRules, state: GameState) -> Step:
        assert isinstance(rules, Skirmish)
        state.turn_order = list(range(len(rules.scenario.players)))
        state.round = 1
        state.phase = "movement"
        return rules.first_mover(state)


def _prompt(r: Skirmish, state: GameState, s: Step1) -> Prompt:
    fig = state.figures[s.figure]
    return Prompt(PromptKind.MOVE, fig.side, f"Move {r.name_of(fig.id)} one hex, or leave it where it stands.",
                  fig.id, moves=r.reachable(state, fig.id))


def _apply(r: Skirmish, state: GameState, s: Step1, action: Move, events: list[Event]) -> None:
    state.put(action.figure, action.to)
    with_it = [r.name_of(f.id) for f in state.figures_at(action.to) if f.id != action.figure]
    joins = f", joining {', '.join(with_it)}" if with_it else ""
    events.append(Event("moved", f"{r.name_of(action.figure)} stands on {r.label(action.to)}{joins}.",
                        {"figure": action.figure, "to": [action.to.q, action.to.r]}))
    mine = r.movers(state)
    later = mine[mine.index(action.figure) + 1:]
    if r.picks and s.left:
        state.step = Pick(s.left)
    elif later and not r.picks:
        state.step = Step1(later[0])
    else:
        r.end_phase(state, events)


def _pick_prompt(r: Skirmish, state: GameState, s: Pick) -> Prompt:
    at = {fid: state.figures[fid].hex for fid in s.left}
    options = tuple(Option(fid, f"move {r.name_of(fid)} ({r.label(h) if h is not None else 'off the map'})", h, fid)
                    for fid, h in at.items())
    return Prompt(PromptKind.CHOOSE, state.figures[s.left[0]].side, "Which figure moves next?", options=options)


def _pick_apply(r: Skirmish, state: GameState, s: Pick, action: Choose, events: list[Event]) -> None:
    state.step = Step1(action.option, tuple(f for f in s.left if f != action.option))


@register
class Skirmish(FlowRuleSet):
    name: ClassVar[str] = "skirmish"
    title: ClassVar[str] = "Skirmish (a test rule set: stacks and facing)"
    one_figure_per_cell: ClassVar[bool] = False
    uses_facing: ClassVar[bool] = True
    flow: ClassVar[Flow] = Flow(
        order=ScenarioOrder(),
        phases=(Phase("movement", lambda r, s: r.first_mover(s)),),
        stages=(Stage(Step1, _prompt, _apply), Stage(Pick, _pick_prompt, _pick_apply)),
    )
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("pick", bool, False, "the player picks which figure moves next"),
    )

    @property
    def picks(self) -> bool:
        """Whether the player picks the next figure to move (the option ``pick``)."""
        return bool(self.scenario.options["pick"])

    def movers(self, state: GameState) -> list[str]:
        sides = self.player_sides(state)
        return [f.id for f in state.alive() if f.side in sides]

    def first_mover(self, state: GameState) -> Step:
        mine = self.movers(state)
        return Pick(tuple(mine)) if self.picks else Step1(mine[0])

    def reachable(self, state: GameState, figure: str) -> dict[Hex, Reach]:
        at = state.figures[figure].hex
        assert at is not None
        out = {at: Reach(0, (at,))}
        out.update({n: Reach(1, (at, n)) for n in self.scenario.board.neighbours(at)})
        return out

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        return []

    def threatened(self, state: GameState, side: str) -> set[Hex]:
        return set()

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        return "a figure steps to a neighbouring hex or stays"
