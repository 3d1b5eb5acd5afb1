"""The legend: every symbol the board draws, from what the engine sent (the sides, the terrain and edge kinds the
board declares, the rule set's queries) and the overlays the app draws. Plain data; the UI draws each swatch with
the board's own drawing code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.board_model import BoardView
from companion_app.viewmodels.words import cell_noun
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

# The figures' token shapes and a door's states in words (shown with _()).
SHAPE_WORDS: dict[str, str] = {"circle": N_("circle"), "square": N_("square"), "triangle": N_("triangle"),
                               "diamond": N_("diamond")}
STATE_WORDS: dict[str, str] = {"closed": N_("closed"), "open": N_("open"), "locked": N_("locked")}
# The terrain and edge kinds every rule set shares, by name (a rule set's own kinds read as the engine names them).
KIND_WORDS: dict[str, str] = {"floor": N_("Floor"), "blocking": N_("Blocking"), "low": N_("Low"),
                              "water": N_("Water"), "wall": N_("Wall"), "door": N_("Door"), "locked": N_("Locked")}
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


def _named(name: str, row: Mapping[str, Any]) -> str:
    """A kind's name with its help, where it has one ("Wall: blocks movement and sight")."""
    text = str(row.get("help", "")).strip()
    return _("{name}: {help}", name=name, help=text) if text else name


def legend_entries(scenario: Mapping[str, Any] | None, board: BoardView | None,
                   queries: Sequence[Any] = ()) -> list[LegendEntry]:
    """The legend of the board in play: its figures' tokens, terrain kinds, edge kinds (doors by state), tokens,
    then the overlays (the rule set's queries named with the styles they are drawn in)."""
    if scenario is None or board is None:
        return []
    out: list[LegendEntry] = []
    for side in board.sides.values():
        shape = _(SHAPE_WORDS.get(side.shape, side.shape))
        out.append(LegendEntry("figure", _("{side}: a {shape} token in its colour; the letter is the figure's kind (or "
                                           "its name's first letter), its name below", side=side.name, shape=shape),
                               side=side.id))
    if board.uses_facing:
        out.append(LegendEntry("figure", _("The wedge on a token's rim: the way the figure faces"), state="facing",
                               side=next(iter(board.sides), "")))
    cell, cells = cell_noun(board.kind), cell_noun(board.kind, 2)
    out.append(LegendEntry("figure", _("A number on a token: how many figures stand in the {cell} (tap again for "
                                       "the next)", cell=cell), state="stack", side=next(iter(board.sides), "")))
    raw = scenario.get("board") or {}
    for row in raw.get("terrain_kinds") or []:
        out.append(LegendEntry("terrain", _named(_kind_name(row), row), style=str(row.get("style", "floor"))))
    for row in raw.get("edge_kinds") or []:
        name = _kind_name(row)
        style = str(row.get("style", "wall"))
        if row.get("door"):
            for state in DOOR_STATES.get(style, DOOR_STATES["door"]):
                named = _("{name}, {state}", name=name, state=_(STATE_WORDS[state]))
                out.append(LegendEntry("edge", _named(named, row) if state == "closed" else named,
                                       style=style, state=state))
        else:
            out.append(LegendEntry("edge", _named(name, row), style=style))
    if board.tokens or any(t.tokens for t in board.tiles.values()):  # the map's, or the game's (objects, weapons)
        out.append(LegendEntry("token", _("A token on the map (treasure, an object, a dropped weapon): its first "
                                          "letter on a gold diamond")))
    out += [
        LegendEntry("overlay", _("Filled: the {cells} the figure being moved may go to, each with its cost",
                                 cells=cells), style="moves"),
        LegendEntry("overlay", _("Bright outline: a figure or cell you may choose"), style="choices"),
    ]
    styled = {"shade": _("Shaded: an inspected figure's answers drawn as shading (its reach)"),
              "warn": _("Dashed orange outline: Threatened (entering stops a move, or a figure is in danger)"),
              "outline": _("White outline: ranges and areas")}
    out += [LegendEntry("overlay", text, style=style) for style, text in styled.items()]
    out += [LegendEntry("overlay", _("Line of sight: clear (solid, OK)"), style="sight", state="clear"),
            LegendEntry("overlay", _("Line of sight: blocked (short dashes, X; the blocking wall or hex ringed)"),
                        style="sight", state="blocked"),
            LegendEntry("overlay", _("Line of sight: unclear (long dashes, ?): the players or GM decide"),
                        style="sight", state="ambiguous"),
            LegendEntry("overlay", _("Dashed yellow ring: a blocking {cell} a line of sight only touches (an edge or a "
                                     "corner), which the GM may rule on", cell=cell), style="touched"),
            LegendEntry("overlay", _("Pink arrow and X: a move on the table the rules refuse"), style="illegal"),
            LegendEntry("overlay", _("Yellow arrow: a figure the camera sees elsewhere; put it back"), style="desync")]
    for q in queries:
        help_text = str(getattr(q, "help", "") or "")
        out.append(LegendEntry("query", _("{name}: {help}", name=q.label, help=help_text) if help_text else q.label))
    return out


def _kind_name(row: Mapping[str, Any]) -> str:
    """A terrain or edge kind as people read it: the shared kinds in the app's words, a rule set's own by the
    label the engine sent (in the table's language), else its name ("low_wall": "Low wall")."""
    name = str(row["name"])
    if name in KIND_WORDS:
        return _(KIND_WORDS[name])
    label = str(row.get("label") or "").strip()
    return label or name.replace("_", " ").capitalize()
