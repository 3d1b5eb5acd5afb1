"""The calculators a Filtwiz GM runs from a tablet: mass combat, super combo, duel, difficulty, CL adjustment.

Each takes plain inputs (numbers, lists of objects) and answers plain results; a refused input raises
ValueError saying what is wrong (a distribution that breaks the rules names every problem).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from engine.i18n import N_, gettext_for
from engine.rules.gm import Calculator, CalculatorField

from . import cl_adjustment, difficulty, duel, mass_combat
from .mass_combat import Attack, Member

_ = gettext_for(__name__)


def _int(inputs: Mapping[str, Any], key: str, default: int | None = None, low: int | None = None) -> int:
    value = inputs.get(key, default)
    if value is None:
        raise ValueError(_("{key}: missing; give a whole number", key=key))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(_("{key}: expected a whole number, got {value!r}", key=key, value=value))
    if low is not None and value < low:
        raise ValueError(_("{key}: {value} is below {low}", key=key, value=value, low=low))
    return value


def _bool(inputs: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = inputs.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(_("{key}: expected true or false, got {value!r}", key=key, value=value))
    return value


def _objects(inputs: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = inputs.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(_("{key}: expected a list of objects", key=key))
    return value


def _members(inputs: Mapping[str, Any], key: str, pc_default: bool) -> list[Member]:
    out = []
    for i, m in enumerate(_objects(inputs, key)):
        who = m.get("id")
        if not isinstance(who, str) or not who:
            raise ValueError(_("{key}[{i}].id: give the character's name", key=key, i=i))
        out.append(Member(who, _int(m, "hp"), _int(m, "armour", 0, 0), _bool(m, "pc", pc_default)))
    return out


def _attacks(inputs: Mapping[str, Any], key: str) -> list[Attack]:
    return [Attack(_int(a, "damage", low=0), _bool(a, "multi_hit"), _bool(a, "area")) for a in _objects(inputs, key)]


def _shares(inputs: Mapping[str, Any], key: str) -> dict[str, int] | None:
    value = inputs.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError(_("{key}: expected an object of character → damage", key=key))
    return {str(k): _int(value, k) for k in value}


def _outcome(damage: int, members: list[Member], shares: dict[str, int] | None) -> dict[str, Any] | None:
    if shares is None and mass_combat.forced_shares(damage, members) is None:
        return None
    out = mass_combat.distribute(damage, members, shares)
    return {"hp": out.hp, "out": list(out.out)}


def run_mass_combat(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """One round of mass combat (or a super combo with ``super_combo``): totals, then each side's distribution."""
    pcs, enemies = _members(inputs, "pcs", True), _members(inputs, "enemies", False)
    if not pcs or not enemies:
        raise ValueError(_("pcs and enemies: list the characters of both sides"))
    combo = _bool(inputs, "super_combo")
    if combo:
        problems = mass_combat.check_super_combo(_int(inputs, "round", 1, 1), _bool(inputs, "qualifying_skill"),
                                                 _bool(inputs, "used_this_scenario"))
        if problems:
            raise mass_combat.DistributionError(problems)
    totals = mass_combat.round_totals(_attacks(inputs, "pc_attacks"), _attacks(inputs, "enemy_attacks"), pcs, enemies)
    result: dict[str, Any] = asdict(totals)
    enemies_after = _outcome(totals.to_enemies, enemies, _shares(inputs, "enemy_shares"))
    result["enemies"] = enemies_after
    if combo:
        left = len(enemies) - len(enemies_after["out"]) if enemies_after is not None else len(enemies)
        if enemies_after is None:
            result["enemy_damage"] = result["to_pcs"] = None  # counted once the enemies' shares are known
            result["pcs"] = None
            result["note"] = _("share out the damage to the enemies first: their damage counts only if they survive")
            return result
        if not mass_combat.super_combo_counts_enemies(left):
            result["enemy_damage"], result["to_pcs"], result["pcs"] = None, 0, None
            result["note"] = _("the super combo finished every enemy: their damage is not counted")
            return result
    result["pcs"] = _outcome(totals.to_pcs, pcs, _shares(inputs, "pc_shares"))
    return result


