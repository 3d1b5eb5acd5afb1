"""The steps of a Tenkey battle: the initiative, then each side's characters act one at a time.

A character's action is a move (normal or full), perhaps stopped by an enemy's obstruction, then,
after a normal move, an attack or a spell whose hits and damage the players enter.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.steps import Step, step
from engine.hexes import Hex


@step("tenkey.pick")
@dataclass(frozen=True)
class PickCharacter(Step):
    """The side whose turn it is picks its next character to act, or ends its turn."""


@step("tenkey.mode")
@dataclass(frozen=True)
class MoveMode(Step):
    """The character moves normally (and may act after), makes a full move (and may not), or stays."""

    figure: str


@step("tenkey.walk")
@dataclass(frozen=True)
class Walk(Step):
    """The character moves up to ``metres`` from ``start``."""

    figure: str
    start: Hex
    metres: float
    full: bool


@step("tenkey.route")
@dataclass(frozen=True)
class ChooseRoute(Step):
    """Several cheapest ways lead to ``to``; the mover says which it takes (it matters for obstruction)."""

    figure: str
    start: Hex
    to: Hex
    metres: float
    full: bool


@step("tenkey.obstruct")
@dataclass(frozen=True)
class Obstruct(Step):
    """The mover's enemies may stop it in a zone it passes through."""

    figure: str
    route: tuple[Hex, ...]
    full: bool


@step("tenkey.action")
@dataclass(frozen=True)
class ChooseAction(Step):
    """After a normal move (or none) the character attacks, casts, or does nothing."""

    figure: str


@step("tenkey.area_side")
@dataclass(frozen=True)
class AreaSide(Step):
    """A radius over 3 m up to 5 m covers two zones side by side: the caster says which neighbour."""

    figure: str
    centre: Hex


@step("tenkey.area_ruling")
@dataclass(frozen=True)
class AreaRuling(Step):
    """The GM rules which zones an effect covers: an area spell of 7 m or more (the three in a row first), or a war
    cry of 15 m (``effect`` "war_cry": the adjacent zones first, or one more zone)."""

    figure: str
    centre: Hex
    effect: str = "area"  # area | war_cry


@step("tenkey.line_direction")
@dataclass(frozen=True)
class LineDirection(Step):
    """A line aimed at a character in the caster's own zone: the caster names the direction."""

    figure: str
    target: str


@step("tenkey.misfire")
@dataclass(frozen=True)
class Misfire(Step):
    """A shot into a melee area misfires: the players roll as their game says and enter whom it hits."""

    figure: str
    aimed: str


@step("tenkey.outcome")
@dataclass(frozen=True)
class Outcome(Step):
    """The players roll the attack (or the target its resistance) and enter the outcome for ``targets[0]``."""

    figure: str
    attack: str  # melee | shot | area | line
    targets: tuple[str, ...]


@step("tenkey.damage")
@dataclass(frozen=True)
class Damage(Step):
    """The players roll the damage and enter the hit points ``targets[0]`` loses."""

    figure: str
    attack: str
    targets: tuple[str, ...]
    resisted: bool = False
