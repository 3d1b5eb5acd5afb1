"""Many sight queries on one board position, each a few big-integer shifts and ANDs.

All-pairs line of sight between every figure is asked after every move, so it must be cheap.
The blocking hexes and edges of the position become bit masks over a padded axial grid, where
moving a pattern by a hex offset is a shift. Each line offset's traces become masks once, so a
query tests a whole trace at a time and only looks at single steps to name the blocker.
Verdicts are identical to :func:`engine.lines.judge_sight` and
:func:`engine.lines.judge_sight_strict_interior` with the same blockers (tests check this).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.hexes import DIRECTIONS, Edge, Hex, edge
from engine.line_trace import Step, trace_offset
from engine.lines import Sight, SightLine, SightVerdict, judge_sight, judge_sight_strict_interior

# An edge is stored on its hex that has the other one in direction 0, 1 or 2.
_WIDTH_STEP = 64
_LOW_DIRECTION = {(d.q, d.r): i for i, d in enumerate(DIRECTIONS[:3])}


@dataclass(frozen=True)
class _OffsetMasks:
    """One offset's traces as bit masks (relative to ``base``) and the step behind each bit."""

    base: int
    plus_hexes: int
    plus_edges: int
    minus_hexes: int
    minus_edges: int
    crossed_hexes: int
    crossed_edges: int
    along_edges: int
    plus_steps: dict[int, Step]  # 2 × hex bit or 2 × edge bit + 1 → step; the same for the others
    minus_steps: dict[int, Step]
    crossed_steps: dict[int, Step]
    along_steps: dict[int, Step]


