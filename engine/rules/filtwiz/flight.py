"""Flying (the original's "飛行状態") and full flight (【完全飛行移動】).

A flying character ignores movement obstruction and gets up from ☆prone by itself at the start of
its turn; none of this works indoors or underwater. Ordinary flying lasts only while moving: the
character waits on the ground. A character with full flight waits up in the air: only attacks of
range 10 or more reach it, or attackers that fly themselves (second reading); full flight too does
nothing indoors or underwater. Anything else (a rope, a spell that brings it down) is the GM's call.
"""

from __future__ import annotations

from .scenario_fields import Flight

FULL_FLIGHT_REACH = 10  # the shortest attack range that reaches a full flyer


def flight_works(flight: Flight, indoors: bool, underwater: bool) -> bool:
    """Whether a character's flying (or full flight) has its effects where it is."""
    return flight is not Flight.NONE and not indoors and not underwater


def ignores_obstruction(flight: Flight, indoors: bool, underwater: bool) -> bool:
    """A flying character is not stopped by movement obstruction (not indoors or underwater)."""
    return flight_works(flight, indoors, underwater)


def recovers_from_prone(flight: Flight, indoors: bool, underwater: bool) -> bool:
    """A flying character gets up from prone at the start of its turn (not indoors or underwater)."""
    return flight_works(flight, indoors, underwater)


def airborne(flight: Flight, indoors: bool, underwater: bool) -> bool:
    """Up in the air while waiting: full flight where it works."""
    return flight is Flight.FULL and flight_works(flight, indoors, underwater)


def can_attack(attack_range: int, attacker_flies: bool, target_airborne: bool) -> bool:
    """Whether an attack may target a character: one up in full flight needs range ≥ 10 or a flying attacker."""
    return not target_airborne or attack_range >= FULL_FLIGHT_REACH or attacker_flies
