"""Boards: the hex map and the zone mat behind one small interface (:class:`Board`)."""

from engine.board.base import DEFAULT_FACING_MARGIN_DEG, DEFAULT_HYSTERESIS, Board, Cell, Point, angle_between
from engine.board.hex_board import EdgeKind, HexBoard, HexInfo, Terrain, board_from
from engine.board.zones import ZoneBoard, keypad_board

__all__ = [
    "DEFAULT_FACING_MARGIN_DEG",
    "DEFAULT_HYSTERESIS",
    "Board",
    "Cell",
    "EdgeKind",
    "HexBoard",
    "HexInfo",
    "Point",
    "Terrain",
    "ZoneBoard",
    "angle_between",
    "board_from",
    "keypad_board",
]
