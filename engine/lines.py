"""Line drawing and line-of-sight analysis on the hex grid, free of any rule.

:func:`hex_line` is Red Blob Games' lerp-and-round line (``distance + 1`` hexes). Sight needs
more than that: the rules must tell a clear line from one that only grazes something (runs
along an edge, or touches a corner). :func:`sight_line` therefore traces the centre-to-centre
line pushed an infinitesimal distance to either side ("plus" and "minus") through *every* hex
it enters, in exact integer arithmetic. A hex or edge on both traces is crossed through its
interior; one on a single trace is only touched on its boundary. Terrain comes in as
predicates, so each rule set judges with its own notion of what blocks.

Sight lines are translation invariant: the trace is computed once per offset ``end - start``
and translated. :class:`SightBoard` goes further for many queries on one map (all pairs of
figures): blockers become bit masks and each query is a few shifts and ANDs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from engine.hexes import DIRECTIONS, Edge, Hex, edge, hex_distance, hex_round

_EPSILON = 1e-6


def hex_line(a: Hex, b: Hex, nudge: int = +1) -> list[Hex]:
    """Red Blob's lerp-and-round line from ``a`` to ``b``: ``distance + 1`` hexes, each a neighbour of the last.

    ``nudge`` (+1 or -1) shifts the sample points by a tiny cube offset so that points exactly on a
    boundary fall on one side or the other consistently.
    """
    if nudge not in (1, -1):
        raise ValueError(f"nudge must be +1 or -1, got {nudge!r}")
    return [a + rel for rel in _lerp_offsets(b.q - a.q, b.r - a.r, nudge)]


@lru_cache(maxsize=4096)
def _lerp_offsets(dq: int, dr: int, nudge: int) -> tuple[Hex, ...]:
    n = hex_distance(Hex(0, 0), Hex(dq, dr))
    if n == 0:
        return (Hex(0, 0),)
    eps = _EPSILON * nudge
    return tuple(hex_round(dq * i / n + eps, dr * i / n + eps) for i in range(n + 1))


class Sight(Enum):
    """Verdict of a sight check."""

    CLEAR = "clear"
    BLOCKED = "blocked"
    AMBIGUOUS = "ambiguous"


@dataclass(frozen=True)
class SightVerdict:
    """A verdict and the first thing along the line (from the start) that caused it; None when clear."""

    sight: Sight
    blocker: Hex | Edge | None = None


# A step of a trace: its rank along the line (smaller is nearer the start) and the hex entered or edge crossed.
_Step = tuple[int, Hex | Edge]


@dataclass(frozen=True)
class SightLine:
    """The exact centre-to-centre line from ``start`` to ``end``, analysed against the grid.

    ``plus`` / ``minus``: every hex the line enters when pushed an infinitesimal distance to its left /
    right (both start at ``start`` and end at ``end``; longer than ``distance + 1`` when the line cuts a
    corner of a hex). ``crossed_*``: on both traces (the line passes through the interior).
    ``grazed_hexes``: on one trace only (the line only touches the boundary). ``grazed_edges``: crossed by
    one trace only (the line passes through an endpoint), plus the edges the line runs along.
    """

    start: Hex
    end: Hex
    plus: tuple[Hex, ...]
    minus: tuple[Hex, ...]
    crossed_hexes: frozenset[Hex]
    grazed_hexes: frozenset[Hex]
    crossed_edges: frozenset[Edge]
    grazed_edges: frozenset[Edge]
    along_edges: frozenset[Edge]
    # Ordered steps of each trace, start and end hexes excluded (they are never tested as blocking hexes).
    plus_steps: tuple[_Step, ...]
    minus_steps: tuple[_Step, ...]
    along_steps: tuple[_Step, ...]


def sight_line(a: Hex, b: Hex) -> SightLine:
    """Analyse the line from the centre of ``a`` to the centre of ``b`` (cached per offset, then translated)."""
    t = _trace_offset(b.q - a.q, b.r - a.r)

    def move_step(step: _Step) -> _Step:
        rank, item = step
        return rank, (item + a if isinstance(item, Hex) else _move_edge(item, a))

    def move_hexes(hexes: Iterable[Hex]) -> tuple[Hex, ...]:
        return tuple(h + a for h in hexes)

    def move_edges(edges: Iterable[Edge]) -> frozenset[Edge]:
        return frozenset(_move_edge(e, a) for e in edges)

    return SightLine(
        start=a,
        end=b,
        plus=move_hexes(t.plus),
        minus=move_hexes(t.minus),
        crossed_hexes=frozenset(move_hexes(t.crossed_hexes)),
        grazed_hexes=frozenset(move_hexes(t.grazed_hexes)),
        crossed_edges=move_edges(t.crossed_edges),
        grazed_edges=move_edges(t.grazed_edges),
        along_edges=move_edges(t.along_edges),
        plus_steps=tuple(move_step(s) for s in t.plus_steps),
        minus_steps=tuple(move_step(s) for s in t.minus_steps),
        along_steps=tuple(move_step(s) for s in t.along_steps),
    )


def _move_edge(e: Edge, by: Hex) -> Edge:
    # Axial order is translation invariant, so the moved pair is still in Edge order.
    return Edge(e.a + by, e.b + by)


def judge_sight(
    line: SightLine, hex_blocks: Callable[[Hex], bool], edge_blocks: Callable[[Edge], bool]
) -> SightVerdict:
    """Fantasy Battle semantics: each trace is blocked by an inner hex or a crossed edge that blocks.

    Both traces blocked → BLOCKED (blocker: the point where the second trace gets blocked); one only →
    AMBIGUOUS (nudging changes the answer); neither, but a blocking edge the line runs along → AMBIGUOUS;
    else CLEAR. Start and end hexes are never tested with ``hex_blocks`` (edges touching them are).
    """
    plus = _first_blocking(line.plus_steps, hex_blocks, edge_blocks)
    minus = _first_blocking(line.minus_steps, hex_blocks, edge_blocks)
    if plus is not None and minus is not None:
        return SightVerdict(Sight.BLOCKED, max(plus, minus, key=_rank)[1])
    one_side = plus if plus is not None else minus
    if one_side is not None:
        return SightVerdict(Sight.AMBIGUOUS, one_side[1])
    along = _first_blocking(line.along_steps, hex_blocks, edge_blocks)
    if along is not None:
        return SightVerdict(Sight.AMBIGUOUS, along[1])
    return SightVerdict(Sight.CLEAR)


def judge_sight_strict_interior(
    line: SightLine, hex_blocks: Callable[[Hex], bool], edge_blocks: Callable[[Edge], bool]
) -> SightVerdict:
    """Filtwiz semantics: blocked only through the interior of a blocking hex or across a blocking edge.

    Touching a boundary (grazing) is allowed, so the verdict is never AMBIGUOUS. Start and end hexes
    are never tested with ``hex_blocks``.
    """
    both = line.crossed_hexes | line.crossed_edges
    steps = tuple(s for s in line.plus_steps if s[1] in both)
    first = _first_blocking(steps, hex_blocks, edge_blocks)
    if first is None:
        return SightVerdict(Sight.CLEAR)
    return SightVerdict(Sight.BLOCKED, first[1])


def _rank(step: _Step) -> int:
    return step[0]


def _first_blocking(
    steps: Iterable[_Step], hex_blocks: Callable[[Hex], bool], edge_blocks: Callable[[Edge], bool]
) -> _Step | None:
    for step in steps:
        item = step[1]
        if hex_blocks(item) if isinstance(item, Hex) else edge_blocks(item):
            return step
    return None


# ---------------------------------------------------------------------------------------------------
# Exact tracing, relative to the start hex.


@dataclass(frozen=True)
class _Trace:
    """Analysis of the line from Hex(0, 0) to one offset; every field relative to the start."""

    plus: tuple[Hex, ...]
    minus: tuple[Hex, ...]
    crossed_hexes: frozenset[Hex]
    grazed_hexes: frozenset[Hex]
    crossed_edges: frozenset[Edge]
    grazed_edges: frozenset[Edge]
    along_edges: frozenset[Edge]
    plus_steps: tuple[_Step, ...]
    minus_steps: tuple[_Step, ...]
    along_steps: tuple[_Step, ...]


_Cube = tuple[int, int, int]
_Key = tuple[Fraction, Fraction]  # position along the line: t + epsilon * second term
_CUBE_DIRECTIONS: tuple[_Cube, ...] = tuple((d.q, d.r, -d.q - d.r) for d in DIRECTIONS)


def _dot(u: _Cube, v: _Cube) -> int:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _walk(target: _Cube, side: int) -> list[tuple[_Key, Hex]]:
    """Every hex the line 0 → target enters when pushed ``side`` (±1) × epsilon sideways, with entry keys.

    In cube coordinates the cell of hex h is {p : (p - h)·d <= 1 for the six directions d}; the line
    p(t) = t·target + eps·n leaves a cell through the outward face it reaches first. Comparing the
    exact crossing times (t, then the epsilon term) never ties, because the pushed line misses every
    corner.
    """
    q, r, s = target
    n = (side * (r - s), side * (s - q), side * (q - r))  # perpendicular to target, in the plane
    h: _Cube = (0, 0, 0)
    entered: list[tuple[_Key, Hex]] = [((Fraction(0), Fraction(0)), Hex(0, 0))]
    limit = 4 * max(abs(q), abs(r), abs(s)) + 4
    while h != target:
        best: tuple[_Key, _Cube] | None = None
        for d in _CUBE_DIRECTIONS:
            speed = _dot(target, d)
            if speed <= 0:
                continue
            key = (Fraction(_dot(h, d) + 1, speed), Fraction(-_dot(n, d), speed))
            if best is None or key < best[0]:
                best = (key, d)
        assert best is not None  # a non-zero target always has outward faces
        key, d = best
        h = (h[0] + d[0], h[1] + d[1], h[2] + d[2])
        entered.append((key, Hex(h[0], h[1])))
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
            step = (y.q - x.q, y.r - x.r, y.s - x.s)
            mid2 = (x.q + y.q, x.r + y.r, x.s + y.s)  # twice the midpoint of the shared side
            if _dot(step, target) == 0 and _dot(n, mid2) == 0:
                found.append(edge(x, y))
    return found


@lru_cache(maxsize=8192)
def _trace_offset(dq: int, dr: int) -> _Trace:
    target: _Cube = (dq, dr, -dq - dr)
    origin, end = Hex(0, 0), Hex(dq, dr)
    if target == (0, 0, 0):
        return _Trace((origin,), (origin,), frozenset({origin}), frozenset(), frozenset(), frozenset(), frozenset(),
                      (), (), ())
    plus_walk, minus_walk = _walk(target, +1), _walk(target, -1)

    # Rank every position (entry of a hex = crossing of the edge into it) along the line.
    keys = sorted({k for k, _ in plus_walk} | {k for k, _ in minus_walk})
    rank_of = {k: i for i, k in enumerate(keys)}

    def steps(walk: list[tuple[_Key, Hex]]) -> list[_Step]:
        out: list[_Step] = []
        for (_, prev), (key, h) in pairwise(walk):
            out.append((rank_of[key], edge(prev, h)))
            if h != end:
                out.append((rank_of[key], h))
        return out

    plus_steps, minus_steps = steps(plus_walk), steps(minus_walk)
    plus = tuple(h for _, h in plus_walk)
    minus = tuple(h for _, h in minus_walk)
    plus_edges = {e for _, e in plus_steps if isinstance(e, Edge)}
    minus_edges = {e for _, e in minus_steps if isinstance(e, Edge)}
    plus_only, minus_only = set(plus) - set(minus), set(minus) - set(plus)
    along = _along_edges(plus_only, minus_only, target)
    entry_rank = {h: rank_of[k] for k, h in plus_walk} | {h: rank_of[k] for k, h in minus_walk}
    along_steps = sorted((min(entry_rank[e.a], entry_rank[e.b]), e) for e in along)
    return _Trace(
        plus=plus,
        minus=minus,
        crossed_hexes=frozenset(set(plus) & set(minus)),
        grazed_hexes=frozenset(plus_only | minus_only),
        crossed_edges=frozenset(plus_edges & minus_edges),
        grazed_edges=frozenset((plus_edges ^ minus_edges) | set(along)),
        along_edges=frozenset(along),
        plus_steps=tuple(plus_steps),
        minus_steps=tuple(minus_steps),
        along_steps=tuple(along_steps),
    )
