"""Parse small hex maps drawn as text, so tests read like the board they describe.

One row of text per offset row, one whitespace-separated symbol per column, odd-q offset
coordinates (flat-top hexes, odd columns pushed half a hex down; column 0 row 0 is Hex(0, 0)).
Symbols: '.' floor, '#' blocked, 'F' friend, 'E' enemy, 'S' start, 'T' target, '*' expected
(reachable, on the line). Any other symbol is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.hexes import Hex, Orientation, from_offset

SYMBOLS = frozenset(".#FEST*")


@dataclass
class AsciiMap:
    """The hexes of a drawn map grouped by symbol."""

    cells: dict[Hex, str] = field(default_factory=dict)

    def where(self, symbols: str) -> set[Hex]:
        """Hexes drawn with any of ``symbols``."""
        return {h for h, c in self.cells.items() if c in symbols}

    def one(self, symbol: str) -> Hex:
        found = self.where(symbol)
        if len(found) != 1:
            raise ValueError(f"expected exactly one {symbol!r} on the map, found {len(found)}")
        return found.pop()

    def on_map(self, h: Hex) -> bool:
        return h in self.cells

    def step_cost(self, blocked: str = "#E") -> Callable[[Hex, Hex], float | None]:
        """Cost 1 per step onto a drawn hex that is not one of the ``blocked`` symbols; None otherwise."""
        allowed = {h for h, c in self.cells.items() if c not in blocked}

        def cost(a: Hex, b: Hex) -> float | None:
            return 1.0 if b in allowed else None

        return cost


def parse(text: str) -> AsciiMap:
    """Read a drawn odd-q map (see the module docstring)."""
    result = AsciiMap()
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    for row, symbols in enumerate(rows):
        for col, symbol in enumerate(symbols):
            if symbol not in SYMBOLS:
                raise ValueError(f"unknown map symbol {symbol!r} at column {col}, row {row}")
            result.cells[from_offset(col, row, Orientation.FLAT)] = symbol
    return result
