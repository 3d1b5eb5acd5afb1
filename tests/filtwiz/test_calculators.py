"""The mass-combat arithmetic with the original's worked example, the super combo, duels, difficulty and CL."""

from __future__ import annotations

import pytest

from engine.rules.filtwiz import calculators, cl_adjustment, difficulty, duel, mass_combat
from engine.rules.filtwiz.mass_combat import Attack, DistributionError, Member

# The original's party: Nue, Shuran, Villetta, Palt and Rose (armour 30 together) against two orcs and three
# goblins (armour 4). HP are not given: ours fit the distribution the example makes.
PCS = [Member("nue", 40, 6, True), Member("shuran", 45, 6, True), Member("villetta", 60, 8, True),
       Member("palt", 40, 5, True), Member("rose", 30, 5, True)]
ENEMIES = [Member("orc-1", 55, 1), Member("orc-2", 55, 1), Member("goblin-1", 38, 1), Member("goblin-2", 38, 1),
           Member("goblin-3", 38, 0)]
# Kogetsu-kyaku (2 hits) and Whirlwind (area, 5 enemies) count twice: 2×30 + 30 + 20 + 2×25 + 40 = 200.
PC_ATTACKS = [Attack(30, multi_hit=True), Attack(30), Attack(20), Attack(25, area=True), Attack(40)]
ENEMY_ATTACKS = [Attack(20)] * 5


def test_the_worked_example_totals() -> None:
    assert mass_combat.total_damage(PC_ATTACKS, len(ENEMIES)) == 200
    totals = mass_combat.round_totals(PC_ATTACKS, ENEMY_ATTACKS, PCS, ENEMIES)
    assert (totals.pc_damage, totals.enemy_armour, totals.to_enemies) == (200, 4, 196)
    assert (totals.enemy_damage, totals.pc_armour, totals.to_pcs) == (100, 30, 70)


def test_the_worked_example_distribution() -> None:
    enemies = mass_combat.distribute(196, ENEMIES, {"orc-1": 55, "orc-2": 55, "goblin-1": 38, "goblin-2": 38,
                                                    "goblin-3": 10})
    assert enemies.out == ("orc-1", "orc-2", "goblin-1", "goblin-2")
    assert enemies.hp["goblin-3"] == 28
    pcs = mass_combat.distribute(70, PCS, {"villetta": 30, "nue": 10, "shuran": 10, "palt": 10, "rose": 10})
    assert pcs.out == ()
    assert pcs.hp == {"nue": 30, "shuran": 35, "villetta": 30, "palt": 30, "rose": 20}


def test_an_area_attack_counts_twice_only_against_two_or_more_and_nothing_counts_thrice() -> None:
    assert mass_combat.total_damage([Attack(10, area=True)], opponents=1) == 10
    assert mass_combat.total_damage([Attack(10, area=True)], opponents=2) == 20
    assert mass_combat.total_damage([Attack(10, multi_hit=True)], opponents=1) == 20
    assert mass_combat.total_damage([Attack(10, multi_hit=True, area=True)], opponents=5) == 20
    assert mass_combat.damage_taken([Attack(3)], [Member("a", 5, 10)]) == 0  # armour never heals


def test_a_distribution_that_takes_a_pc_below_zero_or_misses_the_total_is_refused_saying_why() -> None:
    with pytest.raises(DistributionError) as refused:
        mass_combat.distribute(70, PCS, {"rose": 40, "nue": 20})
    problems = " | ".join(refused.value.problems)
    assert "rose would go to -10 HP" in problems
    assert "add up to 60, not the 70" in problems
    with pytest.raises(DistributionError, match="0 or more"):
        mass_combat.distribute(10, PCS, {"rose": -5, "nue": 15})
    # Enemies may be taken as far below 0 as the players like.
    assert mass_combat.distribute(196, ENEMIES, {"orc-1": 196}).hp["orc-1"] == -141


def test_damage_beyond_the_pcs_total_hp_takes_every_pc_to_exactly_zero() -> None:
    total = sum(m.hp for m in PCS)
    forced = mass_combat.distribute(total + 50, PCS)
    assert set(forced.hp.values()) == {0}
    assert forced.out == tuple(m.id for m in PCS)
    with pytest.raises(DistributionError, match="exactly 30"):
        mass_combat.distribute(total + 50, PCS, {m.id: m.hp for m in PCS} | {"rose": 20, "nue": 50})
    # With an allied NPC beside them, the PCs go to 0 and the NPC takes what is left.
    npc = Member("guide", 20, 0, False)
    out = mass_combat.distribute(total + 50, [*PCS, npc], {**{m.id: m.hp for m in PCS}, "guide": 50})
    assert out.hp["guide"] == -30
    exact = mass_combat.distribute(total, PCS, {m.id: m.hp for m in PCS})  # exactly their HP: everyone at 0, out
    assert set(exact.hp.values()) == {0} and len(exact.out) == len(PCS)


