"""Race: roll 1d6, move one runner up to that many hexes (plus its stride); the first to an exit wins.

The rules in full (docs/examples/race/README.md walks through how they are built):

1. Sides roll 1d6 each once, highest first, ties roll again (the flow's :class:`FixedOrder`).
2. On a turn the player rolls 1d6, picks one of their runners and moves it up to the roll plus the
   runner's ``stride`` hexes, or leaves it where it is.
3. Runners enter floor hexes only and never cross a wall or a door; they pass other runners but
   never end a run on one.
4. A side wins when one of its runners ends a run on one of its exits (``reach``).

This module declares the rule set: what its scenarios hold, its turn flow, its hooks and queries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.board import Board, Cell
from engine.flow.machine import Flow, FlowRuleSet, Phase
from engine.flow.turns import FixedOrder
from engine.i18n import N_, gettext_for
from engine.pathfinding import Reach
from engine.rules.base import MapSymbol, VictoryType
from engine.scenario import FigureSpec, Scenario, VictorySpec
from engine.scenario_schema import Field
from engine.state import GameState
from engine.texts import cell_noun, cells

from . import course, scenario_fields, turn
from .steps import RollDie, Run

_ = gettext_for(__name__)

LONGEST_RUN = turn.DIE + scenario_fields.MAX_STRIDE


class Race(FlowRuleSet):
    name: ClassVar[str] = "race"
    title: ClassVar[str] = N_("Race (the worked example of a rule set)")
    # -- what its scenarios hold beyond the core ----------------------------------------------------------
    figure_fields: ClassVar[tuple[Field, ...]] = scenario_fields.FIGURE_FIELDS
    victory_types: ClassVar[tuple[VictoryType, ...]] = scenario_fields.VICTORY_TYPES
    default_victory: ClassVar[str | None] = "reach"  # no [[victory]]: every side races to the X hexes
    map_symbols: ClassVar[Mapping[str, MapSymbol]] = scenario_fields.MAP_SYMBOLS
    one_figure_per_cell: ClassVar[bool] = True
    # Any board whose cells have neighbours: a hex map, or a square grid (the ``squares`` kind of
    # docs/examples/squares, found when its folder is named in HEXA_RULESETS too).
    board_kinds: ClassVar[tuple[str, ...]] = ("hex", "squares")
    # -- its turn: who goes when, and the stages of a turn -------------------------------------------------
    flow: ClassVar[Flow] = Flow(
        order=FixedOrder(),
        phases=(Phase("run", lambda r, s: RollDie()),),
        stages=turn.STAGES,
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self.board: Board = scenario.board
        self._strides = {f.id: scenario_fields.stride(f) for f in scenario.figures}
        self._exits: dict[str, set[Cell]] = {}
        for v in scenario.victory:
            self._exits.setdefault(v.side, set()).update(scenario_fields.exits(v, self.board))

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        scenario_fields.check_figure(figure, board)

    @classmethod
    def check_victory_spec(cls, victory: VictorySpec, board: Board) -> None:
        scenario_fields.check_victory(victory, board)

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        scenario_fields.check_scenario(scenario)

    # -- names and the rule set's own facts -------------------------------------------------------------------
    def stride(self, fid: str) -> int:
        return self._strides[fid]

    def where(self, state: GameState, fid: str) -> str:
        h = state.figures[fid].hex
        return self.label(h) if h is not None else _("off the course")

    def runners(self, state: GameState) -> list[str]:
        """The runners of the player whose turn it is."""
        sides = self.player_sides(state)
        return sorted(f.id for f in state.alive() if f.side in sides)

    def can_finish(self, state: GameState, rolled: int) -> bool:
        """Whether a roll of ``rolled`` lets one of the active player's runners reach an exit."""
        return any(set(self.reachable(state, fid, rolled + self.stride(fid))) & self._exits.get(
            state.figures[fid].side, set()) for fid in self.runners(state))

    # -- hooks of the shared flow -------------------------------------------------------------------------------
    def victory(self, state: GameState) -> tuple[str, str] | None:
        for fig in sorted(state.alive(), key=lambda f: f.id):
            if fig.hex in self._exits.get(fig.side, set()):
                said = _("{name} reaches the exit {cell}", name=self.name_of(fig.id), cell=self.label(fig.hex))
                return fig.side, said
        return None

    def goals(self, state: GameState, figure: str) -> list[Cell]:
        return sorted(self._exits.get(state.figures[figure].side, set()))

    # -- queries for the tablets ------------------------------------------------------------------------------
    def reachable(self, state: GameState, figure: str, budget: float | None = None) -> dict[Cell, Reach]:
        fig = state.figures[figure]
        if fig.hex is None:
            return {}
        if budget is None:
            step = state.step
            budget = step.allowance if isinstance(step, Run) and step.figure == figure else LONGEST_RUN
        taken = {f.hex for f in state.alive() if f.id != figure and f.hex is not None}
        return course.runs(self.board, fig.hex, budget, taken)

    def why_not(self, state: GameState, figure: str, to: Cell) -> str:
        name, where = self.name_of(figure), self.label(to)
        if to not in self.board:
            return _("{cell} is not on the course", cell=where)
        other = state.figure_at(to)
        if other is not None and other.id != figure:
            return _("{cell} is taken by {other}: runners pass each other but never share a {one}", cell=where,
                     other=self.name_of(other.id), one=cell_noun(self.board.kind, 1))
        far = self.reachable(state, figure, budget=len(self.board))
        if to not in far:
            return _("{name} cannot get to {cell}: rock or walls are in the way", name=name, cell=where)
        step = state.step
        allowance = step.allowance if isinstance(step, Run) else LONGEST_RUN
        return _("{cell} is {count} away by the shortest open way; {name} may run {allowance}", cell=where,
                 count=cells(self.board.kind, int(far[to].cost)), name=name, allowance=allowance)
