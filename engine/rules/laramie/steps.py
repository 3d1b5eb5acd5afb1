"""The steps of a Laramie round: each unit's state update, its move, its attacks and the dice they call for.

``order`` is the phase's order of units (figure ids) and ``index`` the unit whose go it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.steps import Step, step
from engine.hexes import Hex


@step("laramie.state")
@dataclass(frozen=True)
class UpdateState(Step):
    """State-update phase: the unit chooses its state, turns by itself, or rolls for morale."""

    order: tuple[str, ...]
    index: int = 0


@step("laramie.move")
@dataclass(frozen=True)
class MoveUnit(Step):
    """Movement phase: the unit moves as its state allows (or runs for cover)."""

    order: tuple[str, ...]
    index: int = 0


@step("laramie.jump")
@dataclass(frozen=True)
class JumpRoll(Step):
    """A jump-prone unit landed: 1d10 at or under its combat value, it lies prone; else suppressed-1."""

    order: tuple[str, ...]
    index: int
    landed: Hex


@step("laramie.act")
@dataclass(frozen=True)
class Act(Step):
    """Combat phase: the unit fires (shot ``shot`` of its shots), fights a melee, or holds."""

    order: tuple[str, ...]
    index: int = 0
    shot: int = 0


@step("laramie.fire")
@dataclass(frozen=True)
class FireRoll(Step):
    """A normal shot: 1d10 against ``target``; on a miss the rest of its stack (``rest``) is checked."""

    order: tuple[str, ...]
    index: int
    shot: int
    target: str
    rest: tuple[str, ...] = ()
    stack_check: bool = False  # a miss passed on to ``target``: its state cannot bar the shot


@step("laramie.line_roll_off")
@dataclass(frozen=True)
class LineRollOff(Step):
    """A line in doubt (its two nudged readings differ): the two players roll 1d10, the higher chooses; a tie
    rolls again. ``action`` is the chosen attack (an option of :class:`Act`) at ``target``."""

    order: tuple[str, ...]
    index: int
    shot: int
    action: str
    target: str
    tied: bool = False


@step("laramie.line_choice")
@dataclass(frozen=True)
class LineChoice(Step):
    """The roll-off's winner (``side``) chooses which nudged reading of the line counts."""

    order: tuple[str, ...]
    index: int
    shot: int
    action: str
    target: str
    side: str


@step("laramie.suppress")
@dataclass(frozen=True)
class SuppressOutcome(Step):
    """Suppressive fire: the players read the outcome for ``queue[0]`` from their table (value ``value``)."""

    order: tuple[str, ...]
    index: int
    shot: int
    value: int
    queue: tuple[str, ...]


@step("laramie.evade")
@dataclass(frozen=True)
class Evade(Step):
    """A hero was hit: 1d10 at or under his combat value evades ``effect`` ("hit" or a state)."""

    order: tuple[str, ...]
    index: int
    shot: int
    figure: str
    effect: str
    queue: tuple[str, ...] = ()  # suppressive fire: the units of the stack still to be read
    value: int = 0  # suppressive fire: its value, for the units still to be read


@step("laramie.melee")
@dataclass(frozen=True)
class MeleeRoll(Step):
    """Melee: the attacker and the defender roll 1d10 each, at once."""

    order: tuple[str, ...]
    index: int
    attacker: str
    defender: str
