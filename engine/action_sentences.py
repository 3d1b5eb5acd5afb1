"""Each action as a sentence people read: "Jeff turns to face C4", 「ジェフが C4 の方を向く」.

The undo button, the history, the log and ``hexa play``'s echo say what was done with these sentences; the
one-line command syntax of :mod:`engine.actions` (``face jeff 2``) is only for where a person types commands.
A sentence needs the moment the action answered: the prompt then (a choice's label, who rolled which die) and
the state before it (where a figure stood when it turned).
"""

from __future__ import annotations

from engine.actions import CAMERA, Action, Choose, Face, Move, Remove, Roll
from engine.i18n import gettext_for
from engine.prompts import Prompt, PromptKind
from engine.scenario import Scenario
from engine.state import GameState
from engine.texts import join_list

_ = gettext_for(__name__)


def action_sentence(action: Action, scenario: Scenario, prompt: Prompt | None = None,
                    before: GameState | None = None) -> str:
    """``action`` in one sentence of the table's language; ``prompt`` and ``before`` are the prompt it answered
    and the state it was applied to (without them the sentence names less: the option's id, no side)."""
    if isinstance(action, Roll):
        return _roll_sentence(action, scenario, prompt)
    if isinstance(action, Choose):
        option = prompt.option(action.option) if prompt is not None else None
        return _("Chose “{option}”", option=option.label if option is not None else action.option)
    name = _figure_name(scenario, action.figure)
    if isinstance(action, Move):
        return _("{name} moves to {cell}", name=name, cell=scenario.board.label(action.to))
    if isinstance(action, Face):
        figure = before.figures.get(action.figure) if before is not None else None
        faced = figure.hex.neighbour(action.direction) if figure is not None and figure.hex is not None else None
        if faced is not None and faced in scenario.board:
            return _("{name} turns to face {cell}", name=name, cell=scenario.board.label(faced))
        return _("{name} turns to face another way", name=name)
    assert isinstance(action, Remove)
    return _("{name} is taken off the table", name=name)


def _figure_name(scenario: Scenario, figure_id: str) -> str:
    try:
        return scenario.figure(figure_id).name
    except KeyError:
        return figure_id


def _roll_sentence(roll: Roll, scenario: Scenario, prompt: Prompt | None) -> str:
    faces = join_list(str(v) for v in roll.values)
    if prompt is None or prompt.kind is not PromptKind.ROLL or len(prompt.dice) != len(roll.values):
        said = _("Rolled {faces}", faces=faces)
    else:
        by_roller: dict[str, list[int]] = {}
        for die, value in zip(prompt.dice, roll.values, strict=True):
            by_roller.setdefault(die.roller, []).append(value)
        said = _("; ").join(
            _("{side} rolled {faces}", side=_side_name(scenario, side), faces=join_list(str(v) for v in values))
            for side, values in by_roller.items())
    if roll.virtual:
        return _("{rolls} (the app rolled)", rolls=said)
    if roll.source == CAMERA:
        return _("{rolls} (read by the camera)", rolls=said)
    if roll.source is not None:
        return _("{rolls} (read by the camera, faces it could not read tapped)", rolls=said)
    return said


def _side_name(scenario: Scenario, side_id: str) -> str:
    try:
        return scenario.side(side_id).name
    except KeyError:
        return side_id
