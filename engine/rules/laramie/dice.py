"""The die of the rules: 1d10, fractions always rounded down, a natural 1 always succeeds, a natural 10 always fails."""

from __future__ import annotations

from collections.abc import Callable

DIE = 10
ALWAYS = 1  # a natural 1 succeeds whatever the modifiers
NEVER = 10  # a natural 10 fails whatever the modifiers


def round_down(numerator: int, denominator: int) -> int:
    """A fraction rounded down, as every fraction of the rules is."""
    return numerator // denominator


def succeeds(die: int, modifier: int, target: int) -> bool:
    """A roll of ``die`` plus ``modifier`` at or under ``target``; natural 1 and 10 decide alone."""
    if die == ALWAYS:
        return True
    if die == NEVER:
        return False
    return die + modifier <= target


def chance(modifier: int, target: int) -> float:
    """The chance that 1d10 succeeds against ``target`` with ``modifier``."""
    return sum(succeeds(d, modifier, target) for d in range(1, DIE + 1)) / DIE


def faces(test: Callable[[int], bool]) -> tuple[int, ...]:
    """The faces of 1d10 for which ``test`` holds."""
    return tuple(d for d in range(1, DIE + 1) if test(d))