def run_duel(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A duel's HP: at the start (checked, multiplied) or at the end (``ended``: 1 HP at least)."""
    hp = _shares(inputs, "hp") or {}
    if _bool(inputs, "ended"):
        return {"hp": duel.after_duel(hp)}
    problems = duel.check_declaration(hp)
    if problems:
        raise ValueError(_("; ").join(problems))
    multiplier = _int(inputs, "multiplier", 1, 1)
    max_hp = _shares(inputs, "max_hp") or dict(hp)
    return {"hp": {w: duel.multiplied(v, max_hp.get(w, v), multiplier)[0] for w, v in hp.items()},
            "max_hp": {w: duel.multiplied(hp[w], v, multiplier)[1] for w, v in max_hp.items() if w in hp},
            "decided_by": list(duel.decided(hp))}


def run_difficulty(inputs: Mapping[str, Any]) -> dict[str, Any]:
    if "value" in inputs:
        d = difficulty.difficulty(_int(inputs, "value"))
        return {"value": d.value, "name": _(d.name), "text": _(d.text)}
    return {"scale": [{"value": d.value, "name": _(d.name), "text": _(d.text)} for d in difficulty.SCALE]}


def run_cl_adjustment(inputs: Mapping[str, Any]) -> dict[str, Any]:
    levels = _int(inputs, "levels")
    if levels >= 0:
        return asdict(cl_adjustment.level_upper(levels))
    return asdict(cl_adjustment.downgrade(-levels, _int(inputs, "original_cl", 1, 1)))


CALCULATORS: tuple[Calculator, ...] = (
    Calculator("mass_combat", N_("Mass combat (ボコスカ戦闘)"),
               N_("every attack hits: each side's damage less the other side's armour, shared out by the players; no "
                  "PC below 0 HP (all to 0 when the damage exceeds their HP); 0 HP or below is out"), (
        CalculatorField("pcs", "objects", N_("the PC side: id, hp, armour, pc (true unless an allied NPC)")),
        CalculatorField("enemies", "objects", N_("the enemy side: id, hp, armour")),
        CalculatorField("pc_attacks", "objects", N_("the PC side's attacks: damage, multi_hit, area")),
        CalculatorField("enemy_attacks", "objects", N_("the enemies' attacks: damage, multi_hit, area")),
        CalculatorField("enemy_shares", "object", N_("damage to each enemy (the players share it out)"), False),
        CalculatorField("pc_shares", "object", N_("damage to each PC (none below 0 HP)"), False),
        CalculatorField("super_combo", "bool", N_("a super combo (超必殺連携) instead"), False),
        CalculatorField("round", "int", N_("the battle's round (a super combo needs 3 or later)"), False),
        CalculatorField("qualifying_skill", "bool", N_("someone attacks with a CT 1 turn / end of battle / end of "
                                                       "scenario skill"), False),
        CalculatorField("used_this_scenario", "bool", N_("the super combo was used already this scenario"), False),
    ), run_mass_combat),
    Calculator("duel", N_("Duel (決闘)"), N_("both need 1 HP to declare; at the end every HP comes back up to 1; HP "
                                            "may be multiplied by agreement"), (
        CalculatorField("hp", "object", N_("each duellist's current HP")),
        CalculatorField("max_hp", "object", N_("each duellist's maximum HP"), False),
        CalculatorField("multiplier", "int", N_("the HP multiplier agreed (1: none)"), False),
        CalculatorField("ended", "bool", N_("the duel is over: HP back up to 1"), False),
    ), run_duel),
    Calculator("difficulty", N_("Difficulty scale"), N_("0 easy, 3 standard, 6 rather hard, 9 hard, 12 very hard"), (
        CalculatorField("value", "int", N_("a difficulty to explain (none: the whole scale)"), False),
    ), run_difficulty),
    Calculator("cl_adjustment", N_("CL adjustment"), N_("level upper (+levels) or downgrade (-levels), at most 10"), (
        CalculatorField("levels", "int", N_("levels to adjust: positive level upper, negative downgrade")),
        CalculatorField("original_cl", "int", N_("the character's CL before a downgrade (15+: still the wish star)"),
                        False),
    ), run_cl_adjustment),
)
