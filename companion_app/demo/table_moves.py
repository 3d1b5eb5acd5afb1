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

from engine.hexes import Hex
from engine.scenario import Scenario

FREE_SPOT = 0.4  # share of a cell a spot keeps from every other figure's tag


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


SYNTHETIC_FIGURE_MM = 30.0  # the synthetic table's body for a figure that gives no height_mm


def place_on(scenario: Scenario, figure: str, to: Hex, table: Mapping[int, Mapping[str, Any]] | None = None
             ) -> TableMove:
    """The hand move that puts ``figure`` on cell ``to``: the board's first place to stand there that no other figure
    takes (``table``: the control socket's markers by id), so that every tag of a stack stays in view; its tag at
    the tile's height when the scenario has raised tiles."""
    spec = scenario.figure(figure)
    others = [(float(m["x_mm"]), float(m["y_mm"])) for i, m in (table or {}).items()
              if i != spec.marker_id and m["state"] in ("on_table", "moving")]
    spots = scenario.board.stand_points_mm(to)
    free = [p for p in spots if all(math.dist(p, o) > FREE_SPOT * scenario.board.cell_mm for o in others)]
    x, y = free[0] if free else spots[0]
    height = None
    if scenario.level_height_mm > 0:
        height = (spec.height_mm or SYNTHETIC_FIGURE_MM) + scenario.board.level(to) * scenario.level_height_mm
    return TableMove(figure, spec.marker_id, to, x, y, scenario.layout.rotation_deg, height)


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
        out.append(place_on(scenario, spec.id, want, table) if want is not None
                   else TableMove(spec.id, spec.marker_id, None))
    return out
