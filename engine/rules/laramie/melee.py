"""Melee between enemies in one hex: both roll 1d10 at once, each die judged on its own; both may fall.

Each side's strength is (combat value + HP + melee value) / 3, rounded down. A fighter subtracts the
difference (own strength − the opponent's) from its die — a negative difference is added — and adds 2 when
it is prone or suppressed; a modified die of 5 or less kills the opponent. A natural 1 always kills, a
natural 10 never does. A morale-broken unit attacked in melee surrenders.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.contest import odds

from . import data
from .dice import round_down, succeeds


def strength(combat: int, hp: int, melee: int) -> int:
    """(combat + HP + melee) / 3, rounded down."""
    return round_down(combat + hp + melee, 3)


@dataclass(frozen=True)
class Fighter:
    """One side of a melee: the values that count."""

    figure: str
    combat: int
    hp: int
    melee: int
    penalised: bool  # prone or suppressed

    @property
    def strength(self) -> int:
        return strength(self.combat, self.hp, self.melee)


def die_modifier(me: Fighter, opponent: Fighter) -> int:
    """What is added to ``me``'s die: the opponent's strength minus mine, plus the penalty."""
    return opponent.strength - me.strength + (data.melee_number("penalty") if me.penalised else 0)


def kills(die: int, me: Fighter, opponent: Fighter) -> bool:
    """Whether ``me``'s die kills the opponent."""
    return succeeds(die, die_modifier(me, opponent), data.melee_number("kills_at"))


def resolve(a: Fighter, b: Fighter, die_a: int, die_b: int) -> tuple[bool, bool]:
    """(a kills b, b kills a): simultaneous."""
    return kills(die_a, a, b), kills(die_b, b, a)


def chances(a: Fighter, b: Fighter) -> dict[tuple[bool, bool], float]:
    """The odds of each pair of results before anyone rolls."""
    return odds(lambda x, y: resolve(a, b, x, y), (10, 10))
