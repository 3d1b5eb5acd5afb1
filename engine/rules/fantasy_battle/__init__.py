"""Hexa-System Fantasy Battle, the primary rule set (RULES.md §1)."""

from engine.rules import register
from engine.rules.fantasy_battle.rules import FantasyBattle

register(FantasyBattle)

__all__ = ["FantasyBattle"]
