"""Melee areas and misfire.

As soon as two or more characters stand in one zone they form that zone's melee area — one per
zone, friends alone included, as the rule's words say; neighbouring melee areas never merge.
A shooting-shape attack from outside a melee area into one misfires unless the shooter has Magic
Guidance or Precise Shooting; within one zone it never does, nor does an origin-shape effect.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.hexes import Hex

MELEE_AREA_AT = 2  # characters in one zone that form a melee area
GUIDING_ABILITIES = ("magic_guidance", "precise_shooting")


def headcount(zones: Iterable[Hex]) -> dict[Hex, int]:
    """How many characters stand in each zone, from the zones they stand in."""
    counts: dict[Hex, int] = {}
    for z in zones:
        counts[z] = counts.get(z, 0) + 1
    return counts


def melee_zones(counts: Mapping[Hex, int]) -> set[Hex]:
    """The zones holding a melee area."""
    return {z for z, n in counts.items() if n >= MELEE_AREA_AT}


def misfires(shooter: Hex, target: Hex, melee: set[Hex], shooting_shape: bool, guided: bool) -> bool:
    """Whether an attack at a character in ``target`` misfires (may hit another of that melee area)."""
    return shooting_shape and target in melee and shooter != target and not guided
