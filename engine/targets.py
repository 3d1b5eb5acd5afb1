"""What a figure could shoot or cast at, as the rule sets answer it (``RuleSet.targets``) and the tablets draw it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.board.base import Cell
from engine.hexes import Edge
from engine.lines import Sight


@dataclass(frozen=True)
class TargetInfo:
    """One possible target of a figure: range, line of sight and whether the attack is allowed, and why not."""

    target: str
    action: str  # "shoot", "cast"
    range: int
    sight: Sight
    allowed: bool
    reason: str
    blocker: Cell | Edge | None = None
    path: tuple[Cell, ...] = ()
    touched: tuple[Cell, ...] = ()  # blocking cells the line of sight only touches on their boundary
