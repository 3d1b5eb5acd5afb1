"""The board position as the Filtwiz rules read it: terrain with the GM's marks, sight, and each character's state.

Built once per game state (:func:`situation`), so every judgement of one position — areas, fans, who
sees whom, who flies — reads the same facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board.hex import HexBoard
from engine.board.marks import board_in_play
from engine.hexes import Hex
from engine.scenario import Scenario
from engine.state import GameState

from . import flight, scenario_fields, terrain, water
from .party import PARTY_HIT_RULING, Character
from .scenario_fields import Flight
from .sight import SightJudge

STARTED_UNDERWATER = "underwater"  # turn set: characters whose last turn started on an underwater hex
PRONE = "prone"  # turn set: characters lying ☆prone


@dataclass(frozen=True)
class Figure:
    """One character in play and what the board rules say of it now."""

    id: str
    side: str
    party: str
    hex: Hex
    flight: Flight
    indoors: bool
    underwater: bool  # the underwater penalties apply (judged by its turn's start hex, exemptions counted)
    attack_range: int

    @property
    def character(self) -> Character:
        return Character(self.id, self.side, self.party)

    @property
    def flying(self) -> bool:
        """Its flying (or full flight) works here."""
        return flight.flight_works(self.flight, self.indoors, self.underwater)

    @property
    def airborne(self) -> bool:
        """Up in full flight: only range ≥ 10 or flying attackers reach it."""
        return flight.airborne(self.flight, self.indoors, self.underwater)


@dataclass
class Situation:
    board: HexBoard
    sight: SightJudge
    figures: dict[str, Figure]
    rulings: dict[str, str]

    def at(self, h: Hex) -> list[Figure]:
        return [f for f in self.figures.values() if f.hex == h]

    def inside(self, hexes: set[Hex]) -> list[Figure]:
        return sorted((f for f in self.figures.values() if f.hex in hexes), key=lambda f: (f.hex, f.id))

    def party_hit(self, user: str) -> bool:
        """The GM ruled that this user's areas hit its own party."""
        return self.rulings.get(f"{PARTY_HIT_RULING}:{user}") == "yes"


def started_underwater(board: HexBoard, state: GameState, fid: str) -> bool:
    """Whether the character's turn started on an underwater hex (before its first turn: where it stands)."""
    judged = state.turn_sets.get(STARTED_UNDERWATER)
    if judged is not None:
        return fid in judged
    h = state.figures[fid].hex
    return h is not None and terrain.is_underwater(board, h)


def situation(scenario: Scenario, state: GameState) -> Situation:
    base = scenario.board
    assert isinstance(base, HexBoard), "Filtwiz is played on hex maps"
    marked = board_in_play(base, state.marks)
    assert isinstance(marked, HexBoard)
    figures: dict[str, Figure] = {}
    for spec in scenario.figures:
        fs = state.figures[spec.id]
        if not fs.alive or fs.hex is None:
            continue
        under = water.counts_underwater(started_underwater(marked, state, spec.id),
                                        scenario_fields.water_exempt(spec))
        figures[spec.id] = Figure(spec.id, spec.side, scenario_fields.party(spec), fs.hex,
                                  scenario_fields.flight(spec), terrain.is_indoor(marked, fs.hex), under,
                                  scenario_fields.attack_range(spec))
    return Situation(marked, SightJudge(marked, state.doors, state.rulings), figures, dict(state.rulings))
