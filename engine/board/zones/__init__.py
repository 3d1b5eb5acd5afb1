"""The zone board, a board kind in a folder of its own (``[map] kind = "zones"``): square zones in rows and columns
such as the Tenkey battle's keypad mat. Importing the package registers the kind, as importing a plug-in's folder
registers its own (:mod:`engine.board.kinds` imports it on first lookup)."""

from engine.board.zones.board import ZoneBoard, keypad_board
from engine.board.zones.kind import ZoneKind

__all__ = ["ZoneBoard", "ZoneKind", "keypad_board"]
