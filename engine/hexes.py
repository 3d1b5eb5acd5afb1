"""Hex coordinates: a tiny immutable axial type and the pure functions on it.

Axial ``(q, r)`` with the cube coordinate ``s = -q - r`` derived (Red Blob Games'
conventions). Offset labels such as ``"E4"`` are for people and files only; every
computation uses :class:`Hex`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from engine.i18n import gettext_for

_ = gettext_for(__name__)


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """One hex in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def neighbour(self, direction: int) -> Hex:
        return self + DIRECTIONS[direction % 6]

    def neighbours(self) -> tuple[Hex, ...]:
        return tuple(self + d for d in DIRECTIONS)

    def distance(self, other: Hex) -> int:
        return hex_distance(self, other)

    def rotate_left(self) -> Hex:
        """Rotate 60° counter-clockwise about the origin."""
        return Hex(-self.s, -self.q)

    def rotate_right(self) -> Hex:
        """Rotate 60° clockwise about the origin."""
        return Hex(-self.r, -self.s)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


# Direction 0 is +q (east-ish for flat-top, east for pointy-top); counter-clockwise after. A figure's
# facing on a hex map is one of these indices: the neighbour it looks at.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)

ORIGIN = Hex(0, 0)


@dataclass(frozen=True, slots=True, order=True)
class Edge:
    """The side shared by two neighbouring hexes; ``a < b`` always (use :func:`edge`)."""

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if not self.a < self.b:
            raise ValueError("Edge(a, b) needs a < b: build edges with edge(h1, h2)")
        if hex_distance(self.a, self.b) != 1:
            raise ValueError(f"{self.a!r} and {self.b!r} are not neighbours, so they share no edge")

    def other(self, h: Hex) -> Hex:
        """The hex across this edge from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h!r} is not on {self!r}")


def edge(h1: Hex, h2: Hex) -> Edge:
    """The edge between two neighbouring hexes, in either order."""
    return Edge(h1, h2) if h1 < h2 else Edge(h2, h1)


def hex_distance(a: Hex, b: Hex) -> int:
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def are_neighbours(a: Hex, b: Hex) -> bool:
    return hex_distance(a, b) == 1


def direction_between(a: Hex, b: Hex) -> int:
    """Index into :data:`DIRECTIONS` of neighbour ``b`` seen from ``a``."""
    try:
        return DIRECTIONS.index(b - a)
    except ValueError:
        raise ValueError(f"{b!r} is not a neighbour of {a!r}") from None


def turn(direction: int, steps: int) -> int:
    """The direction ``steps`` sixths of a turn counter-clockwise from ``direction`` (negative: clockwise)."""
    return (direction + steps) % 6


def opposite(direction: int) -> int:
    """The direction straight behind ``direction`` (a figure's back)."""
    return (direction + 3) % 6


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center`` (``[center]`` for radius 0)."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    results: list[Hex] = []
    h = center + DIRECTIONS[4].scale(radius)
    for side in range(6):
        for _step in range(radius):
            results.append(h)
            h = h + DIRECTIONS[side]
    return results


def hexes_within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance ``<= radius`` from ``center``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


def hex_round(fq: float, fr: float) -> Hex:
    """Round fractional axial coordinates to the hex that contains them."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


class Orientation(Enum):
    """Flat-top hexes use odd-q offset labels (columns); pointy-top use odd-r (rows)."""

    FLAT = "flat"
    POINTY = "pointy"


def to_offset(h: Hex, orientation: Orientation = Orientation.FLAT) -> tuple[int, int]:
    """Axial → (column, row), odd columns (flat) or odd rows (pointy) pushed down/right."""
    if orientation is Orientation.FLAT:
        return h.q, h.r + (h.q - (h.q & 1)) // 2
    return h.q + (h.r - (h.r & 1)) // 2, h.r


def from_offset(col: int, row: int, orientation: Orientation = Orientation.FLAT) -> Hex:
    if orientation is Orientation.FLAT:
        return Hex(col, row - (col - (col & 1)) // 2)
    return Hex(col - (row - (row & 1)) // 2, row)


_LABEL = re.compile(r"^([A-Za-z]+)(\d+)$")


def column_letters(col: int) -> str:
    """0 → A, 25 → Z, 26 → AA (spreadsheet style)."""
    if col < 0:
        raise ValueError("column must be >= 0 to have a label")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def to_label(h: Hex, orientation: Orientation = Orientation.FLAT) -> str:
    """People's name of a hex: column letters then 1-based row, e.g. ``"E4"``."""
    col, row = to_offset(h, orientation)
    if col < 0 or row < 0:
        return f"({h.q},{h.r})"
    return f"{column_letters(col)}{row + 1}"


def from_label(label: str, orientation: Orientation = Orientation.FLAT) -> Hex:
    """Parse ``"E4"`` (column E, row 4) into a :class:`Hex`."""
    m = _LABEL.match(label.strip())
    if not m:
        raise ValueError(_("{label!r} is not a hex label: expected column letters then a row number, like 'E4'",
                           label=label))
    letters, digits = m.group(1).upper(), m.group(2)
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("A") + 1)
    row = int(digits)
    if row < 1:
        raise ValueError(_("{label!r}: rows are numbered from 1", label=label))
    return from_offset(col - 1, row - 1, orientation)
