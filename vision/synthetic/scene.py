"""What the synthetic table shows, in table millimetres: coloured polygons, printed labels, tagged figures, a hand.

Generic on purpose: the vision service knows no map. Adapters (see ``scenario_scene``) turn a
scenario into a :class:`TableDrawing`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

Colour = tuple[int, int, int]  # BGR, as OpenCV draws


@dataclass(frozen=True, slots=True)
class Polygon:
    """A flat shape lying on the table: corner points (x, y) in mm, a fill and an edge colour."""

    points_mm: tuple[tuple[float, float], ...]
    fill: Colour
    edge: Colour | None = None
    edge_mm: float = 1.0


@dataclass(frozen=True, slots=True)
class Label:
    """Text printed flat on the table: centred on (x, y) mm, ``height_mm`` tall (a digit's height), in ``colour``."""

    text: str
    x_mm: float
    y_mm: float
    height_mm: float
    colour: Colour = (40, 40, 40)
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure standing on the table with its ArUco tag on top.

    ``x_mm``/``y_mm`` is the tag's centre seen from straight above, ``angle_deg`` the direction of
    the tag's top edge (first → second corner) in the table frame, ``marker_mm`` the black square's
    side, ``height_mm`` the height of the tag's face above the table.
    """

    marker_id: int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    marker_mm: float = 22.0
    height_mm: float = 0.0
    base_mm: float = 30.0
    body: Colour = (60, 60, 160)

    def moved(self, x_mm: float, y_mm: float, angle_deg: float | None = None) -> Figure:
        return replace(self, x_mm=x_mm, y_mm=y_mm, angle_deg=self.angle_deg if angle_deg is None else angle_deg)


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's hand and forearm hovering over the table, as a polygon at a height (mm)."""

    points_mm: tuple[tuple[float, float], ...]
    height_mm: float = 120.0
    colour: Colour = (120, 150, 205)


@dataclass(frozen=True, slots=True)
class TableDrawing:
    """Everything on the table for one frame: the static drawing and the movable things on it."""

    size_mm: tuple[float, float]
    background: Colour = (200, 205, 210)
    polygons: tuple[Polygon, ...] = ()
    labels: tuple[Label, ...] = ()  # drawn over the polygons
    figures: tuple[Figure, ...] = ()
    hands: tuple[Hand, ...] = field(default=())

    def with_figures(self, figures: tuple[Figure, ...], hands: tuple[Hand, ...] = ()) -> TableDrawing:
        return replace(self, figures=figures, hands=hands)
