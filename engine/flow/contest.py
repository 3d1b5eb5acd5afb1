"""Opposed and simultaneous rolls: who a pair of dice favours, and the odds before anyone rolls.

Fantasy Battle's melee (higher die wins, a killing number kills) and decisive battle (first to reach
its number), Lost Worlds' initiative and Laramie's simultaneous melee (each die judged on its own,
both may fall) are all a resolution function over the dice; :func:`odds` enumerates every face so a
prompt can show exact chances, re-rolls excluded.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from itertools import product
from typing import TypeVar

Outcome = TypeVar("Outcome", bound=Hashable)


def higher(a: int, b: int) -> int | None:
    """0 when the first die is higher, 1 when the second is, None on equal dice."""
    if a == b:
        return None
    return 0 if a > b else 1


def first_to_reach(a: int, b: int, a_at: int, b_at: int, *, both: str = "higher") -> int | None:
    """Which die reaches its number (0 or 1); None when neither does.

    When both reach: ``both="higher"`` gives the higher die (equal dice: None, roll again),
    ``both="reroll"`` gives None.
    """
    a_ok, b_ok = a >= a_at, b >= b_at
    if a_ok and b_ok:
        return higher(a, b) if both == "higher" else None
    if a_ok:
        return 0
    if b_ok:
        return 1
    return None


def each_reaches(dice: Sequence[int], targets: Sequence[int], *, at_most: bool = False) -> tuple[bool, ...]:
    """Simultaneous results: each die judged against its own number (``at_most``: success on ≤, as with 1d10)."""
    return tuple((d <= t) if at_most else (d >= t) for d, t in zip(dice, targets, strict=True))


def odds(resolve: Callable[..., Outcome | None], sides: Sequence[int]) -> dict[Outcome, float]:
    """Exact probability of each outcome of ``resolve(*dice)``, re-rolls (None) taken out."""
    counts: dict[Outcome, int] = {}
    total = 0
    for faces in product(*(range(1, n + 1) for n in sides)):
        outcome = resolve(*faces)
        if outcome is None:
            continue
        counts[outcome] = counts.get(outcome, 0) + 1
        total += 1
    return {k: float(Fraction(v, total)) for k, v in counts.items()} if total else {}
