"""Boards: the interface every board kind implements (:class:`Board`), the kinds' registry (:mod:`engine.board.kinds`)
and what all kinds share (terrain and edge kinds, map symbols, drawings, terrain marks). Each kind is a package of its
own: the hex map (:mod:`engine.board.hex`), the zone board (:mod:`engine.board.zones`), or a plug-in folder's."""

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
from engine.board.terrain import (
    CORE_KINDS,
    CORE_TERRAIN,
    DRAW_STYLES,
    CellInfo,
    Terrain,
    TerrainKind,
    standable,
    terrain_kinds,
)

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
    "CellInfo",
    "CellLabels",
    "EdgeKind",
    "EdgeKindSpec",
    "Point",
    "Terrain",
    "TerrainKind",
    "angle_between",
    "edge_kinds",
    "standable",
    "terrain_kinds",
]
