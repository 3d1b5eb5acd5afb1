"""Board model: which hexes exist and what stands on them and on their edges.

The board is static terrain. What changes in play (doors opened, treasure carried) lives in the
game state. Rule sets read the board through small predicates, so geometry stays rule-free.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.hexes import Edge, Hex, Orientation, edge, to_label


class Terrain(Enum):
    """What covers a whole hex."""

    FLOOR = "floor"
    BLOCKING = "blocking"  # a solid wall hex or tall obstacle: no entry, blocks sight
    LOW_OBSTACLE = "low"  # crates, a low wall: no entry, shot over under the rules' conditions
    WATER = "water"


class EdgeKind(Enum):
    """What stands on the side between two hexes."""

    WALL = "wall"
    DOOR = "door"
    LOCKED_DOOR = "locked"


@dataclass(frozen=True, slots=True)
class HexInfo:
    """Terrain of one hex: cover, height level and the tokens lying on it (treasure, prisoner…)."""

    terrain: Terrain = Terrain.FLOOR
    level: int = 0
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class HexBoard:
    """A map of hex tiles with per-hex terrain and per-edge walls and doors."""

    tiles: Mapping[Hex, HexInfo]
    edges: Mapping[Edge, EdgeKind] = field(default_factory=dict)
    orientation: Orientation = Orientation.FLAT

    def __contains__(self, h: object) -> bool:
        return h in self.tiles

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def info(self, h: Hex) -> HexInfo:
        try:
            return self.tiles[h]
        except KeyError:
            raise KeyError(f"{self.label(h)} is not on the map") from None

    def terrain(self, h: Hex) -> Terrain:
        return self.info(h).terrain

    def level(self, h: Hex) -> int:
        return self.info(h).level

    def edge_kind(self, a: Hex, b: Hex) -> EdgeKind | None:
        """The wall or door between two neighbouring hexes, or None for an open side."""
        return self.edges.get(edge(a, b))

    def neighbours(self, h: Hex) -> list[Hex]:
        """Neighbours that are on the map (walls not considered)."""
        return [n for n in h.neighbours() if n in self.tiles]

    def doors(self) -> dict[Edge, EdgeKind]:
        return {e: k for e, k in self.edges.items() if k is not EdgeKind.WALL}

    def hexes_with_token(self, token: str) -> list[Hex]:
        return sorted(h for h, info in self.tiles.items() if token in info.tokens)

    def label(self, h: Hex) -> str:
        return to_label(h, self.orientation)

    def edge_label(self, e: Edge) -> str:
        return f"{self.label(e.a)}|{self.label(e.b)}"

    def bounds(self) -> tuple[int, int, int, int]:
        """(min q, min r, max q, max r) of the tiles."""
        qs = [h.q for h in self.tiles]
        rs = [h.r for h in self.tiles]
        return min(qs), min(rs), max(qs), max(rs)


def board_from(
    hexes: Iterable[Hex],
    *,
    terrain: Mapping[Hex, Terrain] | None = None,
    edges: Mapping[Edge, EdgeKind] | None = None,
    orientation: Orientation = Orientation.FLAT,
) -> HexBoard:
    """Build a board from a set of hexes with optional terrain overrides (handy in tests)."""
    terrain = terrain or {}
    tiles = {h: HexInfo(terrain.get(h, Terrain.FLOOR)) for h in hexes}
    return HexBoard(tiles=tiles, edges=dict(edges or {}), orientation=orientation)
