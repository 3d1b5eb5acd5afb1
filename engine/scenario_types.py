"""A scenario as plain data: its sides, players, figures, victory conditions, board and options.

:mod:`engine.scenario` reads them from a scenario file (and re-exports them); these types import nothing of
the loader or of the rule sets, so the rule-set interface (:mod:`engine.rules.base`) names them without an
import circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.board import Board, Point
from engine.board.base import Cell
from engine.board.symbols import Symbols
from engine.layout import Layout


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    colour: str


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    sides: tuple[str, ...]


@dataclass(frozen=True)
class FigureSpec:
    """A figure as the scenario sets it up: the keys every rule set shares, and the rule set's own ``fields``.

    A rule set reads its own fields through typed accessors (:class:`engine.rule_fields.FieldRef`).
    """

    id: str
    name: str
    marker_id: int
    side: str
    start: Cell
    height_mm: float = 0.0  # height of the tag above the table, for the camera's parallax correction
    fields: Mapping[str, Any] = field(default_factory=dict)  # the rule set's figure fields, defaults filled


@dataclass(frozen=True)
class VictorySpec:
    """One way for a side to win: a ``type`` the rule set declares, with that type's own ``fields``."""

    side: str
    type: str
    text: str
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    description: str
    ruleset: str
    options: Mapping[str, Any]
    sides: tuple[SideSpec, ...]
    players: tuple[PlayerSpec, ...]
    figures: tuple[FigureSpec, ...]
    victory: tuple[VictorySpec, ...]
    board: Board
    layout: Layout
    anchors: Mapping[int, Cell] = field(default_factory=dict)
    source: str = "<text>"
    text: str = ""
    tables: Mapping[str, Any] = field(default_factory=dict)  # the rule set's own tables, checked, defaults filled
    warnings: tuple[str, ...] = ()  # what loads but may not be meant (shown when a game starts)
    symbols: Symbols = field(default_factory=dict)  # the map drawing's symbols: the core's, the rule set's, its own
    level_height_mm: float = 0.0  # how much one height level raises a tile's top above the table (raised tiles)

    def figure(self, figure_id: str) -> FigureSpec:
        for f in self.figures:
            if f.id == figure_id:
                return f
        raise KeyError(figure_id)

    def side(self, side_id: str) -> SideSpec:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    def figure_by_marker(self, marker_id: int) -> FigureSpec | None:
        return next((f for f in self.figures if f.marker_id == marker_id), None)

    def label(self, h: Cell) -> str:
        return self.board.label(h)

    def tag_height_mm(self, figure: FigureSpec, cell: Cell) -> float:
        """How high a figure's tag stands above the table on ``cell``: its level × the level height + its own
        tag height (what the camera's parallax correction needs for a figure on a raised tile)."""
        return self.board.level(cell) * self.level_height_mm + figure.height_mm

    def anchor_points_mm(self) -> dict[int, Point]:
        """Where the table is registered from (tag id → centre, map millimetres): the anchors the scenario names on
        cells, or when it names none the tags printed on the board itself (a zone mat's corner tags)."""
        if self.anchors:
            return {tag: self.board.centre_mm(cell) for tag, cell in self.anchors.items()}
        return self.board.printed_anchors_mm()
