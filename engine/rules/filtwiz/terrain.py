"""Filtwiz terrain: the kinds its maps declare beyond the shared ones, and what blocks sight.

- ``underwater``: water a character is under (the original's 水中): −5 movement, no flying.
- ``indoor``: inside a building: flying and full flight do nothing there.
- The shared ``blocking`` kind is the hex "the GM declared an obstacle that blocks the view"; a GM
  marks hexes blocking (or clear) during play (``engine.board.marks``). Walls and closed doors on
  hex sides block sight too; figures never do.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import EdgeKind, TerrainKind
from engine.board.hex import HexBoard
from engine.hexes import Edge, Hex
from engine.i18n import N_
from engine.rules.base import MapSymbol

UNDERWATER = "underwater"
INDOOR = "indoor"
KIND_NAMES = (N_("underwater"), N_("indoor"))  # the kinds' names as people read them

TERRAIN_KINDS: tuple[TerrainKind, ...] = (
    TerrainKind(UNDERWATER, N_("under water: -5 movement and no flying for a character that starts its turn here"),
                standable=True, blocks_sight=False, style="water"),
    TerrainKind(INDOOR, N_("indoors: flying and full flight have no effect here"), standable=True,
                blocks_sight=False, style="building"),
)

MAP_SYMBOLS: Mapping[str, MapSymbol] = {
    "w": MapSymbol(UNDERWATER, None, N_("an underwater hex")),
    "i": MapSymbol(INDOOR, None, N_("an indoor hex")),
}


def is_underwater(board: HexBoard, h: Hex) -> bool:
    return h in board and board.terrain(h) == UNDERWATER


def is_indoor(board: HexBoard, h: Hex) -> bool:
    return h in board and board.terrain(h) == INDOOR


def blocks_sight(board: HexBoard, h: Hex) -> bool:
    """A hex the GM declared an obstacle to the view (its terrain kind blocks sight)."""
    return h in board and board.terrain_kind(h).blocks_sight


def edge_blocks_sight(board: HexBoard, doors: Mapping[Edge, str], e: Edge) -> bool:
    """A wall, or a door that is not open, on a hex side."""
    kind = board.edges.get(e)
    if kind is None:
        return False
    if kind is EdgeKind.WALL:
        return True
    return doors.get(e, "closed") != "open"


def standable(board: HexBoard, h: Hex) -> bool:
    return h in board and board.terrain_kind(h).standable
