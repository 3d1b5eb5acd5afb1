"""A rule set reads its own fields through typed accessors: a misspelt name or a wrong type is named, with the fix."""

from __future__ import annotations

import pytest

from engine.hexes import Hex
from engine.rule_fields import FieldRef, RuleFieldError, read_field
from engine.rules.fantasy_battle.scenario_fields import abilities, kind_of
from engine.scenario import FigureSpec, VictorySpec, load_scenario

KNIGHT = FigureSpec("k", "Knight", 1, "red", Hex(0, 0), fields={"hp": 3, "abilities": ("Shield wall",)})


def test_an_accessor_reads_its_field_with_its_type() -> None:
    assert FieldRef("hp", int)(KNIGHT) == 3
    assert FieldRef[tuple[str, ...]]("abilities", tuple)(KNIGHT) == ("Shield wall",)
    hp = read_field(KNIGHT, "hp", float)  # a whole number where the field takes any number
    assert hp == 3.0 and isinstance(hp, float)


def test_a_misspelt_field_names_the_fields_the_spec_holds() -> None:
    with pytest.raises(RuleFieldError, match=r"FigureSpec has no field 'abilites'; the rule set declares "
                                             r"\['abilities', 'hp'\]"):
        FieldRef("abilites", tuple)(KNIGHT)
    with pytest.raises(RuleFieldError, match=r"VictorySpec has no field 'to'; the rule set declares \[\]"):
        read_field(VictorySpec("red", "destroy", "win"), "to", tuple)


def test_a_field_of_another_type_says_what_it_holds() -> None:
    with pytest.raises(RuleFieldError, match=r"'hp' of FigureSpec holds 3, not a str. Fix: read it as int"):
        read_field(KNIGHT, "hp", str)


def test_no_rule_set_field_is_an_attribute_of_a_spec() -> None:
    knight = load_scenario("goblins-treasure").figures[0]
    assert not hasattr(knight, "abilities") and not hasattr(knight, "kind")
    assert abilities(knight) == knight.fields["abilities"] and kind_of(knight) is knight.fields["kind"]
