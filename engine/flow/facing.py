"""Turning a figure: the ``face`` action, accepted at any time by rule sets that use facing.

A facing is a board direction (on a hex map the index of the neighbour the figure looks at, 0..5,
counter-clockwise from +q, :data:`engine.hexes.DIRECTIONS`). The table turns figures by their tags'
orientation and a tablet may override it; either way it is one journaled action, so undo and replay
see it. Rule sets without facing (Fantasy Battle) refuse it: their figures' facing stays 0 whatever the
tags show.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Face
from engine.board import HexBoard
from engine.errors import IllegalActionError
from engine.events import Event
from engine.hexes import DIRECTIONS
from engine.rules.base import RuleSet
from engine.state import GameState


def apply_face(rules: RuleSet, state: GameState, action: Face, name: Callable[[str], str]) -> list[Event]:
    """Turn the figure, or raise :class:`IllegalActionError` saying why it cannot turn."""
    board = rules.scenario.board
    if not rules.uses_facing:
        raise IllegalActionError(f"{rules.title} has no facing: figures are not turned (face is not an action here)")
    if not isinstance(board, HexBoard):
        raise IllegalActionError(f"a {board.kind} board has no facings: face works on hex maps only")
    fig = state.figures.get(action.figure)
    if fig is None:
        raise IllegalActionError(f"there is no figure {action.figure!r}; figures: {', '.join(sorted(state.figures))}")
    if not fig.alive or not fig.on_table or fig.hex is None:
        raise IllegalActionError(f"{name(fig.id)} is not on the table, so it cannot turn")
    if not 0 <= action.direction < len(DIRECTIONS):
        raise IllegalActionError(f"facing {action.direction} is not a direction: give 0..5 (0 is the neighbour at "
                                 "+q, counter-clockwise after)")
    fig.facing = action.direction
    toward = board.label(fig.hex.neighbour(action.direction))
    return [Event("faced", f"{name(fig.id)} faces {toward} (direction {action.direction}).",
                  {"figure": fig.id, "direction": action.direction})]
