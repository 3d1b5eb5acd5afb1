"""Melee arithmetic of Fantasy Battle: who wins a roll, where a loser may retreat, the odds.

Pure functions; the rule set's flow calls them. RULES.md §1: higher die wins, equal dice re-roll,
a 6 kills outright (against a wizard the opponent kills on 5–6; when both reach their killing number
the higher die wins). The loser retreats to a neighbour of its hex at distance 2 from the winner that
is free, reachable and not in contact with an enemy; if none, it dies, unless a friend alone stands
in the way: then a decisive battle is fought.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.hexes import Hex
from engine.prompts import Chance
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.state import FigureState

NORMAL_KILL = 6
VERSUS_WIZARD_KILL = 5


@dataclass(frozen=True)
class MeleeRoll:
    """The meaning of one pair of melee dice."""

    reroll: bool
    winner: str | None = None  # "attacker" | "defender"
    kill: bool = False


def melee_roll(attacker_die: int, defender_die: int, attacker_kills_at: int, defender_kills_at: int) -> MeleeRoll:
    if attacker_die == defender_die:
        return MeleeRoll(reroll=True)
    a_kills = attacker_die >= attacker_kills_at
    d_kills = defender_die >= defender_kills_at
    winner = "attacker" if attacker_die > defender_die else "defender"
    if a_kills and d_kills:
        return MeleeRoll(False, winner, kill=True)  # both reach: the higher die kills
    if a_kills:
        return MeleeRoll(False, "attacker", kill=True)
    if d_kills:
        return MeleeRoll(False, "defender", kill=True)
    return MeleeRoll(False, winner, kill=False)


def melee_chances(attacker: str, defender: str, attacker_kills_at: int, defender_kills_at: int) -> tuple[Chance, ...]:
    """Exact odds of a melee, ties re-rolled (so conditioned on the dice differing)."""
    counts = {"a_kill": 0, "a_beat": 0, "d_beat": 0, "d_kill": 0}
    total = 0
    for a in range(1, 7):
        for d in range(1, 7):
            r = melee_roll(a, d, attacker_kills_at, defender_kills_at)
            if r.reroll:
                continue
            total += 1
            key = ("a_" if r.winner == "attacker" else "d_") + ("kill" if r.kill else "beat")
            counts[key] += 1
    return (
        Chance(f"{attacker} kills {defender}", counts["a_kill"] / total),
        Chance(f"{attacker} wins, {defender} falls back", counts["a_beat"] / total),
        Chance(f"{defender} wins, {attacker} falls back", counts["d_beat"] / total),
        Chance(f"{defender} kills {attacker}", counts["d_kill"] / total),
    )


FAVOURED_WINS_AT = 5
OTHER_WINS_AT = 6


def decisive_roll(favoured_die: int, other_die: int) -> str | None:
    """'favoured', 'other', or None to roll again (neither, or both, reached the winning number)."""
    fav = favoured_die >= FAVOURED_WINS_AT
    oth = other_die >= OTHER_WINS_AT
    if fav == oth:
        return None
    return "favoured" if fav else "other"


def decisive_chances(favoured: str, other: str) -> tuple[Chance, ...]:
    p_fav = Fraction(2, 6) * Fraction(5, 6)
    p_oth = Fraction(4, 6) * Fraction(1, 6)
    return (
        Chance(f"{favoured} kills {other}", float(p_fav / (p_fav + p_oth))),
        Chance(f"{other} kills {favoured}", float(p_oth / (p_fav + p_oth))),
    )


@dataclass(frozen=True)
class RetreatOptions:
    hexes: tuple[Hex, ...]  # where the loser may go
    friend_in_the_way: bool  # no hex qualifies, but one would if a friend did not stand on it


def retreat_options(terrain: FBTerrain, loser: FigureState, winner: FigureState) -> RetreatOptions:
    assert loser.hex is not None and winner.hex is not None
    ok: list[Hex] = []
    friend_only = False
    for n in terrain.board.neighbours(loser.hex):
        if n.distance(winner.hex) != 2 or not terrain.enterable(n) or not terrain.open_between(loser.hex, n):
            continue
        if terrain.hex_touches_enemy(n, loser.side):
            continue
        occupant = terrain.state.figure_at(n)
        if occupant is None:
            ok.append(n)
        elif occupant.side == loser.side:
            friend_only = True
    return RetreatOptions(tuple(sorted(ok)), friend_only)
