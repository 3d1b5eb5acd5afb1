"""The hex map, a board kind in a folder of its own (``[map] kind = "hex"``): the board, its staggered text drawing
(:mod:`engine.board.hex.ascii_map`) and its kind. Importing the package registers the kind, as importing a plug-in's
folder registers its own (:mod:`engine.board.kinds` imports it on first lookup)."""

from engine.board.hex.board import DEFAULT_HEX_MM, HexBoard, board_from
from engine.board.hex.kind import HexKind

__all__ = ["DEFAULT_HEX_MM", "HexBoard", "HexKind", "board_from"]
