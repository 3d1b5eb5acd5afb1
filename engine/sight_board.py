"""Many sight queries on one board position, each a few big-integer shifts and ANDs, kept up to date.

All-pairs line of sight between every figure is asked after every move, so it must be cheap.
The blocking hexes and edges of the position become bit masks over a padded axial grid, where
moving a pattern by a hex offset is a shift. Each line offset's traces become masks once, so a
query tests a whole trace at a time and only looks at single steps to name the blocker. Verdicts
are remembered per pair of hexes; when the position changes (:meth:`SightBoard.update`: a figure
moved, a door opened) only the pairs whose lines pass the changed hexes or edges are judged again.
Verdicts are identical to :func:`engine.lines.judge_sight` and
:func:`engine.lines.judge_sight_strict_interior` with the same blockers (tests check this).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice

from engine.hexes import DIRECTIONS, Edge, Hex, edge
from engine.line_trace import RawStep, raw_trace
from engine.lines import Sight, SightLine, SightVerdict, judge_sight, judge_sight_strict_interior

# An edge is stored on its hex that has the other one in direction 0, 1 or 2.
_LOW_DIRECTION = {(d.q, d.r): i for i, d in enumerate(DIRECTIONS[:3])}
# Grid widths are rounded up to this, so that the boards of one map share their per-offset masks.
_WIDTH_STEP = 64
_MASK_CACHE_LIMIT = 8192  # about 10 kB each for 40×40-map distances; every offset of a 40×40 map fits
_PAIR_CACHE_LIMIT = 1 << 15  # remembered verdicts per board and judge


class SightBoardError(ValueError):
    """A sight board was asked for something it cannot do."""


@dataclass(frozen=True)
class _OffsetMasks:
    """One offset's traces as bit masks (relative to ``base``) and the rank of the step behind each bit.

    Rank tables are keyed ``2 × hex bit`` or ``2 × edge bit + 1``. ``seen_*``: everything the loose judge
    tests (a change there may change its verdict).
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
    seen_hexes: int
    seen_edges: int


# A remembered verdict: the verdict, the pair's shift on the board, the hex and edge masks it depends on, and
# the box (q_lo, q_hi, r_lo, r_hi) that holds every hex of its traces (the ends' box grown by one hex).
_Remembered = tuple[SightVerdict, int, int, int, int, int, int, int]


