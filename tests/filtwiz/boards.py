"""Filtwiz positions drawn as text: the tests' maps become a board, the sight judge and the characters on it."""

from __future__ import annotations

from engine.board import Terrain
from engine.board.hex import board_from
from engine.hexes import Hex
from engine.rules.filtwiz.scenario_fields import Flight
from engine.rules.filtwiz.sight import SightJudge
from engine.rules.filtwiz.situation import Figure, Situation
from tests.engine.ascii_map import AsciiMap, parse


def board_of(drawn: AsciiMap, terrain: dict[Hex, str] | None = None) -> Situation:
    """The drawn map ('#' blocking, everything else open) with no one on it yet."""
    kinds = {h: Terrain.BLOCKING for h in drawn.where("#")} | dict(terrain or {})
    board = board_from(drawn.cells, terrain=kinds)
    return Situation(board, SightJudge(board), {}, {})


def with_figures(sit: Situation, *figures: Figure) -> Situation:
    """The same position with characters set down."""
    return Situation(sit.board, SightJudge(sit.board, {}, sit.rulings), {f.id: f for f in figures}, sit.rulings)


def figure(fid: str, h: Hex, side: str = "foes", party: str = "", flight: Flight = Flight.NONE,
           indoors: bool = False, underwater: bool = False, attack_range: int = 1) -> Figure:
    return Figure(fid, side, party, h, flight, indoors, underwater, attack_range)


def drawn(text: str) -> tuple[AsciiMap, Situation]:
    m = parse(text)
    return m, board_of(m)
