"""The steps of a Race turn: roll the die, pick a runner, run.

Each step is a pending decision, a frozen dataclass registered under a kind. Kinds are shared by
every rule set, so Race prefixes its own: ``race.roll``, ``race.pick``, ``race.run``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell
from engine.flow.steps import Step, step


@step("race.roll")
@dataclass(frozen=True)
class RollDie(Step):
    """The player whose turn it is rolls 1d6."""


@step("race.pick")
@dataclass(frozen=True)
class PickRunner(Step):
    """The player picks which of their runners runs ``rolled`` cells (plus its stride)."""

    rolled: int


@step("race.run")
@dataclass(frozen=True)
class Run(Step):
    """The runner moves up to ``allowance`` cells from ``start``."""

    figure: str
    allowance: int
    start: Cell
