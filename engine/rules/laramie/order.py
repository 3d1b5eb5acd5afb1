"""The order of units in each phase, by combat value.

- state update: lowest combat value first;
- movement: lowest first, and units of opposing sides with the same value roll 1d10, lower first;
- combat: highest first, ties between sides settled the same way (the rules' decision: the original
  orders combat by value and says nothing of ties).

Units of one side with the same value go in the scenario's order (the rules' decision).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.flow.turns import RollOff, order_by_value
from engine.i18n import N_
from engine.state import GameState

MOVEMENT, COMBAT = N_("movement order"), N_("combat order")  # also the keys of the orders


def ranked(state: GameState, combat: Callable[[str], int], *, low_first: bool,
           scenario_order: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Living units in groups of equal combat value; a group holding one side only is split in scenario order."""
    alive = [fid for fid in scenario_order if state.figures[fid].alive]
    out: list[tuple[str, ...]] = []
    for group in order_by_value(alive, lambda f: combat(f), low_first=low_first):
        if len({state.figures[f].side for f in group}) > 1:
            out.append(group)
        else:
            out.extend((f,) for f in group)
    return tuple(out)


def roll_off(groups: tuple[tuple[str, ...], ...], purpose: str) -> RollOff | None:
    """The 1d10 roll-off for tied units of opposing sides (lower first), or None when nobody is tied."""
    if all(len(g) == 1 for g in groups):
        return None
    return RollOff(groups, purpose=purpose, sides=10, high_first=False, of="figures")
