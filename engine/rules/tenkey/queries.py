"""What a tap on a character shows: its moves with their costs, its shots with blocked routes and why,
its area and line previews, where it may obstruct. Overlays built from the rules; no rule of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.i18n import N_, gettext_for, ngettext_for
from engine.overlays import CellMark, LineMark, Overlay, reach_overlay
from engine.rules.content import QueryKind
from engine.texts import join_list

from . import areas, lines, scenario_fields
from .geometry import labels
from .obstruction import obstruction_zones
from .scenario_fields import FOOTWORK

if TYPE_CHECKING:
    from engine.state import GameState

    from .rules import TenkeyBattle

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

QUERIES: tuple[QueryKind, ...] = (
    QueryKind("reachable", N_("Moves"), help=N_("the zones a normal move reaches, each with the metres it needs")),
    QueryKind("full_moves", N_("Full move"), help=N_("the zones a full move reaches (no action after it)"),
              shown=False),
    QueryKind("targets", N_("Range"), help=N_("every zone's range from here, and the shots an obstacle or enemy "
                                             "blocks"), shown=False),
    QueryKind("area", N_("Area"), help=N_("where its area spell may be centred and which zones it covers"),
              shown=False),
    QueryKind("line", N_("Line"), help=N_("the lines its line spell may run, and who stands on them"), shown=False),
    QueryKind("obstruct", N_("Obstruct"), help=N_("the zones where it may stop a passing enemy"), shown=False),
)  # each marks every zone: one at a time reads best, so only the moves are drawn until the player turns one on
PHASE_NAMES: Mapping[str, str] = ({"act": N_("Characters act")})


def answer(r: TenkeyBattle, state: GameState, kind: str, subject: str) -> Overlay:
    """One of :data:`QUERIES` about a character."""
    if state.figures[subject].hex is None:
        return Overlay(kind, texts=(_("{name} is not on the mat", name=r.name_of(subject)),))
    spec = r.spec(subject)
    if kind == "reachable":
        return _moves(r, state, kind, subject, scenario_fields.movement(spec))
    if kind == "full_moves":
        return _moves(r, state, kind, subject, scenario_fields.full_movement(spec))
    if kind == "targets":
        return ranged_overlay(r, state, subject)
    if kind == "area":
        return area_overlay(r, state, subject)
    if kind == "line":
        return line_overlay(r, state, subject)
    if kind == "obstruct":
        return obstruct_overlay(r, state, subject)
    raise LookupError(f"{r.title} declares no query {kind!r}")


def _moves(r: TenkeyBattle, state: GameState, kind: str, fid: str, metres: float) -> Overlay:
    out = reach_overlay(kind, r.move_reach(state, fid, metres), r.board.kind)
    cells = tuple(CellMark(c.cell, c.style, _("{metres} m", metres=c.label), c.level) for c in out.cells)
    return Overlay(kind, cells, texts=(_("{name} moves {metres:g} m: 10 m a row, 3 m a column", name=r.name_of(fid),
                                         metres=metres), *out.texts))


def ranged_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    """Each zone's range (shaded where the shot is clear, warned where blocked), a line to each enemy."""
    here = r.zone(state, fid)
    reach = scenario_fields.shot_range(r.spec(fid))
    cells: list[CellMark] = []
    marks: list[LineMark] = []
    for z in r.board:
        if z == here:
            continue
        s = r.shot(state, fid, z)
        cells.append(CellMark(z, "warn" if s.blocked else "shade", _("{metres} m", metres=s.range_m), s.range_m / 30.0))
    for t in r.enemies_of(state, fid):
        assert t.hex is not None
        s = r.shot(state, fid, t.hex)
        path = s.routes[0] if s.routes else (here, t.hex)
        who = {"name": r.name_of(t.id), "zone": r.label(t.hex), "range": s.range_m}
        if s.blocked:
            why = join_list(r.label(b) for b in s.blockers)
            text = _("{name} in {zone}: {range} m, blocked: an obstacle or an enemy in {blockers} lies on a cheapest "
                     "route", blockers=why, **who)
            marks.append(LineMark(path, "blocked", text, t.id, s.blockers[0]))
        elif reach and s.range_m > reach:
            marks.append(LineMark(path, "blocked", _("{name} in {zone}: {range} m, out of range ({reach:g} m)",
                                                     reach=reach, **who), t.id))
        else:
            misfire = r.misfires(state, fid, t.id)
            if s.blockers and misfire:
                text = _("{name} in {zone}: {range} m, clear (Hawk Eye sees past the obstacle), misfires into the "
                         "melee area", **who)
            elif s.blockers:
                text = _("{name} in {zone}: {range} m, clear (Hawk Eye sees past the obstacle)", **who)
            elif misfire:
                text = _("{name} in {zone}: {range} m, clear, misfires into the melee area", **who)
            else:
                text = _("{name} in {zone}: {range} m, clear", **who)
            marks.append(LineMark(path, "clear", text, t.id))
    texts = (_("range from {zone}: 0 m in its own zone, 10 m next door, else the cheapest route", zone=r.label(here)),)
    return Overlay("targets", tuple(cells), tuple(marks), texts)


