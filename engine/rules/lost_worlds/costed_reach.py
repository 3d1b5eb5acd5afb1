"""The costed reach, for the tablets: where a character could walk with its movement points left (its height when
it is not moving), through each board's kept movement graph, and why a space is out of reach.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.cell_graph import KeptGraphs
from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.pathfinding import Reach, reachable
from engine.state import GameState

from . import objects
from .chart_actions import step_cost
from .condition import (
    conscious,
)
from .movement_points import mp
from .steps import Act

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)


_GRAPHS = KeptGraphs()  # each board's movement graph: the steps a board allows and their price by level


def reach(r: LostWorlds, state: GameState, fid: str) -> Mapping[Hex, Reach]:
    """Where the character could walk with its movement points left (its height when not moving)."""
    fig = state.figures[fid]
    if fig.hex is None or not conscious(fig):
        return {}
    budget = mp(fig) if isinstance(state.step, Act) and state.step.figure == fid else r.height(fid)
    budget = max(0, budget - objects.carry_due(r, fig))  # a load it cannot carry further: it stays where it is

    def board_cost(a: Hex, b: Hex) -> float | None:
        return float(step_cost(r, a, b)) if b in r.spaces.steps(a) else None

    held = {f.hex for f in state.alive() if f.hex is not None and f.id != fid}
    return _GRAPHS.of(r.board, board_cost).reachable(
        fig.hex, budget,
        blocked={h for h in held if r.spaces.can_enter(state, fig, h)},
        keep_out={h for h in held if r.spaces.others_conscious(state, h, fid)},
    )


def reach_reference(r: LostWorlds, state: GameState, fid: str) -> dict[Hex, Reach]:
    """``reach`` through the general search and the rules' own step cost (what the fast form must match)."""
    fig = state.figures[fid]
    if fig.hex is None or not conscious(fig):
        return {}
    budget = mp(fig) if isinstance(state.step, Act) and state.step.figure == fid else r.height(fid)

    def cost(a: Hex, b: Hex) -> float | None:
        if b not in r.spaces.steps(a) or r.spaces.can_enter(state, fig, b):
            return None
        return float(step_cost(r, a, b))

    return reachable(fig.hex, budget, cost, can_end=lambda h: not r.spaces.others_conscious(state, h, fid))


def why_not(r: LostWorlds, state: GameState, fid: str, to: Hex) -> str:
    fig = state.figures[fid]
    if to not in r.board:
        return _("{space} is not on the map", space=r.label(to))
    if not r.spaces.standable(to):
        return _("{space} cannot be stood on", space=r.label(to))
    why = r.spaces.can_enter(state, fig, to)
    if why:
        return _("{space}: {why}", space=r.label(to), why=why)
    return _("{space} is beyond {owner} movement points", space=r.label(to), owner=possessive(r.name_of(fid)))
