"""A board of square zones in rows and columns, such as the Tenkey battle's 3×3 keypad mat.

Cells are ``Hex(column, row)`` values (column 0 on the left, row 0 on top) so game state, journal
and wire carry them like hexes; each zone has a label players read ("7"). Zones touch their four
orthogonal neighbours; how far a step is and whether it is allowed is the rule set's business.
Where the printed mat lies: zone (0, 0)'s outer corner at ``origin_mm``, zones ``zone_mm`` wide.
A zone may hold terrain (a terrain kind's name, floor where none is given), drawn by its kind's style.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.board.base import DEFAULT_FACING_MARGIN_DEG, DEFAULT_HYSTERESIS, Point
from engine.board.drawing import board_drawing, cell_drawing
from engine.board.edges import CORE_EDGE_KINDS, EdgeKind, EdgeKindSpec
from engine.board.table_print import INK, PAPER, PrintedLabel, PrintedShape, TablePrint
from engine.board.terrain import CORE_KINDS, CellInfo, Terrain, TerrainKind, terrain_name
from engine.hexes import Edge, Hex, Orientation
from engine.i18n import gettext_for

_ = gettext_for(__name__)

KEYPAD_ROWS: tuple[tuple[str, ...], ...] = (("7", "8", "9"), ("4", "5", "6"), ("1", "2", "3"))
# The printed zone mat (calibration.printables.zone_mat) puts four anchor tags just outside its corners:
# tag side 15 mm, 3 mm from the mat. A test holds these numbers to the printed sheet.
MAT_ANCHOR_IDS = (90, 91, 92, 93)  # top left, top right, bottom left, bottom right
MAT_ANCHOR_TAG_MM = 15.0  # the printed tag's side, its black border included
MAT_ANCHOR_GAP_MM = 3.0  # between the mat's outer edge and the tag
MAT_ANCHOR_OFFSET_MM = MAT_ANCHOR_GAP_MM + MAT_ANCHOR_TAG_MM / 2.0
NO_ZONE = "-"
# The printed zone mat (calibration.printables.zone_mat): zones outlined in black, labels about 0.3 zone tall, the
# page margin beyond the corner tags and a footer below.
MAT_LINE_MM = 0.8
MAT_LABEL_HEIGHT = 0.3  # share of a zone
MAT_PAGE_MARGIN_MM = 8.0
MAT_FOOTER_MM = 18.0
ZONE_DRAWING_SCALE = 0.3  # the tablets draw a zone's figures and marks at this share of its side (as on a 30 mm hex)


@dataclass(frozen=True)
class ZoneBoard:
    """Square zones with labels, optional height levels, and the mat's own anchor tags."""

    labels: Mapping[Hex, str]  # (column, row) → label
    zone_mm: float = 60.0
    origin_mm: Point = (0.0, 0.0)
    levels: Mapping[Hex, int] = field(default_factory=dict)
    terrains: Mapping[Hex, str] = field(default_factory=dict)  # zone → terrain kind name; floor where absent
    kinds: Mapping[str, TerrainKind] = field(default_factory=lambda: dict(CORE_KINDS))  # its terrain kinds

    kind = "zones"
    # Zones have no hex orientation and no walls; these keep code written for hex maps type-correct. Labels
    # come from :meth:`label`, never from the orientation.
    orientation = Orientation.FLAT

    def __post_init__(self) -> None:
        if not self.labels:
            raise ValueError(_("a zone board needs at least one zone"))
        if not (math.isfinite(self.zone_mm) and self.zone_mm > 0):
            raise ValueError(_("zone_mm must be a positive number of millimetres, got {value!r}", value=self.zone_mm))
        seen: dict[str, Hex] = {}
        for cell, label in self.labels.items():
            if label in seen:
                raise ValueError(_("zone label {label!r} is used twice; give every zone its own label", label=label))
            seen[label] = cell
        object.__setattr__(self, "_by_label", seen)
        named: dict[Hex, str] = {}
        for cell, name in self.terrains.items():
            if cell not in self.labels:
                raise ValueError(_("terrain is given for ({q},{r}), which is not a zone of the board", q=cell.q,
                                   r=cell.r))
            if name not in self.kinds:
                raise ValueError(_("zone {label!r} has terrain {name!r}, which the board declares no kind for; use one "
                                   "of {kinds}", label=self.labels[cell], name=name, kinds=", ".join(self.kinds)))
            named[cell] = terrain_name(name)
        object.__setattr__(self, "terrains", named)

    # -- cells ------------------------------------------------------------------------------------
    def __contains__(self, cell: object) -> bool:
        return cell in self.labels

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.labels))

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def cell_mm(self) -> float:
        return self.zone_mm

    @property
    def columns(self) -> int:
        return max(c.q for c in self.labels) + 1

    @property
    def rows(self) -> int:
        return max(c.r for c in self.labels) + 1

    def neighbours(self, cell: Hex) -> list[Hex]:
        """Zones sharing a side with ``cell`` (left, right, above, below) that are on the board."""
        around = (Hex(cell.q - 1, cell.r), Hex(cell.q + 1, cell.r), Hex(cell.q, cell.r - 1), Hex(cell.q, cell.r + 1))
        return [n for n in around if n in self.labels]

    def step_cost(self, a: Hex, b: Hex) -> int:
        return 1

    def label(self, cell: Hex) -> str:
        return self.labels.get(cell) or f"({cell.q},{cell.r})"

    def from_label(self, text: str) -> Hex:
        by_label: dict[str, Hex] = object.__getattribute__(self, "_by_label")
        try:
            return by_label[str(text).strip()]
        except KeyError:
            zones = ", ".join(self.ordered_labels())
            raise ValueError(_("{text!r} is not a zone of the board; zones: {zones}", text=text, zones=zones)) from None

    def ordered_labels(self) -> list[str]:
        """The labels row by row, top row first."""
        return [self.labels[c] for c in sorted(self.labels, key=lambda c: (c.r, c.q))]

    def cell_rows(self) -> list[list[Hex]]:
        """The zones row by row, top row first, left to right."""
        return [sorted((c for c in self.labels if c.r == r), key=lambda c: c.q) for r in range(self.rows)]

    def level(self, cell: Hex) -> int:
        return self.levels.get(cell, 0)

    @property
    def tiles(self) -> Mapping[Hex, CellInfo]:
        """Every zone with its terrain and level (what code written for hex maps reads)."""
        return {c: self.info(c) for c in self.labels}

    @property
    def edges(self) -> Mapping[Edge, EdgeKind]:
        return {}

    @property
    def edge_kinds(self) -> Mapping[str, EdgeKindSpec]:
        """The shared edge kinds: zones have no sides of their own kinds (a mat has no walls)."""
        return CORE_EDGE_KINDS

    def info(self, cell: Hex) -> CellInfo:
        if cell not in self.labels:
            raise KeyError(f"{self.label(cell)} is not on the board")
        return CellInfo(self.terrains.get(cell, Terrain.FLOOR), self.level(cell))

    def terrain(self, cell: Hex) -> str:
        return self.info(cell).terrain

    def terrain_kind(self, cell: Hex) -> TerrainKind:
        """The declared kind of the zone's terrain (its standing, sight and drawing properties)."""
        return self.kinds.get(self.terrain(cell), CORE_KINDS[Terrain.FLOOR])

    def zones_with_terrain(self, name: str) -> list[Hex]:
        """The zones whose terrain is the kind ``name``."""
        return sorted(c for c, t in self.terrains.items() if t == name)

    def hexes_with_token(self, token: str) -> list[Hex]:
        return []

    cells_with_token = hexes_with_token

    def edge_label(self, e: Edge) -> str:
        return f"{self.label(e.a)}|{self.label(e.b)}"

    # -- the table --------------------------------------------------------------------------------
    def rect_mm(self, cell: Hex) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of a zone in map millimetres."""
        x0 = self.origin_mm[0] + cell.q * self.zone_mm
        y0 = self.origin_mm[1] + cell.r * self.zone_mm
        return (x0, y0, x0 + self.zone_mm, y0 + self.zone_mm)

    def centre_mm(self, cell: Hex) -> Point:
        x0, y0, x1, y1 = self.rect_mm(cell)
        return ((x0 + x1) / 2.0, (y0 + y1) / 2.0)

    def stand_points_mm(self, cell: Hex, count: int = 1) -> list[Point]:
        """The centres of the zone's four quarters in turn (top left, bottom right, top right, bottom left), ``count``
        of them: a fifth figure shares the first quarter."""
        (x, y), d = self.centre_mm(cell), self.zone_mm / 4.0
        quarters = [(x - d, y - d), (x + d, y + d), (x + d, y - d), (x - d, y + d)]
        return [quarters[i % len(quarters)] for i in range(max(count, 1))]

    def corners_mm(self, cell: Hex) -> list[Point]:
        x0, y0, x1, y1 = self.rect_mm(cell)
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

    def locate(self, x_mm: float, y_mm: float, previous: Hex | None = None,
               margin: float = DEFAULT_HYSTERESIS) -> Hex:
        """The zone under the point; ``previous`` holds until the point is ``margin`` zones beyond its sides."""
        candidate = Hex(math.floor((x_mm - self.origin_mm[0]) / self.zone_mm),
                        math.floor((y_mm - self.origin_mm[1]) / self.zone_mm))
        if previous is not None and candidate != previous:
            x0, y0, x1, y1 = self.rect_mm(previous)
            outside = math.hypot(max(x0 - x_mm, 0.0, x_mm - x1), max(y0 - y_mm, 0.0, y_mm - y1))
            if outside <= margin * self.zone_mm:
                return previous
        return candidate

    def mat_anchors_mm(self) -> dict[int, Point]:
        """Where the printed mat's corner tags lie (tag id → centre, map millimetres)."""
        x0, y0 = self.origin_mm
        x1, y1 = x0 + self.columns * self.zone_mm, y0 + self.rows * self.zone_mm
        a = MAT_ANCHOR_OFFSET_MM
        corners = ((x0 - a, y0 - a), (x1 + a, y0 - a), (x0 - a, y1 + a), (x1 + a, y1 + a))
        return dict(zip(MAT_ANCHOR_IDS, corners, strict=True))

    def printed_anchors_mm(self) -> dict[int, Point]:
        """The printed mat's corner tags (:meth:`mat_anchors_mm`)."""
        return self.mat_anchors_mm()

    def facing_steps(self) -> tuple[Hex, ...]:
        return ()  # figures on a zone mat face nowhere in particular

    def table_print(self) -> TablePrint:
        """The printed mat (``hexa print zones``): white paper with the page margin beyond the corner tags and a
        footer below, the zones outlined in black with their labels large and light grey, the corner tags."""
        x0, y0 = self.origin_mm
        x1, y1 = x0 + self.columns * self.zone_mm, y0 + self.rows * self.zone_mm
        edge = MAT_ANCHOR_OFFSET_MM + MAT_ANCHOR_TAG_MM / 2.0 + MAT_PAGE_MARGIN_MM
        sheet = ((x0 - edge, y0 - edge), (x1 + edge, y0 - edge), (x1 + edge, y1 + edge + MAT_FOOTER_MM),
                 (x0 - edge, y1 + edge + MAT_FOOTER_MM))
        shapes = [PrintedShape(sheet, PAPER)]
        labels = []
        for cell in self:
            shapes.append(PrintedShape(tuple(self.corners_mm(cell)), PAPER, INK, MAT_LINE_MM))
            cx, cy = self.centre_mm(cell)
            labels.append(PrintedLabel(self.label(cell), cx, cy, MAT_LABEL_HEIGHT * self.zone_mm, bold=True))
        return TablePrint(tuple(shapes), tuple(labels), tuple(self.mat_anchors_mm().items()), MAT_ANCHOR_TAG_MM)

    def facing_toward(self, cell: Hex, heading_deg: float, previous: int | None = None,
                      margin_deg: float = DEFAULT_FACING_MARGIN_DEG) -> None:
        """Zones have no facings: figures on a zone mat face nowhere in particular."""
        return None

    def _drawing(self, c: Hex) -> dict[str, Any]:
        """A zone as the tablets draw it: its rectangle, its label large in the upper left like the printed mat's
        number, query marks in the upper right, a terrain's caption at the bottom."""
        x0, y0, x1, y1 = self.rect_mm(c)
        side = min(x1 - x0, y1 - y0)
        return cell_drawing(self.corners_mm(c), self.centre_mm(c),
                            label_at=(x0 + (x1 - x0) * 0.14, y0 + (y1 - y0) * 0.14),
                            label_mm=ZONE_DRAWING_SCALE * self.zone_mm * 0.8,
                            mark_at=(x1 - side * 0.2, y0 + side * 0.11), pattern_mm=side * 0.8,
                            caption_at=(x0 + (x1 - x0) / 2.0, y1 - side * 0.075))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "zone_mm": self.zone_mm,
            "origin_mm": list(self.origin_mm),
            "tiles": [
                {
                    "hex": [c.q, c.r],
                    "label": self.labels[c],
                    "terrain": str(self.terrain(c)),
                    "style": self.terrain_kind(c).style,
                    "level": self.level(c),
                    "tokens": [],
                    "rect_mm": list(self.rect_mm(c)),
                    **self._drawing(c),
                }
                for c in sorted(self.labels)
            ],
            "drawing": board_drawing(ZONE_DRAWING_SCALE * self.zone_mm, stacks="spread", label_band=False),
            "terrain_kinds": [{"name": k.name, "help": k.help, "style": k.style} for k in self.kinds.values()],
            "edges": [],
        }


def zones_from_drawing(text: str) -> dict[Hex, str]:
    """Zone labels drawn as rows of words (``-`` for a gap): ``7 8 9`` / ``4 5 6`` / ``1 2 3``."""
    labels: dict[Hex, str] = {}
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    for r, words in enumerate(rows):
        for c, word in enumerate(words):
            if word != NO_ZONE:
                labels[Hex(c, r)] = word
    return labels


def keypad_board(zone_mm: float = 60.0, origin_mm: Point = (0.0, 0.0)) -> ZoneBoard:
    """The 3×3 mat numbered like a numeric keypad (7 8 9 on top)."""
    labels = {Hex(c, r): label for r, row in enumerate(KEYPAD_ROWS) for c, label in enumerate(row)}
    return ZoneBoard(labels, zone_mm, origin_mm)
