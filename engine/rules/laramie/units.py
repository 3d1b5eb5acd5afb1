"""A unit in play: its values from the scenario and what changes in play (HP left, its state).

The values live in the figure's ``values`` in the game state, so undo, the journal and the wire keep them.
"""

from __future__ import annotations

from engine.i18n import localised
from engine.state import FigureState

from .data import StateRules, states

NORMAL, PRONE, DASH, CRAWL, JUMP_PRONE = "normal", "prone", "dash", "crawl", "jump_prone"
SUPPRESSED_1, SUPPRESSED_2, BROKEN = "suppressed_1", "suppressed_2", "broken"
# How bad a state is, for an outcome that may not make a unit better off than it is.
SEVERITY = {SUPPRESSED_1: 1, SUPPRESSED_2: 2, BROKEN: 3}

HP, STATE = "hp", "state"
KILLED, SURRENDERED = "killed in action", "taken prisoner: morale broken, it surrenders"  # how a unit is out


def state_of(fig: FigureState) -> str:
    return str(fig.values.get(STATE, NORMAL))


def rules_of(fig: FigureState) -> StateRules:
    """What the figure's state allows."""
    return states()[state_of(fig)]


def hp_of(fig: FigureState) -> int:
    return int(fig.values.get(HP, 0))


def set_state(fig: FigureState, name: str) -> None:
    if name not in states():
        raise ValueError(f"{name!r} is not a unit state; states: {', '.join(states())}")
    fig.values[STATE] = name


def worse(current: str, outcome: str) -> str:
    """The state after a suppressive-fire outcome: never better than the unit already is."""
    return outcome if SEVERITY.get(outcome, 0) > SEVERITY.get(current, 0) else current


def label(name: str) -> str:
    """The state's name for people, in the table's language ("Prone" / "伏せ")."""
    s = states()[name]
    return localised({"en": s.label, "ja": s.label_ja})


def badge(name: str) -> str:
    """The state's badge on a figure, in the table's language ("[P] prone" / "[P] 伏せ")."""
    s = states()[name]
    return localised({"en": s.badge, "ja": s.badge_ja})
