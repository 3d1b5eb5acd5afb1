"""The steps of a Fantasy Battle turn (RULES.md §1), as typed data.

Ranged phase: ``ranged`` → (``rolloff`` for an unclear line) → ``shot_hit`` → ``shot_save``, or ``magic``.
Forced combats: ``forced_pick`` → ``pick_enemy`` → ``melee`` → ``retreat`` / ``decisive`` → ``advance``.
Movement: ``select`` → ``door`` → ``unlock`` → ``move_roll`` → ``move`` → combat on contact.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.steps import Step, step
from engine.hexes import Hex


@step("ranged")
@dataclass(frozen=True)
class Ranged(Step):
    """Choose who shoots or casts next, or finish the ranged phase."""


@step("rolloff")
@dataclass(frozen=True)
class LineRollOff(Step):
    """An unclear line: shooter and target roll 1d6; the shooter must roll higher."""

    shooter: str
    target: str
    act: str  # "shoot" | "cast"
    why: str = ""


@step("shot_hit")
@dataclass(frozen=True)
class ShotHit(Step):
    shooter: str
    target: str


@step("shot_save")
@dataclass(frozen=True)
class ShotSave(Step):
    shooter: str
    target: str


@step("magic")
@dataclass(frozen=True)
class Magic(Step):
    wizard: str
    target: str


@step("forced_pick")
@dataclass(frozen=True)
class ForcedPick(Step):
    """Several figures began the turn in contact: choose who fights first."""


@step("pick_enemy")
@dataclass(frozen=True)
class PickEnemy(Step):
    figure: str


@step("melee")
@dataclass(frozen=True)
class Melee(Step):
    attacker: str
    defender: str
    note: str = ""


@step("retreat")
@dataclass(frozen=True)
class Retreat(Step):
    winner: str
    loser: str
    options: tuple[Hex, ...]


@step("advance")
@dataclass(frozen=True)
class Advance(Step):
    winner: str
    to: Hex


@step("decisive")
@dataclass(frozen=True)
class Decisive(Step):
    favoured: str
    other: str
    note: str = ""


@step("select")
@dataclass(frozen=True)
class Select(Step):
    """Choose the next figure to move, or end the turn."""


@step("door")
@dataclass(frozen=True)
class Door(Step):
    figure: str


@step("unlock")
@dataclass(frozen=True)
class Unlock(Step):
    figure: str
    door: str  # the door's edge label


@step("move_roll")
@dataclass(frozen=True)
class MoveRoll(Step):
    figure: str


@step("move")
@dataclass(frozen=True)
class MoveStep(Step):
    figure: str
    allowance: int
    start: Hex
