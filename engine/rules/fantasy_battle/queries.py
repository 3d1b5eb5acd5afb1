"""What a tap on a figure shows in Fantasy Battle: its reach, its targets with their line of sight, the
hexes next to enemies. Built from the rule set's own queries into overlays; no rule of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.i18n import N_, gettext_for
from engine.overlays import Overlay, reach_overlay, sight_overlay, warn_overlay
from engine.rules.content import QueryKind

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle
    from engine.state import GameState

_ = gettext_for(__name__)

QUERIES: tuple[QueryKind, ...] = (
    QueryKind("reachable", N_("Moves"), help=N_("the hexes the figure may reach, nearest shaded strongest")),
    QueryKind("targets", N_("Targets"), help=N_("the enemies it may shoot or cast at, with line of sight and why not")),
    QueryKind("threatened", N_("Threats"), about="side", help=N_("the hexes next to enemies, where a move stops")),
)
VERBS: Mapping[str, str] = {"shoot": N_("shoot"), "cast": N_("cast at")}
UNCLEAR = N_("line of sight unclear: roll-off, the shooter must roll higher (a tie fails)")
THREATENED = N_("{n} hexes next to enemies (a move stops there)")
PHASE_NAMES: Mapping[str, str] = {"ranged": N_("Ranged phase"), "forced": N_("Forced combats"),
                                  "movement": N_("Movement")}


def answer(rules: FantasyBattle, state: GameState, kind: str, subject: str) -> Overlay:
    """One of :data:`QUERIES` about a figure (``reachable``, ``targets``) or a side (``threatened``)."""
    if kind == "reachable":
        return reach_overlay(kind, rules.reachable(state, subject), rules.board.kind)
    if kind == "targets":
        verbs = {k: _(v) for k, v in VERBS.items()}
        return sight_overlay(kind, rules.targets(state, subject), rules.fname, verbs, _(UNCLEAR))
    if kind == "threatened":
        return warn_overlay(kind, rules.threatened(state, subject), _(THREATENED))
    raise LookupError(f"{rules.title} declares no query {kind!r}")
