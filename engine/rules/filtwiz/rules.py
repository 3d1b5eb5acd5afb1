"""Filtwiz detailed rules (RULES.md §3) on the shared turn flow: the board's part of a TRPG supplement.

The engine takes what is tedious at the table — which hexes a skill covers, who is inside, whether a
hex is seen, who may fly where, the mass-combat arithmetic — and leaves the rest to the GM: every hit
and its damage is the GM's verdict (a prompt), the GM may mark terrain, move anyone and overrule a
verdict (rulings), and runs the calculators. The turn: players roll off once for the order; on a
player's turn each character acts in turn: it moves, then may attack (``turn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.board import Board, TerrainKind
from engine.board.hex import HexBoard
from engine.board.marks import board_in_play
from engine.events import Event
from engine.flow.machine import Flow, FlowRuleSet, Phase
from engine.flow.turns import FixedOrder
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.lines import Sight
from engine.overlays import Overlay
from engine.pathfinding import Reach
from engine.rules.base import MapSymbol, OptionSpec, TargetInfo, VictoryType
from engine.rules.content import GlossaryTerm, QueryInput, QueryKind, load_glossary
from engine.rules.gm import Calculator, RulingKind
from engine.scenario import FigureSpec, Scenario
from engine.scenario_schema import Field
from engine.state import GameState
from engine.texts import join_list

from . import calculators, moving, queries, scenario_fields, terrain, turn, water
from .flight import FULL_FLIGHT_REACH
from .party import PARTY_HIT_RULING
from .scenario_fields import Shape
from .sight import SIGHT_RULING
from .situation import PRONE, STARTED_UNDERWATER, Figure, Situation, situation
from .skills import Skill, Use, aim_problem, use
from .steps import MoveCharacter, PickCharacter

_ = gettext_for(__name__)

GROUNDED_RULING = "grounded"  # the GM brought a full flyer down (a rope, a spell): attacks reach it

RULING_KINDS: tuple[RulingKind, ...] = (
    RulingKind(SIGHT_RULING, N_("the GM's verdict on a line of sight the geometry makes hard to call"),
               N_("two hexes: B3:D4"), ("clear", "blocked")),
    RulingKind(PARTY_HIT_RULING, N_("the GM rules that this character's areas hit its own party too"),
               N_("a figure id"), ("yes", "no")),
    RulingKind(GROUNDED_RULING, N_("the GM rules that a character in full flight was brought down"),
               N_("a figure id"), ("yes", "no")),
)


@dataclass(frozen=True)
class AttackOption:
    """One way a character may use its attack now, as the prompt offers it."""

    id: str
    label: str
    hex: Hex | None
    figure: str | None
    use: Use


class Filtwiz(FlowRuleSet):
    name: ClassVar[str] = "filtwiz"
    aliases: ClassVar[tuple[str, ...]] = ("filtwiz-detailed-rules", "fw")
    title: ClassVar[str] = N_("Filtwiz detailed rules (board and mass combat)")
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("party_limit", int, scenario_fields.PARTY_LIMIT,
                   N_("the most members a party may have (6; more only when the GM allows)")),
    )
    figure_fields: ClassVar[tuple[Field, ...]] = scenario_fields.FIGURE_FIELDS
    victory_types: ClassVar[tuple[VictoryType, ...]] = scenario_fields.VICTORY_TYPES
    default_victory: ClassVar[str | None] = "defeat"
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = terrain.TERRAIN_KINDS
    map_symbols: ClassVar[Mapping[str, MapSymbol]] = terrain.MAP_SYMBOLS
    queries: ClassVar[tuple[QueryKind, ...]] = queries.QUERIES
    phase_names: ClassVar[Mapping[str, str]] = {"action": N_("Characters act")}
    ruling_kinds: ClassVar[tuple[RulingKind, ...]] = RULING_KINDS
    terrain_marks: ClassVar[bool] = True  # the GM marks hexes blocking or clear in play: every judgement reads them
    calculators: ClassVar[tuple[Calculator, ...]] = calculators.CALCULATORS
    flow: ClassVar[Flow] = Flow(order=FixedOrder(), phases=(Phase("action", lambda r, s: PickCharacter()),),
                                stages=turn.STAGES)

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        assert isinstance(scenario.board, HexBoard), "Filtwiz is played on hex maps (board_kinds)"
        self.board: HexBoard = scenario.board
        self.specs: dict[str, FigureSpec] = {f.id: f for f in scenario.figures}

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        scenario_fields.check_figure(figure, board)

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        scenario_fields.check_scenario(scenario, int(scenario.options.get("party_limit", scenario_fields.PARTY_LIMIT)))

    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        return load_glossary(__package__ or "engine.rules.filtwiz")

    def set_up(self, state: GameState) -> None:
        state.turn_sets = {
            STARTED_UNDERWATER: sorted(f.id for f in self.scenario.figures
                                       if terrain.is_underwater(self.board, f.start)),
            PRONE: [], turn.ACTED: [],
        }

    # -- names and facts -------------------------------------------------------------------------------------
    def where(self, state: GameState, fid: str) -> str:
        h = state.figures[fid].hex
        return self.label(h) if h is not None else _("off the map")

    def situation(self, state: GameState) -> Situation:
        sit = situation(self.scenario, state)
        for fid in list(sit.figures):
            if state.rulings.get(f"{GROUNDED_RULING}:{fid}") == "yes":
                f = sit.figures[fid]
                sit.figures[fid] = Figure(f.id, f.side, f.party, f.hex, scenario_fields.Flight.NONE, f.indoors,
                                          f.underwater, f.attack_range)
        return sit

    def skill(self, fid: str, size: int | None = None) -> Skill:
        spec = self.specs[fid]
        shape = scenario_fields.shape(spec)
        reach = scenario_fields.attack_range(spec)
        radius = scenario_fields.attack_size(spec)
        if size is not None:
            if shape in (Shape.AREA, Shape.SELF):
                radius = size
            else:
                reach = size
        return Skill(shape, reach, radius)

    def skill_words(self, fid: str) -> str:
        s = self.skill(fid)
        if s.shape is Shape.SINGLE:
            return _("attack one enemy within {reach} hexes in sight", reach=s.reach)
        if s.shape is Shape.AREA:
            return _("area attack: every enemy within {size} hexes of a hex in sight within {reach}", size=s.size,
                     reach=s.reach)
        if s.shape is Shape.FAN:
            return _("fan attack: a 60° fan of {reach} hexes", reach=s.reach)
        return _("attack around itself: every enemy within {size} hexes, seen or not", size=s.size)

    def allowance(self, state: GameState, fid: str) -> int:
        """〔移動〕 this turn: less 5 when the turn started underwater (unless exempt); 0 for a prone character."""
        if state.in_set(PRONE, fid):
            return 0
        spec = self.specs[fid]
        started = fid in state.turn_sets.get(STARTED_UNDERWATER, [])
        return water.movement_allowance(scenario_fields.movement(spec), started, scenario_fields.water_exempt(spec))

    def move_note(self, state: GameState, fid: str) -> str:
        sit = self.situation(state)
        f = sit.figures[fid]
        notes = []
        if f.underwater:
            notes.append(_("its turn started underwater: -5 movement, no flying"))
        if f.flying:
            notes.append(_("flying: movement obstruction does not stop it"))
        elif f.flight is not scenario_fields.Flight.NONE:
            notes.append(_("its flying does not work here (indoors or underwater)"))
        else:
            notes.append(_("entering a hex next to an enemy ends the move"))
        text = _("; ").join(notes)
        return _("{notes}.", notes=text[:1].upper() + text[1:])

    # -- hooks ---------------------------------------------------------------------------------------------------
    def begin_turn(self, state: GameState, events: list[Event]) -> None:
        sides = self.player_sides(state)
        mine = [f for f in state.alive() if f.side in sides]
        state.turn_sets[turn.ACTED] = []
        under = [fid for fid in state.turn_sets.get(STARTED_UNDERWATER, []) if state.figures[fid].side not in sides]
        board = board_in_play(self.board, state.marks)
        assert isinstance(board, HexBoard)
        under += [f.id for f in mine if f.hex is not None and terrain.is_underwater(board, f.hex)]
        state.turn_sets[STARTED_UNDERWATER] = sorted(under)
        sit = self.situation(state)
        for f in mine:
            if state.in_set(PRONE, f.id) and f.id in sit.figures and sit.figures[f.id].flying:
                state.turn_sets[PRONE].remove(f.id)
                events.append(Event("stood_up", _("{name} flies up from prone.", name=self.name_of(f.id)),
                                    {"figure": f.id}))

    def victory(self, state: GameState) -> tuple[str, str] | None:
        for v in self.scenario.victory:
            if scenario_fields.DEFEAT.won(state, v.side):
                return v.side, v.text
        return None

    # -- queries -----------------------------------------------------------------------------------------------------
    def reachable(self, state: GameState, figure: str) -> Mapping[Hex, Reach]:
        step = state.step
        allowance = step.allowance if isinstance(step, MoveCharacter) and step.figure == figure \
            else self.allowance(state, figure)
        sit = self.situation(state)
        mover = sit.figures.get(figure)
        if mover is None:
            return {}
        return moving.moves(sit, state, mover, allowance)

    def reachable_reference(self, state: GameState, figure: str) -> Mapping[Hex, Reach] | None:
        sit = self.situation(state)
        step = state.step
        allowance = step.allowance if isinstance(step, MoveCharacter) and step.figure == figure \
            else self.allowance(state, figure)
        return moving.moves_reference(sit, state, sit.figures[figure], allowance)

    def why_not(self, state: GameState, figure: str, to: Hex) -> str:
        where = self.label(to)
        if to not in self.board:
            return _("{hex} is not on the map", hex=where)
        if any(f.id != figure for f in state.figures_at(to)):
            return _("{hex} is taken: a move never ends on another character", hex=where)
        return _("{name} cannot reach {hex} this turn (walls, obstacles, enemies or its movement)",
                 name=self.name_of(figure), hex=where)

    def attack_options(self, state: GameState, fid: str) -> list[AttackOption]:
        sit = self.situation(state)
        user = sit.figures.get(fid)
        if user is None:
            return []
        skill = self.skill(fid)
        out: list[AttackOption] = []
        if skill.shape is Shape.SINGLE:
            for f in sorted(sit.figures.values(), key=lambda f: f.id):
                if f.side == user.side:
                    continue
                u = use(sit, user, skill, f.hex)
                if u.allowed and any(t.id == f.id for t in u.hit):
                    only = Use(u.covered, u.inside, tuple(t for t in u.hit if t.id == f.id))
                    out.append(AttackOption(f"target:{f.id}", _("attack {name} at {hex}", name=self.name_of(f.id),
                                                                                 hex=self.label(f.hex)),
                                            f.hex, f.id, only))
        elif skill.shape is Shape.AREA:
            for h in sorted(h for h in self.board if user.hex.distance(h) <= skill.reach):
                u = use(sit, user, skill, h)
                if u.allowed and u.hit:
                    names = join_list(self.name_of(t.id) for t in u.hit)
                    out.append(AttackOption(f"area:{self.label(h)}",
                                            _("area around {hex}: {names}", hex=self.label(h), names=names), h,
                                            u.hit[0].id, u))
        elif skill.shape is Shape.FAN:
            for d in range(6):
                u = use(sit, user, skill, direction=d)
                if u.hit:
                    names = join_list(self.name_of(t.id) for t in u.hit)
                    out.append(AttackOption(f"fan:{d}", _("fan towards {hex}: {names}",
                                                          hex=self.label(user.hex.neighbour(d)), names=names),
                                            None, u.hit[0].id, u))
        else:
            u = use(sit, user, skill)
            if u.hit:
                names = join_list(self.name_of(t.id) for t in u.hit)
                out.append(AttackOption("self", _("around itself: {names}", names=names), None, u.hit[0].id, u))
        return out

    def lines_to_rule(self, state: GameState, fid: str, chosen: AttackOption) -> list[tuple[Hex, tuple[Hex, ...]]]:
        """The lines of sight the chosen use needs that only touch blocking hexes and the GM has not ruled on yet:
        (the far end, the hexes touched), in the order the prompt asks. A single target or an area needs sight of
        its hex; a fan of each character it hits; an attack around the user none."""
        sit = self.situation(state)
        user = sit.figures[fid]
        shape = self.skill(fid).shape
        if shape is Shape.SELF:
            return []
        ends = [chosen.hex] if shape in (Shape.SINGLE, Shape.AREA) else [f.hex for f in chosen.use.hit]
        out = []
        for end in dict.fromkeys(e for e in ends if e is not None):
            touched = sit.sight.touched(user.hex, end)
            if touched and sit.sight.ruled(user.hex, end) is None:
                out.append((end, touched))
        return out

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        """Each enemy as a single target of the character's attack: range, sight and whether it may be attacked."""
        sit = self.situation(state)
        user = sit.figures.get(figure)
        if user is None:
            return []
        skill = self.skill(figure)
        if skill.shape is not Shape.SINGLE:
            return []
        out = []
        for f in sorted(sit.figures.values(), key=lambda f: f.id):
            if f.side == user.side:
                continue
            verdict = sit.sight.line(user.hex, f.hex)
            seen = sit.sight.sees(user.hex, f.hex)
            reason = aim_problem(sit, user, skill, f.hex)
            if not reason and f.airborne and not (skill.reach >= FULL_FLIGHT_REACH or user.flying):
                reason = _("up in full flight: needs range {reach} or more, or a flying attacker",
                           reach=FULL_FLIGHT_REACH)
            sight = Sight.CLEAR if seen else Sight.BLOCKED
            out.append(TargetInfo(f.id, "attack", user.hex.distance(f.hex), sight, not reason, reason,
                                  verdict.blocker, (user.hex, f.hex), sit.sight.touched(user.hex, f.hex)))
        return out

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        return self.query_with(state, kind, subject, QueryInput())

    def query_with(self, state: GameState, kind: str, subject: str, given: QueryInput) -> Overlay:
        return queries.answer(self, state, kind, subject, given)