class SightBoard:
    """The blockers of one board position, for fast repeated sight queries between any two hexes.

    Queries whose ends lie more than ``margin - 1`` hexes outside the blockers' bounding box fall
    back to the general judges (same answers, slower). The board may be changed in place with
    :meth:`update`; answers remembered from before stay only where the change cannot touch them.
    """

    def __init__(self, blocking_hexes: Iterable[Hex], blocking_edges: Iterable[Edge], *, margin: int = 8) -> None:
        if margin < 2:
            raise SightBoardError("margin must be at least 2 hexes")
        self._margin = margin
        self._build(set(blocking_hexes), set(blocking_edges))

    def _build(self, hexes: set[Hex], edges: set[Edge]) -> None:
        """Lay out the grid around the blockers and set their bits; forget every remembered verdict."""
        margin = self._margin
        self._hexes, self._edges = hexes, edges
        corners = list(hexes) + [h for e in edges for h in (e.a, e.b)] or [Hex(0, 0)]
        q_min, q_max = min(h.q for h in corners), max(h.q for h in corners)
        r_min, r_max = min(h.r for h in corners), max(h.r for h in corners)
        self._q0, self._r0 = q_min - margin, r_min - margin
        self._width = -(-(q_max - q_min + 2 * margin + 1) // _WIDTH_STEP) * _WIDTH_STEP
        # Query ends must stay inside this box, so every hex on their traces has a unique, non-negative bit.
        self._q_lo, self._q_hi = q_min - margin + 1, q_max + margin - 1
        self._r_lo, self._r_hi = r_min - margin + 1, r_max + margin - 1
        # Blockers by absolute key (2 × bit, or 2 × edge bit + 1), to name them without building objects.
        self._blocker_at: dict[int, Hex | Edge] = {}
        hex_bits = edge_bits = 0
        for h in hexes:
            bit = self._index(h)
            hex_bits |= 1 << bit
            self._blocker_at[2 * bit] = h
        for e in edges:
            bit = self._edge_index(e)
            edge_bits |= 1 << bit
            self._blocker_at[2 * bit + 1] = e
        self._hex_bits, self._edge_bits = hex_bits, edge_bits
        self._masks = _MASKS.setdefault(self._width, {})
        self._verdicts: dict[int, SightVerdict] = {}
        self._loose: dict[tuple[Hex, Hex], _Remembered] = {}
        self._strict: dict[tuple[Hex, Hex], _Remembered] = {}

    @property
    def blocking_hexes(self) -> frozenset[Hex]:
        return frozenset(self._hexes)

    @property
    def blocking_edges(self) -> frozenset[Edge]:
        return frozenset(self._edges)

    @classmethod
    def from_predicates(
        cls, hexes: Iterable[Hex], hex_blocks: Callable[[Hex], bool], edge_blocks: Callable[[Edge], bool]
    ) -> SightBoard:
        """Evaluate a rule set's predicates once over a map's hexes and all their sides."""
        cells = list(hexes)
        sides = {edge(h, h + d) for h in cells for d in DIRECTIONS}
        return cls((h for h in cells if hex_blocks(h)), (e for e in sides if edge_blocks(e)))

    def update(self, *, block: Iterable[Hex | Edge] = (), clear: Iterable[Hex | Edge] = ()) -> None:
        """Change the position in place: ``block`` starts blocking sight, ``clear`` stops (a figure moved from
        one hex to another, a door opened or closed). Only verdicts whose lines pass a changed hex or edge
        are judged again; a blocker outside the grid lays the grid out afresh."""
        added, removed = set(block), set(clear)
        if added & removed:
            raise SightBoardError(f"{sorted(map(repr, added & removed))} both blocked and cleared in one update")
        hexes, edges = set(self._hexes), set(self._edges)
        for item in added:
            if isinstance(item, Hex):
                hexes.add(item)
            else:
                edges.add(item)
        for item in removed:
            if isinstance(item, Hex):
                hexes.discard(item)
            else:
                edges.discard(item)
        outside = [h for item in added for h in ((item,) if isinstance(item, Hex) else (item.a, item.b))
                   if not (self._q_lo <= h.q <= self._q_hi and self._r_lo <= h.r <= self._r_hi)]
        if outside:
            self._build(hexes, edges)
            return
        changed_hexes: list[int] = []
        changed_edges: list[int] = []
        for item in (*added, *removed):
            on = item in added
            if isinstance(item, Hex):
                if (item in self._hexes) == on:
                    continue
                bit = self._index(item)
                changed_hexes.append(bit)
                self._hex_bits ^= 1 << bit
                key = 2 * bit
            else:
                if (item in self._edges) == on:
                    continue
                bit = self._edge_index(item)
                changed_edges.append(bit)
                self._edge_bits ^= 1 << bit
                key = 2 * bit + 1
            if on:
                self._blocker_at[key] = item
        self._hexes, self._edges = hexes, edges
        if changed_hexes or changed_edges:
            places = [self._place(bit) for bit in changed_hexes] + [self._place(bit // 3) for bit in changed_edges]
            _forget(self._loose, changed_hexes, changed_edges, places)
            _forget(self._strict, changed_hexes, changed_edges, places)

    def judge(self, a: Hex, b: Hex) -> SightVerdict:
        """Same verdict as :func:`engine.lines.judge_sight` with this board's blockers."""
        found = self._loose.get((a, b))
        if found is not None:
            return found[0]
        m = self._prepared(a, b)
        if m is None:
            return judge_sight(SightLine(a, b), self._hexes.__contains__, self._edges.__contains__)
        s = (a.r - self._r0) * self._width + (a.q - self._q0) + m.base
        verdict = self._judge(m, s)
        if len(self._loose) >= _PAIR_CACHE_LIMIT:
            self._loose.clear()
        self._loose[a, b] = (verdict, s, m.seen_hexes, m.seen_edges, *_box(a, b))
        return verdict

    def _judge(self, m: _OffsetMasks, s: int) -> SightVerdict:
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
        found = self._strict.get((a, b))
        if found is not None:
            return found[0]
        m = self._prepared(a, b)
        if m is None:
            line = SightLine(a, b)
            return judge_sight_strict_interior(line, self._hexes.__contains__, self._edges.__contains__)
        s = (a.r - self._r0) * self._width + (a.q - self._q0) + m.base
        hexes = (self._hex_bits >> s) & m.crossed_hexes
        edges = (self._edge_bits >> (3 * s)) & m.crossed_edges
        verdict = _CLEAR
        if hexes or edges:
            verdict = self._verdict(Sight.BLOCKED, _first(hexes, edges, m.crossed_ranks)[1], s)
        if len(self._strict) >= _PAIR_CACHE_LIMIT:
            self._strict.clear()
        self._strict[a, b] = (verdict, s, m.crossed_hexes, m.crossed_edges, *_box(a, b))
        return verdict

    def _index(self, h: Hex) -> int:
        return (h.r - self._r0) * self._width + (h.q - self._q0)

    def _place(self, bit: int) -> tuple[int, int]:
        """(q, r) of the hex behind a hex bit."""
        r, q = divmod(bit, self._width)
        return q + self._q0, r + self._r0

    def _edge_index(self, e: Edge) -> int:
        low, k = _low_side(e)
        return 3 * self._index(low) + k

    def _prepared(self, a: Hex, b: Hex) -> _OffsetMasks | None:
        """The masks for the line a → b, or None when an end lies outside the padded box."""
        q_lo, q_hi, r_lo, r_hi = self._q_lo, self._q_hi, self._r_lo, self._r_hi
        if not (q_lo <= a.q <= q_hi and q_lo <= b.q <= q_hi and r_lo <= a.r <= r_hi and r_lo <= b.r <= r_hi):
            return None
        key = (b.q - a.q, b.r - a.r)
        m = self._masks.get(key)
        if m is None:
            if len(self._masks) >= _MASK_CACHE_LIMIT:
                for old in list(islice(self._masks, _MASK_CACHE_LIMIT // 2)):  # the oldest half
                    del self._masks[old]
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


def _box(a: Hex, b: Hex) -> tuple[int, int, int, int]:
    """Every hex a line a → b enters or touches lies within one hex (in q and in r) of the ends' box."""
    return min(a.q, b.q) - 1, max(a.q, b.q) + 1, min(a.r, b.r) - 1, max(a.r, b.r) + 1


def _forget(
    remembered: dict[tuple[Hex, Hex], _Remembered], hex_bits: list[int], edge_bits: list[int],
    places: list[tuple[int, int]],
) -> None:
    """Drop the remembered verdicts whose masks hold one of the changed (absolute) bits.

    ``places``: (q, r) of each changed hex and of each changed edge's stored hex, to pass over far lines
    quickly (an edge's other hex is one step from its stored one, so the box test holds for it too).
    Pairs that end on a changed hex are dropped as well: their verdicts still hold, but a figure has
    just left or reached that hex, so they are mostly never asked again and would only grow the table.
    """
    stale = []
    ends = set(places[: len(hex_bits)])
    for pair, (_, s, hexes, edges, q_lo, q_hi, r_lo, r_hi) in remembered.items():
        for q, r in places:
            if q_lo - 1 <= q <= q_hi + 1 and r_lo - 1 <= r <= r_hi + 1:
                break
        else:
            continue
        a, b = pair
        if (a.q, a.r) in ends or (b.q, b.r) in ends:
            stale.append(pair)
            continue
        for bit in hex_bits:
            rel = bit - s
            if rel >= 0 and hexes >> rel & 1:
                stale.append(pair)
                break
        else:
            s3 = 3 * s
            for bit in edge_bits:
                rel = bit - s3
                if rel >= 0 and edges >> rel & 1:
                    stale.append(pair)
                    break
    for pair in stale:
        del remembered[pair]


_CLEAR = SightVerdict(Sight.CLEAR)
# Per grid width: offset → masks. Shared by every board of that width (boards change with every move).
_MASKS: dict[int, dict[tuple[int, int], _OffsetMasks]] = {}


def _encode(width: int, dq: int, dr: int) -> _OffsetMasks:
    """The traces of one offset as masks for a grid ``width`` hexes wide (independent of the blockers).

    Built from the plain-coordinate trace, so no Hex or Edge object is made.
    """
    if dq == 0 and dr == 0:
        return _OffsetMasks(0, 0, 0, 0, 0, 0, 0, 0, {}, {}, {}, {}, 0, 0)
    t = raw_trace(dq, dr)
    base = min(r * width + q for q, r in (*t.plus, *t.minus))
    low_direction = _LOW_DIRECTION

    def encode(steps: Iterable[RawStep]) -> tuple[int, int, dict[int, int]]:
        hexes = edges = 0
        ranks: dict[int, int] = {}
        for rank, item in steps:
            first, second = item
            if isinstance(first, int):
                bit = second * width + first - base  # type: ignore[operator]
                hexes |= 1 << bit
                ranks[2 * bit] = rank
            else:
                (aq, ar), (bq, br) = first, second  # type: ignore[misc]
                k = low_direction.get((bq - aq, br - ar))
                if k is None:
                    k = low_direction[(aq - bq, ar - br)]
                    aq, ar = bq, br
                bit = 3 * (ar * width + aq - base) + k
                edges |= 1 << bit
                ranks[2 * bit + 1] = rank
        return hexes, edges, ranks

    plus_h, plus_e, plus_r = encode(t.plus_steps)
    minus_h, minus_e, minus_r = encode(t.minus_steps)
    crossed_h, crossed_e, crossed_r = encode(t.crossed_steps)
    _, along_e, along_r = encode(t.along_steps)
    return _OffsetMasks(base, plus_h, plus_e, minus_h, minus_e, crossed_h, crossed_e, along_e,
                        plus_r, minus_r, crossed_r, along_r, plus_h | minus_h, plus_e | minus_e | along_e)


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
