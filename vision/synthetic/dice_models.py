"""The dice the synthetic table throws, as 3D solids: a cube with pips and a d10 (pentagonal trapezohedron).

Each solid is a list of planar faces in the die's own frame (mm, centred on the die, axes x, y and h with
h up once the die rests); a face has its outward normal, its corners and its value. :func:`resting_rotation`
turns a die so that a chosen face is on top, as a thrown die comes to rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from vision.dice.faces import D6_FACES, D6_SIDE_MM, d10_corners

FloatArray = NDArray[np.float64]

@dataclass(frozen=True, slots=True)
class Face:
    """One planar face: value, outward normal and corners (die frame, mm), and the face's texture axes.

    ``corners`` go round the face; ``texture_corners`` are the same corners in texture pixels of a
    ``texture_size`` square, so a perspective warp of the four corners lays the texture on the face.
    """

    value: int
    normal: FloatArray
    corners: FloatArray  # (4, 3)
    texture_corners: FloatArray  # (4, 2) in 0..1, u right and v down as seen from outside


@dataclass(frozen=True, slots=True)
class Solid:
    kind: str  # "d6" or "d10"
    faces: tuple[Face, ...]
    vertices: FloatArray  # every corner, for resting heights and bounds

    def face(self, value: int) -> Face:
        return next(f for f in self.faces if f.value == value)


def _texture_frame(corners: FloatArray, normal: FloatArray, up_hint: FloatArray) -> FloatArray:
    """The corners in 0..1 texture coordinates: v points away from ``up_hint`` (so text reads upright), u = v × n."""
    centre = corners.mean(axis=0)
    up = up_hint - centre
    up = up - normal * float(up @ normal)
    down = -up / np.linalg.norm(up)
    right = np.cross(down, normal)  # u × v = n  ⇔  u = v × n
    uv = np.stack([(corners - centre) @ right, (corners - centre) @ down], axis=1)
    half = float(np.abs(uv).max())
    return np.asarray((uv / half + 1.0) / 2.0, dtype=np.float64)


@lru_cache(maxsize=1)
def d6() -> Solid:
    """A 16 mm cube; the texture's top edge of each face is arbitrary (pip patterns are symmetric enough)."""
    s = D6_SIDE_MM / 2.0
    faces = []
    for value, n in D6_FACES.items():
        normal = np.array(n)
        # two axes in the face plane
        a = np.array([0.0, 0.0, 1.0]) if abs(normal[2]) < 0.5 else np.array([0.0, 1.0, 0.0])
        b = np.cross(normal, a)
        centre = normal * s
        corners = np.array([centre + s * (-a - b), centre + s * (-a + b), centre + s * (a + b), centre + s * (a - b)])
        faces.append(Face(value, normal, corners, _texture_frame(corners, normal, centre + s * a)))
    vertices = np.array([[x, y, z] for x in (-s, s) for y in (-s, s) for z in (-s, s)])
    return Solid("d6", tuple(faces), vertices)


@lru_cache(maxsize=1)
def d10() -> Solid:
    """A pentagonal trapezohedron; top faces show 0, 8, 6, 4, 2 round the top, each face's opposite shows 9 − value.

    A numeral's top points to its face's apex, as on common d10s; 6 and 9 carry a bar under them.
    """
    shape = d10_corners()
    upper = [np.array(p) for p in shape.upper]
    lower = [np.array(p) for p in shape.lower]
    top, bottom = np.array(shape.top), np.array(shape.bottom)
    raw: list[tuple[int, FloatArray, FloatArray]] = []
    top_values = (0, 8, 6, 4, 2)
    for k in range(5):
        kite = np.array([top, upper[k], lower[k], upper[(k + 1) % 5]])
        raw.append((top_values[k], kite, top))
    for k in range(5):
        kite = np.array([bottom, lower[(k + 3) % 5], upper[(k + 4) % 5], lower[(k + 4) % 5]])
        raw.append((-1, kite, bottom))
    faces: list[Face] = []
    normals: list[FloatArray] = []
    for value, kite, apex in raw:
        corners = kite
        normal = np.cross(corners[1] - corners[0], corners[3] - corners[0])
        normal = normal / np.linalg.norm(normal)
        if normal @ corners.mean(axis=0) < 0:
            normal = -normal
        normals.append(normal)
        faces.append(Face(value, normal, corners, _texture_frame(corners, normal, apex)))
    # Bottom faces: the value opposite their parallel top face.
    for i in range(5, 10):
        opposite = max(range(5), key=lambda j: -float(normals[i] @ normals[j]))
        f = faces[i]
        faces[i] = Face(9 - faces[opposite].value, f.normal, f.corners, f.texture_corners)
    vertices = np.array([top, bottom, *upper, *lower])
    return Solid("d10", tuple(faces), vertices)


def solid(kind: str) -> Solid:
    if kind == "d6":
        return d6()
    if kind == "d10":
        return d10()
    raise ValueError(f"unknown die kind {kind!r}: use d6 or d10")


def rotation_about(axis: FloatArray, angle_rad: float) -> FloatArray:
    """Rotation matrix about ``axis`` (Rodrigues)."""
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
    return np.asarray(np.eye(3) + math.sin(angle_rad) * k + (1.0 - math.cos(angle_rad)) * (k @ k), np.float64)


def resting_rotation(kind: str, value: int, yaw_deg: float) -> FloatArray:
    """The die turned so that face ``value`` is on top (its normal straight up), then turned ``yaw_deg`` about up."""
    normal = solid(kind).face(value).normal
    up = np.array([0.0, 0.0, 1.0])
    axis = np.cross(normal, up)
    if np.linalg.norm(axis) < 1e-9:
        align = np.eye(3) if normal[2] > 0 else rotation_about(np.array([1.0, 0.0, 0.0]), math.pi)
    else:
        align = rotation_about(axis, math.acos(max(-1.0, min(1.0, float(normal @ up)))))
    return np.asarray(rotation_about(up, math.radians(yaw_deg)) @ align, dtype=np.float64)


def resting_height(kind: str, rotation: FloatArray) -> float:
    """How high the die's centre is when its lowest corner touches the table."""
    return float(-(solid(kind).vertices @ rotation.T)[:, 2].min())

