"""Squares, the worked example of a board kind in a folder of its own (``HEXA_RULESETS=docs/examples/squares``).

A chequerboard-like grid of square cells labelled like a chess board ("A1" top left), each step to one of the four
orthogonal neighbours. Importing the package registers the kind ``squares``; nothing outside this folder names it.
"""

from .board import SquareBoard
from .kind import SquareKind

__all__ = ["SquareBoard", "SquareKind"]
