"""Where figures must stand on the synthetic table for the game, and which hand moves put them there.

Shared by the tablet's hand proxy and the headless player. In the synthetic table map millimetres
are table millimetres (the scenario is drawn where its layout says and the anchors sit on their
hexes), so a hex's table position is the scenario layout's :meth:`~engine.layout.Layout.hex_to_mm`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.hexes import Hex
from engine.scenario import Scenario


@dataclass(frozen=True)
class TableMove:
    """Put ``marker`` (figure ``figure``) on hex ``to`` at (x, y) mm, or take it off the table (``to`` None)."""

    figure: str
    marker: int
    to: Hex | None
    x_mm: float = 0.0
    y_mm: float = 0.0
    angle_deg: float = 0.0


# Where the figures of a stack stand in their hex, as fractions of the hex's width across flats: the first at
# the centre, the others around it, so that each tag stays in sight.
STACK_SLOTS: tuple[tuple[float, float], ...] = ((0.0, 0.0), (0.42, 0.0), (-0.42, 0.0), (0.0, 0.42), (0.0, -0.42))


def place_on(scenario: Scenario, figure: str, to: Hex, slot: int = 0) -> TableMove:
    """The hand move that puts ``figure`` on hex ``to``: on its centre, or on the ``slot``-th place of a stack."""
    x, y = scenario.layout.hex_to_mm(to)
    fx, fy = STACK_SLOTS[slot % len(STACK_SLOTS)]
    across = scenario.layout.size_mm * 3 ** 0.5
    return TableMove(figure, scenario.figure(figure).marker_id, to, x + fx * across, y + fy * across,
                     scenario.layout.rotation_deg)


def table_hex(scenario: Scenario, marker: Mapping[str, Any]) -> Hex | None:
    """The hex a marker of the control socket's ``list`` stands on (None when it is off the table)."""
    if marker["state"] not in ("on_table", "moving"):
        return None
    return scenario.layout.mm_to_hex(float(marker["x_mm"]), float(marker["y_mm"]))


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
        out.append(place_on(scenario, spec.id, want) if want is not None else TableMove(spec.id, spec.marker_id, None))
    return out
