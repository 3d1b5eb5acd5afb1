"""Underwater (the original's "水中戦闘"): −5 movement and no flying, judged by where the turn started.

Whether a character counts as underwater is decided by the hex it stood on at the start of its turn,
not where it is now. Abilities such as the ninja's 【ミズグモ】 or the lizards' 「水中行動」 spare it
these penalties (both: the movement and the flying).
"""

from __future__ import annotations

UNDERWATER_MOVEMENT_PENALTY = 5


def counts_underwater(started_underwater: bool, exempt: bool) -> bool:
    """Whether the underwater penalties apply to a character this turn."""
    return started_underwater and not exempt


def movement_allowance(movement: int, started_underwater: bool, exempt: bool) -> int:
    """〔移動〕 for the turn: −5 when the turn started underwater (never below 0), unless exempt."""
    if counts_underwater(started_underwater, exempt):
        return max(0, movement - UNDERWATER_MOVEMENT_PENALTY)
    return movement
