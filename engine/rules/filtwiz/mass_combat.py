"""Mass combat (the original's "ボコスカ戦闘！") and the super combo (「超必殺連携！」): the arithmetic.

Every attack hits: each side's damage (致傷力) is summed — a multi-hit attack (多段攻撃) counts twice,
an area attack counts twice when it faces two or more opponents, never more than twice — and the
other side's total armour (防護点) is subtracted. The players share the damage out among the
characters of the side that takes it, as they agree, with one limit: no player character may be
taken below 0 HP. When the damage is more than the player characters' HP put together, every one of
them goes to exactly 0. Whoever ends at 0 HP or below is out (★気絶).

The super combo is the same, except that the enemies' damage is only counted when the enemies are not
all out; it may be used from the third round on, needs at least one attack with a skill of CT 1 turn,
end of battle or end of scenario, needs no GM approval and is itself "CT: end of scenario".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.i18n import gettext_for

_ = gettext_for(__name__)

MAX_COUNTED = 2  # the third and later hits of an attack are ignored
SUPER_COMBO_FIRST_ROUND = 3


class DistributionError(ValueError):
    """A distribution the rules refuse; ``problems`` says each thing wrong."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(_("; ").join(problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Attack:
    """One character's attack in mass combat: its damage and whether it may count twice."""

    damage: int
    multi_hit: bool = False
    area: bool = False

    def __post_init__(self) -> None:
        if self.damage < 0:
            raise ValueError(_("an attack's damage is {damage}; damage is 0 or more", damage=self.damage))


@dataclass(frozen=True)
class Member:
    """A character taking part: its id, current HP, armour, and whether it is a player character."""

    id: str
    hp: int
    armour: int = 0
    pc: bool = False

    def __post_init__(self) -> None:
        if self.hp <= 0:
            raise ValueError(_("{who} has {hp} HP and is already out: leave it out of the mass combat", who=self.id,
                               hp=self.hp))
        if self.armour < 0:
            raise ValueError(_("{who} has armour {armour}; armour is 0 or more", who=self.id, armour=self.armour))


def times_counted(attack: Attack, opponents: int) -> int:
    """1, or 2 for a multi-hit attack, or an area attack against two or more opponents."""
    if attack.multi_hit or (attack.area and opponents >= 2):
        return MAX_COUNTED
    return 1


def total_damage(attacks: Iterable[Attack], opponents: int) -> int:
    """A side's damage with every attack hitting (hit and dodge rolls, distance, criticals all ignored)."""
    return sum(a.damage * times_counted(a, opponents) for a in attacks)


def total_armour(members: Iterable[Member]) -> int:
    return sum(m.armour for m in members)


def damage_taken(attacks: Iterable[Attack], defenders: Sequence[Member]) -> int:
    """What the attackers' side deals: its total damage less the defenders' total armour (never below 0)."""
    return max(0, total_damage(attacks, len(defenders)) - total_armour(defenders))


def forced_shares(damage: int, members: Sequence[Member]) -> dict[str, int] | None:
    """When the damage exceeds the player characters' total HP, the PCs' shares are forced: each its HP.

    None when the players choose (the damage fits within the PCs' HP, or the side has no PC).
    """
    pcs = [m for m in members if m.pc]
    if not pcs or damage <= sum(m.hp for m in pcs):
        return None
    return {m.id: m.hp for m in pcs}


