"""Tenkey battle (テンキー戦闘): a tactical layer of nine zones for a role-playing game's battles.

The zones are numbered like a numeric keypad (7 8 9 / 4 5 6 / 1 2 3). The GM enters each
character's values (movement, ranges, hit points, abilities) in the scenario; the engine answers
where a character may go, whom it may reach and who stands in an area, and asks the players for
every roll: the initiative, hits, resistance, misfires and damage. One module per rule: zone
geometry, movement, ranged range and blocking, areas, lines, melee areas and misfire, obstruction,
starting zones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.board import Board, TerrainKind
from engine.board.zones.board import ZoneBoard
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase
from engine.flow.turns import InitiativeEntered
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.lines import Sight
from engine.overlays import Overlay
from engine.pathfinding import Reach
from engine.rules.base import OptionSpec, TargetInfo, VictoryType
from engine.rules.content import GlossaryTerm, QueryKind, load_glossary
from engine.rules.victory import last_side_standing
from engine.scenario import FigureSpec, Scenario
from engine.scenario_schema import Field
from engine.state import FigureState, GameState

from . import lines, melee, movement, obstruction, ranged, scenario_fields, turn, war_cry
from . import queries as tablet
from .areas import Area
from .scenario_fields import FOOTWORK, HAWK_EYE, MAGIC_GUIDANCE, PRECISE_SHOOTING, SHADOW_RUN
from .steps import ChooseRoute, PickCharacter, Walk
from .terrain import TERRAIN_KINDS
from .turn import HP_LOST

_ = gettext_for(__name__)


class TenkeyBattle(FlowRuleSet):
    name: ClassVar[str] = "tenkey"
    aliases: ClassVar[tuple[str, ...]] = ("tenkey-battle", "テンキー戦闘")
    title: ClassVar[str] = N_("Tenkey battle")
    board_kinds: ClassVar[tuple[str, ...]] = ("zones",)
    one_figure_per_cell: ClassVar[bool] = False
    figure_fields: ClassVar[tuple[Field, ...]] = scenario_fields.FIGURE_FIELDS
    victory_types: ClassVar[tuple[VictoryType, ...]] = scenario_fields.VICTORY_TYPES
    default_victory: ClassVar[str | None] = "destroy"
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = TERRAIN_KINDS
    options: ClassVar[tuple[OptionSpec, ...]] = scenario_fields.OPTIONS
    queries: ClassVar[tuple[QueryKind, ...]] = tablet.QUERIES
    phase_names: ClassVar[Mapping[str, str]] = tablet.PHASE_NAMES
    flow: ClassVar[Flow] = Flow(
        # The initiative (先制) is entered once; the sides then alternate, round after round.
        order=InitiativeEntered(term=N_("initiative")),
        phases=(Phase("act", lambda r, s: PickCharacter()),),
        stages=turn.STAGES,
    )

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        assert isinstance(scenario.board, ZoneBoard), "Tenkey battle is played on a zone board (board_kinds)"
        self.board: ZoneBoard = scenario.board
        self._specs = {f.id: f for f in scenario.figures}

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        scenario_fields.check_figure(figure, board)

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        scenario_fields.check_scenario(scenario)

    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        return load_glossary(__package__ or "engine.rules.tenkey")

    # -- names and a character's values ------------------------------------------------------------------
    def spec(self, fid: str) -> FigureSpec:
        return self._specs[fid]

    def has(self, fid: str, ability: str) -> bool:
        return scenario_fields.has(self._specs[fid], ability)

    def zone(self, state: GameState, fid: str) -> Hex:
        at = state.figures[fid].hex
        if at is None:
            raise ValueError(_("{name} is not on the mat", name=self.name_of(fid)))
        return at

    def hp_left(self, state: GameState, fid: str) -> int:
        return scenario_fields.hp(self._specs[fid]) - int(state.figures[fid].values.get(HP_LOST, 0))

    def standing(self, state: GameState) -> list[FigureState]:
        """The characters in play on the mat."""
        return [f for f in state.alive() if f.hex is not None and f.hex in self.board]

    def enemies_of(self, state: GameState, fid: str) -> list[FigureState]:
        side = state.figures[fid].side
        return [f for f in self.standing(state) if f.side != side]

    # -- melee areas, blocking, movement ----------------------------------------------------------------
    def melee_zones(self, state: GameState, without: str | None = None) -> set[Hex]:
        """The zones holding a melee area (leaving ``without`` out: a character on its way)."""
        return melee.melee_zones(melee.headcount(f.hex for f in self.standing(state) if f.id != without
                                                 and f.hex is not None))

    def blocks_shot_of(self, state: GameState, fid: str) -> set[Hex]:
        """The zones that block a shot of ``fid`` passing through: an obstacle (any terrain that blocks sight), or
        an enemy standing there."""
        cover = {z for z in self.board if self.board.terrain_kind(z).blocks_sight}
        return cover | {f.hex for f in self.enemies_of(state, fid) if f.hex is not None}

    def shot(self, state: GameState, fid: str, to: Hex) -> ranged.Shot:
        cover = self.blocks_shot_of(state, fid)
        return ranged.shot(self.board, self.zone(state, fid), to, cover.__contains__, self.has(fid, HAWK_EYE))

    def move_reach(self, state: GameState, fid: str, metres: float) -> Mapping[Hex, Reach]:
        """The zones a move of ``metres`` may end in; a melee area stops it unless the mover has Shadow Run."""
        fights = set() if self.has(fid, SHADOW_RUN) else self.melee_zones(state, without=fid)
        return movement.reach(self.board, self.zone(state, fid), metres, stops=fights)

    def routes(self, state: GameState, fid: str, start: Hex, to: Hex, metres: float) -> list[tuple[Hex, ...]]:
        fights = set() if self.has(fid, SHADOW_RUN) else self.melee_zones(state, without=fid)
        return movement.cheapest_routes(self.board, start, to, metres, stops=fights.__contains__)

    def obstructions(self, state: GameState, mover: str, route: tuple[Hex, ...]) -> list[tuple[str, Hex]]:
        """(obstructer, zone) for every enemy of the mover that may stop it in a zone it passes, route order."""
        fights = self.melee_zones(state, without=mover)
        out: list[tuple[str, Hex]] = []
        for z in obstruction.obstruction_points(route):
            for f in sorted(self.enemies_of(state, mover), key=lambda f: f.id):
                assert f.hex is not None
                if z in obstruction.obstruction_zones(self.board, f.hex, fights, self.has(f.id, FOOTWORK)):
                    out.append((f.id, z))
        return out

    def guided(self, fid: str) -> bool:
        return self.has(fid, MAGIC_GUIDANCE) or self.has(fid, PRECISE_SHOOTING)

    def misfires(self, state: GameState, fid: str, target: str) -> bool:
        """Whether a shooting-shape attack of ``fid`` at ``target`` misfires into the target's melee area."""
        return melee.misfires(self.zone(state, fid), self.zone(state, target), self.melee_zones(state), True,
                              self.guided(fid))

    # -- what a character may do -------------------------------------------------------------------------
    def melee_targets(self, state: GameState, fid: str) -> list[str]:
        if not scenario_fields.melee(self._specs[fid]):
            return []
        here = self.zone(state, fid)
        return [f.id for f in self.enemies_of(state, fid) if f.hex == here]

    def shot_targets(self, state: GameState, fid: str) -> list[str]:
        reach = scenario_fields.shot_range(self._specs[fid])
        if reach <= 0:
            return []
        out = []
        for f in self.enemies_of(state, fid):
            assert f.hex is not None
            s = self.shot(state, fid, f.hex)
            if s.range_m <= reach and not s.blocked:
                out.append(f.id)
        return out

    def area_centres(self, state: GameState, fid: str) -> list[Hex]:
        """The zones the character's area spell may be centred on: in range and not blocked."""
        reach = scenario_fields.area_range(self._specs[fid])
        if reach <= 0:
            return []
        return [z for z in self.board if (s := self.shot(state, fid, z)).range_m <= reach and not s.blocked]

    def line_targets(self, state: GameState, fid: str) -> list[str]:
        """The characters a line spell may be aimed through: in range, not blocked, on a straight line."""
        reach = scenario_fields.line_range(self._specs[fid])
        if reach <= 0:
            return []
        here = self.zone(state, fid)
        out = []
        for f in self.standing(state):
            if f.id == fid or f.hex is None or not lines.on_a_line(here, f.hex):
                continue
            s = self.shot(state, fid, f.hex)
            if s.range_m <= reach and not s.blocked:
                out.append(f.id)
        return out

    def war_cry(self, state: GameState, fid: str) -> Area | None:
        """The zones the character's war cry (鼓咆) reaches from where it stands, or None: no war cry, or called
        already this turn."""
        radius = scenario_fields.war_cry_radius(self._specs[fid])
        if radius <= 0 or state.in_set(turn.WAR_CRIED, fid):
            return None
        return war_cry.war_cry(self.board, self.zone(state, fid), radius,
                               scenario_fields.war_cry_everywhere(self.scenario))

    def hearing(self, state: GameState, fid: str, zones: tuple[Hex, ...]) -> tuple[str, ...]:
        """The war leader's side in the zones (the war leader among them), zone by zone in the order given."""
        side = state.figures[fid].side
        return tuple(f.id for z in zones for f in state.figures_at(z) if f.side == side and f.hex in self.board)

    def caught(self, state: GameState, fid: str, zones: tuple[Hex, ...]) -> tuple[str, ...]:
        """The characters in the zones, the caster left out, zone by zone in the order given."""
        return tuple(f.id for z in zones for f in state.figures_at(z) if f.id != fid and f.hex in self.board)

    # -- hooks of the shared flow -------------------------------------------------------------------------
    def begin_turn(self, state: GameState, events: list[Event]) -> None:
        state.turn_sets.pop("acted", None)
        state.turn_sets.pop(turn.WAR_CRIED, None)

    def to_act(self, state: GameState) -> list[str]:
        sides = self.player_sides(state)
        return sorted(f.id for f in self.standing(state) if f.side in sides and not state.in_set("acted", f.id))

    def victory(self, state: GameState) -> tuple[str, str] | None:
        side = last_side_standing(state)
        if side is not None and len(self.scenario.sides) > 1:
            return side, _("every enemy is down")
        return None

    def goals(self, state: GameState, figure: str) -> list[Hex]:
        """Where the auto player heads: a fighter to the enemies' zones; a character who only shoots or casts
        to the zones from which it reaches an enemy unblocked (its own among them when it already does)."""
        enemies = sorted({f.hex for f in self.enemies_of(state, figure) if f.hex is not None})
        spec = self._specs[figure]
        reach = max(scenario_fields.shot_range(spec), scenario_fields.area_range(spec),
                    scenario_fields.line_range(spec))
        if scenario_fields.melee(spec) or reach <= 0:
            return enemies
        cover = self.blocks_shot_of(state, figure)
        hawk = self.has(figure, HAWK_EYE)
        spots = [z for z in self.board if z not in enemies and any(
            (s := ranged.shot(self.board, z, e, cover.__contains__, hawk)).range_m <= reach and not s.blocked
            for e in enemies)]
        return spots or enemies

    # -- queries for the tablets -----------------------------------------------------------------------------
    def reachable(self, state: GameState, figure: str) -> Mapping[Hex, Reach]:
        fig = state.figures[figure]
        if fig.hex is None or fig.hex not in self.board:
            return {}
        step = state.step
        if isinstance(step, Walk | ChooseRoute) and step.figure == figure:
            return self.move_reach(state, figure, step.metres)
        return self.move_reach(state, figure, scenario_fields.movement(self._specs[figure]))

    def reachable_reference(self, state: GameState, figure: str) -> Mapping[Hex, Reach] | None:
        fights = set() if self.has(figure, SHADOW_RUN) else self.melee_zones(state, without=figure)
        metres = scenario_fields.movement(self._specs[figure])
        return movement.reach(self.board, self.zone(state, figure), metres, stops=fights.__contains__)

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        reach = scenario_fields.shot_range(self._specs[figure])
        if reach <= 0 or state.figures[figure].hex is None:
            return []
        out = []
        for f in sorted(self.enemies_of(state, figure), key=lambda f: f.id):
            assert f.hex is not None
            s = self.shot(state, figure, f.hex)
            path = s.routes[0] if s.routes else (s.shooter, s.target)
            if s.blocked:
                why = _("blocked at {zone}: an obstacle or an enemy on a cheapest route",
                        zone=self.label(s.blockers[0]))
                out.append(TargetInfo(f.id, "shoot", s.range_m, Sight.BLOCKED, False, why, s.blockers[0], path))
            elif s.range_m > reach:
                out.append(TargetInfo(f.id, "shoot", s.range_m, Sight.CLEAR, False,
                                      _("{range} m away; the range is {reach:g} m", range=s.range_m, reach=reach),
                                      None, path))
            else:
                out.append(TargetInfo(f.id, "shoot", s.range_m, Sight.CLEAR, True, "", None, path))
        return out

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        name, where = self.name_of(figure), self.label(to)
        if to not in self.board:
            return _("{zone} is not a zone of the mat", zone=where)
        step = state.step
        metres = step.metres if isinstance(step, Walk) else scenario_fields.movement(self._specs[figure])
        open_mat = movement.reach(self.board, self.zone(state, figure), 1000)
        need = open_mat[to].cost if to in open_mat else None
        if need is not None and need <= metres:
            return _("a melee area on the way stops {name} before {zone}", name=name, zone=where)
        return _("{zone} needs {need:g} m (10 m a row, 3 m a column, no diagonal moves); {name} has {metres:g} m, "
                 "and metres never carry over", zone=where, need=need, name=name, metres=metres)

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        return tablet.answer(self, state, kind, subject)
