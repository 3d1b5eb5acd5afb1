"""Height on a three-dimensional table: levels of spaces, effective height and battle range across levels.

A character stands at the level of its space. Two adjacent characters are in each other's battle range
only if the lower one's height is greater than the level difference (height 3 on level 0 against
height 6 on level 4: not in range; swapped: in range). In a combat phase each side's effective height
is its height plus its level; the difference is the height modifier of that phase.
"""

from __future__ import annotations

from engine.i18n import gettext_for

_ = gettext_for(__name__)


def in_battle_range(level_a: int, height_a: int, level_b: int, height_b: int, adjacent: bool = True) -> bool:
    """Whether two characters are in each other's battle range (adjacent spaces, height across the levels)."""
    if not adjacent:
        return False
    if level_a == level_b:
        return True
    lower_height = height_a if level_a < level_b else height_b
    return lower_height > abs(level_a - level_b)


def effective_height(height: int, level: int) -> int:
    """A character's effective height: its height plus the level of its space."""
    return height + level


def height_modifier(height_a: int, level_a: int, height_b: int, level_b: int) -> int:
    """The first character's height modifier against the second for one combat phase (the dwarf's +2)."""
    return effective_height(height_a, level_a) - effective_height(height_b, level_b)


def step_cost(level_from: int, level_to: int, move: int, per_level: int) -> int:
    """Movement points to enter an adjacent space: a move on one level, else climbing or descending per level."""
    diff = abs(level_to - level_from)
    return move if diff == 0 else per_level * diff


def can_jump(start: int, landing: int, obstacle_top: int, max_rise: int = 2) -> str:
    """Why a jump over one space is not allowed, or "" when it is.

    Not onto a place ``max_rise`` or more levels above the start; not when the jumped thing's top (its height
    plus the level it stands on) is higher than the take-off or the landing level.
    """
    if landing - start >= max_rise:
        return _("the landing is {levels} levels above the take-off (a jump rises at most {most})",
                 levels=landing - start, most=max_rise - 1)
    if obstacle_top > start or obstacle_top > landing:
        return _("what lies between reaches level {top}, higher than the take-off ({start}) or the landing "
                 "({landing})", top=obstacle_top, start=start, landing=landing)
    return ""
