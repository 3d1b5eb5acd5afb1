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
from engine.errors import IllegalActionError
from engine.events import Event
from engine.i18n import gettext_for
from engine.rules.base import RuleSet
from engine.state import GameState
from engine.texts import join_list

_ = gettext_for(__name__)


def apply_face(rules: RuleSet, state: GameState, action: Face, name: Callable[[str], str]) -> list[Event]:
    """Turn the figure, or raise :class:`IllegalActionError` saying why it cannot turn."""
    board = rules.scenario.board
    if not rules.uses_facing:
        raise IllegalActionError(_("{title} has no facing: figures are not turned (face is not an action here)",
                                   title=rules.title))
    steps = board.facing_steps()
    if not steps:
        raise IllegalActionError(_("a {kind} board has no facings: face works on hex maps only", kind=board.kind))
    fig = state.figures.get(action.figure)
    if fig is None:
        raise IllegalActionError(_("there is no figure {figure!r}; figures: {known}", figure=action.figure,
                                   known=join_list(sorted(state.figures))))
    if not fig.alive or not fig.on_table or fig.hex is None:
        raise IllegalActionError(_("{name} is not on the table, so it cannot turn", name=name(fig.id)))
    if not 0 <= action.direction < len(steps):
        raise IllegalActionError(_("facing {direction} is not a direction: give 0..5 (0 is the neighbour at +q, "
                                   "counter-clockwise after)", direction=action.direction))
    fig.facing = action.direction
    toward = board.label(fig.hex + steps[action.direction])
    return [Event("faced", _("{name} faces {cell} (direction {direction}).", name=name(fig.id), cell=toward,
                             direction=action.direction),
                  {"figure": fig.id, "direction": action.direction})]
