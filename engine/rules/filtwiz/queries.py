"""What a tap shows in Filtwiz: moves, targets, a skill's shape (range, area, fan) with who is inside, and who
sees a hex — all answered as overlays the tablets draw without knowing the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hexes import Hex
from engine.i18n import N_, gettext_for, ngettext_for
from engine.lines import Sight
from engine.overlays import CellMark, LineMark, Overlay, reach_overlay, sight_overlay
from engine.rules.content import QueryInput, QueryKind
from engine.texts import join_words

from . import fans, ranges
from .scenario_fields import Shape
from .skills import Skill, Use, aim_problem, use

if TYPE_CHECKING:
    from engine.state import GameState

    from .rules import Filtwiz
    from .situation import Figure, Situation

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

QUERIES: tuple[QueryKind, ...] = (
    QueryKind("reachable", N_("Moves"), help=N_("the hexes the character may reach this turn")),
    QueryKind("targets", N_("Targets"), help=N_("the enemies its attack may target, with line of sight and why not")),
    QueryKind("range", N_("Range"), takes=("size",),
              help=N_("the hexes within its attack's range (or the size given)")),
    QueryKind("area", N_("Area"), takes=("cell", "size"),
              help=N_("an area within its attack's radius (or the size given) of a chosen hex: who is inside, "
                      "friend or foe, and who is hit")),
    QueryKind("fan", N_("Fan"), takes=("cell", "size"),
              help=N_("a 60° fan of its range (or the size given) towards a chosen hex: who is inside and who is "
                      "hit")),
    QueryKind("seen_by", N_("Who sees it"), about="cell",
              help=N_("every character that sees the tapped hex, and who not")),
)
VERBS = {"attack": N_("attack")}


def _who(r: Filtwiz, sit: Situation, user: Figure, u: Use) -> tuple[str, ...]:
    lines = []
    hit = {f.id for f in u.hit}
    for f in u.inside:
        side = _("the user") if f.id == user.id else (_("friend") if f.side == user.side else _("foe"))
        what = _("hit") if f.id in hit else _("spared: {why}", why=u.spared.get(f.id, _("not affected")))
        lines.append(_("{name} at {hex} ({side}): {what}", name=r.name_of(f.id), hex=r.label(f.hex), side=side,
                       what=what))
    return tuple(lines)


def _cells(u: Use, style: str = "outline") -> tuple[CellMark, ...]:
    hit = {f.hex for f in u.hit}
    return tuple(CellMark(h, "warn" if h in hit else style, "!" if h in hit else "") for h in sorted(u.covered))


def _shape(r: Filtwiz, state: GameState, kind: str, fid: str, given: QueryInput) -> Overlay:
    sit = r.situation(state)
    user = sit.figures.get(fid)
    if user is None:
        return Overlay(kind, texts=(_("{name} is not on the map", name=r.name_of(fid)),))
    base = r.skill(fid)
    if kind == "range":
        reach = given.size if given.size is not None else base.reach
        hexes = ranges.hexes_in_range(user.hex, reach, sit.board) - {user.hex}
        inside = [f for f in sit.inside(hexes)]
        texts = (_n("{n} hex within range {reach}", "{n} hexes within range {reach}", len(hexes), reach=reach),
                 *(_("{name} at {hex} ({side}), {seen}", name=r.name_of(f.id), hex=r.label(f.hex),
                     side=_("friend") if f.side == user.side else _("foe"),
                     seen=_("in sight") if sit.sight.sees(user.hex, f.hex) else _("out of sight")) for f in inside))
        return Overlay(kind, tuple(CellMark(h, "outline") for h in sorted(hexes)), texts=texts)
    if kind == "area":
        size = given.size if given.size is not None else (base.size if base.shape is Shape.AREA else 1)
        skill = Skill(Shape.AREA, base.reach if base.shape is Shape.AREA else max(base.reach, 1), size, base.affects)
        centre = given.cell if given.cell is not None else user.hex
        u = use(sit, user, skill, centre)
        head = _n("within {size} hexes of {hex}: {n} hex", "within {size} hexes of {hex}: {n} hexes", len(u.covered),
                  size=size, hex=r.label(centre))
        problem = aim_problem(sit, user, skill, centre)
        verdict = sit.sight.line(user.hex, centre)
        seen = sit.sight.sees(user.hex, centre)
        line = LineMark((user.hex, centre), Sight.CLEAR.value if seen else Sight.BLOCKED.value,
                        _("{hex} is in sight", hex=r.label(centre)) if seen
                        else _("{hex} is out of sight", hex=r.label(centre)), None,
                        None if seen else verdict.blocker, sit.sight.touched(user.hex, centre))
        texts = (head, *([_("cannot be used there: {problem}", problem=problem)] if problem else []),
                 *_who(r, sit, user, u))
        return Overlay(kind, _cells(u), (line,) if centre != user.hex else (), texts)
    reach = given.size if given.size is not None else base.reach
    skill = Skill(Shape.FAN, reach, 0, base.affects)
    direction = fans.direction_towards(user.hex, given.cell) if given.cell not in (None, user.hex) else 0
    u = use(sit, user, skill, direction=direction)
    head = _n("fan of range {reach} towards {hex}: {n} hex", "fan of range {reach} towards {hex}: {n} hexes",
              len(u.covered), reach=reach, hex=r.label(user.hex.neighbour(direction)))
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
        name, at = r.name_of(f.id), r.label(f.hex)
        touched = sit.sight.touched(f.hex, h)
        if seen and touched:
            why = _("{name} at {hex} sees it, the line only touching {hexes} (the GM may rule otherwise)", name=name,
                    hex=at, hexes=join_words(r.label(t) for t in touched))
        elif seen:
            why = _("{name} at {hex} sees it", name=name, hex=at)
        elif isinstance(blocker, Hex):
            why = _("{name} at {hex} does not see it ({blocker} is in the way)", name=name, hex=at,
                    blocker=r.label(blocker))
        else:
            why = _("{name} at {hex} does not see it", name=name, hex=at)
        lines.append(LineMark((f.hex, h), Sight.CLEAR.value if seen else Sight.BLOCKED.value, why, f.id, blocker,
                              touched))
    n = sum(1 for m in lines if m.verdict == Sight.CLEAR.value)
    counted = _n("{n} character sees {hex}", "{n} characters see {hex}", n, hex=r.label(h))
    return Overlay(kind, (CellMark(h, "outline"),), tuple(lines), (counted,))


def answer(r: Filtwiz, state: GameState, kind: str, subject: str, given: QueryInput) -> Overlay:
    if kind == "reachable":
        return reach_overlay(kind, r.reachable(state, subject), r.board.kind)
    if kind == "targets":
        return sight_overlay(kind, r.targets(state, subject), r.name_of, {k: _(v) for k, v in VERBS.items()})
    if kind in ("range", "area", "fan"):
        return _shape(r, state, kind, subject, given)
    if kind == "seen_by":
        return _seen_by(r, state, kind, subject)
    raise LookupError(f"{r.title} declares no query {kind!r}")
