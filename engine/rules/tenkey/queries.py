"""What a tap on a character shows: its moves with their costs, its shots with blocked routes and why,
its area and line previews, where it may obstruct. Overlays built from the rules; no rule of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.overlays import CellMark, LineMark, Overlay, reach_overlay
from engine.rules.content import QueryKind

from . import areas, lines, scenario_fields
from .geometry import labels
from .obstruction import obstruction_zones
from .scenario_fields import FOOTWORK

if TYPE_CHECKING:
    from engine.state import GameState

    from .rules import TenkeyBattle

QUERIES: tuple[QueryKind, ...] = (
    QueryKind("reachable", "Moves", help="the zones a normal move reaches, each with the metres it needs"),
    QueryKind("full_moves", "Full move", help="the zones a full move reaches (no action after it)", shown=False),
    QueryKind("targets", "Range", help="every zone's range from here, and the shots an obstacle or enemy blocks",
              shown=False),
    QueryKind("area", "Area", help="where its area spell may be centred and which zones it covers", shown=False),
    QueryKind("line", "Line", help="the lines its line spell may run, and who stands on them", shown=False),
    QueryKind("obstruct", "Obstruct", help="the zones where it may stop a passing enemy", shown=False),
)  # each marks every zone: one at a time reads best, so only the moves are drawn until the player turns one on
PHASE_NAMES: Mapping[str, str] = {"act": "Characters act"}


def answer(r: TenkeyBattle, state: GameState, kind: str, subject: str) -> Overlay:
    """One of :data:`QUERIES` about a character."""
    if state.figures[subject].hex is None:
        return Overlay(kind, texts=(f"{r.name_of(subject)} is not on the mat",))
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
    cells = tuple(CellMark(c.cell, c.style, f"{c.label} m", c.level) for c in out.cells)
    return Overlay(kind, cells, texts=(f"{r.name_of(fid)} moves {metres:g} m: 10 m a row, 3 m a column",
                                       *out.texts))


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
        cells.append(CellMark(z, "warn" if s.blocked else "shade", f"{s.range_m} m", s.range_m / 30.0))
    for t in r.enemies_of(state, fid):
        assert t.hex is not None
        s = r.shot(state, fid, t.hex)
        path = s.routes[0] if s.routes else (here, t.hex)
        head = f"{r.name_of(t.id)} in {r.label(t.hex)}: {s.range_m} m"
        if s.blocked:
            why = ", ".join(r.label(b) for b in s.blockers)
            text = f"{head}, blocked: an obstacle or an enemy in {why} lies on a cheapest route"
            marks.append(LineMark(path, "blocked", text, t.id, s.blockers[0]))
        elif reach and s.range_m > reach:
            marks.append(LineMark(path, "blocked", f"{head}, out of range ({reach:g} m)", t.id))
        else:
            seen = " (Hawk Eye sees past the obstacle)" if s.blockers else ""
            misfire = ", misfires into the melee area" if r.misfires(state, fid, t.id) else ""
            marks.append(LineMark(path, "clear", f"{head}, clear{seen}{misfire}", t.id))
    texts = (f"range from {r.label(here)}: 0 m in its own zone, 10 m next door, else the cheapest route",)
    return Overlay("targets", tuple(cells), tuple(marks), texts)


def area_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    """The zones the area spell may be centred on, and the area at the nearest enemy's zone."""
    spec = r.spec(fid)
    radius = scenario_fields.area_radius(spec)
    centres = r.area_centres(state, fid)
    if not centres:
        return Overlay("area", texts=(f"{r.name_of(fid)} has no area spell with a zone in range",))
    enemy = next((f.hex for f in sorted(r.enemies_of(state, fid), key=lambda f: f.id) if f.hex in centres), None)
    centre = enemy if enemy is not None else centres[0]
    a = areas.area(r.board, centre, radius)
    covered = set(a.zones)
    cells = [CellMark(z, "shade", "area") for z in sorted(covered)]
    cells += [CellMark(z, "outline", f"{r.shot(state, fid, z).range_m} m") for z in centres if z not in covered]
    text = f"radius {radius:g} m at {r.label(centre)}: {labels(r.board, a.zones)}"
    if a.needs_side:
        text += f", and one of {labels(r.board, a.sides)} (the caster chooses)"
    if a.gm_rules:
        text += " (7 m or more: the GM rules; this is the default)"
    return Overlay("area", tuple(cells), texts=(text, f"{len(centres)} zones in range to centre it on"))


def line_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    """Each line the line spell may run, through a character in range, with who stands on it."""
    here = r.zone(state, fid)
    marks = []
    for t in r.line_targets(state, fid):
        tz = r.zone(state, t)
        if tz == here:
            continue
        covered = lines.line(r.board, here, tz)
        caught = ", ".join(r.name_of(c) for c in r.caught(state, fid, covered))
        marks.append(LineMark(covered, "clear", f"through {r.name_of(t)}: {labels(r.board, covered)} ({caught})", t))
    if not marks:
        return Overlay("line", texts=(f"{r.name_of(fid)} has no line spell with a character in range",))
    return Overlay("line", lines=tuple(marks), texts=("a line runs straight on to the edge; never a knight's line",))


def obstruct_overlay(r: TenkeyBattle, state: GameState, fid: str) -> Overlay:
    here = r.zone(state, fid)
    zones = obstruction_zones(r.board, here, r.melee_zones(state), r.has(fid, FOOTWORK))
    why = "in a melee area: only its own zone" if here in r.melee_zones(state) else (
        "Footwork: 10 m, one zone up or down or two sideways" if r.has(fid, FOOTWORK) else "its restricted move, 3 m")
    return Overlay("obstruct", tuple(CellMark(z, "outline", "stop") for z in sorted(zones)),
                   texts=(f"{r.name_of(fid)} may stop a passing enemy in {labels(r.board, sorted(zones))} ({why})",))
