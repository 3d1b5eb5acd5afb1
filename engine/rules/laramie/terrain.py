"""The town of Laramie: open ground (the street), houses, the station, the lumber yard; walls and black lines.

- Open ground (開豁地) is the street: everything else gives a target cover (+2) and keeps a prone unit
  there from firing and from normal fire.
- Houses and the station block the line of sight; the lumber yard does not, but gives normal fire +2.
- A wall (塀) stands on a hex side: a target at a wall the line crosses is behind an obstacle (+2); it
  does not stop feet.
- A black line on the map is "no entry": it stops movement (from one house into another, onto the lumber
  yard) but not sight.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import EdgeKindSpec, Terrain, TerrainKind
from engine.board.hex import HexBoard
from engine.hexes import Hex, edge
from engine.i18n import N_
from engine.rules.base import MapSymbol

HOUSE, STATION, LUMBER = "house", "station", "lumber"
WALL, BLACK_LINE = "fence", "black_line"
KIND_NAMES = (N_("house"), N_("station"), N_("lumber"), N_("fence"), N_("black_line"))  # as people read them

TERRAIN_KINDS: tuple[TerrainKind, ...] = (
    TerrainKind(HOUSE, N_("a house: cover (+2 to normal fire at a target inside); blocks the line of sight"),
                standable=True, blocks_sight=True, style="building"),
    TerrainKind(STATION, N_("the station building: cover like a house; blocks the line of sight"),
                standable=True, blocks_sight=True, style="building"),
    TerrainKind(LUMBER, N_("the lumber yard: cover; normal fire across it +2, it does not block the line of sight"),
                standable=True, blocks_sight=False, style="rough"),
)
MAP_SYMBOLS: Mapping[str, MapSymbol] = {
    "H": MapSymbol(HOUSE, None, N_("a house hex")),
    "S": MapSymbol(STATION, None, N_("a station hex")),
    "L": MapSymbol(LUMBER, None, N_("a lumber-yard hex")),
}
EDGE_KINDS: tuple[EdgeKindSpec, ...] = (
    EdgeKindSpec(WALL, N_("a wall (塀): a target at it is behind an obstacle (+2); does not stop movement"),
                 blocks_movement=False, blocks_sight=False, style="fence"),
    EdgeKindSpec(BLACK_LINE, N_("a black line: no entry (stops movement, not sight)"),
                 blocks_movement=True, blocks_sight=False, style="line"),
)


def open_ground(board: HexBoard, h: Hex) -> bool:
    """The street: no cover."""
    return board.terrain(h) == Terrain.FLOOR


def blocks_sight(board: HexBoard, h: Hex) -> bool:
    """A house or the station (or a solid hex) between shooter and target blocks the line."""
    return board.terrain_kind(h).blocks_sight


def lumber_yard(board: HexBoard, h: Hex) -> bool:
    return board.terrain(h) == LUMBER


def standable_here(board: HexBoard, h: Hex) -> bool:
    return h in board and board.terrain_kind(h).standable


def wall_between(board: HexBoard, a: Hex, b: Hex) -> bool:
    return board.edges.get(edge(a, b)) == WALL


def can_step(board: HexBoard, a: Hex, b: Hex) -> bool:
    """A step to a neighbouring hex: onto ground one may stand on, not across a black line (or a shared wall)."""
    if not standable_here(board, b):
        return False
    spec = board.edge_spec(edge(a, b))
    return spec is None or not spec.blocks_now()


def has_cover(board: HexBoard, h: Hex) -> bool:
    """A place with a to-hit modifier, where a suppressed unit stops running: out of the open, or at a wall."""
    return not open_ground(board, h) or any(wall_between(board, h, n) for n in h.neighbours())


def house(board: HexBoard, h: Hex) -> bool:
    """A house (家): a target in one beyond the lumber yard gets only the lumber yard's +2, not its cover too."""
    return board.terrain(h) == HOUSE
