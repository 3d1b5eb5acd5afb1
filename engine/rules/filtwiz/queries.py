"""What a tap shows in Filtwiz: moves, targets, a skill's shape (range, area, fan) with who is inside, and who
sees a hex — all answered as overlays the tablets draw without knowing the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hexes import Hex
from engine.lines import Sight
from engine.overlays import CellMark, LineMark, Overlay, reach_overlay, sight_overlay
from engine.rules.content import QueryInput, QueryKind

from . import fans, ranges
from .scenario_fields import Shape
from .skills import Skill, Use, aim_problem, use

if TYPE_CHECKING:
    from engine.state import GameState

    from .rules import Filtwiz
    from .situation import Figure, Situation

QUERIES: tuple[QueryKind, ...] = (
    QueryKind("reachable", "Moves", help="the hexes the character may reach this turn"),
    QueryKind("targets", "Targets", help="the enemies its attack may target, with line of sight and why not"),
    QueryKind("range", "Range", takes=("size",), help="the hexes within its attack's range (or the size given)"),
    QueryKind("area", "Area", takes=("cell", "size"),
              help="an area within its attack's radius (or the size given) of a chosen hex: who is inside, friend "
              "or foe, and who is hit"),
    QueryKind("fan", "Fan", takes=("cell", "size"),
              help="a 60° fan of its range (or the size given) towards a chosen hex: who is inside and who is hit"),
    QueryKind("seen_by", "Who sees it", about="cell", help="every character that sees the tapped hex, and who not"),
)
VERBS = {"attack": "attack"}


def _who(r: Filtwiz, sit: Situation, user: Figure, u: Use) -> tuple[str, ...]:
    lines = []
    hit = {f.id for f in u.hit}
    for f in u.inside:
        side = "the user" if f.id == user.id else ("friend" if f.side == user.side else "foe")
        what = "hit" if f.id in hit else f"spared: {u.spared.get(f.id, 'not affected')}"
        lines.append(f"{r.name_of(f.id)} at {r.label(f.hex)} ({side}): {what}")
    return tuple(lines)


def _cells(u: Use, style: str = "outline") -> tuple[CellMark, ...]:
    hit = {f.hex for f in u.hit}
    return tuple(CellMark(h, "warn" if h in hit else style, "!" if h in hit else "") for h in sorted(u.covered))


def _shape(r: Filtwiz, state: GameState, kind: str, fid: str, given: QueryInput) -> Overlay:
    sit = r.situation(state)
    user = sit.figures.get(fid)
    if user is None:
        return Overlay(kind, texts=(f"{r.name_of(fid)} is not on the map",))
    base = r.skill(fid)
    if kind == "range":
        reach = given.size if given.size is not None else base.reach
        hexes = ranges.hexes_in_range(user.hex, reach, sit.board) - {user.hex}
        inside = [f for f in sit.inside(hexes)]
        texts = (f"{len(hexes)} hexes within range {reach}",
                 *(f"{r.name_of(f.id)} at {r.label(f.hex)} ({'friend' if f.side == user.side else 'foe'}), "
                   f"{'in sight' if sit.sight.sees(user.hex, f.hex) else 'out of sight'}" for f in inside))
        return Overlay(kind, tuple(CellMark(h, "outline") for h in sorted(hexes)), texts=texts)
    if kind == "area":
        size = given.size if given.size is not None else (base.size if base.shape is Shape.AREA else 1)
        skill = Skill(Shape.AREA, base.reach if base.shape is Shape.AREA else max(base.reach, 1), size, base.affects)
        centre = given.cell if given.cell is not None else user.hex
        u = use(sit, user, skill, centre)
        head = f"within {size} hexes of {r.label(centre)}: {len(u.covered)} hexes"
        problem = aim_problem(sit, user, skill, centre)
        verdict = sit.sight.line(user.hex, centre)
        seen = sit.sight.sees(user.hex, centre)
        line = LineMark((user.hex, centre), Sight.CLEAR.value if seen else Sight.BLOCKED.value,
                        f"{r.label(centre)} {'is in sight' if seen else 'is out of sight'}", None,
                        None if seen else verdict.blocker)
        texts = (head, *([f"cannot be used there: {problem}"] if problem else []), *_who(r, sit, user, u))
        return Overlay(kind, _cells(u), (line,) if centre != user.hex else (), texts)
    reach = given.size if given.size is not None else base.reach
    skill = Skill(Shape.FAN, reach, 0, base.affects)
    direction = fans.direction_towards(user.hex, given.cell) if given.cell not in (None, user.hex) else 0
    u = use(sit, user, skill, direction=direction)
    head = f"fan of range {reach} towards {r.label(user.hex.neighbour(direction))}: {len(u.covered)} hexes"
    return Overlay(kind, _cells(u), texts=(head, *_who(r, sit, user, u)))


def _seen_by(r: Filtwiz, state: GameState, kind: str, cell: str) -> Overlay:
    sit = r.situation(state)
    try:
        h: Hex = sit.board.from_label(cell)
    except ValueError as exc:
        return Overlay(kind, texts=(str(exc),))
    lines = []
    for f in sorted(sit.figures.values(), key=lambda f: f.id):
        if f.hex == h:
            continue
        seen = sit.sight.sees(f.hex, h)
        blocker = None if seen else sit.sight.line(f.hex, h).blocker
        why = "sees it" if seen else "does not see it" + (f" ({r.label(blocker)} is in the way)"
                                                          if isinstance(blocker, Hex) else "")
        lines.append(LineMark((f.hex, h), Sight.CLEAR.value if seen else Sight.BLOCKED.value,
                              f"{r.name_of(f.id)} at {r.label(f.hex)} {why}", f.id, blocker))
    n = sum(1 for m in lines if m.verdict == Sight.CLEAR.value)
    return Overlay(kind, (CellMark(h, "outline"),), tuple(lines), (f"{n} characters see {r.label(h)}",))


def answer(r: Filtwiz, state: GameState, kind: str, subject: str, given: QueryInput) -> Overlay:
    if kind == "reachable":
        return reach_overlay(kind, r.reachable(state, subject), r.board.kind)
    if kind == "targets":
        return sight_overlay(kind, r.targets(state, subject), r.name_of, VERBS)
    if kind in ("range", "area", "fan"):
        return _shape(r, state, kind, subject, given)
    if kind == "seen_by":
        return _seen_by(r, state, kind, subject)
    raise LookupError(f"{r.title} declares no query {kind!r}")
