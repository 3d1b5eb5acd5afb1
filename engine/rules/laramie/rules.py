"""Laramie station duel (ララミー駅前の決闘12時): a western skirmish on hexes with 1d10.

A round is three phases for every unit of both sides (engine/rules/laramie/*.py, one concept each):

1. state update, lowest combat value first (``state_update``);
2. movement, lowest first, ties between sides rolled on 1d10 (``movement``);
3. combat, highest first: normal fire, suppressive fire or melee (``combat``, ``fire``, ``melee``).

Stacks are unlimited and figures face a direction (turned at any time by ``face`` actions from the tags).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.actions import Action
from engine.board import Board, EdgeKindSpec, TerrainKind
from engine.board.hex import HexBoard
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase
from engine.flow.steps import Step
from engine.flow.turns import RollOff, Rounds
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.overlays import Overlay
from engine.pathfinding import Reach, reachable
from engine.rules.base import MapSymbol, OptionSpec, TargetInfo, VictoryType
from engine.rules.content import GlossaryTerm, QueryKind, load_glossary
from engine.scenario import FigureSpec, Scenario
from engine.scenario_schema import Field
from engine.state import FigureState, GameState
from engine.texts import join_list

from . import combat, data, line_ruling, movement, order, queries, scenario_fields, state_update, terrain, units
from .fire import Shot, normal_shot, suppressive_shot
from .steps import Act, MoveUnit

_ = gettext_for(__name__)

LINE_RULING = "laramie_line"  # a key of GameState.rulings: "laramie_line:<shooter hex>:<target hex>" → a reading
READINGS = ("plus", "minus")  # the readings' names in a ruling, in the order of sight.PLUS, sight.MINUS


class Laramie(FlowRuleSet):
    name: ClassVar[str] = "laramie"
    aliases: ClassVar[tuple[str, ...]] = ("laramie-duel", "laramie-station-duel")
    title: ClassVar[str] = N_("Laramie station duel")
    options: ClassVar[tuple[OptionSpec, ...]] = scenario_fields.OPTIONS
    figure_fields: ClassVar[tuple[Field, ...]] = scenario_fields.FIGURE_FIELDS
    victory_types: ClassVar[tuple[VictoryType, ...]] = scenario_fields.VICTORY_TYPES
    default_victory: ClassVar[str | None] = "destroy"
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = terrain.TERRAIN_KINDS
    map_symbols: ClassVar[Mapping[str, MapSymbol]] = terrain.MAP_SYMBOLS
    edge_kinds: ClassVar[tuple[EdgeKindSpec, ...]] = terrain.EDGE_KINDS
    one_figure_per_cell: ClassVar[bool] = False
    uses_facing: ClassVar[bool] = True
    queries: ClassVar[tuple[QueryKind, ...]] = queries.QUERIES
    phase_names: ClassVar[Mapping[str, str]] = ({
        "state": N_("State-update phase"), "move": N_("Movement phase"), "combat": N_("Combat phase")})
    flow: ClassVar[Flow] = Flow(
        order=Rounds(),
        phases=(Phase("state", state_update.enter), Phase("move", movement.enter), Phase("combat", combat.enter)),
        stages=(*state_update.STAGES, *movement.STAGES, *combat.STAGES, *line_ruling.STAGES),
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        assert isinstance(scenario.board, HexBoard), "Laramie is played on hex maps (board_kinds)"
        self.board: HexBoard = scenario.board
        self.specs: dict[str, FigureSpec] = {f.id: f for f in scenario.figures}
        self.ids: tuple[str, ...] = tuple(f.id for f in scenario.figures)  # the scenario's order
        self.morale_in_use = bool(scenario.options.get(scenario_fields.MORALE, False))

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        scenario_fields.check_figure(figure, board)

    @classmethod
    def word(cls, text: str) -> str:
        """A state is named in the states table (its Japanese beside it); other words in the catalogue."""
        return units.label(text) if text in data.states() else super().word(text)

    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        return load_glossary(__package__ or "engine.rules.laramie")

    def new_figure(self, spec: FigureSpec) -> FigureState:
        fig = FigureState(spec.id, spec.side, spec.start, facing=scenario_fields.facing(spec))
        fig.values = {units.HP: scenario_fields.hp(spec), units.STATE: scenario_fields.start_state(spec)}
        return fig

    def new_state(self) -> GameState:
        state = super().new_state()
        self.settle(state, [])  # units that start suppressed turn by themselves before the first prompt
        self.follow(state)
        return state

    def apply(self, state: GameState, action: Action) -> list[Event]:
        events = super().apply(state, action)
        self.follow(state)
        return events

    def follow(self, state: GameState) -> None:
        """The active player is the one whose unit has its go (the header names them); rounds have no turns."""
        ranking, index = getattr(state.step, "order", None), getattr(state.step, "index", None)
        if not isinstance(ranking, tuple) or not isinstance(index, int) or not 0 <= index < len(ranking):
            return
        side = state.figures[ranking[index]].side
        for i, player in enumerate(state.turn_order):
            if side in self.scenario.players[player].sides:
                state.active = i

    # -- names and values ---------------------------------------------------------------------------------
    def combat_value(self, fid: str) -> int:
        return scenario_fields.combat(self.specs[fid])

    def where(self, state: GameState, fid: str) -> str:
        h = state.figures[fid].hex
        return self.label(h) if h is not None else _("off the table")

    def enemies(self, state: GameState, fid: str) -> list[FigureState]:
        me = state.figures[fid]
        return [state.figures[i] for i in self.ids
                if state.figures[i].alive and state.figures[i].side != me.side and state.figures[i].hex is not None]

    def stack(self, state: GameState, h: Hex) -> list[FigureState]:
        """The living units on a hex in the scenario's order."""
        return [state.figures[i] for i in self.ids if state.figures[i].alive and state.figures[i].hex == h]

    # -- shots ------------------------------------------------------------------------------------------------
    def normal(self, state: GameState, shooter: str, target: str, stack_check: bool = False) -> Shot:
        """A normal shot as the line is ruled (a roll-off's choice, if any); ``stack_check``: a miss passed on."""
        return normal_shot(self.board, self.specs[shooter], state.figures[shooter], state.figures[target],
                           self.ruled_reading(state, shooter, target), stack_check)

    def suppressive(self, state: GameState, shooter: str, target: str, use_damage: bool) -> Shot:
        return suppressive_shot(self.board, self.specs[shooter], state.figures[shooter], state.figures[target],
                                use_damage, self.ruled_reading(state, shooter, target))

    # A line in doubt stays as the roll-off's winner chose it for the rest of the shooter's go.
    def line_key(self, state: GameState, shooter: str, target: str) -> str:
        a, b = state.figures[shooter].hex, state.figures[target].hex
        assert a is not None and b is not None
        return f"{LINE_RULING}:{self.label(a)}:{self.label(b)}"

    def ruled_reading(self, state: GameState, shooter: str, target: str) -> int | None:
        if state.figures[shooter].hex is None or state.figures[target].hex is None:
            return None
        found = state.rulings.get(self.line_key(state, shooter, target))
        return None if found is None else READINGS.index(found)

    def rule_line(self, state: GameState, shooter: str, target: str, reading: int) -> None:
        state.rulings[self.line_key(state, shooter, target)] = READINGS[reading]

    def forget_line_rulings(self, state: GameState) -> None:
        for key in [k for k in state.rulings if k.startswith(f"{LINE_RULING}:")]:
            del state.rulings[key]

    def kill(self, state: GameState, fid: str, how: str, events: list[Event]) -> None:
        """The unit is out: ``how`` is :data:`units.KILLED` or :data:`units.SURRENDERED`."""
        fig = state.figures[fid]
        state.kill(fid)
        fig.values[units.HP] = max(units.hp_of(fig), 0)
        text = (_("{name} is taken prisoner: morale broken, it surrenders.", name=self.name_of(fid))
                if how == units.SURRENDERED else _("{name} is killed in action.", name=self.name_of(fid)))
        events.append(Event("killed", text, {"figure": fid, "how": how}))

    # -- the flow's hooks --------------------------------------------------------------------------------------
    def figures_ordered(self, state: GameState, rolloff: RollOff, ranking: tuple[str, ...],
                        events: list[Event]) -> None:
        """Tied units have rolled off: the phase's order is settled, and the first unit has its go."""
        step: Step = MoveUnit(ranking) if rolloff.purpose == order.MOVEMENT else Act(ranking)
        state.step = step

    def victory(self, state: GameState) -> tuple[str, str] | None:
        for v in self.scenario.victory:
            if v.type == "kill":
                wanted = scenario_fields.kill_figures(v)
                if all(not state.figures[f].alive for f in wanted):
                    return v.side, v.text or _("{names} brought down", names=join_list(self.name_of(f) for f in wanted))
            elif scenario_fields.DESTROY.won(state, v.side):
                return v.side, v.text or _("every enemy unit is down")
        return None

    def goals(self, state: GameState, figure: str) -> list[Hex]:
        me = state.figures[figure]
        for v in self.scenario.victory:
            if v.side == me.side and v.type == "kill":
                hexes = [state.figures[f].hex for f in scenario_fields.kill_figures(v)]
                found = [h for h in hexes if h is not None and any(
                    state.figures[f].alive and state.figures[f].hex == h for f in scenario_fields.kill_figures(v))]
                if found:
                    return found
        return super().goals(state, figure)

    def badges(self, state: GameState, figure: str) -> tuple[str, ...]:
        fig = state.figures[figure]
        hero = (_("[*] hero"),) if scenario_fields.hero(self.specs[figure]) else ()
        return (units.badge(units.state_of(fig)), _("HP {hp}", hp=units.hp_of(fig)), *hero)

    # -- queries ------------------------------------------------------------------------------------------------
    def reachable(self, state: GameState, figure: str) -> Mapping[Hex, Reach]:
        return movement.moves(self, state, figure)

    def reachable_reference(self, state: GameState, figure: str) -> Mapping[Hex, Reach] | None:
        fig = state.figures[figure]
        if fig.hex is None or movement.runs_for_cover(self, fig.hex, units.state_of(fig)):
            return movement.moves(self, state, figure)  # no search: the steps towards cover
        return reachable(fig.hex, units.rules_of(fig).move,
                         lambda a, b: 1.0 if terrain.can_step(self.board, a, b) else None)

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        return movement.why_not(self, state, figure, to)

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        fig = state.figures[figure]
        if not fig.alive or fig.hex is None:
            return []
        out = []
        for e in self.enemies(state, figure):
            shot = self.normal(state, figure, e.id)
            out.append(TargetInfo(e.id, "shoot", shot.range, shot.line.sight, shot.allowed,
                                  shot.reason or shot.need(), shot.line.blocker, shot.line.path))
        return out

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        if kind in queries.ANSWERS:
            return queries.ANSWERS[kind](self, state, subject)
        return super().query(state, kind, subject)
