"""Hex ↔ table millimetres: where each hex of a map lies on the real table.

The table frame has x to the right and y *down* (like the printed sheet and camera images).
A :class:`Layout` places Hex(0, 0)'s centre at ``origin_mm`` and turns the whole map by
``rotation_deg`` about that point; positive angles turn the map clockwise as seen from above
(the usual sense for y-down frames). Geometry follows Red Blob Games' hexagon guide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.hexes import Edge, Hex, Orientation, hex_round

_SQRT3 = math.sqrt(3.0)

# Local (unrotated, unit-size) basis: hex_to_local = (q, r) @ forward; local_to_fractional uses inverse.
_FORWARD: dict[Orientation, tuple[float, float, float, float]] = {
    # x = f0*q + f1*r, y = f2*q + f3*r
    Orientation.FLAT: (1.5, 0.0, _SQRT3 / 2.0, _SQRT3),
    Orientation.POINTY: (_SQRT3, _SQRT3 / 2.0, 0.0, 1.5),
}
_INVERSE: dict[Orientation, tuple[float, float, float, float]] = {
    # q = b0*x + b1*y, r = b2*x + b3*y
    Orientation.FLAT: (2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0),
    Orientation.POINTY: (_SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0),
}
# Angle of corner 0 from the centre: flat-top hexes have a corner pointing along +x.
_START_ANGLE_DEG: dict[Orientation, float] = {Orientation.FLAT: 0.0, Orientation.POINTY: 30.0}

Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """A hex map's placement on the table: orientation, tile size, origin and rotation."""

    orientation: Orientation
    size_mm: float
    origin_mm: tuple[float, float] = (0.0, 0.0)
    rotation_deg: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.size_mm) and self.size_mm > 0):
            raise ValueError(f"size_mm must be a positive number of millimetres, got {self.size_mm!r}")
        if not all(math.isfinite(v) for v in (*self.origin_mm, self.rotation_deg)):
            raise ValueError("origin_mm and rotation_deg must be finite numbers")

    @classmethod
    def from_flat_width(
        cls,
        orientation: Orientation,
        across_flats_mm: float,
        origin_mm: tuple[float, float] = (0.0, 0.0),
        rotation_deg: float = 0.0,
    ) -> Layout:
        """Build from the across-flats width printed on the tile box (tiles are sold by it)."""
        if not (math.isfinite(across_flats_mm) and across_flats_mm > 0):
            raise ValueError(f"across_flats_mm must be a positive width in millimetres, got {across_flats_mm!r}")
        return cls(orientation, across_flats_mm / _SQRT3, origin_mm, rotation_deg)

    @property
    def across_flats_mm(self) -> float:
        """Distance between opposite sides, which is also the distance between neighbouring centres."""
        return self.size_mm * _SQRT3

    def _rotate(self, x: float, y: float, sign: float) -> Point:
        a = math.radians(self.rotation_deg) * sign
        c, s = math.cos(a), math.sin(a)
        return x * c - y * s, x * s + y * c

    def hex_to_mm(self, h: Hex) -> Point:
        """Table position of the centre of ``h``."""
        return self.fractional_to_mm(float(h.q), float(h.r))

    def fractional_to_mm(self, fq: float, fr: float) -> Point:
        """Table position of fractional axial coordinates (used for corners and line points)."""
        f0, f1, f2, f3 = _FORWARD[self.orientation]
        lx = (f0 * fq + f1 * fr) * self.size_mm
        ly = (f2 * fq + f3 * fr) * self.size_mm
        rx, ry = self._rotate(lx, ly, 1.0)
        return rx + self.origin_mm[0], ry + self.origin_mm[1]

    def mm_to_fractional(self, x: float, y: float) -> Point:
        """Fractional axial ``(q, r)`` of a table position."""
        lx, ly = self._rotate(x - self.origin_mm[0], y - self.origin_mm[1], -1.0)
        lx /= self.size_mm
        ly /= self.size_mm
        b0, b1, b2, b3 = _INVERSE[self.orientation]
        return b0 * lx + b1 * ly, b2 * lx + b3 * ly

    def mm_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing a table position."""
        return hex_round(*self.mm_to_fractional(x, y))

    def corners_mm(self, h: Hex) -> list[Point]:
        """The six corners of ``h``, clockwise on the table (y down) from corner 0."""
        cx, cy = self.hex_to_mm(h)
        start = _START_ANGLE_DEG[self.orientation] + self.rotation_deg
        corners: list[Point] = []
        for i in range(6):
            a = math.radians(start + 60.0 * i)
            corners.append((cx + self.size_mm * math.cos(a), cy + self.size_mm * math.sin(a)))
        return corners

    def edge_mm(self, e: Edge) -> tuple[Point, Point]:
        """Endpoints of the side shared by the edge's two hexes (the two corners of ``e.a`` nearest ``e.b``)."""
        bx, by = self.hex_to_mm(e.b)
        corners = self.corners_mm(e.a)
        nearest = sorted(range(6), key=lambda i: math.hypot(corners[i][0] - bx, corners[i][1] - by))[:2]
        i, j = sorted(nearest)
        if (i, j) == (0, 5):
            i, j = 5, 0
        return corners[i], corners[j]
