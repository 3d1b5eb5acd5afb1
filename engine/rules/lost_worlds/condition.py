"""A character's condition, kept as figure marks the tablets show: hit points, off-balance, down, unconscious.

Lost Worlds counts a character with 0 to -4 hit points as unconscious and one below -4 as dead. Turn
bookkeeping (ran this turn or the last, blocked, escaped, fought) is kept as marks too, so a saved game and
the tablet see the same.
"""

from __future__ import annotations

from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.state import FigureState, GameState

_ = gettext_for(__name__)

HP, MP = "hp", "mp"
OFF_BALANCE, DOWN, UNCONSCIOUS = "off-balance", "down", "unconscious"
RAN, RAN_LAST_TURN, STARRED = "ran", "ran last turn", "starred action"
HELD, ESCAPED, FOUGHT, MOVED = "held", "escaped", "fought", "moved"
HARD_PUSHER = "pushed hard"
# The fall table's "the next turn starts off-balance / down": kept until the character's next turn starts.
NEXT_OFF_BALANCE, NEXT_DOWN = "off-balance next turn", "down next turn"
COUP = "coup de grâce"  # the bonus to the next recovery die
REGEN, MANA, MANA_LEFT = "regenerating", "mana", "mana recovered"
CARRY_PAID = "carried"  # this turn's cost of carrying a large object is paid
IMMATERIAL = "immaterial"  # a regenerating wraith during the movement phase: no battle range, passed freely
LOWEST_UNCONSCIOUS = -4
BADGE_NAMES: dict[str, str] = {  # each mark as a badge names it (looked up where shown)
    HP: N_("hp"), MP: N_("mp"), OFF_BALANCE: N_("off-balance"), DOWN: N_("down"), UNCONSCIOUS: N_("unconscious"),
    RAN: N_("ran"), RAN_LAST_TURN: N_("ran last turn"), STARRED: N_("starred action"), HELD: N_("held"),
    ESCAPED: N_("escaped"), FOUGHT: N_("fought"), MOVED: N_("moved"), HARD_PUSHER: N_("pushed hard"),
    COUP: N_("coup de grâce"), REGEN: N_("regenerating"), MANA: N_("mana"), MANA_LEFT: N_("mana recovered"),
    IMMATERIAL: N_("immaterial"), CARRY_PAID: N_("carried a large object"),
    NEXT_OFF_BALANCE: N_("off-balance next turn"), NEXT_DOWN: N_("down next turn"),
}


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


def next_turn_starts(fig: FigureState, state: str) -> None:
    """The fall table's "the next turn starts off-balance / down": it takes effect when the character's next turn
    starts (:func:`start_turn`), not at once. Down outranks off-balance."""
    if state == "down":
        fig.mark(NEXT_OFF_BALANCE, None)
        fig.mark(NEXT_DOWN, True)
    elif state == "off_balance" and not fig.flag(NEXT_DOWN):
        fig.mark(NEXT_OFF_BALANCE, True)


def start_turn(fig: FigureState) -> None:
    """A new turn starts: what the fall table left for it takes effect (off-balance never lifts one who is down)."""
    if fig.flag(NEXT_DOWN):
        set_balance(fig, "down")
    elif fig.flag(NEXT_OFF_BALANCE) and balance(fig) == "normal":
        set_balance(fig, "off_balance")
    fig.mark(NEXT_DOWN, None)
    fig.mark(NEXT_OFF_BALANCE, None)


def move_body(state: GameState, fig: FigureState, to: Hex) -> None:
    """Something other than its own move puts the character on ``to`` (a fall, a landing, a wraith's touch). A body
    moved while unconscious rolls no recovery this turn (the ``moved`` mark)."""
    state.put(fig.id, to)
    if fig.alive and fig.flag(UNCONSCIOUS):
        fig.mark(MOVED, True)


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
        state.kill(fig.id)
        fig.mark(UNCONSCIOUS, None)
        return _("dies")
    if now <= 0:
        if not fig.flag(UNCONSCIOUS):
            fig.mark(UNCONSCIOUS, True)
            set_balance(fig, "down")
            return _("falls unconscious")
        return ""
    if fig.flag(UNCONSCIOUS):
        fig.mark(UNCONSCIOUS, None)
        return _("comes round")
    return ""


def badges(fig: FigureState) -> tuple[str, ...]:
    """A character's flags by name and its counts with their values ("hp 7"), as the tablets show them."""
    out: list[str] = []
    for name, value in fig.values.items():
        label = _(BADGE_NAMES[name]) if name in BADGE_NAMES else str(name)
        if value is True:
            out.append(label)
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(_("{name} {value}", name=label, value=value))
    return tuple(out)
