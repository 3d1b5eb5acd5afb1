"""What a tap on a unit shows: where it may move, and for every enemy the to-hit number of a normal shot
before the player chooses, with each modifier listed (or why it cannot be fired); the enemies it can fire at
come first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.i18n import N_, gettext_for
from engine.overlays import CellMark, LineMark, Overlay
from engine.rules.content import MOVES_QUERY, QueryKind
from engine.state import GameState

if TYPE_CHECKING:
    from .rules import Laramie

_ = gettext_for(__name__)

TO_HIT = QueryKind("to_hit", N_("To hit"), help=N_("every enemy with the normal-fire to-hit number and its modifiers"))
QUERIES: tuple[QueryKind, ...] = (MOVES_QUERY, TO_HIT)


def to_hit(r: Laramie, state: GameState, fid: str) -> Overlay:
    """Lines to every enemy: the to-hit number and every modifier, or why it cannot be shot."""
    fig = state.figures[fid]
    if not fig.alive or fig.hex is None:
        return Overlay(TO_HIT.name, texts=(_("{name} is not in play", name=r.name_of(fid)),))
    lines, cells = [], []
    shots = [(e, r.normal(state, fid, e.id)) for e in r.enemies(state, fid)]
    for e, shot in sorted(shots, key=lambda es: not es[1].allowed):  # the targets it can fire at first
        who = {"name": r.name_of(e.id), "where": r.where(state, e.id), "range": shot.range}
        if shot.allowed:
            text = _("{name} ({where}, range {range}): {need} — {breakdown}", need=shot.need(),
                     breakdown=shot.breakdown(), **who)
            assert e.hex is not None
            mark = f"≦{shot.hit_value}{shot.die_modifier:+d}" if shot.die_modifier else f"≦{shot.hit_value}"
            cells.append(CellMark(e.hex, "outline", mark + ("?" if shot.in_doubt else "")))  # ?: roll off for the line
        else:
            text = _("{name} ({where}, range {range}): no normal fire — {reason}", reason=shot.reason, **who)
        lines.append(LineMark(shot.line.path, shot.line.sight.value if shot.allowed or shot.line.blocked else "blocked",
                              text, e.id, shot.line.blocker))
    head = _("{name}: normal fire needs 1d10 + modifiers ≦ the hit value (1 always hits, 10 always misses)",
             name=r.name_of(fid))
    return Overlay(TO_HIT.name, tuple(cells), tuple(lines), (head,))


ANSWERS: dict[str, Callable[[Laramie, GameState, str], Overlay]] = {TO_HIT.name: to_hit}
