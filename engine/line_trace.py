"""Exact tracing of a centre-to-centre line through the hex grid, relative to its start hex.

The line is pushed an infinitesimal distance to its left ("plus") and right ("minus") and each
pushed line is followed through every hex it enters. Arithmetic is exact (integers only), so a
line that runs along a side or passes through a corner is recognised as such, never decided by
a rounding error. Results depend only on the offset ``end - start``; :func:`trace_offset` caches
them for :mod:`engine.lines` to translate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from engine.hexes import DIRECTIONS, Edge, Hex, edge

# One step of a trace: its rank along the line (smaller is nearer the start; unique within a trace,
# an edge just before the hex it leads into) and the hex entered or the edge crossed.
Step = tuple[int, Hex | Edge]

_Cube = tuple[int, int, int]
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


def _walk(target: _Cube, side: int) -> list[tuple[tuple[int, int], Hex]]:
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
    entered: list[tuple[tuple[int, int], Hex]] = [((0, 0), Hex(0, 0))]
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
        entered.append((best, Hex(hq, hr)))
        if len(entered) > limit:
            raise RuntimeError(f"line trace to {target} did not reach its end: geometry bug")
    return entered


def _along_edges(plus_only: set[Hex], minus_only: set[Hex], target: _Cube) -> list[Edge]:
    """Edges the exact line runs along: between a plus-only and a minus-only hex, lying on the line."""
    q, r, s = target
    n = (r - s, s - q, q - r)
    found: list[Edge] = []
    for x in plus_only:
        for y in x.neighbours():
            if y not in minus_only:
                continue
            across = (y.q - x.q, y.r - x.r, y.s - x.s)
            mid2 = (x.q + y.q, x.r + y.r, x.s + y.s)  # twice the midpoint of the shared side
            if _dot(across, target) == 0 and _dot(n, mid2) == 0:
                found.append(edge(x, y))
    return found


def _trace(dq: int, dr: int) -> LineTrace:
    """Trace the line from Hex(0, 0) to Hex(dq, dr) (uncached; see :func:`trace_offset`)."""
    target: _Cube = (dq, dr, -dq - dr)
    origin, end = Hex(0, 0), Hex(dq, dr)
    if target == (0, 0, 0):
        return LineTrace((origin,), (origin,), frozenset({origin}), frozenset(), frozenset(), frozenset(),
                         frozenset(), (), (), (), ())
    plus_walk, minus_walk = _walk(target, +1), _walk(target, -1)

    # Rank the entry positions of both traces along the line; an entry's edge gets 2k, its hex 2k + 1.
    keys = sorted({k for k, _ in plus_walk} | {k for k, _ in minus_walk})
    rank_of = {k: 2 * i for i, k in enumerate(keys)}

    def steps(walk: list[tuple[tuple[int, int], Hex]]) -> list[Step]:
        out: list[Step] = []
        for (_, prev), (key, h) in pairwise(walk):
            out.append((rank_of[key], edge(prev, h)))
            if h != end:
                out.append((rank_of[key] + 1, h))
        return out

    plus_steps, minus_steps = steps(plus_walk), steps(minus_walk)
    plus, minus = tuple(h for _, h in plus_walk), tuple(h for _, h in minus_walk)
    plus_edges = {e for _, e in plus_steps if isinstance(e, Edge)}
    minus_edges = {e for _, e in minus_steps if isinstance(e, Edge)}
    plus_only, minus_only = set(plus) - set(minus), set(minus) - set(plus)
    crossed_hexes = frozenset(set(plus) & set(minus))
    crossed_edges = frozenset(plus_edges & minus_edges)
    along = _along_edges(plus_only, minus_only, target)
    entry_rank = {h: rank_of[k] for k, h in plus_walk} | {h: rank_of[k] for k, h in minus_walk}
    return LineTrace(
        plus=plus,
        minus=minus,
        crossed_hexes=crossed_hexes,
        grazed_hexes=frozenset(plus_only | minus_only),
        crossed_edges=crossed_edges,
        grazed_edges=frozenset((plus_edges ^ minus_edges) | set(along)),
        along_edges=frozenset(along),
        plus_steps=tuple(plus_steps),
        minus_steps=tuple(minus_steps),
        crossed_steps=tuple(s for s in plus_steps if s[1] in crossed_hexes or s[1] in crossed_edges),
        along_steps=tuple(sorted((min(entry_rank[e.a], entry_rank[e.b]), e) for e in along)),
    )


trace_offset_uncached = _trace


@lru_cache(maxsize=4096)  # about 15 kB each for 40×40-map distances
def trace_offset(dq: int, dr: int) -> LineTrace:
    """The trace of the line from Hex(0, 0) to Hex(dq, dr), computed once per offset."""
    return _trace(dq, dr)
