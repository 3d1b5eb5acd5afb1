"""Duels (the original's "決闘宣言と捕縛"): a safe fight both sides declared.

Both need 1 HP or more to declare. It is decided as soon as one side is at 0 HP or below; when it
ends every character's HP comes back up to 1 (if below), and nobody faints or dies. By agreement
every character's current and maximum HP are multiplied (×2, ×3, …) for the duel.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.i18n import gettext_for

_ = gettext_for(__name__)

MAX_MULTIPLIER = 10


def check_declaration(hp: Mapping[str, int]) -> list[str]:
    """Why a duel may not be declared (empty: it may): both sides need 1 HP or more."""
    return [_("{who} has {hp} HP: a duel needs 1 HP or more on both sides", who=who, hp=v)
            for who, v in hp.items() if v < 1]


def multiplied(hp: int, max_hp: int, multiplier: int) -> tuple[int, int]:
    """Current and maximum HP for a duel fought with the HP multiplier (1: none)."""
    if not 1 <= multiplier <= MAX_MULTIPLIER:
        raise ValueError(_("an HP multiplier of {multiplier} is not one: agree on 1 (none) to {most}",
                           multiplier=multiplier, most=MAX_MULTIPLIER))
    return hp * multiplier, max_hp * multiplier


def decided(hp: Mapping[str, int]) -> tuple[str, ...]:
    """The characters whose fall decides the duel (0 HP or below); empty while it goes on."""
    return tuple(who for who, v in hp.items() if v <= 0)


def after_duel(hp: Mapping[str, int]) -> dict[str, int]:
    """HP when the duel ends: 1 at least, nobody out."""
    return {who: max(1, v) for who, v in hp.items()}
