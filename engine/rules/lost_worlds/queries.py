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
from engine.overlays import CellMark, Overlay, reach_overlay
from engine.rules.content import MOVES_QUERY, QueryKind
from engine.state import GameState

from .condition import MP, conscious
from .spaces import back_space

if TYPE_CHECKING:
    from .rules import LostWorlds

RANGE_QUERY = QueryKind("battle-range", "Battle range",
                        help="the adjacent characters in battle range, where height breaks it, and the back space")
QUERIES = (MOVES_QUERY, RANGE_QUERY)


def answer(r: LostWorlds, state: GameState, kind: str, subject: str) -> Overlay:
    fig = state.figures[subject]
    if kind == MOVES_QUERY.name:
        base = reach_overlay(kind, r.reachable(state, subject), r.board.kind)
        left = fig.values.get(MP)
        points = f"{left} of {r.height(subject)}" if left is not None else f"{r.height(subject)}"
        return Overlay(kind, base.cells, base.lines, (f"{r.name_of(subject)}: {points} movement points", *base.texts))
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
                cells.append(CellMark(n, "shade", "in range", 0.0))
                texts.append(f"{r.name_of(o.id)} at {r.label(n)}: in battle range")
            else:
                lower = o if lo < here_level else fig
                cells.append(CellMark(n, "warn", "height"))
                texts.append(f"{r.name_of(o.id)} at {r.label(n)}: not in battle range — {r.name_of(lower.id)} (the "
                             f"lower, height {r.height(lower.id)}) is not taller than the {abs(lo - here_level)} "
                             "levels between them")
    back = back_space(fig)
    if back is not None and back in r.board:
        cells.append(CellMark(back, "outline", "back"))
        texts.append(f"back space {r.label(back)}")
    return Overlay(RANGE_QUERY.name, tuple(cells), texts=tuple(texts))


def threatened(r: LostWorlds, state: GameState, side: str) -> set[Hex]:
    """Spaces next to a conscious enemy of ``side`` (where it could block or attack)."""
    out: set[Hex] = set()
    for e in state.alive():
        if e.side != side and conscious(e) and e.hex is not None:
            out.update(r.spaces.steps(e.hex))
    return out
