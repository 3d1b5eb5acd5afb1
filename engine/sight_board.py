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

from engine.hexes import DIRECTIONS, Edge, Hex, edge
from engine.line_trace import Step, trace_offset
from engine.lines import Sight, SightLine, SightVerdict, judge_sight, judge_sight_strict_interior

# An edge is stored on its hex that has the other one in direction 0, 1 or 2.
_LOW_DIRECTION = {(d.q, d.r): i for i, d in enumerate(DIRECTIONS[:3])}
# Grid widths are rounded up to this, so that the boards of one map share their per-offset masks.
_WIDTH_STEP = 64
_MASK_CACHE_LIMIT = 4096  # about 10 kB each for 40×40-map distances


@dataclass(frozen=True)
class _OffsetMasks:
    """One offset's traces as bit masks (relative to ``base``) and the rank of the step behind each bit.

    Rank tables are keyed ``2 × hex bit`` or ``2 × edge bit + 1``.
    """

    base: int
    plus_hexes: int
    plus_edges: int
    minus_hexes: int
    minus_edges: int
    crossed_hexes: int
    crossed_edges: int
    along_edges: int
    plus_ranks: dict[int, int]
    minus_ranks: dict[int, int]
    crossed_ranks: dict[int, int]
    along_ranks: dict[int, int]


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
        self._width = -(-(q_max - q_min + 2 * margin + 1) // _WIDTH_STEP) * _WIDTH_STEP
        # Query ends must stay inside this box, so every hex on their traces has a unique, non-negative bit.
        self._q_lo, self._q_hi = q_min - margin + 1, q_max + margin - 1
        self._r_lo, self._r_hi = r_min - margin + 1, r_max + margin - 1
        # Blockers by absolute key (2 × bit, or 2 × edge bit + 1), to name them without building objects.
        self._blocker_at: dict[int, Hex | Edge] = {}
        self._hex_bits = self._edge_bits = 0
        for h in self.blocking_hexes:
            bit = self._index(h)
            self._hex_bits |= 1 << bit
            self._blocker_at[2 * bit] = h
        for e in self.blocking_edges:
            low, k = _low_side(e)
            bit = 3 * self._index(low) + k
            self._edge_bits |= 1 << bit
            self._blocker_at[2 * bit + 1] = e
        self._masks = _MASKS.setdefault(self._width, {})
        self._verdicts: dict[int, SightVerdict] = {}

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
        s = (a.r - self._r0) * self._width + (a.q - self._q0) + m.base
        hexes, edges = self._hex_bits >> s, self._edge_bits >> (3 * s)
        plus_h, plus_e = hexes & m.plus_hexes, edges & m.plus_edges
        minus_h, minus_e = hexes & m.minus_hexes, edges & m.minus_edges
        if plus_h or plus_e:
            plus = _first(plus_h, plus_e, m.plus_ranks)
            if minus_h or minus_e:
                minus = _first(minus_h, minus_e, m.minus_ranks)
                return self._verdict(Sight.BLOCKED, (minus if minus[0] > plus[0] else plus)[1], s)
            return self._verdict(Sight.AMBIGUOUS, plus[1], s)
        if minus_h or minus_e:
            return self._verdict(Sight.AMBIGUOUS, _first(minus_h, minus_e, m.minus_ranks)[1], s)
        along = edges & m.along_edges
        if along:
            return self._verdict(Sight.AMBIGUOUS, _first(0, along, m.along_ranks)[1], s)
        return _CLEAR

    def judge_strict_interior(self, a: Hex, b: Hex) -> SightVerdict:
        """Same verdict as :func:`engine.lines.judge_sight_strict_interior` with this board's blockers."""
        m = self._prepared(a, b)
        if m is None:
            line = SightLine(a, b)
            return judge_sight_strict_interior(line, self.blocking_hexes.__contains__, self.blocking_edges.__contains__)
        s = (a.r - self._r0) * self._width + (a.q - self._q0) + m.base
        hexes = (self._hex_bits >> s) & m.crossed_hexes
        edges = (self._edge_bits >> (3 * s)) & m.crossed_edges
        if hexes or edges:
            return self._verdict(Sight.BLOCKED, _first(hexes, edges, m.crossed_ranks)[1], s)
        return _CLEAR

    def _index(self, h: Hex) -> int:
        return (h.r - self._r0) * self._width + (h.q - self._q0)

    def _prepared(self, a: Hex, b: Hex) -> _OffsetMasks | None:
        """The masks for the line a → b, or None when an end lies outside the padded box."""
        q_lo, q_hi, r_lo, r_hi = self._q_lo, self._q_hi, self._r_lo, self._r_hi
        if not (q_lo <= a.q <= q_hi and q_lo <= b.q <= q_hi and r_lo <= a.r <= r_hi and r_lo <= b.r <= r_hi):
            return None
        key = (b.q - a.q, b.r - a.r)
        m = self._masks.get(key)
        if m is None:
            if len(self._masks) >= _MASK_CACHE_LIMIT:
                self._masks.clear()
            m = self._masks[key] = _encode(self._width, *key)
        return m

    def _verdict(self, sight: Sight, key: int, shift: int) -> SightVerdict:
        """The verdict naming the blocker behind a relative key, shared by all queries on this board."""
        absolute = key + 2 * shift if key % 2 == 0 else key + 6 * shift
        cache_key = 2 * absolute + (sight is Sight.BLOCKED)
        found = self._verdicts.get(cache_key)
        if found is None:
            found = self._verdicts[cache_key] = SightVerdict(sight, self._blocker_at[absolute])
        return found


_CLEAR = SightVerdict(Sight.CLEAR)
# Per grid width: offset → masks. Shared by every board of that width (boards change with every move).
_MASKS: dict[int, dict[tuple[int, int], _OffsetMasks]] = {}


def _encode(width: int, dq: int, dr: int) -> _OffsetMasks:
    """The traces of one offset as masks for a grid ``width`` hexes wide (independent of the blockers)."""
    t = trace_offset(dq, dr)
    base = min(h.r * width + h.q for h in (*t.plus, *t.minus))

    def encode(steps: Iterable[Step]) -> tuple[int, int, dict[int, int]]:
        hexes = edges = 0
        ranks: dict[int, int] = {}
        for rank, item in steps:
            if isinstance(item, Hex):
                bit = item.r * width + item.q - base
                hexes |= 1 << bit
                ranks[2 * bit] = rank
            else:
                low, k = _low_side(item)
                bit = 3 * (low.r * width + low.q - base) + k
                edges |= 1 << bit
                ranks[2 * bit + 1] = rank
        return hexes, edges, ranks

    plus_h, plus_e, plus_r = encode(t.plus_steps)
    minus_h, minus_e, minus_r = encode(t.minus_steps)
    crossed_h, crossed_e, crossed_r = encode(t.crossed_steps)
    _, along_e, along_r = encode(t.along_steps)
    return _OffsetMasks(base, plus_h, plus_e, minus_h, minus_e, crossed_h, crossed_e, along_e,
                        plus_r, minus_r, crossed_r, along_r)


def _low_side(e: Edge) -> tuple[Hex, int]:
    """The edge's hex that has the other in direction 0, 1 or 2, and that direction."""
    k = _LOW_DIRECTION.get((e.b.q - e.a.q, e.b.r - e.a.r))
    if k is not None:
        return e.a, k
    return e.b, _LOW_DIRECTION[(e.a.q - e.b.q, e.a.r - e.b.r)]


def _first(hexes: int, edges: int, ranks: dict[int, int]) -> tuple[int, int]:
    """(rank, key) of the lowest-ranked step among the set bits: the first blocking thing along the line."""
    best_rank, best_key = -1, -1
    for tag, bits in ((0, hexes), (1, edges)):
        while bits:
            top = bits.bit_length() - 1
            key = 2 * top + tag
            rank = ranks[key]
            if best_key < 0 or rank < best_rank:
                best_rank, best_key = rank, key
            bits ^= 1 << top
    return best_rank, best_key
