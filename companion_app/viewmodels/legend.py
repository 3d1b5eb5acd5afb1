"""The legend: every symbol the board draws, from what the engine sent (the sides, the terrain and edge kinds the
board declares, the rule set's queries) and the overlays the app draws. Plain data; the UI draws each swatch with
the board's own drawing code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.board_model import BoardView

DOOR_STATES = {"door": ("closed", "open"), "locked": ("locked", "closed", "open")}  # a door style's states


@dataclass(frozen=True)
class LegendEntry:
    """One symbol: what to draw (``kind`` figure | terrain | edge | token | overlay, with its ``style`` and
    ``state``) and the words for it."""

    kind: str
    text: str
    style: str = ""
    state: str = ""
    side: str = ""


def _help(row: Mapping[str, Any]) -> str:
    text = str(row.get("help", "")).strip()
    return f": {text}" if text else ""


def legend_entries(scenario: Mapping[str, Any] | None, board: BoardView | None,
                   queries: Sequence[Any] = ()) -> list[LegendEntry]:
    """The legend of the board in play: its figures' tokens, terrain kinds, edge kinds (doors by state), tokens,
    then the overlays (the rule set's queries named with the styles they are drawn in)."""
    if scenario is None or board is None:
        return []
    out: list[LegendEntry] = []
    for side in board.sides.values():
        out.append(LegendEntry("figure", f"{side.name}: a {side.shape} token in its colour; the letter is the "
                               "figure's kind (or its name's first letter), its name below", side=side.id))
    if board.uses_facing:
        out.append(LegendEntry("figure", "The wedge on a token's rim: the way the figure faces", state="facing",
                               side=next(iter(board.sides), "")))
    cell = "zone" if board.kind == "zones" else "hex"
    out.append(LegendEntry("figure", f"A number on a token: how many figures stand in the {cell} (tap again for "
                           "the next)", state="stack", side=next(iter(board.sides), "")))
    raw = scenario.get("board") or {}
    for row in raw.get("terrain_kinds") or []:
        out.append(LegendEntry("terrain", f"{str(row['name']).replace('_', ' ').capitalize()}{_help(row)}",
                               style=str(row.get("style", "floor"))))
    if board.kind == "hex":
        for row in raw.get("edge_kinds") or []:
            name = str(row["name"]).replace("_", " ").capitalize()
            style = str(row.get("style", "wall"))
            if row.get("door"):
                for state in DOOR_STATES.get(style, DOOR_STATES["door"]):
                    out.append(LegendEntry("edge", f"{name}, {state}{_help(row) if state == 'closed' else ''}",
                                           style=style, state=state))
            else:
                out.append(LegendEntry("edge", f"{name}{_help(row)}", style=style))
    if any(t.tokens for t in board.tiles.values()):
        out.append(LegendEntry("token", "A token on the map (treasure): its first letter on a gold diamond"))
    out += [
        LegendEntry("overlay", f"Filled: the {cell}s the figure being moved may go to, each with its cost",
                    style="moves"),
        LegendEntry("overlay", "Bright outline: a figure or cell you may choose", style="choices"),
    ]
    styled = {"shade": "Shaded: an inspected figure's answers drawn as shading (its reach)",
              "warn": "Dashed orange outline: Threatened (entering stops a move, or a figure is in danger)",
              "outline": "White outline: ranges and areas"}
    out += [LegendEntry("overlay", text, style=style) for style, text in styled.items()]
    out += [LegendEntry("overlay", "Line of sight: clear (solid, OK)", style="sight", state="clear"),
            LegendEntry("overlay", "Line of sight: blocked (short dashes, X; the blocking wall or hex ringed)",
                        style="sight", state="blocked"),
            LegendEntry("overlay", "Line of sight: unclear (long dashes, ?): the players or GM decide", style="sight",
                        state="ambiguous"),
            LegendEntry("overlay", "Pink arrow and X: a move on the table the rules refuse", style="illegal"),
            LegendEntry("overlay", "Yellow arrow: a figure the camera sees elsewhere; put it back", style="desync")]
    for q in queries:
        help_text = f": {q.help}" if getattr(q, "help", "") else ""
        out.append(LegendEntry("query", f"{q.label}{help_text}"))
    return out
