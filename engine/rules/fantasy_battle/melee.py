"""Melee arithmetic of Fantasy Battle: who wins a roll, where a loser may retreat, the odds.

Pure functions; the rule set's flow calls them. RULES.md §1: higher die wins, equal dice re-roll,
a 6 kills outright (against a wizard the opponent kills on 5–6; when both reach their killing number
the higher die wins). The loser retreats to a neighbour of its hex at distance 2 from the winner that
is free, reachable and not in contact with an enemy; if none, it dies, unless a friend alone stands
in the way: then a decisive battle is fought (a wizard's opponent wins it on 5–6).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flow.contest import first_to_reach, higher, odds
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.prompts import Chance
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.state import FigureState

_ = gettext_for(__name__)

NORMAL_KILL = 6
VERSUS_WIZARD_KILL = 5


@dataclass(frozen=True)
class MeleeRoll:
    """The meaning of one pair of melee dice."""

    reroll: bool
    winner: str | None = None  # "attacker" | "defender"
    kill: bool = False


def melee_roll(attacker_die: int, defender_die: int, attacker_kills_at: int, defender_kills_at: int) -> MeleeRoll:
    winner = higher(attacker_die, defender_die)
    if winner is None:
        return MeleeRoll(reroll=True)
    killer = first_to_reach(attacker_die, defender_die, attacker_kills_at, defender_kills_at, both="higher")
    who = ("attacker", "defender")
    if killer is not None:  # one die reached its killing number, or both did and the higher one counts
        return MeleeRoll(False, who[killer], kill=True)
    return MeleeRoll(False, who[winner], kill=False)


def melee_chances(attacker: str, defender: str, attacker_kills_at: int, defender_kills_at: int) -> tuple[Chance, ...]:
    """Exact odds of a melee, ties re-rolled (so conditioned on the dice differing)."""

    def outcome(a: int, d: int) -> str | None:
        r = melee_roll(a, d, attacker_kills_at, defender_kills_at)
        return None if r.reroll else ("a_" if r.winner == "attacker" else "d_") + ("kill" if r.kill else "beat")

    p = odds(outcome, (6, 6))
    return (
        Chance(_("{a} kills {b}", a=attacker, b=defender), p.get("a_kill", 0.0)),
        Chance(_("{a} wins, {b} falls back", a=attacker, b=defender), p.get("a_beat", 0.0)),
        Chance(_("{a} wins, {b} falls back", a=defender, b=attacker), p.get("d_beat", 0.0)),
        Chance(_("{a} kills {b}", a=defender, b=attacker), p.get("d_kill", 0.0)),
    )


FAVOURED_WINS_AT = 5
OTHER_WINS_AT = 6


@dataclass(frozen=True)
class DecisiveRule:
    """What each side of a decisive battle needs: the favoured (previous winner) and the other figure.

    ``both``: what happens when both dice reach their numbers in one roll — "reroll", or "higher" (the
    higher die wins, equal dice roll again) when a wizard's weakness is in play (RULES.md §1).
    """

    favoured_at: int = FAVOURED_WINS_AT
    other_at: int = OTHER_WINS_AT
    both: str = "reroll"


def decisive_rule(favoured_is_wizard: bool, other_is_wizard: bool) -> DecisiveRule:
    """The wizard's 5–6 weakness holds in a decisive battle too: its opponent wins on 5–6, whoever won before."""
    if not (favoured_is_wizard or other_is_wizard):
        return DecisiveRule()
    other_at = VERSUS_WIZARD_KILL if favoured_is_wizard else OTHER_WINS_AT
    return DecisiveRule(FAVOURED_WINS_AT, other_at, both="higher")


def decisive_roll(favoured_die: int, other_die: int, rule: DecisiveRule = DecisiveRule()) -> str | None:
    """'favoured', 'other', or None to roll again."""
    w = first_to_reach(favoured_die, other_die, rule.favoured_at, rule.other_at, both=rule.both)
    return None if w is None else ("favoured", "other")[w]


def decisive_chances(favoured: str, other: str, rule: DecisiveRule = DecisiveRule()) -> tuple[Chance, ...]:
    p = odds(lambda f, o: decisive_roll(f, o, rule), (6, 6))
    return (
        Chance(_("{a} kills {b}", a=favoured, b=other), p.get("favoured", 0.0)),
        Chance(_("{a} kills {b}", a=other, b=favoured), p.get("other", 0.0)),
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
