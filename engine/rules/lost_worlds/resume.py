"""Where play goes on after a roll that interrupted something: ``act FIGURE`` (a move) or ``falls …``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import Event
from engine.state import GameState

if TYPE_CHECKING:
    from .rules import LostWorlds


def go_on(r: LostWorlds, state: GameState, then: str, events: list[Event]) -> None:
    word, *rest = then.split()
    if word == "act":
        r.end_move(state, rest[0], events)
    elif word == "falls":
        r.next_fall(state, tuple(rest), events)
    else:
        raise ValueError(f"nowhere to go on to from {then!r}: a rule-set bug")
