"""Boards: the hex map and the zone mat behind one small interface (:class:`Board`)."""

from engine.board.base import DEFAULT_HYSTERESIS, Board, Cell, Point
from engine.board.hex_board import EdgeKind, HexBoard, HexInfo, Terrain, board_from
from engine.board.zones import ZoneBoard, keypad_board

__all__ = [
    "DEFAULT_HYSTERESIS",
    "Board",
    "Cell",
    "EdgeKind",
    "HexBoard",
    "HexInfo",
    "Point",
    "Terrain",
    "ZoneBoard",
    "board_from",
    "keypad_board",
]