def check_shares(damage: int, members: Sequence[Member], shares: Mapping[str, int]) -> list[str]:
    """Everything wrong with a distribution of ``damage`` over ``members`` (empty: the rules allow it)."""
    problems: list[str] = []
    by_id = {m.id: m for m in members}
    for who, share in shares.items():
        if who not in by_id:
            problems.append(_("{who} is not on the side that takes the damage", who=who))
        elif share < 0:
            problems.append(_("{who} is given {share}: a share is 0 or more", who=who, share=share))
    if problems:
        return problems
    forced = forced_shares(damage, members)
    others = [m for m in members if not m.pc]
    if forced is not None:
        for who, hp in forced.items():
            if shares.get(who, 0) != hp:
                problems.append(_("{who} must take exactly {hp} (down to 0 HP): the {damage} damage is more than the "
                                  "player characters' HP together, so every one of them goes to 0", who=who, hp=hp,
                                  damage=damage))
        rest = damage - sum(forced.values())
        given = sum(s for w, s in shares.items() if not by_id[w].pc)
        if others and given != rest:
            problems.append(_("the other characters take {given}, not the {rest} left over after the player "
                              "characters", given=given, rest=rest))
        elif not others and given:
            problems.append(_("only player characters take this damage"))
        return problems
    for who, share in shares.items():
        m = by_id[who]
        if m.pc and share > m.hp:
            problems.append(_("{who} would go to {hp} HP: a player character may not be taken below 0", who=who,
                              hp=m.hp - share))
    given = sum(shares.values())
    if given != damage:
        problems.append(_("the shares add up to {given}, not the {damage} to distribute", given=given, damage=damage))
    return problems


@dataclass(frozen=True)
class Outcome:
    """HP after the damage, and who is out (★気絶: 0 HP or below), in the members' order."""

    hp: dict[str, int]
    out: tuple[str, ...]


def distribute(damage: int, members: Sequence[Member], shares: Mapping[str, int] | None = None) -> Outcome:
    """Apply a distribution (the forced one when the PCs' HP cannot hold the damage and ``shares`` is None).

    Raises :class:`DistributionError` naming every problem of a refused distribution.
    """
    if shares is None:
        shares = forced_shares(damage, members)
        if shares is None:
            raise DistributionError([_("the players share out the {damage} damage: give each character's share",
                                       damage=damage)])
        if any(not m.pc for m in members) and damage > sum(shares.values()):
            raise DistributionError([_("give the other characters' shares of the {rest} left over",
                                       rest=damage - sum(shares.values()))])
    problems = check_shares(damage, members, shares)
    if problems:
        raise DistributionError(problems)
    hp = {m.id: m.hp - shares.get(m.id, 0) for m in members}
    return Outcome(hp, tuple(m.id for m in members if hp[m.id] <= 0))


@dataclass(frozen=True)
class Round:
    """One mass-combat round's totals: damage dealt to each side after armour."""

    pc_damage: int  # the PC side's total damage
    enemy_damage: int | None  # None: not counted (a super combo that finished the enemies)
    pc_armour: int
    enemy_armour: int
    to_enemies: int
    to_pcs: int


def round_totals(pc_attacks: Sequence[Attack], enemy_attacks: Sequence[Attack], pcs: Sequence[Member],
                 enemies: Sequence[Member]) -> Round:
    """The worked example: 200 damage against 4 armour → 196; 100 against 30 → 70."""
    pc_total = total_damage(pc_attacks, len(enemies))
    enemy_total = total_damage(enemy_attacks, len(pcs))
    return Round(pc_total, enemy_total, total_armour(pcs), total_armour(enemies),
                 max(0, pc_total - total_armour(enemies)), max(0, enemy_total - total_armour(pcs)))


def check_super_combo(round_number: int, qualifying_skill: bool, used_this_scenario: bool) -> list[str]:
    """Why a super combo may not be used now (empty: it may)."""
    problems = []
    if round_number < SUPER_COMBO_FIRST_ROUND:
        problems.append(_("round {round}: a super combo is used from round {first} on", round=round_number,
                          first=SUPER_COMBO_FIRST_ROUND))
    if not qualifying_skill:
        problems.append(_("nobody attacks with a skill of CT 1 turn, CT end of battle or CT end of scenario"))
    if used_this_scenario:
        problems.append(_("the super combo was used already: it is CT end of scenario"))
    return problems


def super_combo_counts_enemies(enemies_left: int) -> bool:
    """The enemies' damage is counted only when the combo did not finish them all."""
    return enemies_left > 0
