"""The pending decisions of a Lost Worlds turn, one frozen dataclass each (kinds prefixed ``lw.``).

``then`` names where play goes on after a roll that interrupts something (a jump in the middle of a move,
a fall during the fall checks): ``act FIGURE`` or ``falls FIGURE …`` (see :mod:`.resume`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.steps import Step, step
from engine.hexes import Hex


@step("lw.pick")
@dataclass(frozen=True)
class PickMover(Step):
    """The player picks which character moves next, or ends the player's movement."""


@step("lw.act")
@dataclass(frozen=True)
class Act(Step):
    """The character spends movement points on one action of the chart (its points are its ``mp`` mark)."""

    figure: str


@step("lw.block")
@dataclass(frozen=True)
class AskBlock(Step):
    """The mover entered the battle range of ``blockers`` (not through their back space): the first may block."""

    figure: str
    blockers: tuple[str, ...]


@step("lw.back")
@dataclass(frozen=True)
class NameBack(Step):
    """The move is over: the player names the character's back space."""

    figure: str


@step("lw.drop")
@dataclass(frozen=True)
class DropRoll(Step):
    """A forced drop of ``levels`` levels: 1d6 on the forced drop table."""

    figure: str
    levels: int


@step("lw.onto")
@dataclass(frozen=True)
class OntoRoll(Step):
    """``figure`` comes down on ``target`` from ``levels`` above (a jump, or a fall into its space): 1d6."""

    figure: str
    target: str
    levels: int
    then: str


@step("lw.land")
@dataclass(frozen=True)
class LandBeside(Step):
    """After coming down on ``target``, ``figure`` lands on a space next to it (its own side picks)."""

    figure: str
    target: str
    then: str


@step("lw.push")
@dataclass(frozen=True)
class PushRoll(Step):
    """``target`` rolls the fall table at once after a push (``hard``: +1)."""

    figure: str
    target: str
    hard: bool


@step("lw.throw")
@dataclass(frozen=True)
class ThrowHit(Step):
    """The players say whether the thrown weapon hit."""

    figure: str
    target: str
    weapon: str
    beyond: bool


@step("lw.thrown")
@dataclass(frozen=True)
class ThrowDamage(Step):
    """A hit: the players enter the points on page 19 of the target's book."""

    figure: str
    target: str
    weapon: str
    beyond: bool


@step("lw.recover")
@dataclass(frozen=True)
class RecoveryRoll(Step):
    """Unconscious characters roll the recovery table, first of ``figures`` first."""

    figures: tuple[str, ...]


@step("lw.fight?")
@dataclass(frozen=True)
class PickFight(Step):
    """The player whose combat turn it is starts a combat or passes."""


@step("lw.round")
@dataclass(frozen=True)
class BookRound(Step):
    """One book round of the combat between ``a`` and ``b``: ``part`` 0/1 damage and state of ``a``,
    2/3 of ``b``, 4 whether another round follows."""

    a: str
    b: str
    round: int
    part: int


@step("lw.fall")
@dataclass(frozen=True)
class FallCheck(Step):
    """The fall check of the first of ``figures``."""

    figures: tuple[str, ...]


@step("lw.where")
@dataclass(frozen=True)
class FallWhere(Step):
    """``figure`` falls: the side ``chooser`` picks the adjacent space of the same or a lower level."""

    figure: str
    chooser: str
    then: str


@step("lw.page41")
@dataclass(frozen=True)
class FallPoints(Step):
    """A fall without a change of level: the points on page 41 of the opponent's book. ``to``: the space it falls
    to (None: it stays); ``onto``: the character in that space, whose jump-onto table follows (then it lands)."""

    figure: str
    then: str
    onto: str = ""
    to: Hex | None = None
