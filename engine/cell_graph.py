"""A board's movement graph over integer cells: the fast form of ``engine.pathfinding.reachable``.

A rule set builds one :class:`CellGraph` per board from the part of its step cost that depends on the
board alone (terrain, walls, levels, doors), keeps it, and refreshes only the cells around what changed
(a door opened: :meth:`CellGraph.follow_edges`). Each query then gives what depends on the position as
cell sets: ``blocked`` (cannot be entered: an enemy's hex), ``stops`` (a move ends on entering: contact)
and ``keep_out`` (passed through, never finished on: a friend's hex). The answer is exactly
``reachable(start, budget, step_cost, stops=…, can_end=…)`` with ``step_cost`` the static cost that
also refuses ``blocked``: the same hexes, costs and paths. Inside, cells are indices into a padded
(q, r) grid whose order is the (q, r) order, so the search's ties break as the reference's do and no
cell value is hashed: the position's cells become cell numbers through a table keyed by ``(q, r)``, and the
answer (:class:`engine.cell_reach.CellReach`) makes each entry only when it is read.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from operator import attrgetter

from engine.board.base import Cell
from engine.cell_reach import CellReach
from engine.hexes import DIRECTIONS, Edge
from engine.pathfinding import Reach, StepCost, reachable

_BUDGET_SLACK = 1e-9  # as engine.pathfinding: fractional sums must not fall just outside a budget they meet
_QR = attrgetter("q", "r")  # a hex's (q, r), read without running Python code per hex


class CellGraphError(ValueError):
    """A movement graph was built from a step cost it cannot hold (a negative cost)."""


class CellGraph:
    """Every allowed step between a board's cells with its cost, cells numbered in (q, r) order."""

    def __init__(self, cells: Iterable[Cell], step_cost: StepCost) -> None:
        """Price every step between neighbouring ``cells`` with ``step_cost`` (None forbids it).

        ``cells`` must hold every cell a move may enter: a step to any other is never taken.
        """
        self._cells = sorted(set(cells))
        self._cost = step_cost
        qs = [h.q for h in self._cells] or [0]
        rs = [h.r for h in self._cells] or [0]
        self._q0, self._r0 = min(qs) - 1, min(rs) - 1
        self._width = max(rs) - self._r0 + 2
        self._size = (max(qs) - self._q0 + 2) * self._width
        self._hex: list[Cell | None] = [None] * self._size
        for h in self._cells:
            self._hex[self._at(h)] = h
        self._number = {(h.q, h.r): self._at(h) for h in self._cells}  # a tuple's hash runs in C, a Cell's in Python
        self._exits: list[tuple[tuple[int, float], ...]] = [()] * self._size
        self._steps: list[tuple[int, ...]] = [()] * self._size  # the same exits' cells alone, for equal prices
        self._prices: Counter[float] = Counter()
        self._followed: dict[Edge, object] | None = None
        for h in self._cells:
            self._price(h)

    def _at(self, h: Cell) -> int:
        return (h.q - self._q0) * self._width + (h.r - self._r0)

    def index(self, h: Cell) -> int | None:
        """The cell's number in this graph, or None when it is not one of its cells."""
        return self._number.get((h.q, h.r))

    def _indices(self, hexes: Iterable[Cell]) -> set[int]:
        """The numbers of those of ``hexes`` that are cells of this graph (the loop runs in C)."""
        found: set[int | None] = set(map(self._number.get, map(_QR, hexes)))
        found.discard(None)
        return found  # type: ignore[return-value]

    def _price(self, a: Cell) -> None:
        """(Re)price the steps out of ``a``, neighbours in direction order."""
        k = self._at(a)
        self._prices.subtract(c for _, c in self._exits[k])
        out = []
        for d in DIRECTIONS:
            b = Cell(a.q + d.q, a.r + d.r)
            n = self.index(b)
            if n is None:
                continue
            c = self._cost(a, b)
            if c is None:
                continue
            if not c >= 0:
                raise CellGraphError(f"step_cost({a!r}, {b!r}) returned {c!r}: costs must be >= 0 or None")
            out.append((n, float(c)))
        self._exits[k] = tuple(out)
        self._steps[k] = tuple(n for n, _ in out)
        self._prices.update(c for _, c in out)

    def refresh(self, cells: Iterable[Cell], step_cost: StepCost | None = None) -> None:
        """Price again the steps out of and into ``cells`` (with a new ``step_cost`` when given)."""
        if step_cost is not None:
            self._cost = step_cost
        todo = set()
        for h in cells:
            if self.index(h) is not None:
                todo.add(h)
            todo.update(n for n in h.neighbours() if self.index(n) is not None)
        for h in todo:
            self._price(h)

    def follow_edges(self, edges: Mapping[Edge, object], step_cost: StepCost) -> None:
        """Keep the graph in step with edges whose state changes (doors: ``state.doors``).

        ``step_cost`` reads the states now given; the cells on both sides of every edge whose state differs
        from the last call's (on the first call: every edge given) are priced again with it.
        """
        seen, now = self._followed, dict(edges)
        changed = now.keys() if seen is None else [e for e in seen.keys() | now.keys() if seen.get(e) != now.get(e)]
        self._followed = now
        self.refresh((c for e in changed for c in (e.a, e.b)), step_cost)

    def reachable(self, start: Cell, budget: float, *, blocked: Iterable[Cell] = (),
                  stops: Iterable[Cell] = (), keep_out: Iterable[Cell] = ()) -> Mapping[Cell, Reach]:
        """Every cell a move from ``start`` can finish on within ``budget``, with its cheapest path.

        The same answer as ``engine.pathfinding.reachable`` given this graph's step cost (refusing
        ``blocked``), ``stops=stops`` and ``can_end`` false on ``keep_out``; the start is always in it.
        Each entry's ``Reach`` is made when it is first read (see :class:`engine.cell_reach.CellReach`).
        """
        if not budget >= 0:
            raise ValueError(f"budget must be a number >= 0, got {budget!r}")
        s = self.index(start)
        if s is None:
            return self.reference(start, budget, blocked=blocked, stops=stops, keep_out=keep_out)
        seen = bytearray(self._size)
        for k in self._indices(blocked):
            seen[k] = 1
        seen[s] = 1
        halt = self._indices(stops)
        halt.discard(s)
        limit = budget + _BUDGET_SLACK
        prices = [c for c, n in self._prices.items() if n > 0]
        if len(prices) <= 1:
            order, cost, parent = self._layers(s, limit, seen, halt, prices[0] if prices else 0.0)
        else:
            order, cost, parent = self._dijkstra(s, limit, seen, halt)
        out = cost.keys() & self._indices(keep_out)
        out.discard(s)
        return CellReach(self._hex, self._number, order, cost, parent, out)

    def reference(self, start: Cell, budget: float, *, blocked: Iterable[Cell] = (),
                  stops: Iterable[Cell] = (), keep_out: Iterable[Cell] = ()) -> dict[Cell, Reach]:
        """The same query through ``engine.pathfinding.reachable`` and this graph's step cost (the baseline)."""
        refused, halt, out = _as_set(blocked), _as_set(stops), _as_set(keep_out)
        cost, cells = self._cost, self._hex

        def step_cost(a: Cell, b: Cell) -> float | None:
            k = self.index(b)
            if k is None or b in refused or cells[k] is None:
                return None
            return cost(a, b)

        return reachable(start, budget, step_cost, stops=halt.__contains__, can_end=lambda h: h not in out)

    def _layers(self, s: int, limit: float, seen: bytearray, halt: set[int], unit: float,
                ) -> tuple[list[int], dict[int, float], dict[int, int]]:
        """Every step costs ``unit``: breadth first, each layer in index order (the heap's own order)."""
        steps = self._steps
        order = [s]
        cost = {s: 0.0}
        parent: dict[int, int] = {}
        layer = [s]
        spent = 0.0
        while layer and spent + unit <= limit:
            following: list[int] = []
            found = following.append
            for k in layer:
                if k in halt:
                    continue
                for n in steps[k]:
                    if not seen[n]:
                        seen[n] = 1
                        parent[n] = k
                        found(n)
            spent = spent + unit
            following.sort()
            cost.update(dict.fromkeys(following, spent))
            order += following
            layer = following
        return order, cost, parent

    def _dijkstra(self, s: int, limit: float, blocked: bytearray, halt: set[int],
                  ) -> tuple[list[int], dict[int, float], dict[int, int]]:
        """Steps of several costs: a heap ordered by (cost, steps, index), as the reference's (cost, steps, q, r)."""
        exits, pop, push = self._exits, heapq.heappop, heapq.heappush
        best: dict[int, tuple[float, int]] = {s: (0.0, 0)}
        parent: dict[int, int] = {}
        cost: dict[int, float] = {}
        order: list[int] = []
        heap: list[tuple[float, int, int]] = [(0.0, 0, s)]
        while heap:
            spent, steps, k = pop(heap)
            if k in cost:
                continue
            cost[k] = spent
            order.append(k)
            if k in halt:
                continue
            steps += 1
            for n, c in exits[k]:
                if blocked[n] and n != s:
                    continue
                total = spent + c
                if total > limit:
                    continue
                old = best.get(n)
                if old is None or (total, steps) < old:
                    best[n] = (total, steps)
                    parent[n] = k
                    push(heap, (total, steps, n))
        return order, cost, parent


def _as_set(hexes: Iterable[Cell]) -> Collection[Cell]:
    return hexes if isinstance(hexes, (set, frozenset)) else set(hexes)


class KeptGraphs:
    """The movement graphs a rule set keeps, one per board it was asked about (a few at most)."""

    _LIMIT = 4

    def __init__(self) -> None:
        self._graphs: dict[int, tuple[object, CellGraph]] = {}

    def of(self, board: Iterable[Cell], step_cost: StepCost) -> CellGraph:
        """The graph of ``board`` (the same object as before: boards are not changed in place), built once."""
        found = self._graphs.get(id(board))
        if found is not None and found[0] is board:
            return found[1]
        if len(self._graphs) >= self._LIMIT:
            self._graphs.clear()
        graph = CellGraph(board, step_cost)
        self._graphs[id(board)] = (board, graph)
        return graph
