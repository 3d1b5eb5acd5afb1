"""Lost Worlds miniature rules (RULES.md §2): the picture-book melee on a table of height levels."""

from engine.rules import register
from engine.rules.lost_worlds.rules import LostWorlds

register(LostWorlds)

__all__ = ["LostWorlds"]
