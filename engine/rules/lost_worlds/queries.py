"""What a tap on a character shows: its movement points and costed reach, its battle range across heights.

- ``reachable``: the spaces it could walk to with the movement points it has left (its height when it is
  not moving), each labelled with the cost: 1 a space on one level, 1 per level climbing or descending.
- ``battle-range``: the adjacent characters and whether each is in battle range — or where the height
  difference breaks it (the lower character's height is not greater than the difference) — and its back
  space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.overlays import CellMark, Overlay, reach_overlay
from engine.rules.content import MOVES_QUERY, QueryKind
from engine.state import GameState

from .condition import MP, conscious
from .spaces import back_space

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

RANGE_QUERY = QueryKind("battle-range", N_("Battle range"),
                        help=N_("the adjacent characters in battle range, where height breaks it, and the back space"))
QUERIES = (MOVES_QUERY, RANGE_QUERY)


def answer(r: LostWorlds, state: GameState, kind: str, subject: str) -> Overlay:
    fig = state.figures[subject]
    if kind == MOVES_QUERY.name:
        base = reach_overlay(kind, r.reachable(state, subject), r.board.kind)
        left = fig.values.get(MP)
        if left is not None:
            points = _("{name}: {left} of {height} movement points", name=r.name_of(subject), left=left,
                       height=r.height(subject))
        else:
            points = _("{name}: {height} movement points", name=r.name_of(subject), height=r.height(subject))
        return Overlay(kind, base.cells, base.lines, (points, *base.texts))
    if kind == RANGE_QUERY.name:
        return battle_range(r, state, subject)
    raise LookupError(f"{r.title} declares no query {kind!r}")


def battle_range(r: LostWorlds, state: GameState, subject: str) -> Overlay:
    fig = state.figures[subject]
    if fig.hex is None:
        return Overlay(RANGE_QUERY.name)
    cells: list[CellMark] = []
    texts: list[str] = []
    here_level = r.board.level(fig.hex)
    for n in r.board.neighbours(fig.hex):
        others = [o for o in state.figures_at(n) if conscious(o) and o.id != subject]
        for o in others:
            lo = r.board.level(n)
            if r.spaces.in_range(fig, o):
                cells.append(CellMark(n, "shade", _("in range"), 0.0))
                texts.append(_("{name} at {space}: in battle range", name=r.name_of(o.id), space=r.label(n)))
            else:
                lower = o if lo < here_level else fig
                cells.append(CellMark(n, "warn", _("height")))
                texts.append(_("{name} at {space}: not in battle range — {lower} (the lower, height {height}) is not "
                               "taller than the {levels} levels between them", name=r.name_of(o.id), space=r.label(n),
                               lower=r.name_of(lower.id), height=r.height(lower.id), levels=abs(lo - here_level)))
    back = back_space(fig)
    if back is not None and back in r.board:
        cells.append(CellMark(back, "outline", _("back")))
        texts.append(_("back space {space}", space=r.label(back)))
    return Overlay(RANGE_QUERY.name, tuple(cells), texts=tuple(texts))


def threatened(r: LostWorlds, state: GameState, side: str) -> set[Hex]:
    """Spaces next to a conscious enemy of ``side`` (where it could block or attack)."""
    out: set[Hex] = set()
    for e in state.alive():
        if e.side != side and conscious(e) and e.hex is not None:
            out.update(r.spaces.steps(e.hex))
    return out
