"""The field of fire: the 180° front half of a figure, from its facing (the original names the arc without
drawing it; the rules' decision). A hex exactly abeam is inside; a figure's own hex always is."""

from __future__ import annotations

from engine.hexes import DIRECTIONS, Hex


def _dot(a: Hex, b: Hex) -> int:
    """Twice the Euclidean dot product of two hex vectors, up to scale (cube coordinates, exact)."""
    return a.q * b.q + a.r * b.r + a.s * b.s


def in_field_of_fire(at: Hex, facing: int, other: Hex) -> bool:
    """Whether ``other`` lies in the front half seen from ``at`` facing direction ``facing``."""
    return _dot(other - at, DIRECTIONS[facing]) >= 0
