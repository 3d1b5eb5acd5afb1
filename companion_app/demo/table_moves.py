"""Where figures must stand on the synthetic table for the game, and which hand moves put them there.

Shared by the tablet's hand proxy and the headless player. In the synthetic table map millimetres
are table millimetres (the scenario's board is drawn where it says and the anchors sit where the board
puts them), so a cell's table position is the board's :meth:`~engine.board.Board.centre_mm`, and the cell
under a table position its :meth:`~engine.board.Board.locate`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.board.base import Cell
from engine.game import Game
from engine.hexes import Hex
from engine.scenario import Scenario
from vision.synthetic.scenario_scene import DEFAULT_FIGURE_HEIGHT_MM, FIGURE_TAG_MM

SLIDE_MM = 1.0  # a figure of a stack nearer its place than this is left where it stands


@dataclass(frozen=True)
class TableMove:
    """Put ``marker`` (figure ``figure``) on hex ``to`` at (x, y) mm, or take it off the table (``to`` None)."""

    figure: str
    marker: int
    to: Hex | None
    x_mm: float = 0.0
    y_mm: float = 0.0
    angle_deg: float = 0.0
    height_mm: float | None = None  # the tag's height above the table on a raised tile (None: unchanged)


def crowds(game: Game, figure: str, cell: Cell) -> bool:
    """Whether ``figure`` joining the stack on ``cell`` leaves two of its stand points closer than a tag's width:
    the tags would overlap and the camera could not tell them apart (a fifth figure on a 50 mm hex)."""
    others = [f for f in game.state.figures_at(cell) if f.id != figure]
    if not others:
        return False
    points = game.scenario.board.stand_points_mm(cell, len(others) + 1)
    return any(math.dist(a, b) < FIGURE_TAG_MM for i, a in enumerate(points) for b in points[i + 1:])


def place_on(scenario: Scenario, figure: str, to: Hex, table: Mapping[int, Mapping[str, Any]] | None = None
             ) -> TableMove:
    """The hand move that puts ``figure`` on cell ``to``: the board's place for it in the stack it joins there
    (``table``: the control socket's markers by id; :func:`make_room` slides the others apart first), so that
    every tag of a stack stays in view; its tag at the tile's height when the scenario has raised tiles."""
    spec = scenario.figure(figure)
    x, y = _stack_places(scenario, figure, to, table or {})[1]
    height = None
    if scenario.level_height_mm > 0:
        height = (spec.height_mm or DEFAULT_FIGURE_HEIGHT_MM) + scenario.board.level(to) * scenario.level_height_mm
    return TableMove(figure, spec.marker_id, to, x, y, scenario.layout.rotation_deg, height)


def make_room(scenario: Scenario, figure: str, to: Hex, table: Mapping[int, Mapping[str, Any]]) -> list[TableMove]:
    """The hand moves that slide the figures already on ``to`` to the board's places for a stack one larger, before
    ``figure`` joins them there (as a player pushes them aside): each stays on the cell and keeps its facing."""
    return _stack_places(scenario, figure, to, table)[0]


def _stack_places(scenario: Scenario, figure: str, to: Hex, table: Mapping[int, Mapping[str, Any]]
                  ) -> tuple[list[TableMove], tuple[float, float]]:
    """The slides of the figures on ``to`` (each to the nearest place left of a stack one larger) and the place
    left for ``figure``."""
    spec = scenario.figure(figure)
    here = [(other, m) for i, m in table.items() if i != spec.marker_id
            and (other := scenario.figure_by_marker(i)) is not None and table_hex(scenario, m) == to]
    free = list(scenario.board.stand_points_mm(to, len(here) + 1))
    slides = []
    for other, m in here:
        at = (float(m["x_mm"]), float(m["y_mm"]))
        place = min(free, key=lambda p: math.dist(p, at))
        free.remove(place)
        if math.dist(place, at) > SLIDE_MM:
            slides.append(TableMove(other.id, other.marker_id, to, place[0], place[1], float(m.get("angle_deg", 0.0))))
    return slides, free[0]


def table_hex(scenario: Scenario, marker: Mapping[str, Any]) -> Hex | None:
    """The cell a marker of the control socket's ``list`` stands on (None when it is off the table)."""
    if marker["state"] not in ("on_table", "moving"):
        return None
    return scenario.board.locate(float(marker["x_mm"]), float(marker["y_mm"]))


def corrections(scenario: Scenario, state: Mapping[str, Any], table: Mapping[int, Mapping[str, Any]],
                skip: str | None = None) -> list[TableMove]:
    """Hand moves that make the table match the game (a retreat or advance the game made, a removed figure).

    ``state`` is the game state's dict form; ``table`` the control socket's markers by id; ``skip`` a
    figure left alone (the one whose move or removal the game is waiting for).
    """
    out: list[TableMove] = []
    for spec in scenario.figures:
        if spec.id == skip or spec.marker_id not in table:
            continue
        fig = state["figures"][spec.id]
        want = Hex(*fig["hex"]) if fig["on_table"] and fig["hex"] is not None else None
        seen = table_hex(scenario, table[spec.marker_id])
        if want == seen:
            continue
        if want is None:
            out.append(TableMove(spec.id, spec.marker_id, None))
        else:
            out.extend(make_room(scenario, spec.id, want, table))
            out.append(place_on(scenario, spec.id, want, table))
    return out
