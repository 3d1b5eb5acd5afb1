"""A board graph's search answer, read as ``{Cell: Reach}``: each entry is made only when it is read.

:meth:`engine.cell_graph.CellGraph.reachable` ends with cell numbers, their costs and each one's parent.
Most readers want the hexes and costs, and the path of one chosen hex; :class:`CellReach` keeps the
numbers and makes a ``Reach`` (and its path, sharing the parent's) on demand. It equals the dict the
reference search gives, entry for entry and in the same order.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, Sequence, ValuesView

from engine.board.base import Cell
from engine.pathfinding import Reach


class CellReach(Mapping[Cell, Reach]):
    """Every cell a move can finish on with its cheapest way there, built from a search over cell numbers."""

    __slots__ = ("_cells", "_cost", "_every", "_made", "_number", "_order", "_out", "_parent", "_paths")

    def __init__(self, cells: Sequence[Cell | None], number: Mapping[tuple[int, int], int], order: list[int],
                 cost: Mapping[int, float], parent: Mapping[int, int], out: set[int]) -> None:
        """``order``: the cells found, the start first; ``out``: those passed, never finished on (not the start)."""
        self._cells = cells
        self._number = number
        self._order = order
        self._cost = cost
        self._parent = parent
        self._out = out
        start = cells[order[0]]
        assert start is not None
        self._paths: dict[int, tuple[Cell, ...]] = {order[0]: (start,)}
        self._made: dict[int, Reach] = {}
        self._every: list[Reach] | None = None

    def _find(self, h: object) -> int | None:
        """The number of ``h`` when it is in the answer, else None."""
        try:
            k = self._number.get((h.q, h.r))  # type: ignore[attr-defined]
        except AttributeError:
            return None
        if k is None or k not in self._cost or k in self._out:
            return None
        return k

    def __contains__(self, h: object) -> bool:
        return self._find(h) is not None

    def __getitem__(self, h: Cell) -> Reach:
        k = self._find(h)
        if k is None:
            raise KeyError(h)
        made = self._made.get(k)
        if made is None:
            made = self._made[k] = Reach(self._cost[k], self.path_of(k))
        return made

    def path_of(self, k: int) -> tuple[Cell, ...]:
        """The path to cell number ``k`` (one the search found), sharing the paths already made."""
        paths, parent, cells = self._paths, self._parent, self._cells
        chain = []
        while k not in paths:
            chain.append(k)
            k = parent[k]
        path = paths[k]
        for n in reversed(chain):
            path = paths[n] = (*path, cells[n])  # type: ignore[arg-type]
        return path

    def _members(self) -> list[int]:
        """The numbers in the answer, in its order."""
        out = self._out
        return self._order if not out else [k for k in self._order if k not in out]

    def _all(self) -> list[Reach]:
        """Every entry's ``Reach`` in order, made in one pass (parents come before their cells in ``order``)."""
        if self._every is None:
            paths, parent, cells, cost, out, order = (self._paths, self._parent, self._cells, self._cost, self._out,
                                                       self._order)
            every = [Reach(cost[order[0]], paths[order[0]])]
            for k in order[1:]:
                path = paths.get(k)
                if path is None:
                    path = paths[k] = (*paths[parent[k]], cells[k])  # type: ignore[arg-type]
                if k not in out:
                    every.append(Reach(cost[k], path))
            self._every = every
        return self._every

    def __iter__(self) -> Iterator[Cell]:
        return map(self._cells.__getitem__, self._members())  # type: ignore[arg-type]

    def values(self) -> ValuesView[Reach]:
        return _Values(self)

    def items(self) -> ItemsView[Cell, Reach]:
        return _Items(self)

    def __len__(self) -> int:
        return len(self._order) - len(self._out)

    def __repr__(self) -> str:
        return f"CellReach({dict(self.items())!r})"


class _Values(ValuesView[Reach]):
    """The answer's entries, all made in one pass when first iterated."""

    _mapping: CellReach

    def __iter__(self) -> Iterator[Reach]:
        return iter(self._mapping._all())


class _Items(ItemsView[Cell, Reach]):
    """The answer's hexes with their entries, all made in one pass when first iterated."""

    _mapping: CellReach

    def __iter__(self) -> Iterator[tuple[Cell, Reach]]:
        return zip(self._mapping, self._mapping._all(), strict=True)
