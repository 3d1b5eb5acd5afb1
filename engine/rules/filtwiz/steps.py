"""The steps of a Filtwiz turn: pick a character, move it, choose its attack, the GM's verdict on each target."""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.steps import Step, step
from engine.hexes import Hex


@step("filtwiz.pick")
@dataclass(frozen=True)
class PickCharacter(Step):
    """The player whose turn it is picks which character acts next (or ends the turn)."""


@step("filtwiz.move")
@dataclass(frozen=True)
class MoveCharacter(Step):
    """The character moves up to ``allowance`` hexes from ``start`` (a prone one only gets up)."""

    figure: str
    allowance: int
    start: Hex


@step("filtwiz.attack")
@dataclass(frozen=True)
class ChooseAttack(Step):
    """The character may use its attack: a target, an area's hex, a fan's direction, or around itself."""

    figure: str


@step("filtwiz.judge")
@dataclass(frozen=True)
class Judge(Step):
    """The GM's verdict on the attack against each affected character in turn (``targets``, first pending)."""

    figure: str
    targets: tuple[str, ...]
    how: str  # the attack in words, for the prompt


@step("filtwiz.sight")
@dataclass(frozen=True)
class RuleSight(Step):
    """The attack ``option`` needs sight along a line that only touches blocking hexes: the GM rules the line from
    the character to ``towards`` clear or blocked before it goes ahead."""

    figure: str
    option: str
    towards: Hex
