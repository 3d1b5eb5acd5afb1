"""What a rule set's query answers, in one shape every tablet draws without knowing the rule set.

An :class:`Overlay` holds cells to mark (each with a drawing style, a short label and a shading
level), lines from a figure to a cell (each with a verdict that picks its colour, the text with
the reason, what blocks it, and the blocking cells it only touches) and lines of text for the list
beside the board. The rule set builds it from its own queries (a prompt may carry one too: what it
asks about); the tablets draw the styles and verdicts listed here and nothing else. Pure data:
:func:`engine.snapshot.overlay_to_dict` puts it on the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.board.base import Cell
from engine.hexes import Edge
from engine.i18n import N_, gettext_for
from engine.pathfinding import Reach
from engine.texts import cells as count_cells

if TYPE_CHECKING:
    from engine.targets import TargetInfo

_ = gettext_for(__name__)

# How a cell is drawn: "shade" filled, the stronger the lower its level (0 … 1), its label in white;
# "warn" a dashed outline in the warning colour with its label (a move stops there);
# "outline" a plain outline (an area, a place to hold).
CELL_STYLES: tuple[str, ...] = ("shade", "warn", "outline")
# A line's verdict picks its colour and its mark: the values of engine.lines.Sight.
VERDICTS: tuple[str, ...] = ("clear", "blocked", "ambiguous")


@dataclass(frozen=True)
class CellMark:
    """A cell to mark: its drawing style (:data:`CELL_STYLES`), a short label on it, a shading level 0 … 1."""

    cell: Cell
    style: str
    label: str = ""
    level: float = 0.0


@dataclass(frozen=True)
class LineMark:
    """A line from a figure's cell to another (``path``, first to last) with its verdict and the text why."""

    path: tuple[Cell, ...]
    verdict: str
    text: str
    target: str | None = None  # the figure at the far end, if any
    blocker: Cell | Edge | None = None  # what blocks the line, outlined on the board
    touched: tuple[Cell, ...] = ()  # blocking cells the line only touches (an edge or a corner): ringed, to judge


@dataclass(frozen=True)
class Overlay:
    """One query's answer as the tablets draw it."""

    query: str
    cells: tuple[CellMark, ...] = ()
    lines: tuple[LineMark, ...] = ()
    texts: tuple[str, ...] = ()  # lines for the list beside the board, before the lines' own texts


def reach_overlay(query: str, moves: Mapping[Cell, Reach], board_kind: str) -> Overlay:
    """Cells a figure may reach, shaded by distance (nearest strongest), each labelled with its cost."""
    costs = sorted(((r.cost, h) for h, r in moves.items() if r.cost > 0), key=lambda item: (item[0], item[1]))
    if not costs:
        return Overlay(query)
    far = max(c for c, _ in costs)
    cells = tuple(CellMark(h, "shade", f"{c:g}", (c - 1) / max(1.0, far - 1) if far > 1 else 0.0) for c, h in costs)
    text = _("{cells} in reach (up to {far} away)", cells=count_cells(board_kind, len(cells)), far=format(far, "g"))
    return Overlay(query, cells, texts=(text,))


def warn_overlay(query: str, cells: set[Cell], text: str) -> Overlay:
    """Cells to warn about (marked "!"); ``text`` says what they are, with ``{n}`` for their number."""
    if not cells:
        return Overlay(query)
    return Overlay(query, tuple(CellMark(h, "warn", "!") for h in sorted(cells)), texts=(text.format(n=len(cells)),))


def sight_overlay(query: str, targets: list[TargetInfo], name_of: Callable[[str], str], verbs: Mapping[str, str],
                  unclear: str = N_("line of sight unclear")) -> Overlay:
    """Lines to each possible target with the verdict and the reason: "shoot Goblin: range 3, clear line of sight".

    ``verbs`` names each action for people ("cast" → "cast at"); ``unclear`` follows an allowed but
    unclear line of sight (how the rule set settles it).
    """
    lines = []
    for t in targets:
        head = _("{verb} {target}: range {range}", verb=verbs.get(t.action, t.action or _("target")),
                 target=name_of(t.target), range=t.range)
        if not t.allowed:
            text = _("{head}, not allowed: {reason}", head=head, reason=t.reason or t.sight.value)
        elif t.sight.value == "ambiguous":
            text = _("{head}, {unclear}", head=head, unclear=_(unclear))
        else:
            text = _("{head}, clear line of sight", head=head)
        lines.append(LineMark(t.path, t.sight.value, text, t.target, t.blocker, t.touched))
    return Overlay(query, lines=tuple(lines))
