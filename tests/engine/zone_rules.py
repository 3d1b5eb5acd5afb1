"""A tiny rule set on a zone board, for testing the board seam and the scenario declarations.

Each side moves one figure per turn to a zone beside it (left, right, above, below); several
figures may share a zone. A side wins by ``reach``-ing a named zone. Figures carry ``hp``, and the
scenario may hold a ``[[zone_costs]]`` table: the rule set's own fields and tables, read by the core.
It brings its own tablet content too: a glossary of its own and a query kind of its own (``steps``),
drawn by the app without knowing the rule set; it counts no points.
"""

from __future__ import annotations

from typing import ClassVar

from engine.actions import Action, Move
from engine.board import Board
from engine.errors import IllegalActionError
from engine.events import Event
from engine.hexes import Hex
from engine.overlays import CellMark, LineMark, Overlay
from engine.pathfinding import Reach
from engine.prompts import Prompt, PromptKind
from engine.rule_fields import FieldRef
from engine.rules import register
from engine.rules.base import RuleSet, TargetInfo, VictoryType
from engine.rules.content import GlossaryTerm, QueryKind
from engine.scenario import FigureSpec
from engine.scenario_schema import REQUIRED, Field, FieldError, Table, number_field, text_field
from engine.state import FigureState, GameState
from engine.texts import english_cell_word

hp = FieldRef("hp", float)  # a figure's hit points
goal_zone = FieldRef("zone", Hex)  # the zone a 'reach' victory names


class ZoneSteps(RuleSet):
    name: ClassVar[str] = "zone-steps"
    title: ClassVar[str] = "Zone steps (a test rule set)"
    board_kinds: ClassVar[tuple[str, ...]] = ("zones",)
    levels: ClassVar[bool] = True
    one_figure_per_cell: ClassVar[bool] = False
    figure_fields: ClassVar[tuple[Field, ...]] = (number_field("hp", 3, 1, 10, help="hit points"),)
    victory_types: ClassVar[tuple[VictoryType, ...]] = (
        VictoryType("reach", "a figure of the side stands on the zone", (text_field("zone", REQUIRED, ref="cell"),)),
    )
    tables: ClassVar[tuple[Table, ...]] = (
        Table("zone_costs", (text_field("zone", REQUIRED, ref="cell"), number_field("cost", 1, 0, 99)), many=True),
    )

    queries: ClassVar[tuple[QueryKind, ...]] = (QueryKind("steps", "Steps", help="the zones it may step to"),)

    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        return (
            GlossaryTerm("zone step", "A figure steps to a zone beside its own: left, right, above or below, "
                         "never diagonally. Several figures may share a zone.", ("terrain:floor",)),
            GlossaryTerm("goal", "The zone a side wins by reaching."),
        )

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        """``steps``: the zones beside the figure (outlined, labelled with their cost) and a line to its side's goal."""
        if kind != "steps":
            raise LookupError(f"{self.title} declares no query {kind!r}")
        fig = state.figures[subject]
        steps = sorted(self.reachable(state, subject))
        cells = tuple(CellMark(h, "outline", "1") for h in steps)
        goals = [goal_zone(v) for v in self.scenario.victory if v.side == fig.side]
        lines = tuple(LineMark((fig.hex, g), "clear", f"goal: zone {self.scenario.label(g)}")
                      for g in goals if fig.hex is not None)
        text = f"{len(steps)} {english_cell_word(self.scenario.board.kind, len(steps))} to step to"
        return Overlay(kind, cells, lines, (text,))

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        if hp(figure) > 5 and board.level(figure.start) == 0:
            raise FieldError("hp", f"{figure.name} is too strong for level 0", "start it higher")

    def new_state(self) -> GameState:
        figures = {f.id: FigureState(f.id, f.side, f.start) for f in self.scenario.figures}
        return GameState(self.scenario.id, self.name, figures, {}, {})

    def _mover(self, state: GameState) -> FigureState:
        order = [f for f in state.figures.values() if f.alive]
        return order[state.serial % len(order)]

    def prompt(self, state: GameState) -> Prompt:
        if state.winner is not None:
            return Prompt(PromptKind.GAME_OVER, None, f"{state.winner} wins")
        fig = self._mover(state)
        return Prompt(PromptKind.MOVE, fig.side, f"Move {fig.id}", fig.id, moves=self.reachable(state, fig.id))

    def apply(self, state: GameState, action: Action) -> list[Event]:
        fig = self._mover(state)
        if not isinstance(action, Move) or action.figure != fig.id or action.to not in self.reachable(state, fig.id):
            raise IllegalActionError(f"move {fig.id} to a zone beside it")
        fig.hex = action.to
        state.serial += 1
        for v in self.scenario.victory:
            if goal_zone(v) == action.to and v.side == fig.side:
                state.winner = v.side
        return [Event("moved", f"{fig.id} to {self.scenario.label(action.to)}", {})]

    def reachable(self, state: GameState, figure: str) -> dict[Hex, Reach]:
        at = state.figures[figure].hex
        assert at is not None
        return {n: Reach(1, (at, n)) for n in self.scenario.board.neighbours(at)}

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        return []

    def threatened(self, state: GameState, side: str) -> set[Hex]:
        return set()

    def goals(self, state: GameState, figure: str) -> list[Hex]:
        """The zones the figure's side wins by reaching, else the enemies (the auto player's aim)."""
        side = state.figures[figure].side
        zones = [v.fields["zone"] for v in self.scenario.victory if v.side == side]
        return zones or super().goals(state, figure)

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        return "a figure steps to a zone beside its own, never diagonally"


register(ZoneSteps)

KEYPAD = """
[scenario]
name = "Keypad steps"
ruleset = "zone-steps"

[map]
kind = "zones"
zone_mm = 52
zones = '''
7 8 9
4 5 6
1 2 3
'''
levels = '''
0 1 0
0 0 0
0 0 0
'''
anchors = { 94 = "5" }

[[sides]]
id = "allies"
[[sides]]
id = "enemies"

[[figures]]
name = "Ash"
marker = 1
side = "allies"
at = "1"

[[figures]]
name = "Bo"
marker = 2
side = "enemies"
at = "9"
hp = 4

[[figures]]
name = "Cy"
marker = 3
side = "enemies"
at = "9"

[[victory]]
side = "allies"
type = "reach"
zone = "8"

[[zone_costs]]
zone = "5"
cost = 2
"""