class SightBoard:
    """The blockers of one board position, for fast repeated sight queries between any two hexes.

    Queries whose ends lie more than ``margin - 1`` hexes outside the blockers' bounding box fall
    back to the general judges (same answers, slower).
    """

    def __init__(self, blocking_hexes: Iterable[Hex], blocking_edges: Iterable[Edge], *, margin: int = 8) -> None:
        self.blocking_hexes = frozenset(blocking_hexes)
        self.blocking_edges = frozenset(blocking_edges)
        if margin < 2:
            raise ValueError("margin must be at least 2 hexes")
        corners = list(self.blocking_hexes) + [h for e in self.blocking_edges for h in (e.a, e.b)] or [Hex(0, 0)]
        q_min, q_max = min(h.q for h in corners), max(h.q for h in corners)
        r_min, r_max = min(h.r for h in corners), max(h.r for h in corners)
        self._q0, self._r0 = q_min - margin, r_min - margin
        # Rounded up so that boards of one map share their per-offset masks (see _masks_for).
        self._width = -(-(q_max - q_min + 2 * margin + 1) // _WIDTH_STEP) * _WIDTH_STEP
        # Query ends must stay inside this box, so every hex on their traces has a unique, non-negative bit.
        self._q_range = (q_min - margin + 1, q_max + margin - 1)
        self._r_range = (r_min - margin + 1, r_max + margin - 1)
        self._hex_bits = 0
        for h in self.blocking_hexes:
            self._hex_bits |= 1 << self._index(h)
        self._edge_bits = 0
        for e in self.blocking_edges:
            low, k = _low_side(e)
            self._edge_bits |= 1 << (3 * self._index(low) + k)

    @classmethod
    def from_predicates(
        cls, hexes: Iterable[Hex], hex_blocks: Callable[[Hex], bool], edge_blocks: Callable[[Edge], bool]
    ) -> SightBoard:
        """Evaluate a rule set's predicates once over a map's hexes and all their sides."""
        cells = list(hexes)
        sides = {edge(h, h + d) for h in cells for d in DIRECTIONS}
        return cls((h for h in cells if hex_blocks(h)), (e for e in sides if edge_blocks(e)))

    def judge(self, a: Hex, b: Hex) -> SightVerdict:
        """Same verdict as :func:`engine.lines.judge_sight` with this board's blockers."""
        m = self._prepared(a, b)
        if m is None:
            return judge_sight(SightLine(a, b), self.blocking_hexes.__contains__, self.blocking_edges.__contains__)
        s = self._index(a) + m.base
        hexes, edges = self._hex_bits >> s, self._edge_bits >> (3 * s)
        plus_h, plus_e = hexes & m.plus_hexes, edges & m.plus_edges
        minus_h, minus_e = hexes & m.minus_hexes, edges & m.minus_edges
        if plus_h or plus_e:
            plus = _first(plus_h, plus_e, m.plus_steps)
            if minus_h or minus_e:
                minus = _first(minus_h, minus_e, m.minus_steps)
                return SightVerdict(Sight.BLOCKED, _place(minus if minus[0] > plus[0] else plus, a))
            return SightVerdict(Sight.AMBIGUOUS, _place(plus, a))
        if minus_h or minus_e:
            return SightVerdict(Sight.AMBIGUOUS, _place(_first(minus_h, minus_e, m.minus_steps), a))
        along = edges & m.along_edges
        if along:
            return SightVerdict(Sight.AMBIGUOUS, _place(_first(0, along, m.along_steps), a))
        return SightVerdict(Sight.CLEAR)

    def judge_strict_interior(self, a: Hex, b: Hex) -> SightVerdict:
        """Same verdict as :func:`engine.lines.judge_sight_strict_interior` with this board's blockers."""
        m = self._prepared(a, b)
        if m is None:
            line = SightLine(a, b)
            return judge_sight_strict_interior(line, self.blocking_hexes.__contains__, self.blocking_edges.__contains__)
        s = self._index(a) + m.base
        hexes = (self._hex_bits >> s) & m.crossed_hexes
        edges = (self._edge_bits >> (3 * s)) & m.crossed_edges
        if hexes or edges:
            return SightVerdict(Sight.BLOCKED, _place(_first(hexes, edges, m.crossed_steps), a))
        return SightVerdict(Sight.CLEAR)

    def _index(self, h: Hex) -> int:
        return (h.r - self._r0) * self._width + (h.q - self._q0)

    def _prepared(self, a: Hex, b: Hex) -> _OffsetMasks | None:
        """The masks for the line a → b, or None when an end lies outside the padded box."""
        (q_lo, q_hi), (r_lo, r_hi) = self._q_range, self._r_range
        if not (q_lo <= a.q <= q_hi and q_lo <= b.q <= q_hi and r_lo <= a.r <= r_hi and r_lo <= b.r <= r_hi):
            return None
        return _masks_for(self._width, b.q - a.q, b.r - a.r)


@lru_cache(maxsize=32768)
def _masks_for(width: int, dq: int, dr: int) -> _OffsetMasks:
    """The traces of one offset as masks for a grid ``width`` hexes wide (independent of the blockers)."""
    t = trace_offset(dq, dr)
    base = min(h.r * width + h.q for h in (*t.plus, *t.minus))

    def encode(steps: Iterable[Step]) -> tuple[int, int, dict[int, Step]]:
        hexes = edges = 0
        lookup: dict[int, Step] = {}
        for step in steps:
            item = step[1]
            if isinstance(item, Hex):
                bit = item.r * width + item.q - base
                hexes |= 1 << bit
                lookup[2 * bit] = step
            else:
                low, k = _low_side(item)
                bit = 3 * (low.r * width + low.q - base) + k
                edges |= 1 << bit
                lookup[2 * bit + 1] = step
        return hexes, edges, lookup

    plus_h, plus_e, plus_l = encode(t.plus_steps)
    minus_h, minus_e, minus_l = encode(t.minus_steps)
    crossed_h, crossed_e, crossed_l = encode(t.crossed_steps)
    _, along_e, along_l = encode(t.along_steps)
    return _OffsetMasks(base, plus_h, plus_e, minus_h, minus_e, crossed_h, crossed_e, along_e,
                        plus_l, minus_l, crossed_l, along_l)


def _low_side(e: Edge) -> tuple[Hex, int]:
    """The edge's hex that has the other in direction 0, 1 or 2, and that direction."""
    k = _LOW_DIRECTION.get((e.b.q - e.a.q, e.b.r - e.a.r))
    if k is not None:
        return e.a, k
    return e.b, _LOW_DIRECTION[(e.a.q - e.b.q, e.a.r - e.b.r)]


def _first(hexes: int, edges: int, lookup: dict[int, Step]) -> Step:
    """The lowest-ranked step among the set bits (the first blocking thing along the line)."""
    best: Step | None = None
    for is_edge, bits in ((0, hexes), (1, edges)):
        while bits:
            top = bits.bit_length() - 1
            step = lookup[2 * top + is_edge]
            if best is None or step < best:
                best = step
            bits ^= 1 << top
    assert best is not None  # callers pass at least one set bit
    return best


def _place(step: Step, at: Hex) -> Hex | Edge:
    """The step's hex or edge moved from the trace's origin to ``at``."""
    item = step[1]
    if isinstance(item, Hex):
        return item + at
    return Edge(item.a + at, item.b + at)
