"""Lost Worlds miniature rules (RULES.md §2): Lost Worlds picture-book melee on a three-dimensional table.

A turn: 1 initiative (each player 1d6, highest first, every turn) → 2 movement (players in that order,
each character spending movement points equal to its height on the movement chart, then naming its back
space; unconscious characters roll for recovery at the end) → 3 combat (at most three book rounds per
combat; the engine says which page each player opens and records what the books decide) → 4 fall
check → 5 victory check. This module declares the rule set; each step of the turn lives in its own module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.board import Board
from engine.board.hex import HexBoard
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase
from engine.flow.turns import InitiativeEachTurn
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.overlays import Overlay
from engine.pathfinding import Reach
from engine.rules.base import OptionSpec, VictoryType
from engine.rules.content import GlossaryTerm, QueryKind, load_glossary
from engine.scenario import FigureSpec, Scenario, VictorySpec
from engine.scenario_schema import Field, Table
from engine.state import FigureState, GameState

from . import (
    chart,
    combat,
    condition,
    costed_reach,
    falling,
    moving,
    object_actions,
    objects,
    queries,
    recovery,
    scenario_fields,
    throwing,
    turn,
    wraith,
)
from .condition import HP, MANA, conscious, out_of_fight
from .spaces import Spaces
from .steps import Act

_ = gettext_for(__name__)


class LostWorlds(FlowRuleSet):
    name: ClassVar[str] = "lost-worlds"
    aliases: ClassVar[tuple[str, ...]] = ("lostworlds", "lw")
    title: ClassVar[str] = N_("Lost Worlds miniature rules")
    options: ClassVar[tuple[OptionSpec, ...]] = scenario_fields.OPTIONS
    levels: ClassVar[bool] = True
    figure_fields: ClassVar[tuple[Field, ...]] = scenario_fields.FIGURE_FIELDS
    victory_types: ClassVar[tuple[VictoryType, ...]] = scenario_fields.VICTORY_TYPES
    default_victory: ClassVar[str | None] = "destroy"
    one_figure_per_cell: ClassVar[bool] = False  # an unconscious character and a conscious one may share a space
    uses_facing: ClassVar[bool] = True  # the back space is the space behind the figure
    tables: ClassVar[tuple[Table, ...]] = (objects.TABLE,)  # [[objects]]: boxes, barrels, rocks on the board
    queries: ClassVar[tuple[QueryKind, ...]] = queries.QUERIES
    phase_names: ClassVar[Mapping[str, str]] = {
        "movement": N_("Movement phase"), "recovery": N_("Recovery"), "combat": N_("Combat phase"),
        "falls": N_("Fall check phase"), "victory": N_("Victory check"),
    }
    flow: ClassVar[Flow] = Flow(
        order=InitiativeEachTurn(),
        phases=(Phase("movement", lambda r, s: moving.first_step(r, s)),),
        stages=(*moving.STAGES, *falling.STAGES, *throwing.STAGES, *recovery.STAGES, *combat.STAGES,
                *wraith.STAGES),
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        assert isinstance(scenario.board, HexBoard), "Lost Worlds is played on hex maps (board_kinds)"
        self.board: HexBoard = scenario.board
        self.specs: dict[str, FigureSpec] = {f.id: f for f in scenario.figures}
        self.spaces = Spaces(self.board, {f.id: scenario_fields.height(f) for f in scenario.figures})
        self.objects: dict[str, objects.ObjectSpec] = objects.read(scenario)

    # -- the scenario -----------------------------------------------------------------------------------
    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        scenario_fields.check_figure(figure)

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        starts = [f.start for f in scenario.figures]
        for f in scenario.figures:
            if starts.count(f.start) > 1:
                raise ValueError(_("{name!r} starts on {space} with another character: one conscious character per "
                                   "space. Fix: start each on a space of its own", name=f.name,
                                   space=scenario.label(f.start)))
        objects.check(scenario)

    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        return load_glossary(__package__ or "engine.rules.lost_worlds")

    @classmethod
    def word(cls, text: str) -> str:
        """Weapons are named in the chart (the document's Japanese beside the English); other words in the catalogue."""
        weapon = chart.weapon_name(text)
        return weapon if weapon != text else super().word(text)

    def item_name(self, item: str) -> str:
        """A carried object by its scenario name, a weapon by the chart's."""
        return objects.name(self, item)

    def new_figure(self, spec: FigureSpec) -> FigureState:
        fig = FigureState(spec.id, spec.side, spec.start)
        fig.values[HP] = scenario_fields.hit_points(spec)
        if scenario_fields.mana(spec):
            fig.values[MANA] = scenario_fields.mana(spec)
        fig.carrying = list(scenario_fields.weapons(spec))
        return fig

    def set_up(self, state: GameState) -> None:
        state.tokens = objects.first_tokens(self.objects)

    # -- names and character sheets ------------------------------------------------------------------------
    def height(self, fid: str) -> int:
        return self.spaces.heights[fid]

    def has(self, fid: str, ability: str) -> bool:
        return scenario_fields.has(self.specs[fid], ability)

    def option(self, name: str) -> bool:
        return bool(self.scenario.options.get(name, False))

    def where(self, state: GameState, fid: str) -> str:
        h = state.figures[fid].hex
        if h is None:
            return _("off the table")
        return _("{space} (level {level})", space=self.label(h), level=self.board.level(h))

    # -- the round: movement by each player in initiative order, then the round's own phases ----------------
    def next_turn(self, state: GameState, events: list[Event]) -> None:
        if state.phase == "movement" and any(
            self.can_play(state, p) for p in state.turn_order[state.active + 1:]
        ):
            self.flow.order.next_turn(self, state, events)
            return
        if state.phase == "movement":
            turn.after_movement(self, state, events)
            return
        self.flow.order.next_turn(self, state, events)

    # -- where play goes on after a step that interrupted it: the stage modules ask here, importing no other ------
    def after_movement(self, state: GameState, events: list[Event]) -> None:
        """The movement phase is over (:func:`.turn.after_movement`)."""
        turn.after_movement(self, state, events)

    def start_combat(self, state: GameState, events: list[Event]) -> None:
        """The recovery rolls are over: the combat phase starts (:func:`.turn.start_combat`)."""
        turn.start_combat(self, state, events)

    def next_fall(self, state: GameState, left: tuple[str, ...], events: list[Event]) -> None:
        """The next of the fall checks ``left`` (:func:`.turn.next_fall`)."""
        turn.next_fall(self, state, left, events)

    def end_move(self, state: GameState, fid: str, events: list[Event]) -> None:
        """The mover goes on after an interruption (:func:`.moving.end_move`)."""
        moving.end_move(self, state, fid, events)

    def can_play(self, state: GameState, player: int) -> bool:
        sides = self.scenario.players[player].sides
        return any(f.side in sides and conscious(f) for f in state.alive())

    def victory(self, state: GameState) -> tuple[str, str] | None:
        if state.phase != "victory":
            return None
        return turn.victory(self, state)

    def badges(self, state: GameState, figure: str) -> tuple[str, ...]:
        """The character's condition as the tablets show it: each flag by name (off-balance, down), each count with
        its value ("hp 7", "mp 3")."""
        return condition.badges(state.figures[figure])

    def goals(self, state: GameState, figure: str) -> list[Hex]:
        me = state.figures[figure]
        cells = [h for v in self.scenario.victory if v.side == me.side and v.type == "reach"
                 for h in scenario_fields.named_cells(v)]
        enemies = [f.hex for f in state.alive() if f.side != me.side and f.hex is not None and not out_of_fight(f)]
        return cells + enemies if cells else enemies

    def victory_spec(self, side: str) -> list[VictorySpec]:
        return [v for v in self.scenario.victory if v.side == side]

    # -- queries for the tablets --------------------------------------------------------------------------
    def reachable(self, state: GameState, figure: str) -> Mapping[Hex, Reach]:
        return costed_reach.reach(self, state, figure)

    def reachable_reference(self, state: GameState, figure: str) -> Mapping[Hex, Reach] | None:
        return costed_reach.reach_reference(self, state, figure)

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        return costed_reach.why_not(self, state, figure, to)

    def threatened(self, state: GameState, side: str) -> set[Hex]:
        return queries.threatened(self, state, side)

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        return queries.answer(self, state, kind, subject)

    def why_refused(self, state: GameState, option: str) -> str:
        """Why an action on an object is not offered to the character moving now (out of range, the points, …)."""
        if not isinstance(state.step, Act):
            return ""
        return object_actions.refusals(self, state, state.step.figure).get(option, "")

    def acting(self, state: GameState) -> str | None:
        """The character whose move it is, if any."""
        return state.step.figure if isinstance(state.step, Act) else None