def test_the_super_combo_counts_the_enemies_only_if_they_survive() -> None:
    base = {
        "pcs": [{"id": m.id, "hp": m.hp, "armour": m.armour} for m in PCS],
        "enemies": [{"id": m.id, "hp": m.hp, "armour": m.armour} for m in ENEMIES],
        "pc_attacks": [{"damage": 300}], "enemy_attacks": [{"damage": 100}],
        "super_combo": True, "round": 3, "qualifying_skill": True,
    }
    finished = calculators.run_mass_combat({**base, "enemy_shares": {m.id: 60 for m in ENEMIES[:4]} | {"goblin-3": 56}})
    assert finished["enemies"]["out"] == [m.id for m in ENEMIES]
    assert finished["enemy_damage"] is None and finished["to_pcs"] == 0
    survived = calculators.run_mass_combat({**base, "enemy_shares": {"orc-1": 296}})
    assert survived["to_pcs"] == 70 and survived["pcs"] is None  # the players share the 70 out next
    with pytest.raises(ValueError, match="round 2"):
        calculators.run_mass_combat({**base, "round": 2})
    with pytest.raises(ValueError, match="CT 1 turn"):
        calculators.run_mass_combat({**base, "qualifying_skill": False})
    with pytest.raises(ValueError, match="used already"):
        calculators.run_mass_combat({**base, "used_this_scenario": True})


def test_the_mass_combat_calculator_reports_the_worked_example() -> None:
    result = calculators.run_mass_combat({
        "pcs": [{"id": m.id, "hp": m.hp, "armour": m.armour} for m in PCS],
        "enemies": [{"id": m.id, "hp": m.hp, "armour": m.armour} for m in ENEMIES],
        "pc_attacks": [{"damage": a.damage, "multi_hit": a.multi_hit, "area": a.area} for a in PC_ATTACKS],
        "enemy_attacks": [{"damage": 20}] * 5,
        "pc_shares": {"villetta": 30, "nue": 10, "shuran": 10, "palt": 10, "rose": 10},
    })
    assert (result["to_enemies"], result["to_pcs"]) == (196, 70)
    assert result["enemies"] is None  # the players have not shared out the 196 yet
    assert result["pcs"]["out"] == []


def test_duels_end_at_one_hp_and_may_multiply_hp() -> None:
    assert duel.check_declaration({"a": 0, "b": 5}) == ["a has 0 HP: a duel needs 1 HP or more on both sides"]
    assert duel.multiplied(12, 30, 2) == (24, 60)
    assert duel.decided({"a": -3, "b": 4}) == ("a",)
    assert duel.after_duel({"a": -3, "b": 4}) == {"a": 1, "b": 4}
    assert calculators.run_duel({"hp": {"a": 10, "b": 7}, "multiplier": 3})["hp"] == {"a": 30, "b": 21}
    with pytest.raises(ValueError, match="multiplier"):
        duel.multiplied(1, 1, 0)


def test_difficulty_scale_and_cl_adjustment() -> None:
    assert [d.value for d in difficulty.SCALE] == [0, 3, 6, 9, 12]
    assert difficulty.difficulty(6).name == "rather hard"
    with pytest.raises(ValueError, match="0, 3, 6, 9, 12"):
        difficulty.difficulty(5)
    up = cl_adjustment.level_upper(5)
    assert (up.hp_max, up.fp_max, up.checks, up.damage) == (20, 10, 2, 10)
    down = cl_adjustment.downgrade(3, original_cl=16)
    assert (down.hp_max, down.fp_max, down.checks, down.damage, down.grows, down.wish_star) == (-12, -6, -3, -15,
                                                                                                False, True)
    assert not cl_adjustment.downgrade(3, original_cl=14).wish_star
    assert cl_adjustment.level_upper(10).levels == 10
    with pytest.raises(ValueError, match="0 to 10"):
        cl_adjustment.level_upper(11)
    assert calculators.run_cl_adjustment({"levels": -2})["damage"] == -10
