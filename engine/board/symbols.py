"""Map symbols: the characters a scenario's drawing writes for terrain kinds and tokens, whatever its board kind.

Symbols every drawing knows (:data:`CORE_SYMBOLS`): ``.`` floor, ``#`` blocking, ``o`` low obstacle, ``~`` water, and
``-`` for no cell (:data:`NO_TILE`). A rule set adds its own (``RuleSet.map_symbols``: Fantasy Battle's ``T``
treasure, ``P`` prisoner, ``X`` exit); drawings made without a rule set know those too (:data:`DEFAULT_SYMBOLS`).
How the symbols are laid out is the board kind's (the hex map's staggered rows: :mod:`engine.board.hex.ascii_map`).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.board.terrain import Terrain

TERRAIN_SYMBOLS: dict[str, str] = {
    ".": Terrain.FLOOR,
    "#": Terrain.BLOCKING,
    "o": Terrain.LOW_OBSTACLE,
    "~": Terrain.WATER,
}
# The tokens of the bundled rule set's drawings, for drawings read or drawn without a rule set (tests, the CLI).
TOKEN_SYMBOLS: dict[str, str] = {"T": "treasure", "P": "prisoner", "X": "exit"}
NO_TILE = "-"

Symbols = Mapping[str, tuple[str, str | None]]  # symbol → (terrain kind name, token lying there or None)
CORE_SYMBOLS: dict[str, tuple[str, str | None]] = {ch: (t, None) for ch, t in TERRAIN_SYMBOLS.items()}
DEFAULT_SYMBOLS: dict[str, tuple[str, str | None]] = {
    **CORE_SYMBOLS, **{ch: (Terrain.FLOOR, token) for ch, token in TOKEN_SYMBOLS.items()}
}
