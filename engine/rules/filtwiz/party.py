"""Parties (the original's "パーティー"): who an area skill affects.

An area attack spares the user's party in principle, and a party's healing never touches enemies.
Outside a party a skill may still pick enemies only or friends only by the user's intent; a skill
written "敵味方全員" hits both. The final word is the GM's: a ``party_hit`` ruling on the user
("party_hit:<figure>" → "yes") lets its own areas hit its party. A party holds at most six
members unless the GM allows more (the scenario option ``party_limit``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

PARTY_HIT_RULING = "party_hit"


class Affects(Enum):
    """Whom a skill is meant for."""

    ENEMIES = "enemies"
    FRIENDS = "friends"
    EVERYONE = "everyone"  # 敵味方全員


@dataclass(frozen=True)
class Character:
    """What the party rules need of a character: its id, side and party (empty: none)."""

    id: str
    side: str
    party: str = ""


def same_party(a: Character, b: Character) -> bool:
    return a.id == b.id or (bool(a.party) and a.party == b.party)


def is_friend(user: Character, other: Character) -> bool:
    return other.side == user.side


def affected(user: Character, inside: Iterable[Character], affects: Affects = Affects.ENEMIES,
             party_hit: bool = False) -> list[Character]:
    """The characters inside an area that a skill of ``user`` affects.

    Enemies-only skills skip friends; friends-only skills (healing) skip enemies; an attack on everyone
    still spares the user's party (and the user) unless the GM rules ``party_hit``.
    """
    out = []
    for c in inside:
        if affects is Affects.ENEMIES and is_friend(user, c):
            continue
        if affects is Affects.FRIENDS and not is_friend(user, c):
            continue
        if affects is not Affects.FRIENDS and same_party(user, c) and not party_hit:
            continue
        out.append(c)
    return out


def party_sizes(characters: Iterable[Character]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for c in characters:
        if c.party:
            sizes[c.party] = sizes.get(c.party, 0) + 1
    return sizes


def may_join(members: int, limit: int = 6) -> bool:
    """Whether a party of ``members`` may take one more (``limit``: six, or what the GM allows)."""
    return members + 1 <= limit
