"""The numbers of Fantasy Battle (RULES.md §1), named once."""

MOVE_LONG = 3  # hexes on a movement roll of 5–6
MOVE_SHORT = 2  # hexes on 1–4
SHOT_HITS_AT = 4
SAVE_AT = 5
WIZARD_SAVE_AT = 4
MAGIC_KILLS_AT = 6
MAGIC_RANGE = 5
UNLOCK_AT = 4


def span(low: int, high: int) -> str:
    """'5–6', or '6' when low == high."""
    return str(low) if low == high else f"{low}–{high}"
