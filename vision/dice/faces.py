"""Standard dice faces, as the reader expects them and the synthetic table draws them.

A d6 is a cube whose opposite faces sum to 7, with round pips in the usual layouts; a d10 is a
pentagonal trapezohedron with the numerals 0–9 (opposite faces sum to 9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float, float]

D6_SIDE_MM = 16.0
D10_FACE_GAP_MM = 15.0  # between opposite faces, i.e. the height of a d10 resting on a face
D6_FACES: dict[int, tuple[float, float, float]] = {  # outward normals; opposite faces sum to 7
    1: (0.0, 0.0, 1.0), 6: (0.0, 0.0, -1.0), 2: (1.0, 0.0, 0.0), 5: (-1.0, 0.0, 0.0),
    3: (0.0, 1.0, 0.0), 4: (0.0, -1.0, 0.0),
}
PIP_SPOT = 0.5  # pip offset from the face centre, as a fraction of the half side
PIP_RADIUS = 0.19  # as a fraction of the half side (3 mm pips on a 16 mm die)
PIPS: dict[int, tuple[tuple[float, float], ...]] = {  # face coordinates in -1..1, u right and v down
    1: ((0.0, 0.0),),
    2: ((-1.0, -1.0), (1.0, 1.0)),
    3: ((-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)),
}
FACE_RANGES: dict[str, tuple[int, int]] = {"d6": (1, 6), "d10": (0, 9)}
DIE_HEIGHT_MM: dict[str, float] = {"d6": D6_SIDE_MM, "d10": D10_FACE_GAP_MM}  # resting on a face
D10_RING_Z = 0.105  # the rings of a d10's side corners, above and below its middle, for a ring of radius 1


def _kite_apex_height(z0: float) -> float:
    """Height of the apex that makes the kite (apex, U0, L0, U1) planar, for a ring of radius 1 at ±z0."""
    u0 = (1.0, 0.0, z0)
    l0 = (math.cos(math.pi / 5), math.sin(math.pi / 5), -z0)
    u1 = (math.cos(2 * math.pi / 5), math.sin(2 * math.pi / 5), z0)
    a = tuple(q - p for p, q in zip(u0, l0, strict=True))
    b = tuple(q - p for p, q in zip(u0, u1, strict=True))
    n = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    return (u0[0] * n[0] + u0[1] * n[1] + u0[2] * n[2]) / n[2]  # the plane n·p = n·u0 meets the axis (0, 0, c)


@dataclass(frozen=True, slots=True)
class D10Corners:
    """A d10's corners in its own frame (mm, centred, its poles on the z axis): a pentagonal trapezohedron
    whose opposite faces lie ``D10_FACE_GAP_MM`` apart. Face k round the top pole is the kite
    (top, upper[k], lower[k], upper[k + 1]); the bottom's faces are the same turned upside down."""

    top: Point
    bottom: Point
    upper: tuple[Point, ...]
    lower: tuple[Point, ...]

    def all(self) -> tuple[Point, ...]:
        return (self.top, self.bottom, *self.upper, *self.lower)


@lru_cache(maxsize=1)
def d10_corners() -> D10Corners:
    z0 = D10_RING_Z
    c = _kite_apex_height(z0)
    upper = [(math.cos(2 * math.pi * k / 5), math.sin(2 * math.pi * k / 5), z0) for k in range(5)]
    lower = [(math.cos(2 * math.pi * (k + 0.5) / 5), math.sin(2 * math.pi * (k + 0.5) / 5), -z0) for k in range(5)]
    # The face (top, U0, L0, U1) is symmetric about the plane through the axis and L0 (angle π/5): its distance from
    # the centre is the plane's, through U0 and the apex, measured along its normal.
    apex, u0, l0 = (0.0, 0.0, c), upper[0], lower[0]
    a = tuple(q - p for p, q in zip(apex, u0, strict=True))
    b = tuple(q - p for p, q in zip(apex, l0, strict=True))
    n = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    gap = 2.0 * abs(c * n[2]) / math.sqrt(sum(v * v for v in n))
    s = D10_FACE_GAP_MM / gap

    def scaled(p: tuple[float, float, float]) -> Point:
        return (p[0] * s, p[1] * s, p[2] * s)

    return D10Corners(scaled((0.0, 0.0, c)), scaled((0.0, 0.0, -c)), tuple(scaled(p) for p in upper),
                      tuple(scaled(p) for p in lower))
