"""Exact tracing of a centre-to-centre line through the hex grid, relative to its start hex.

The line is pushed an infinitesimal distance to its left ("plus") and right ("minus") and each
pushed line is followed through every hex it enters. Arithmetic is exact (integers only), so a
line that runs along a side or passes through a corner is recognised as such, never decided by
a rounding error. Results depend only on the offset ``end - start``; :func:`trace_offset` caches
them for :mod:`engine.lines` to translate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from engine.hexes import DIRECTIONS, Edge, Hex

# One step of a trace: its rank along the line (smaller is nearer the start; unique within a trace,
# an edge just before the hex it leads into) and the hex entered or the edge crossed.
Step = tuple[int, Hex | Edge]

_Cube = tuple[int, int, int]
_Axial = tuple[int, int]  # (q, r) while tracing: tuples hash and compare in C, Hex objects are built once
_CUBE_DIRECTIONS: tuple[_Cube, ...] = tuple((d.q, d.r, -d.q - d.r) for d in DIRECTIONS)


@dataclass(frozen=True)
class LineTrace:
    """Analysis of the line from Hex(0, 0) to one offset; every hex and edge is relative to the start.

    ``plus_steps`` / ``minus_steps`` list each trace's crossed edges and inner hexes in order along the
    line (start and end hexes left out: they never block). ``crossed_steps`` are the plus steps that
    are on both traces; ``along_steps`` are the edges the exact line runs along.
    """

    plus: tuple[Hex, ...]
    minus: tuple[Hex, ...]
    crossed_hexes: frozenset[Hex]
    grazed_hexes: frozenset[Hex]
    crossed_edges: frozenset[Edge]
    grazed_edges: frozenset[Edge]
    along_edges: frozenset[Edge]
    plus_steps: tuple[Step, ...]
    minus_steps: tuple[Step, ...]
    crossed_steps: tuple[Step, ...]
    along_steps: tuple[Step, ...]


def _dot(u: _Cube, v: _Cube) -> int:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _walk(target: _Cube, side: int) -> list[tuple[tuple[int, int], _Axial]]:
    """Every hex the line 0 → target enters when pushed ``side`` (±1) × epsilon sideways, with entry positions.

    In cube coordinates the cell of hex h is {p : (p - h)·d <= 1 for the six directions d}; the line
    p(t) = t·target + eps·n leaves a cell through the outward face it reaches first, at
    t = (h·d + 1 - eps·n·d) / (target·d). Ties in t are broken by the epsilon term; they cannot tie
    twice, because the pushed line misses every corner. Positions are returned as integer pairs
    (t and the epsilon term, both times a common denominator), comparable across both sides.
    """
    q, r, s = target
    n = (side * (r - s), side * (s - q), side * (q - r))  # perpendicular to target, in the plane
    faces = [(d, _dot(target, d), -_dot(n, d)) for d in _CUBE_DIRECTIONS if _dot(target, d) > 0]
    common = math.lcm(*(speed for _, speed, _ in faces))
    scaled = [(d, common // speed, b * (common // speed)) for d, speed, b in faces]
    hq, hr, hs = 0, 0, 0
    entered: list[tuple[tuple[int, int], _Axial]] = [((0, 0), (0, 0))]
    limit = 4 * max(abs(q), abs(r), abs(s)) + 4
    while (hq, hr, hs) != target:
        best: tuple[int, int] | None = None
        best_d = faces[0][0]
        for d, scale, b in scaled:
            key = ((hq * d[0] + hr * d[1] + hs * d[2] + 1) * scale, b)
            if best is None or key < best:
                best, best_d = key, d
        assert best is not None  # a non-zero target always has an outward face
        hq, hr, hs = hq + best_d[0], hr + best_d[1], hs + best_d[2]
        entered.append((best, (hq, hr)))
        if len(entered) > limit:
            raise RuntimeError(f"line trace to {target} did not reach its end: geometry bug")
    return entered


def _along_sides(plus_only: set[_Axial], minus_only: set[_Axial], target: _Cube) -> list[tuple[_Axial, _Axial]]:
    """Sides the exact line runs along: between a plus-only and a minus-only hex, lying on the line."""
    q, r, s = target
    n = (r - s, s - q, q - r)
    found: list[tuple[_Axial, _Axial]] = []
    for x in plus_only:
        xs = -x[0] - x[1]
        for d in _CUBE_DIRECTIONS:
            y = (x[0] + d[0], x[1] + d[1])
            if y not in minus_only:
                continue
            mid2 = (2 * x[0] + d[0], 2 * x[1] + d[1], 2 * xs + d[2])  # twice the midpoint of the shared side
            if _dot(d, target) == 0 and _dot(n, mid2) == 0:
                found.append((x, y) if x < y else (y, x))
    return found


_Side = tuple[_Axial, _Axial]  # an edge as its two hexes' (q, r), smaller first
RawStep = tuple[int, _Axial | _Side]  # a Step with plain coordinates: (q, r) for a hex, a pair for an edge


@dataclass(frozen=True)
class RawTrace:
    """The steps of :class:`LineTrace` in plain coordinates, for encoders that build no Hex or Edge.

    ``plus`` / ``minus``: (q, r) of every hex each trace enters, start and end included.
    """

    plus: tuple[_Axial, ...]
    minus: tuple[_Axial, ...]
    plus_steps: tuple[RawStep, ...]
    minus_steps: tuple[RawStep, ...]
    crossed_steps: tuple[RawStep, ...]
    along_steps: tuple[RawStep, ...]
    # Sets used to build the LineTrace.
    crossed_cells: frozenset[_Axial]
    grazed_cells: frozenset[_Axial]
    crossed_sides: frozenset[_Side]
    grazed_sides: frozenset[_Side]
    along_sides: frozenset[_Side]


def raw_trace(dq: int, dr: int) -> RawTrace:
    """Trace the line from (0, 0) to (dq, dr) in plain coordinates (uncached; the origin is not allowed)."""
    target: _Cube = (dq, dr, -dq - dr)
    if target == (0, 0, 0):
        raise ValueError("raw_trace needs a non-zero offset: a line from a hex to itself has no steps")
    plus_walk, minus_walk = _walk(target, +1), _walk(target, -1)
    # Rank the entry positions of both traces along the line; an entry's edge gets 2k, its hex 2k + 1.
    keys = sorted({k for k, _ in plus_walk} | {k for k, _ in minus_walk})
    rank_of = {k: 2 * i for i, k in enumerate(keys)}

    def steps(walk: list[tuple[tuple[int, int], _Axial]]) -> list[RawStep]:
        out: list[RawStep] = []
        last = len(walk) - 1
        for i, ((_, prev), (key, c)) in enumerate(pairwise(walk), start=1):
            out.append((rank_of[key], (prev, c) if prev < c else (c, prev)))
            if i != last:
                out.append((rank_of[key] + 1, c))
        return out

    plus_raw, minus_raw = steps(plus_walk), steps(minus_walk)
    plus_c, minus_c = [c for _, c in plus_walk], [c for _, c in minus_walk]
    plus_set, minus_set = set(plus_c), set(minus_c)
    plus_sides: set[_Side] = {item for _, item in plus_raw if not isinstance(item[0], int)}
    minus_sides: set[_Side] = {item for _, item in minus_raw if not isinstance(item[0], int)}
    plus_only, minus_only = plus_set - minus_set, minus_set - plus_set
    crossed = (plus_set & minus_set) | (plus_sides & minus_sides)
    along = _along_sides(plus_only, minus_only, target)
    entry_rank = {c: rank_of[k] for k, c in plus_walk} | {c: rank_of[k] for k, c in minus_walk}
    return RawTrace(
        plus=tuple(plus_c),
        minus=tuple(minus_c),
        plus_steps=tuple(plus_raw),
        minus_steps=tuple(minus_raw),
        crossed_steps=tuple(step for step in plus_raw if step[1] in crossed),
        along_steps=tuple(sorted((min(entry_rank[p[0]], entry_rank[p[1]]), p) for p in along)),
        crossed_cells=frozenset(plus_set & minus_set),
        grazed_cells=frozenset(plus_only | minus_only),
        crossed_sides=frozenset(plus_sides & minus_sides),
        grazed_sides=frozenset((plus_sides ^ minus_sides) | set(along)),
        along_sides=frozenset(along),
    )


def _trace(dq: int, dr: int) -> LineTrace:
    """Trace the line from Hex(0, 0) to Hex(dq, dr) (uncached; see :func:`trace_offset`)."""
    if dq == 0 and dr == 0:
        origin = Hex(0, 0)
        return LineTrace((origin,), (origin,), frozenset({origin}), frozenset(), frozenset(), frozenset(),
                         frozenset(), (), (), (), ())
    raw = raw_trace(dq, dr)

    # One Hex / Edge object per place, built from coordinate keys (axial order = tuple order).
    hexes: dict[_Axial, Hex] = {}
    sides: dict[_Side, Edge] = {}

    def hex_at(c: _Axial) -> Hex:
        h = hexes.get(c)
        if h is None:
            h = hexes[c] = Hex(*c)
        return h

    def side_at(pair: _Side) -> Edge:
        e = sides.get(pair)
        if e is None:
            e = sides[pair] = Edge(hex_at(pair[0]), hex_at(pair[1]))
        return e

    def objects(raw_steps: Iterable[RawStep]) -> tuple[Step, ...]:
        return tuple((rank, hex_at(item) if isinstance(item[0], int) else side_at(item))
                     for rank, item in raw_steps)

    return LineTrace(
        plus=tuple(hex_at(c) for c in raw.plus),
        minus=tuple(hex_at(c) for c in raw.minus),
        crossed_hexes=frozenset(hex_at(c) for c in raw.crossed_cells),
        grazed_hexes=frozenset(hex_at(c) for c in raw.grazed_cells),
        crossed_edges=frozenset(side_at(p) for p in raw.crossed_sides),
        grazed_edges=frozenset(side_at(p) for p in raw.grazed_sides),
        along_edges=frozenset(side_at(p) for p in raw.along_sides),
        plus_steps=objects(raw.plus_steps),
        minus_steps=objects(raw.minus_steps),
        crossed_steps=objects(raw.crossed_steps),
        along_steps=objects(raw.along_steps),
    )


trace_offset_uncached = _trace


@lru_cache(maxsize=4096)  # about 15 kB each for 40×40-map distances
def trace_offset(dq: int, dr: int) -> LineTrace:
    """The trace of the line from Hex(0, 0) to Hex(dq, dr), computed once per offset."""
    return _trace(dq, dr)
