"""Line drawing and line-of-sight analysis on the hex grid, free of any rule.

:func:`hex_line` is Red Blob Games' lerp-and-round line (``distance + 1`` hexes). Sight needs
more than that: the rules must tell a clear line from one that only grazes something (runs
along an edge, or touches a corner), and a lerp line samples only hex centres' spacing, so it
misses hexes the line merely clips or touches at a corner. :func:`sight_line` therefore traces
the centre-to-centre line pushed an infinitesimal distance to either side ("plus" and "minus")
through *every* hex it enters, in exact arithmetic (:mod:`engine.line_trace`). A hex or edge on
both traces is crossed through its interior; one on a single trace is only touched on its
boundary. Terrain comes in as predicates, so each rule set judges with its own notion of what
blocks.

Sight lines are translation invariant: the trace is computed once per offset ``end - start``
and translated lazily; the judges translate only the steps they test. For many queries on one
board position use :class:`engine.sight_board.SightBoard`, which gives the same verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, lru_cache

from engine.hexes import Edge, Hex, hex_distance, hex_round
from engine.line_trace import LineTrace, Step, trace_offset

# Cube nudge (1, 2, -3) × 1e-6: not parallel to any hex side, so it moves every boundary point
# (side or corner) into one cell. The common (1, 1, -2) nudge runs along some sides and leaves
# those ties to floating-point noise.
_NUDGE_Q, _NUDGE_R = 1e-6, 2e-6


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
    eq, er = _NUDGE_Q * nudge, _NUDGE_R * nudge
    return tuple(hex_round(dq * i / n + eq, dr * i / n + er) for i in range(n + 1))


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


@dataclass(frozen=True)
class SightLine:
    """The exact centre-to-centre line from ``start`` to ``end``, analysed against the grid.

    ``plus`` / ``minus``: every hex the line enters when pushed an infinitesimal distance to one
    side / the other (both run from ``start`` to ``end``; the reverse line swaps them; longer than
    ``distance + 1`` when the line clips or touches a corner of a hex). ``crossed_*``: on both
    traces (the line passes through the interior; an edge is crossed away from its ends).
    ``grazed_hexes``: on one trace only (the line only touches the boundary). ``grazed_edges``:
    crossed by one trace only (the line passes through an endpoint), plus ``along_edges``, the
    sides the line runs along. Fields are translated on first use.
    """

    start: Hex
    end: Hex
    trace: LineTrace = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "trace", trace_offset(self.end.q - self.start.q, self.end.r - self.start.r))

    def _hexes(self, hexes: Iterable[Hex]) -> frozenset[Hex]:
        return frozenset(h + self.start for h in hexes)

    def _edges(self, edges: Iterable[Edge]) -> frozenset[Edge]:
        return frozenset(_move_edge(e, self.start) for e in edges)

    @cached_property
    def plus(self) -> tuple[Hex, ...]:
        return tuple(h + self.start for h in self.trace.plus)

    @cached_property
    def minus(self) -> tuple[Hex, ...]:
        return tuple(h + self.start for h in self.trace.minus)

    @cached_property
    def crossed_hexes(self) -> frozenset[Hex]:
        return self._hexes(self.trace.crossed_hexes)

    @cached_property
    def grazed_hexes(self) -> frozenset[Hex]:
        return self._hexes(self.trace.grazed_hexes)

    @cached_property
    def crossed_edges(self) -> frozenset[Edge]:
        return self._edges(self.trace.crossed_edges)

    @cached_property
    def grazed_edges(self) -> frozenset[Edge]:
        return self._edges(self.trace.grazed_edges)

    @cached_property
    def along_edges(self) -> frozenset[Edge]:
        return self._edges(self.trace.along_edges)

    @cached_property
    def nudged_ways(self) -> tuple[tuple[Hex | Edge, ...], tuple[Hex | Edge, ...]]:
        """The line pushed to either side ("plus", "minus"): each one's crossed edges and inner hexes in order
        from the start (start and end hexes left out). For rules that judge the line "both ways nudged"."""
        return self._in_order(self.trace.plus_steps), self._in_order(self.trace.minus_steps)

    def _in_order(self, steps: Iterable[Step]) -> tuple[Hex | Edge, ...]:
        return tuple(item + self.start if isinstance(item, Hex) else _move_edge(item, self.start) for _r, item in steps)


def sight_line(a: Hex, b: Hex) -> SightLine:
    """Analyse the line from the centre of ``a`` to the centre of ``b`` (traced once per offset ``b - a``)."""
    return SightLine(a, b)


def _move_edge(e: Edge, by: Hex) -> Edge:
    # Axial order is translation invariant, so the moved pair is still in Edge order.
    return Edge(e.a + by, e.b + by)


HexBlocks = Callable[[Hex], bool]
EdgeBlocks = Callable[[Edge], bool]


def judge_sight(line: SightLine, hex_blocks: HexBlocks, edge_blocks: EdgeBlocks) -> SightVerdict:
    """Fantasy Battle semantics: each trace is blocked by an inner hex or a crossed edge that blocks.

    Both traces blocked → BLOCKED (blocker: where the second trace gets blocked, as from there on the
    line is blocked whichever way it is nudged); one only → AMBIGUOUS (nudging changes the answer);
    neither, but a blocking edge the line runs along → AMBIGUOUS; else CLEAR. Start and end hexes are
    never tested with ``hex_blocks`` (edges touching them are).
    """
    t, at = line.trace, line.start
    plus = _first_blocking(t.plus_steps, at, hex_blocks, edge_blocks)
    minus = _first_blocking(t.minus_steps, at, hex_blocks, edge_blocks)
    if plus is not None and minus is not None:
        return SightVerdict(Sight.BLOCKED, (minus if minus[0] > plus[0] else plus)[1])
    one_side = plus if plus is not None else minus
    if one_side is not None:
        return SightVerdict(Sight.AMBIGUOUS, one_side[1])
    along = _first_blocking(t.along_steps, at, hex_blocks, edge_blocks)
    if along is not None:
        return SightVerdict(Sight.AMBIGUOUS, along[1])
    return SightVerdict(Sight.CLEAR)


def judge_sight_strict_interior(line: SightLine, hex_blocks: HexBlocks, edge_blocks: EdgeBlocks) -> SightVerdict:
    """Filtwiz semantics: blocked only through the interior of a blocking hex or across a blocking edge.

    Touching a boundary (grazing) is allowed, so the verdict is never AMBIGUOUS. Start and end hexes
    are never tested with ``hex_blocks``.
    """
    first = _first_blocking(line.trace.crossed_steps, line.start, hex_blocks, edge_blocks)
    if first is None:
        return SightVerdict(Sight.CLEAR)
    return SightVerdict(Sight.BLOCKED, first[1])


def _first_blocking(steps: Iterable[Step], at: Hex, hex_blocks: HexBlocks, edge_blocks: EdgeBlocks) -> Step | None:
    """The first step (translated to start at ``at``) whose hex or edge blocks, or None."""
    for rank, item in steps:
        if isinstance(item, Hex):
            h = item + at
            if hex_blocks(h):
                return rank, h
        else:
            e = _move_edge(item, at)
            if edge_blocks(e):
                return rank, e
    return None
