"""The hex map: which hexes exist and what stands on them and on their edges.

The board is static terrain. What changes in play (doors opened, treasure carried) lives in the
game state. Rule sets read the board through small predicates, so geometry stays rule-free. It is
one implementation of :class:`engine.board.base.Board`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.board.base import DEFAULT_FACING_MARGIN_DEG, DEFAULT_HYSTERESIS, Point, angle_between
from engine.board.drawing import DECIMALS, board_drawing, cell_drawing
from engine.board.edges import CORE_EDGE_KINDS, EdgeKindSpec, edge_name
from engine.board.table_print import PrintedShape, TablePrint, edge_fill, side_strip, terrain_fill
from engine.board.terrain import CORE_KINDS, CellInfo, Terrain, TerrainKind, terrain_name
from engine.hexes import DIRECTIONS, Edge, Hex, Orientation, edge, from_label, to_label
from engine.layout import Layout

DEFAULT_HEX_MM = 50.0  # across flats, when a board is built without a layout (tests)
# Where a stack's figures stand, in hexes (across flats) from the centre. Square tags side by side need their
# centres about 1.1 tags apart, so that neither's white label covers the other's black border (24-26 mm for 22 mm
# tags): two or three figures stand towards the hex's corners, where it is longest (21 mm out on a 50 mm hex, 36 mm
# and more apart), four in a square (26 mm apart). All stay clearly inside the hex: the camera keeps a figure on
# its old hex until its tag is clearly past the border (``locate``'s hysteresis).
STACK_RADIUS = 0.42
STACK_SQUARE = 0.26


__all__ = ["DEFAULT_HEX_MM", "HexBoard", "board_from"]


WALL_MM = 4.0  # how wide a wall or door is drawn on the table


@dataclass(frozen=True)
class HexBoard:
    """A map of hex tiles with per-hex terrain and per-edge walls, doors and the like, laid on the table by ``layout``.

    A tile's terrain and an edge's kind are names of the board's declared kinds (``kinds``, ``edge_kinds``).
    """

    tiles: Mapping[Hex, CellInfo]
    edges: Mapping[Edge, str] = field(default_factory=dict)  # side → an edge kind's name
    orientation: Orientation = Orientation.FLAT
    layout: Layout | None = None  # where the map lies on the table; a 50 mm grid at the origin when None
    kinds: Mapping[str, TerrainKind] = field(default_factory=lambda: dict(CORE_KINDS))  # its terrain kinds
    edge_kinds: Mapping[str, EdgeKindSpec] = field(default_factory=lambda: dict(CORE_EDGE_KINDS))  # its edge kinds
    # The six neighbour angles of each hex asked about, computed once (facings are read on every camera frame).
    _angles: dict[Hex, tuple[float, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)

    kind = "hex"

    def __post_init__(self) -> None:
        edges = {e: edge_name(k) for e, k in self.edges.items()}  # a shared kind reads as its EdgeKind
        unknown = sorted({k for k in edges.values() if k not in self.edge_kinds})
        if unknown:
            raise ValueError(f"the board has edges of kind {', '.join(map(repr, unknown))}, which it declares no edge "
                             f"kind for (known: {', '.join(self.edge_kinds)}); declare them in edge_kinds")
        object.__setattr__(self, "edges", edges)

    @property
    def geometry(self) -> Layout:
        """The layout in use (the default one when the board was built without)."""
        return self.layout or Layout.from_flat_width(self.orientation, DEFAULT_HEX_MM)

    @property
    def cell_mm(self) -> float:
        return self.geometry.across_flats_mm

    def __contains__(self, h: object) -> bool:
        return h in self.tiles

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def info(self, h: Hex) -> CellInfo:
        try:
            return self.tiles[h]
        except KeyError:
            raise KeyError(f"{self.label(h)} is not on the map") from None

    def terrain(self, h: Hex) -> str:
        return self.info(h).terrain

    def with_terrain(self, marks: Mapping[Hex, str]) -> HexBoard:
        """This map with the game master's terrain marks applied (:func:`engine.board.marks.board_in_play`)."""
        tiles = dict(self.tiles)
        for h, terrain in marks.items():
            if h in tiles:
                tiles[h] = replace(tiles[h], terrain=terrain_name(terrain))
        return replace(self, tiles=tiles)

    def terrain_kind(self, h: Hex) -> TerrainKind:
        """The declared kind of the hex's terrain (its standing, sight and drawing properties)."""
        name = self.info(h).terrain
        kind = self.kinds.get(name)
        if kind is None:
            raise KeyError(f"{self.label(h)} has terrain {name!r}, which this board declares no kind for")
        return kind

    def level(self, h: Hex) -> int:
        return self.info(h).level

    def edge_kind(self, a: Hex, b: Hex) -> str | None:
        """The name of the wall, door or other edge kind between two neighbouring hexes, or None for an open side."""
        return self.edges.get(edge(a, b))

    def edge_spec(self, e: Edge) -> EdgeKindSpec | None:
        """The declared kind of what stands on a side (its blocking, door and drawing properties), or None."""
        name = self.edges.get(e)
        return None if name is None else self.edge_kinds[name]

    def neighbours(self, h: Hex) -> list[Hex]:
        """Neighbours that are on the map (walls not considered)."""
        return [n for n in h.neighbours() if n in self.tiles]

    def doors(self) -> dict[Edge, str]:
        """The sides holding a kind that opens in play (doors and locked doors), with their kind's name."""
        return {e: k for e, k in self.edges.items() if self.edge_kinds[k].door}

    def hexes_with_token(self, token: str) -> list[Hex]:
        return sorted(h for h, info in self.tiles.items() if token in info.tokens)

    cells_with_token = hexes_with_token

    def step_cost(self, a: Hex, b: Hex) -> int:
        return 1

    def label(self, h: Hex) -> str:
        return to_label(h, self.orientation)

    def from_label(self, text: str) -> Hex:
        return from_label(text, self.orientation)

    def centre_mm(self, h: Hex) -> Point:
        return self.geometry.hex_to_mm(h)

    def stand_points_mm(self, h: Hex, count: int = 1) -> list[Point]:
        """Where the ``count`` figures of a stack on ``h`` stand, one point each: the centre for one; two or three
        towards the hex's corners (``STACK_RADIUS`` of a hex out), four in a square (``STACK_SQUARE`` out along each
        axis); more than four do not fit side by side with tags a hex's fifth wide: one at the centre, the others
        towards the corners, their tags overlapping."""
        (x, y), r = self.centre_mm(h), STACK_RADIUS * self.cell_mm
        first = 0.0 if self.geometry.orientation is Orientation.FLAT else 30.0  # a corner's direction

        def corners(k: int, step: float) -> list[Point]:
            angles = [math.radians(first + step * i) for i in range(k)]
            return [(x + r * math.cos(a), y + r * math.sin(a)) for a in angles]

        if count <= 1:
            return [(x, y)]
        if count <= 3:
            return corners(count, 360.0 / count)
        if count == 4:
            d = STACK_SQUARE * self.cell_mm
            return [(x - d, y - d), (x + d, y + d), (x + d, y - d), (x - d, y + d)]
        return [(x, y)] + [corners(6, 60.0)[i % 6] for i in range(count - 1)]

    def corners_mm(self, h: Hex) -> list[Point]:
        return self.geometry.corners_mm(h)

    def printed_anchors_mm(self) -> dict[int, Point]:
        """Hex tiles carry no anchors of their own: a hex scenario names its anchor hexes."""
        return {}

    def locate(self, x_mm: float, y_mm: float, previous: Hex | None = None,
               margin: float = DEFAULT_HYSTERESIS) -> Hex:
        """The nearest hex centre, unless ``previous`` is within ``margin`` hexes of being as near."""
        layout = self.geometry
        candidate = layout.mm_to_hex(x_mm, y_mm)
        if previous is not None and candidate != previous:
            d_previous = math.dist(layout.hex_to_mm(previous), (x_mm, y_mm))
            d_candidate = math.dist(layout.hex_to_mm(candidate), (x_mm, y_mm))
            if d_previous - d_candidate <= margin * layout.across_flats_mm:
                return previous
        return candidate

    def direction_deg(self, h: Hex, direction: int) -> float:
        """The map angle (degrees from +x towards +y, y down) from ``h`` towards its neighbour ``direction``."""
        layout = self.geometry
        (ax, ay), (bx, by) = layout.hex_to_mm(h), layout.hex_to_mm(h + DIRECTIONS[direction % 6])
        return math.degrees(math.atan2(by - ay, bx - ax))

    def facing_toward(self, cell: Hex, heading_deg: float, previous: int | None = None,
                      margin_deg: float = DEFAULT_FACING_MARGIN_DEG) -> int:
        """The neighbour direction nearest the heading; ``previous`` kept until ``margin_deg`` past the sector."""
        angles = self._angles.get(cell)
        if angles is None:
            angles = self._angles[cell] = tuple(self.direction_deg(cell, d) for d in range(6))
        off = [angle_between(heading_deg, a) for a in angles]
        if previous is not None and off[previous % 6] <= 30.0 + margin_deg:
            return previous % 6
        return min(range(6), key=lambda d: off[d])

    def to_dict(self) -> dict[str, Any]:
        layout = self.geometry
        drawn = Layout(self.orientation, layout.size_mm)  # the tablets draw the map upright from (0, 0)
        return {
            "kind": self.kind,
            "orientation": self.orientation.value,
            "hex_size_mm": layout.size_mm,
            "origin_mm": list(layout.origin_mm),
            "rotation_deg": layout.rotation_deg,
            "tiles": [
                {
                    "hex": [h.q, h.r],
                    "label": self.label(h),
                    "terrain": str(info.terrain),
                    "style": self.kinds[info.terrain].style if info.terrain in self.kinds else "floor",
                    "level": info.level,
                    "tokens": list(info.tokens),
                    **cell_drawing(drawn.corners_mm(h), drawn.hex_to_mm(h), label_above=0.62 * drawn.size_mm,
                                   label_mm=0.26 * drawn.size_mm),
                }
                for h, info in sorted(self.tiles.items())
            ],
            "drawing": board_drawing(drawn.size_mm, stacks="offset", label_band=True,
                                     facing_steps=[[d.q, d.r] for d in DIRECTIONS], hex_labels=True),
            "terrain_kinds": [{"name": k.name, "help": k.help, "style": k.style} for k in self.kinds.values()],
            "edge_kinds": [{"name": k.name, "help": k.help, "style": k.style, "door": k.door}
                           for k in self.edge_kinds.values()],
            "edges": [
                {"a": [e.a.q, e.a.r], "b": [e.b.q, e.b.r], "label": self.edge_label(e), "kind": str(kind),
                 "style": self.edge_kinds[kind].style, "door": self.edge_kinds[kind].door,
                 "ends_mm": [[round(x, DECIMALS), round(y, DECIMALS)] for x, y in drawn.edge_mm(e)]}
                for e, kind in sorted(self.edges.items())
            ],
        }

    def facing_steps(self) -> tuple[Hex, ...]:
        """The six directions: 0 the +q neighbour, counter-clockwise after."""
        return DIRECTIONS

    def table_print(self) -> TablePrint:
        """Hex tiles coloured by terrain with their edges drawn, walls and doors as strips on their sides."""
        shapes = [PrintedShape(tuple(self.corners_mm(h)), terrain_fill(self.terrain(h)), "tile", 1.2) for h in self]
        for e, kind in self.edges.items():
            a, b = self.geometry.edge_mm(e)
            shapes.append(PrintedShape(side_strip(a, b, WALL_MM), edge_fill(kind)))
        return TablePrint(tuple(shapes))

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
    terrain: Mapping[Hex, str] | None = None,
    edges: Mapping[Edge, str] | None = None,
    orientation: Orientation = Orientation.FLAT,
    edge_kinds: Mapping[str, EdgeKindSpec] | None = None,
) -> HexBoard:
    """Build a board from a set of hexes with optional terrain overrides (handy in tests)."""
    terrain = terrain or {}
    tiles = {h: CellInfo(terrain.get(h, Terrain.FLOOR)) for h in hexes}
    return HexBoard(tiles=tiles, edges=dict(edges or {}), orientation=orientation,
                    edge_kinds=dict(edge_kinds or CORE_EDGE_KINDS))
