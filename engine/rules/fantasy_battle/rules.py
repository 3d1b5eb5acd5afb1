"""Hexa-System Fantasy Battle (RULES.md §1) on the shared turn flow.

Turn order: 1d6 each once at the start, ties re-roll among the tied. A player's turn has three phases:
ranged (shoot or cast, results at once; ``shooting``), forced combats (figures that began the turn in
contact; ``combat``) and movement (the other figures one at a time: doors, movement roll, move,
combat on contact; ``moving``). Tokens and victory are in ``tokens``. This module holds the rule set's
names, queries and hooks, and declares the flow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.actions import Roll
from engine.board import Board, EdgeKind
from engine.board.hex import HexBoard
from engine.cell_graph import KeptGraphs
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase
from engine.flow.turns import FixedOrder
from engine.hexes import Edge, Hex, edge
from engine.i18n import N_, gettext_for
from engine.overlays import Overlay
from engine.pathfinding import Reach, reachable
from engine.prompts import DieRequest
from engine.rules.base import MapSymbol, OptionSpec, TargetInfo, VictoryType
from engine.rules.content import GlossaryTerm, QueryKind, load_glossary
from engine.rules.fantasy_battle import combat, melee, moving, scenario_fields, shooting, tokens
from engine.rules.fantasy_battle import queries as tablet
from engine.rules.fantasy_battle.constants import MOVE_LONG, SAVE_AT, WIZARD_SAVE_AT
from engine.rules.fantasy_battle.ranged import magic_info, shot_info
from engine.rules.fantasy_battle.scenario_fields import FigureKind, abilities, kind_of
from engine.rules.fantasy_battle.steps import ForcedPick, MoveStep, Ranged, Select
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.scenario import FigureSpec, Scenario, VictorySpec
from engine.scenario_schema import Field
from engine.state import FigureState, GameState
from engine.texts import join_words, terrain_word

_ = gettext_for(__name__)


class FantasyBattle(FlowRuleSet):
    name: ClassVar[str] = "fantasy-battle"
    aliases: ClassVar[tuple[str, ...]] = ("fantasy", "hexa-fantasy-battle", "fb")
    title: ClassVar[str] = N_("Hexa-System Fantasy Battle")
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("magic", bool, True, N_("use the additional rules for wizards and magic")),
        OptionSpec("shooting_range", int, 0, N_("longest shot in hexes; 0 means no limit")),
        OptionSpec("doors_stay_open", bool, True, N_("an opened door stays open")),
    )
    figure_fields: ClassVar[tuple[Field, ...]] = scenario_fields.FIGURE_FIELDS
    victory_types: ClassVar[tuple[VictoryType, ...]] = scenario_fields.VICTORY_TYPES
    default_victory: ClassVar[str | None] = "destroy"
    map_symbols: ClassVar[Mapping[str, MapSymbol]] = scenario_fields.MAP_SYMBOLS
    queries: ClassVar[tuple[QueryKind, ...]] = tablet.QUERIES
    phase_names: ClassVar[Mapping[str, str]] = tablet.PHASE_NAMES
    flow: ClassVar[Flow] = Flow(
        order=FixedOrder(),
        phases=(
            Phase("ranged", lambda r, s: Ranged()),
            Phase("forced", lambda r, s: ForcedPick()),
            Phase("movement", lambda r, s: Select()),
        ),
        stages=(*shooting.STAGES, *combat.STAGES, *moving.STAGES),
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        assert isinstance(scenario.board, HexBoard), "Fantasy Battle is played on hex maps (board_kinds)"
        self.board: HexBoard = scenario.board
        self._names = {f.id: f.name for f in scenario.figures}
        self._kinds = {f.id: kind_of(f) for f in scenario.figures}
        self._graphs = KeptGraphs()  # the board's movement graph, kept in step with the doors
        self._side_names = {s.id: s.name for s in scenario.sides}
        self.bring_tokens = {(v.side, scenario_fields.bring_token(v)) for v in scenario.victory if v.type == "bring"}

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        scenario_fields.check_figure(figure, board)

    @classmethod
    def check_victory_spec(cls, victory: VictorySpec, board: Board) -> None:
        scenario_fields.check_victory(victory, board)

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        if not scenario.options.get("magic", True) and any(kind_of(f) is FigureKind.WIZARD for f in scenario.figures):
            raise ValueError(_("the scenario has wizards but turns magic off. Fix: set magic = true or drop the "
                               "wizards"))

    # -- names ----------------------------------------------------------------------------------------
    def fname(self, fid: str) -> str:
        return self._names.get(fid, fid)

    def sname(self, side: str) -> str:
        return self._side_names.get(side, side)

    def side_name(self, side: str) -> str:
        return self.sname(side)

    def label(self, h: Hex) -> str:
        return self.board.label(h)

    def at(self, state: GameState, fid: str) -> str:
        """The figure's hex label: tells apart two figures of the same name."""
        h = state.figures[fid].hex
        return self.label(h) if h is not None else _("off the table")

    def die(self, side: str, purpose: str, figure: str | None = None) -> DieRequest:
        return DieRequest(side, 6, purpose, figure)

    def rolled(self, roll: Roll, what: str, then: str = "") -> Event:
        """The log line of a roll: what it was for, the dice, who rolled them, what it means."""
        dice = join_words(map(str, roll.values))
        if then:
            text = (_("{what}: {dice} (rolled by the app) — {then}", what=what, dice=dice, then=then) if roll.virtual
                    else _("{what}: {dice} (rolled) — {then}", what=what, dice=dice, then=then))
        else:
            text = (_("{what}: {dice} (rolled by the app)", what=what, dice=dice) if roll.virtual
                    else _("{what}: {dice} (rolled)", what=what, dice=dice))
        return Event(
            "rolled",
            text,
            {"values": list(roll.values), "virtual": roll.virtual},
        )

    def edge_by_label(self, lab: str) -> Edge:
        return next(e for e in self.board.edges if self.board.edge_label(e) == lab)

    # -- setup ------------------------------------------------------------------------------------------
    def set_up(self, state: GameState) -> None:
        """Doors closed (or locked) as the map draws them, tokens where the map lays them."""
        state.doors = {e: ("locked" if k is EdgeKind.LOCKED_DOOR else "closed") for e, k in self.board.doors().items()}
        for h in self.board:
            for t in self.board.info(h).tokens:
                if t != "exit":
                    state.tokens[t] = h

    def points(self) -> dict[str, int]:
        """Melee-only figure 1 point, ranged or magic 2, each special-ability card +1."""
        totals = {s.id: 0 for s in self.scenario.sides}
        for f in self.scenario.figures:
            totals[f.side] += (1 if kind_of(f) is FigureKind.FIGHTER else 2) + len(abilities(f))
        return totals

    def terrain(self, state: GameState) -> FBTerrain:
        return FBTerrain(self.board, state)

    # -- hooks of the shared flow ----------------------------------------------------------------------------
    def begin_turn(self, state: GameState, events: list[Event]) -> None:
        t = self.terrain(state)
        active = self.player_sides(state)
        engaged = [f.id for f in sorted(state.alive(), key=lambda f: f.id) if f.side in active and t.contact_enemies(f)]
        state.turn_sets = {"engaged": engaged, "acted": [], "initiated": [], "fought": []}

    def end_turn(self, state: GameState, events: list[Event]) -> None:
        """With doors_stay_open = false, an open door swings shut at the end of a turn when nobody stands in it."""
        if self.scenario.options["doors_stay_open"]:
            return
        occupied = {f.hex for f in state.alive()}
        for e, door in sorted(state.doors.items()):
            if door == "open" and e.a not in occupied and e.b not in occupied:
                state.doors[e] = "closed"
                events.append(
                    Event(
                        "door_closed",
                        _("The door {door} swings shut.", door=self.board.edge_label(e)),
                        {"edge": [e.a.q, e.a.r, e.b.q, e.b.r]},
                    )
                )

    def victory(self, state: GameState) -> tuple[str, str] | None:
        return tokens.victory(self, state)

    def goals(self, state: GameState, figure: str) -> list[Hex]:
        return tokens.goals(self, state, figure)

    # -- queries ----------------------------------------------------------------------------------------------
    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        return load_glossary("engine.rules.fantasy_battle")

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        return tablet.answer(self, state, kind, subject)

    def reachable(self, state: GameState, figure: str, budget: float | None = None) -> Mapping[Hex, Reach]:
        fig = state.figures[figure]
        if not fig.alive or fig.hex is None:
            return {}
        if budget is None:
            step = state.step
            budget = step.allowance if isinstance(step, MoveStep) and step.figure == figure else MOVE_LONG
        t = self.terrain(state)
        start = fig.hex
        graph = self._graphs.of(self.board, t.board_step_cost())
        graph.follow_edges(state.doors, t.board_step_cost())
        return graph.reachable(
            start,
            budget,
            blocked={e.hex for e in t.enemies_of(fig.side) if e.hex is not None},
            stops=t.threatened(fig.side) - {start},
            keep_out={f.hex for f in state.alive() if f.id != figure and f.hex is not None},
        )

    def reachable_reference(self, state: GameState, figure: str, budget: float | None = None) -> dict[Hex, Reach]:
        """``reachable`` through the general search and the rules' own step cost (what the fast form must match)."""
        fig = state.figures[figure]
        if not fig.alive or fig.hex is None:
            return {}
        if budget is None:
            step = state.step
            budget = step.allowance if isinstance(step, MoveStep) and step.figure == figure else MOVE_LONG
        t = self.terrain(state)
        start = fig.hex
        occupied = {f.hex for f in state.alive() if f.id != figure}
        contact = t.threatened(fig.side) - {start}
        return reachable(
            start,
            budget,
            t.step_cost_for(fig.side),
            stops=contact.__contains__,
            can_end=lambda h: h not in occupied,
        )

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        fig = state.figures[figure]
        kind = self._kinds[figure]
        if not fig.alive or kind is FigureKind.FIGHTER:
            return []
        t = self.terrain(state)
        out = []
        for enemy in sorted(t.enemies_of(fig.side), key=lambda f: f.id):
            if kind is FigureKind.ARCHER:
                out.append(shot_info(t, fig, enemy, int(self.scenario.options["shooting_range"]), self.fname))
            elif self.scenario.options["magic"]:
                out.append(magic_info(t, fig, enemy, self.fname))
        return out

    def threatened(self, state: GameState, side: str) -> set[Hex]:
        return self.terrain(state).threatened(side)

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        """Plain words for why a figure may not end its move on a hex."""
        name = self.fname(figure)
        if to not in self.board:
            return _("{cell} is not on the map", cell=self.label(to))
        if not self.terrain(state).enterable(to):
            return _("{cell} cannot be entered ({terrain})", cell=self.label(to),
                     terrain=terrain_word(self.board.terrain(to)))
        other = state.figure_at(to)
        if other is not None and other.id != figure:
            return _("{cell} is taken by {name}: a move may pass friends but never end on a figure",
                     cell=self.label(to), name=self.fname(other.id))
        far = self.reachable(state, figure, budget=99)
        allowance = state.step.allowance if isinstance(state.step, MoveStep) else MOVE_LONG
        if to not in far:
            return _("{name} cannot get to {cell}: walls, closed doors, enemies or contact with an enemy are in the "
                     "way", name=name, cell=self.label(to))
        return _("{cell} is {n} hexes away by the shortest open way; {name} may move {allowance}", cell=self.label(to),
                 n=int(far[to].cost), name=name, allowance=allowance)

    # -- what the flow asks of the rules -------------------------------------------------------------------------
    def ranged_options(self, state: GameState) -> list[tuple[str, TargetInfo]]:
        result = []
        active = self.player_sides(state)
        for fig in sorted(state.alive(), key=lambda f: f.id):
            if fig.side not in active or state.in_set("acted", fig.id) or state.in_set("engaged", fig.id):
                continue
            for info in self.targets(state, fig.id):
                if info.allowed:
                    result.append((fig.id, info))
        return result

    def is_wizard(self, fid: str) -> bool:
        return self._kinds[fid] is FigureKind.WIZARD

    def save_at(self, fid: str) -> int:
        return WIZARD_SAVE_AT if self.is_wizard(fid) else SAVE_AT

    def kill_numbers(self, attacker: str, defender: str) -> tuple[int, int]:
        a_at = melee.VERSUS_WIZARD_KILL if self.is_wizard(defender) else melee.NORMAL_KILL
        d_at = melee.VERSUS_WIZARD_KILL if self.is_wizard(attacker) else melee.NORMAL_KILL
        return a_at, d_at

    def decisive_rule(self, favoured: str, other: str) -> melee.DecisiveRule:
        return melee.decisive_rule(self.is_wizard(favoured), self.is_wizard(other))

    def pending_forced(self, state: GameState) -> list[str]:
        t = self.terrain(state)
        return [
            fid
            for fid in state.turn_sets.get("engaged", [])
            if state.figures[fid].alive and not state.in_set("fought", fid) and t.contact_enemies(state.figures[fid])
        ]

    def selectable(self, state: GameState) -> list[str]:
        active = self.player_sides(state)
        return [
            f.id
            for f in sorted(state.alive(), key=lambda f: f.id)
            if f.side in active and not state.in_set("acted", f.id) and not state.in_set("engaged", f.id)
        ]

    def closed_doors(self, state: GameState, fig: FigureState) -> list[Edge]:
        assert fig.hex is not None
        return sorted(
            edge(fig.hex, n) for n in fig.hex.neighbours() if state.doors.get(edge(fig.hex, n)) in ("closed", "locked")
        )
