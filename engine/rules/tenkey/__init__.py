"""Tenkey battle (テンキー戦闘), the 3×3 keypad zone board of the original rules (RULES.md §4)."""

from engine.rules import register
from engine.rules.tenkey.rules import TenkeyBattle

register(TenkeyBattle)

__all__ = ["TenkeyBattle"]
