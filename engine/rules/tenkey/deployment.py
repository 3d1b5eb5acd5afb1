"""Starting zones: allies in the bottom row (1 2 3), enemies in the rows above (4–9).

The GM may change the rule before the battle (the whole party in 5 with enemies all round, an
enemy already in 2 after an ambush): the scenario's ``deployment = "free"`` option lifts the
check, and a GM places figures anywhere on the tablet with a placement override.
"""

from __future__ import annotations

from engine.board.zones.board import ZoneBoard
from engine.hexes import Hex


def ally_zones(board: ZoneBoard) -> set[Hex]:
    """The zones the allies may start in: the bottom row."""
    bottom = board.rows - 1
    return {z for z in board if z.r == bottom}


def enemy_zones(board: ZoneBoard) -> set[Hex]:
    """The zones the enemies may start in: every row above the bottom one."""
    return set(board) - ally_zones(board)


def start_zones(board: ZoneBoard, allied: bool) -> set[Hex]:
    return ally_zones(board) if allied else enemy_zones(board)
