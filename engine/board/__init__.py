"""Boards: the hex map and the zone mat behind one small interface (:class:`Board`)."""

from engine.board.base import (
    DEFAULT_FACING_MARGIN_DEG,
    DEFAULT_HYSTERESIS,
    Board,
    Cell,
    CellLabels,
    Point,
    angle_between,
)
from engine.board.edges import CORE_EDGE_KINDS, CORE_EDGES, EDGE_STYLES, EdgeKind, EdgeKindSpec, edge_kinds
from engine.board.hex_board import HexBoard, HexInfo, board_from
from engine.board.terrain import (
    CORE_KINDS,
    CORE_TERRAIN,
    DRAW_STYLES,
    Terrain,
    TerrainKind,
    standable,
    terrain_kinds,
)
from engine.board.zones import ZoneBoard, keypad_board

__all__ = [
    "CORE_EDGES",
    "CORE_EDGE_KINDS",
    "CORE_KINDS",
    "CORE_TERRAIN",
    "DEFAULT_FACING_MARGIN_DEG",
    "DEFAULT_HYSTERESIS",
    "DRAW_STYLES",
    "EDGE_STYLES",
    "Board",
    "Cell",
    "CellLabels",
    "EdgeKind",
    "EdgeKindSpec",
    "HexBoard",
    "HexInfo",
    "Point",
    "Terrain",
    "TerrainKind",
    "ZoneBoard",
    "angle_between",
    "board_from",
    "edge_kinds",
    "keypad_board",
    "standable",
    "terrain_kinds",
]
