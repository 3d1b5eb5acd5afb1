"""A character's condition, kept as figure marks the tablets show: hit points, off-balance, down, unconscious.

Lost Worlds counts a character with 0 to -4 hit points as unconscious and one below -4 as dead. Turn
bookkeeping (ran this turn or the last, blocked, escaped, fought) is kept as marks too, so a saved game and
the tablet see the same.
"""

from __future__ import annotations

from engine.state import FigureState, GameState

HP, MP = "hp", "mp"
OFF_BALANCE, DOWN, UNCONSCIOUS = "off-balance", "down", "unconscious"
RAN, RAN_LAST_TURN, STARRED = "ran", "ran last turn", "starred action"
HELD, ESCAPED, FOUGHT, MOVED = "held", "escaped", "fought", "moved"
HARD_PUSHER = "pushed hard"
COUP = "coup de grâce"  # the bonus to the next recovery die
REGEN, MANA, MANA_LEFT = "regenerating", "mana", "mana recovered"
IMMATERIAL = "immaterial"  # a regenerating wraith during the movement phase: no battle range, passed freely
LOWEST_UNCONSCIOUS = -4


def hp(fig: FigureState) -> int:
    value = fig.values.get(HP, 0)
    return int(value)


def conscious(fig: FigureState) -> bool:
    """Alive and not unconscious: a character that acts, blocks and occupies its space."""
    return fig.alive and fig.hex is not None and not fig.flag(UNCONSCIOUS)


def present(fig: FigureState) -> bool:
    """Conscious and material: a character with a battle range that holds its space (not a regenerating wraith)."""
    return conscious(fig) and not fig.flag(IMMATERIAL)


def out_of_fight(fig: FigureState) -> bool:
    """Dead or unconscious."""
    return not fig.alive or fig.flag(UNCONSCIOUS)


def set_balance(fig: FigureState, state: str) -> None:
    """``normal``, ``off_balance`` or ``down`` (down replaces off-balance)."""
    fig.mark(OFF_BALANCE, state == "off_balance")
    fig.mark(DOWN, state == "down")


def balance(fig: FigureState) -> str:
    if fig.flag(DOWN):
        return "down"
    if fig.flag(OFF_BALANCE):
        return "off_balance"
    return "normal"


def hurt(state: GameState, fig: FigureState, damage: int) -> str:
    """Take ``damage`` hit points; a character at 0 to -4 falls unconscious, below -4 it dies. Returns a word."""
    if damage <= 0:
        return ""
    fig.values[HP] = hp(fig) - damage
    return settle_hp(state, fig)


def settle_hp(state: GameState, fig: FigureState) -> str:
    """Unconscious, dead or awake by the hit points now."""
    now = hp(fig)
    if now < LOWEST_UNCONSCIOUS:
        fig.alive = False
        fig.mark(UNCONSCIOUS, None)
        if fig.id not in state.pending_removals:
            state.pending_removals.append(fig.id)
        return "dies"
    if now <= 0:
        if not fig.flag(UNCONSCIOUS):
            fig.mark(UNCONSCIOUS, True)
            set_balance(fig, "down")
            return "falls unconscious"
        return ""
    if fig.flag(UNCONSCIOUS):
        fig.mark(UNCONSCIOUS, None)
        return "comes round"
    return ""


def badges(fig: FigureState) -> tuple[str, ...]:
    """A character's flags by name and its counts with their values ("hp 7"), as the tablets show them."""
    out: list[str] = []
    for name, value in fig.values.items():
        if value is True:
            out.append(str(name))
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(f"{name} {value}")
    return tuple(out)