def area_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    """The zones the area spell may be centred on, and the area at the nearest enemy's zone."""
    spec = r.spec(fid)
    radius = scenario_fields.area_radius(spec)
    centres = r.area_centres(state, fid)
    if not centres:
        return Overlay("area", texts=(_("{name} has no area spell with a zone in range", name=r.name_of(fid)),))
    enemy = next((f.hex for f in sorted(r.enemies_of(state, fid), key=lambda f: f.id) if f.hex in centres), None)
    centre = enemy if enemy is not None else centres[0]
    a = areas.area(r.board, centre, radius)
    covered = set(a.zones)
    cells = [CellMark(z, "shade", _("area")) for z in sorted(covered)]
    cells += [CellMark(z, "outline", _("{metres} m", metres=r.shot(state, fid, z).range_m))
              for z in centres if z not in covered]
    where = {"radius": radius, "zone": r.label(centre), "zones": labels(r.board, a.zones)}
    if a.needs_side:
        text = _("radius {radius:g} m at {zone}: {zones}, and one of {sides} (the caster chooses)",
                 sides=labels(r.board, a.sides), **where)
    elif a.gm_rules:
        text = _("radius {radius:g} m at {zone}: {zones} (7 m or more: the GM rules; this is the default)", **where)
    else:
        text = _("radius {radius:g} m at {zone}: {zones}", **where)
    return Overlay("area", tuple(cells), texts=(text, _n("{n} zone in range to centre it on",
                                                         "{n} zones in range to centre it on", len(centres))))


def line_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    """Each line the line spell may run, through a character in range, with who stands on it."""
    here = r.zone(state, fid)
    marks = []
    for t in r.line_targets(state, fid):
        tz = r.zone(state, t)
        if tz == here:
            continue
        covered = lines.line(r.board, here, tz)
        caught = join_list(r.name_of(c) for c in r.caught(state, fid, covered))
        marks.append(LineMark(covered, "clear", _("through {name}: {zones} ({caught})", name=r.name_of(t),
                                                  zones=labels(r.board, covered), caught=caught), t))
    if not marks:
        return Overlay("line", texts=(_("{name} has no line spell with a character in range", name=r.name_of(fid)),))
    return Overlay("line", lines=tuple(marks), texts=(_("a line runs straight on to the edge; never a knight's line"),))


def obstruct_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    here = r.zone(state, fid)
    zones = obstruction_zones(r.board, here, r.melee_zones(state), r.has(fid, FOOTWORK))
    why = _("in a melee area: only its own zone") if here in r.melee_zones(state) else (
        _("Footwork: 10 m, one zone up or down or two sideways") if r.has(fid, FOOTWORK)
        else _("its restricted move, 3 m"))
    return Overlay("obstruct", tuple(CellMark(z, "outline", _("stop")) for z in sorted(zones)),
                   texts=(_("{name} may stop a passing enemy in {zones} ({why})", name=r.name_of(fid),
                            zones=labels(r.board, sorted(zones)), why=why),))
