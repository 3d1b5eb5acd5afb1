"""What a tap on a figure shows in Fantasy Battle: its reach, its targets with their line of sight, the
hexes next to enemies. Built from the rule set's own queries into overlays; no rule of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.overlays import Overlay, reach_overlay, sight_overlay, warn_overlay
from engine.rules.content import QueryKind

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle
    from engine.state import GameState

QUERIES: tuple[QueryKind, ...] = (
    QueryKind("reachable", "Moves", help="the hexes the figure may reach, nearest shaded strongest"),
    QueryKind("targets", "Targets", help="the enemies it may shoot or cast at, with line of sight and why not"),
    QueryKind("threatened", "Threats", about="side", help="the hexes next to enemies, where a move stops"),
)
VERBS: Mapping[str, str] = {"shoot": "shoot", "cast": "cast at"}
UNCLEAR = "line of sight unclear: roll-off, the shooter must roll higher (a tie fails)"
THREATENED = "{n} hexes next to enemies (a move stops there)"
PHASE_NAMES: Mapping[str, str] = {"ranged": "Ranged phase", "forced": "Forced combats", "movement": "Movement"}


def answer(rules: FantasyBattle, state: GameState, kind: str, subject: str) -> Overlay:
    """One of :data:`QUERIES` about a figure (``reachable``, ``targets``) or a side (``threatened``)."""
    if kind == "reachable":
        return reach_overlay(kind, rules.reachable(state, subject), rules.board.kind)
    if kind == "targets":
        return sight_overlay(kind, rules.targets(state, subject), rules.fname, VERBS, UNCLEAR)
    if kind == "threatened":
        return warn_overlay(kind, rules.threatened(state, subject), THREATENED)
    raise LookupError(f"{rules.title} declares no query {kind!r}")
