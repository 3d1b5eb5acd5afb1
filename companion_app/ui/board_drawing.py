"""Canvas instructions for the board, in map millimetres with y flipped (so the view matrix is the only transform).

Everything is batched into few meshes: line work becomes quads (two triangles per segment, no round joints),
discs are 20-sided fans. Software GL (and small tablet GPUs) pay per primitive and per draw call, so this keeps a
30×30 map cheap. Each function fills one InstructionGroup; the board widget decides which to rebuild when.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from kivy.graphics import Color, InstructionGroup, Mesh, Rectangle

from companion_app.ui.text_room import TextRoom
from companion_app.ui.textures import text_texture
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import BoardView, EdgeView, FigureView, HexKey, TileView

Pt = tuple[float, float]
Segment = tuple[Pt, Pt]
MAX_VERTICES = 60000  # Kivy meshes index with unsigned shorts


def flip(p: Pt) -> Pt:
    return (p[0], -p[1])


class MeshBatch:
    """Triangles of one colour collected into as few meshes as the index limit allows."""

    def __init__(self, rgba: palette.RGBA) -> None:
        self.rgba = rgba
        self.meshes: list[tuple[list[float], list[int]]] = [([], [])]

    def _room(self, n: int) -> tuple[list[float], list[int], int]:
        vertices, indices = self.meshes[-1]
        if len(vertices) // 4 + n > MAX_VERTICES:
            self.meshes.append(([], []))
            vertices, indices = self.meshes[-1]
        return vertices, indices, len(vertices) // 4

    def polygon(self, points: Sequence[Pt]) -> None:
        """A convex polygon (map coordinates, y down) as a triangle fan."""
        vertices, indices, base = self._room(len(points))
        for p in points:
            x, y = flip(p)
            vertices += [x, y, 0.0, 0.0]
        for i in range(1, len(points) - 1):
            indices += [base, base + i, base + i + 1]

    def segment(self, a: Pt, b: Pt, width: float) -> None:
        """A straight stroke as a quad, square ends extended by half the width."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0:
            return
        ux, uy = dx / length, dy / length
        h = width / 2.0
        a2, b2 = (a[0] - ux * h, a[1] - uy * h), (b[0] + ux * h, b[1] + uy * h)
        nx, ny = -uy * h, ux * h
        self.polygon([(a2[0] + nx, a2[1] + ny), (b2[0] + nx, b2[1] + ny), (b2[0] - nx, b2[1] - ny),
                      (a2[0] - nx, a2[1] - ny)])

    def polyline(self, points: Sequence[Pt], width: float, close: bool = False) -> None:
        pairs = list(itertools.pairwise(points))
        if close and len(points) > 2:
            pairs.append((points[-1], points[0]))
        for a, b in pairs:
            self.segment(a, b, width)


    def emit(self, group: InstructionGroup) -> None:
        if not any(v for v, _ in self.meshes):
            return
        group.add(Color(*self.rgba))
        for vertices, indices in self.meshes:
            if vertices:
                group.add(Mesh(vertices=vertices, indices=indices, mode="triangles"))


def inset_corners(t: TileView, inset: float) -> list[Pt]:
    return [(t.centre[0] + (x - t.centre[0]) * inset, t.centre[1] + (y - t.centre[1]) * inset) for x, y in t.corners]


def hex_fill(group: InstructionGroup, tiles: Sequence[TileView], rgba: palette.RGBA, inset: float = 1.0) -> None:
    """Many hexes of one colour in one mesh (the inset leaves a dark gap that reads as the tile border)."""
    batch = MeshBatch(rgba)
    for t in tiles:
        batch.polygon(inset_corners(t, inset))
    batch.emit(group)


def hex_outlines(group: InstructionGroup, tiles: Sequence[TileView], rgba: palette.RGBA, width: float,
                 inset: float = 1.0, dashed: bool = False) -> None:
    batch = MeshBatch(rgba)
    for t in tiles:
        pts = inset_corners(t, inset)
        if dashed:
            for i in range(len(pts)):
                a, b = pts[i], pts[(i + 1) % len(pts)]
                batch.segment((a[0] + (b[0] - a[0]) * 0.25, a[1] + (b[1] - a[1]) * 0.25),
                              (a[0] + (b[0] - a[0]) * 0.75, a[1] + (b[1] - a[1]) * 0.75), width)
        else:
            batch.polyline(pts, width, close=True)
    batch.emit(group)


def legal_moves(group: InstructionGroup, tiles: Sequence[TileView]) -> None:
    """The hexes the pending move may end on: filled."""
    hex_fill(group, tiles, palette.shade(palette.REACH, 0.8, 0.35), 0.9)


def shaded(group: InstructionGroup, tiles: Sequence[TileView], level: float = 0.0) -> None:
    """A query's ``shade`` cells (an inspected figure's reach), lighter the higher their level."""
    hex_fill(group, tiles, (*palette.REACH[:3], 0.55 - 0.35 * level), 0.9)


def warned(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float) -> None:
    """A query's ``warn`` cells (threatened): a dashed orange outline."""
    hex_outlines(group, tiles, palette.THREAT, size_mm * 0.07, 0.8, dashed=True)


def outlined(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float) -> None:
    """A query's ``outline`` cells (ranges, areas): a white outline."""
    hex_outlines(group, tiles, (1, 1, 1, 0.8), size_mm * 0.07, 0.86)


def choices(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float) -> None:
    """The cells a choose prompt offers: a bright outline."""
    hex_outlines(group, tiles, (1, 1, 1, 0.95), size_mm * 0.07, 0.86)


def sight_line(batch: MeshBatch, a: Pt, b: Pt, size_mm: float, verdict: str) -> None:
    """A line of sight drawn by its verdict's dash pattern (its colour is the batch's)."""
    dash = palette.SIGHT_DASH.get(verdict, (0, 0))
    dashed(batch, a, b, size_mm * 0.06, (dash[0] * size_mm / 12.0, dash[1] * size_mm / 12.0))


def terrain_patterns(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float) -> None:
    """The pattern of each tile's draw style, so terrain reads without colour: hatching for solid rock, a boxed
    cross for low obstacles, waves for water, dots for rough ground, a roof outline for buildings."""
    batch = MeshBatch((1.0, 1.0, 1.0, 0.28))
    for t in tiles:
        size_mm = t.pattern_mm or size_mm  # a zone's pattern fills the zone
        cx, cy = t.centre
        r = size_mm * 0.5
        if t.pattern == "hatch":
            for k in (-0.45, 0.0, 0.45):
                o = k * size_mm
                batch.segment((cx - r * 0.6 + o, cy + r * 0.6), (cx + r * 0.6 + o, cy - r * 0.6), size_mm * 0.05)
        elif t.pattern == "cross":
            w = size_mm * 0.06
            batch.segment((cx - r, cy - r), (cx + r, cy + r), w)
            batch.segment((cx - r, cy + r), (cx + r, cy - r), w)
            batch.polyline([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)], w, close=True)
        elif t.pattern == "waves":
            for dy in (-0.3, 0.0, 0.3):
                pts = [(cx - r + i * r / 3.0, cy + dy * size_mm + (size_mm * 0.08 if i % 2 else -size_mm * 0.08))
                       for i in range(7)]
                batch.polyline(pts, size_mm * 0.05)
        elif t.pattern == "dots":
            d = size_mm * 0.04
            for dx, dy in ((-0.5, -0.4), (0.3, -0.5), (-0.1, 0.0), (0.5, 0.1), (-0.5, 0.45), (0.2, 0.5)):
                x, y = cx + dx * r, cy + dy * r
                batch.segment((x - d, y), (x + d, y), d * 2)
        elif t.pattern == "roof":
            w = size_mm * 0.06
            batch.polyline([(cx - r * 0.7, cy + r * 0.6), (cx - r * 0.7, cy - r * 0.1), (cx, cy - r * 0.7),
                            (cx + r * 0.7, cy - r * 0.1), (cx + r * 0.7, cy + r * 0.6)], w, close=True)
    batch.emit(group)


def text(group: InstructionGroup, label: str, centre: Pt, height_mm: float, rgba: palette.RGBA = palette.TEXT,
         font_px: int = 32) -> None:
    tex = text_texture(label, font_px)
    w = height_mm * tex.width / max(1, tex.height)
    cx, cy = flip(centre)
    group.add(Color(*rgba))
    group.add(Rectangle(texture=tex, pos=(cx - w / 2, cy - height_mm / 2), size=(w, height_mm)))


def placed_text(group: InstructionGroup, room: TextRoom | None, label: str, centre: Pt, height_mm: float,
                rgba: palette.RGBA = palette.TEXT, font_px: int = 32, own: Pt | None = None,
                max_mm: float = math.inf, within: tuple[float, float, float, float] | None = None) -> bool:
    """A text where the room has space for it at a readable size (see :class:`TextRoom`); False when dropped."""
    if room is None:
        text(group, label, centre, height_mm, rgba, font_px)
        return True
    fitted = room.fit(label, centre, height_mm, font_px, own, max_mm, within=within)
    if fitted is None:
        return False
    text(group, label, fitted[1], fitted[0], rgba, font_px)
    return True


def text_from(group: InstructionGroup, label: str, left: Pt, height_mm: float, width_mm: float,
              rgba: palette.RGBA = palette.TEXT, font_px: int = 32, room: TextRoom | None = None) -> None:
    """A text starting at ``left`` (its left end, mid height) at a readable size, cut short with "…" where it would
    be wider than ``width_mm`` (dropped when not even a few letters fit)."""
    h = height_mm if room is None else room.height(height_mm)
    if h is None:
        return
    shown = label
    while True:
        tex = text_texture(shown, font_px)
        w = h * tex.width / max(1, tex.height)
        if width_mm <= 0 or w <= width_mm:
            break
        if len(shown) <= 3:
            return
        shown = shown[:-2].rstrip() + "…"
    centre = (left[0] + w / 2, left[1])
    if room is None:
        text(group, shown, centre, h, rgba, font_px)
    else:
        placed_text(group, room, shown, centre, h, rgba, font_px)


def plate(group: InstructionGroup, centre: Pt, height_mm: float, label: str, font_px: int) -> None:
    """The dark plate a text of ``height_mm`` sits on (see :func:`chip`)."""
    tex = text_texture(label, font_px)
    w = height_mm * tex.width / max(1, tex.height)
    pad = height_mm * 0.12
    x, y = centre
    batch = MeshBatch((0.05, 0.05, 0.06, 0.82))
    batch.polygon([(x - w / 2 - pad, y - height_mm / 2), (x + w / 2 + pad, y - height_mm / 2),
                   (x + w / 2 + pad, y + height_mm / 2), (x - w / 2 - pad, y + height_mm / 2)])
    batch.emit(group)


def chip(group: InstructionGroup, label: str, centre: Pt, height_mm: float, rgba: palette.RGBA,
         font_px: int = 32, room: TextRoom | None = None) -> None:
    """A text on a dark plate, readable over any fill, figure or line (at a readable size: see :class:`TextRoom`)."""
    if room is not None:
        h = room.height(height_mm)
        if h is None:
            return
        height_mm = h / 0.92
    plate(group, centre, height_mm, label, font_px)
    text(group, label, centre, height_mm * 0.92, rgba, font_px)


def captions(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float, room: TextRoom | None = None) -> None:
    """Each tile's caption (a zone's terrain in words) where the view model puts it."""
    for t in tiles:
        if t.caption:
            chip(group, t.caption, t.caption_at, size_mm * 0.36, palette.TEXT, 28, room)


def tokens(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float, room: TextRoom | None = None) -> None:
    """Treasure and other tokens: a gold diamond with the token's initial."""
    batch = MeshBatch((0.95, 0.78, 0.20, 1.0))
    marks: list[tuple[str, Pt]] = []
    for t in tiles:
        for token in t.tokens:
            cx, cy = t.centre
            r = size_mm * 0.42
            batch.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)])
            marks.append((token[:1].upper(), t.centre))
    batch.emit(group)
    h = size_mm * 0.45 if room is None else (room.height(size_mm * 0.45, size_mm * 0.8) or 0.0)
    for letter, centre in marks if h else ():
        text(group, letter, centre, h, (0.1, 0.1, 0.1, 1.0))


EDGE_WIDTH: dict[str, float] = {"wall": 0.10, "line": 0.05, "fence": 0.07}  # share of the hex size, by style
FENCE_POSTS = (0.2, 0.5, 0.8)  # where a fence's posts stand along its side


def edges(group: InstructionGroup, edge_views: Sequence[EdgeView], size_mm: float) -> None:
    """Edges by their kind's draw style, each with its own shape as well as colour (see :func:`edge_batches`)."""
    for batch in edge_batches(edge_views, size_mm):
        batch.emit(group)


def edge_batches(edge_views: Sequence[EdgeView], size_mm: float) -> list[MeshBatch]:
    """The strokes of the edges, one batch per colour: a wall a light bar, a line a thin dark stroke, a fence a bar
    with posts across it. Doors by their state: closed a solid bar, open two stubs at the jambs, locked a bar with
    a dark cross."""
    batches: dict[palette.RGBA, MeshBatch] = {}
    crosses = MeshBatch((0.1, 0.1, 0.1, 1.0))
    for e in edge_views:
        batch = batches.setdefault(e.colour, MeshBatch(e.colour))
        (ax, ay), (bx, by) = e.ends
        if not e.door:
            batch.segment((ax, ay), (bx, by), size_mm * EDGE_WIDTH.get(e.style, EDGE_WIDTH["wall"]))
            if e.style == "fence":
                _posts(batch, e.ends, size_mm)
            continue
        if e.state == "open":
            for t0, t1 in ((0.0, 0.22), (0.78, 1.0)):
                batch.segment((ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1),
                              size_mm * 0.14)
            continue
        batch.segment((ax, ay), (bx, by), size_mm * 0.16)
        if e.state == "locked":
            mx, my = (ax + bx) / 2, (ay + by) / 2
            r = size_mm * 0.22
            crosses.segment((mx - r, my - r), (mx + r, my + r), size_mm * 0.06)
            crosses.segment((mx - r, my + r), (mx + r, my - r), size_mm * 0.06)
    return [*batches.values(), crosses]


def _posts(batch: MeshBatch, ends: Segment, size_mm: float) -> None:
    """Short strokes across a fence's side, so it reads as a fence without its colour."""
    (ax, ay), (bx, by) = ends
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return
    nx, ny = -(by - ay) / length * size_mm * 0.12, (bx - ax) / length * size_mm * 0.12
    for t in FENCE_POSTS:
        px, py = ax + (bx - ax) * t, ay + (by - ay) * t
        batch.segment((px - nx, py - ny), (px + nx, py + ny), size_mm * 0.05)


def shape_points(kind: str, centre: Pt, r: float) -> list[Pt]:
    """Outline of a side's shape (map coordinates, y down)."""
    cx, cy = centre
    if kind == "square":
        k = r * 0.85
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if kind == "triangle":
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)]
    if kind == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    return [(cx + r * math.cos(2 * math.pi * i / 20), cy + r * math.sin(2 * math.pi * i / 20)) for i in range(20)]


def facing_wedge(centre: Pt, r: float, facing_deg: float) -> list[Pt]:
    """A wedge on a disc's rim pointing the way the figure faces (map coordinates, y down)."""
    a = math.radians(facing_deg)
    tip = (centre[0] + r * 1.45 * math.cos(a), centre[1] + r * 1.45 * math.sin(a))
    left = (centre[0] + r * 0.8 * math.cos(a - 0.42), centre[1] + r * 0.8 * math.sin(a - 0.42))
    right = (centre[0] + r * 0.8 * math.cos(a + 0.42), centre[1] + r * 0.8 * math.sin(a + 0.42))
    return [tip, left, right]


Label = tuple[str, Pt, float, palette.RGBA, int]
# text, disc centre, radius, height, colour, font px, badges, the box it stays in (its zone)
NameLabel = tuple[str, Pt, float, float, palette.RGBA, int, tuple[str, ...], tuple[float, float, float, float] | None]
DISC_RADIUS = 0.58  # a lone figure's disc radius, as a share of the drawing scale
STACKED_SCALE = 0.8  # a stack's discs are drawn this much smaller than a lone figure's


def _discs(group: InstructionGroup, figs: Sequence[FigureView], size_mm: float, alpha: float,
           at: dict[str, list[Pt]] | None, names: bool, named: list[NameLabel] | None = None) -> list[Label]:
    """One batch of figures: fills, outlines and facing wedges emitted; their letters returned, their names and
    badges added to ``named`` (placed once every disc is known)."""
    fills: dict[palette.RGBA, MeshBatch] = {}
    outline = MeshBatch((0.05, 0.05, 0.05, alpha))
    wedges = MeshBatch((1.0, 1.0, 1.0, alpha))
    labels: list[Label] = []
    for f in figs:
        r = size_mm * DISC_RADIUS * (f.scale if at is None else 1.0)
        places = at.get(f.id, []) if at is not None else ([f.centre] if f.centre is not None else [])
        colour = (f.colour[0], f.colour[1], f.colour[2], alpha)
        fill = fills.setdefault(colour, MeshBatch(colour))
        for centre in places:
            pts = shape_points(f.shape, centre, r)
            fill.polygon(pts)
            outline.polyline(pts, size_mm * 0.07, close=True)
            if f.facing_deg is not None and at is None:
                wedge = facing_wedge(centre, r, f.facing_deg)
                wedges.polygon(wedge)
                outline.polyline(wedge, size_mm * 0.05, close=True)
            labels.append((f.letter, centre, r * 0.95, (0.05, 0.05, 0.05, alpha), 40))
            on_top = f.stack_index == f.stack - 1
            if names and f.name_left is not None and at is None:
                continue  # named beside its disc (figures.roster_names)
            if names and on_top and named is not None:
                name = f.name if f.stack < 2 else f"{f.name} +{f.stack - 1}"
                named.append((name, centre, r, size_mm * 0.3, (1, 1, 1, alpha), 28, tuple(f.badges), f.area))
    for batch in fills.values():
        batch.emit(group)
    outline.emit(group)
    wedges.emit(group)
    return labels


def badge_text(badges: Sequence[str]) -> str:
    """A figure's badges in one short line, in words ("hawk_eye" reads "hawk eye")."""
    line = " · ".join(b.replace("_", " ") for b in badges)
    return line if len(line) <= 30 else line[:29] + "…"


def badge_lines(badges: Sequence[str]) -> list[str]:
    """A figure's badges as the board tries them where room is short: all of them, then the first ones with "…"
    for the rest, then only "…" (the figure's info, on a tap, lists them all)."""
    if not badges:
        return []
    words = [b.replace("_", " ") for b in badges]
    shorter = [" · ".join(words[:n]) + " …" for n in range(len(words) - 1, 0, -1)]
    return [" · ".join(words), *shorter, "…"]


def roster_names(group: InstructionGroup, figs: Sequence[FigureView], size_mm: float,
                 room: TextRoom | None = None) -> None:
    """The names (and badges) of figures drawn at places of their own, each beside its disc."""
    for f in figs:
        if f.name_left is None or f.centre is None:
            continue
        r = size_mm * DISC_RADIUS * f.scale
        height = min(size_mm * 0.34, r * 0.9)
        if room is not None:
            height = room.height(height) or 0.0
        if not height:
            continue
        badges = bool(f.badges) and (room is None or room.height(height * 0.7, r * 2.0 - height) is not None)
        y = f.centre[1] - (height * 0.35 if badges else 0.0)
        text_from(group, f.name, (f.name_left, y), height, f.name_width, (1, 1, 1, 1), 28, room)
        if badges:
            text_from(group, badge_text(f.badges), (f.name_left, y + height * 0.95), height * 0.7, f.name_width,
                      (1.0, 0.9, 0.4, 1.0), 24, room)


def name_lines(name: str) -> list[str]:
    """A figure's name as the board tries it where room is short: in full, then cut to three quarters and to half
    its letters with "…" (never to fewer than two letters, and only where the cut saves more than the "…" costs)."""
    cuts = sorted({math.ceil(len(name) * share) for share in (0.75, 0.5)}, reverse=True)
    return [name, *(name[:n].rstrip() + "…" for n in cuts if 2 <= n < len(name) - 1)]


def name_labels(group: InstructionGroup, named: Sequence[NameLabel], room: TextRoom | None) -> None:
    """Each figure's name below its disc (above it where below is taken, else beside it) and its badges on the
    other side, where the room has space for them at a readable size. Where room is short the badges are shortened
    first (:func:`badge_lines`), then the name (:func:`name_lines`), then it is left out (a tap on the figure lists
    everything in full). All the names are placed before any badge: a name never gives way to another figure's
    badges."""
    badges: list[tuple[list[Pt], float, Pt, palette.RGBA, list[str], Any]] = []
    for name, centre, r, height, rgba, px, badge, area in named:
        h = height if room is None else room.height(height)
        if h is None:
            continue
        below = (centre[0], centre[1] + r + h * 0.45)
        above = (centre[0], centre[1] - r - h * 0.45)
        side = r + h * 0.3
        places = [(below, [above]), (above, [below])]
        if room is not None:
            places += [((centre[0] + dx, centre[1] + dy), [above, below]) for dx in (side, -side)
                       for dy in (r + h * 0.45, -r - h * 0.45)]
        shown = name_lines(name) if room is not None else [name]
        spot = next(((at, spares) for line in shown for at, spares in places
                     if placed_text(group, room, line, at, h, rgba, px, own=centre, within=area)), None)
        if spot is not None and badge:
            badges.append((spot[1], h * 0.87, centre, rgba, list(badge), area))
    for spares, h, centre, rgba, words, area in badges:
        lines = badge_lines(words) if room is not None else [badge_text(words)]
        any(placed_text(group, room, line, at, h, (1.0, 0.9, 0.4, rgba[3]), 24, own=centre, within=area)
            for line in lines for at in spares)


def stack_count(group: InstructionGroup, f: FigureView, size_mm: float, room: TextRoom | None = None) -> None:
    """The number of figures in a stack, in a dark badge on the top disc's upper right (grown to a readable size)."""
    if f.centre is None:
        return
    r = size_mm * 0.58
    at = (f.centre[0] + r * 0.85, f.centre[1] - r * 0.85)
    h = size_mm * 0.42 if room is None else max(size_mm * 0.42, room.min_mm)
    badge = MeshBatch((0.08, 0.08, 0.08, 1.0))
    badge.polygon(shape_points("circle", at, max(size_mm * 0.3, h * 0.62)))
    badge.emit(group)
    text(group, str(f.stack), at, h, (1.0, 0.9, 0.4, 1.0), 32)


def disc_places(figs: Sequence[FigureView], size_mm: float) -> list[tuple[Pt, float]]:
    """Where the figures' discs are drawn (centre, radius): the room no text may cover."""
    out = []
    for f in figs:
        if f.centre is None:
            continue
        stacked = f.stack >= 2 and f.name_left is None
        out.append((f.centre, size_mm * DISC_RADIUS * (STACKED_SCALE if stacked else f.scale)))
    return out


def facing_marks(figs: Sequence[FigureView], size_mm: float) -> list[list[Pt]]:
    """The facing wedges drawn on the figures' rims (as :func:`_discs` draws them): no text may cover one."""
    out = []
    for f in figs:
        if f.centre is None or f.facing_deg is None:
            continue
        stacked = f.stack >= 2 and f.name_left is None
        out.append(facing_wedge(f.centre, size_mm * DISC_RADIUS * (STACKED_SCALE if stacked else 1.0) * f.scale,
                                f.facing_deg))
    return out


def edge_strokes(edge_views: Sequence[EdgeView], size_mm: float) -> list[tuple[Pt, Pt, float]]:
    """Each edge as the stroke :func:`edge_batches` draws (its ends and half its widest width, posts and doors
    included): no text may lie on one."""
    out = []
    for e in edge_views:
        width = EDGE_WIDTH.get(e.style, EDGE_WIDTH["wall"])
        if e.style == "fence":
            width = 0.24
        if e.door:
            width = max(width, 0.16, 0.44 if e.state == "locked" else 0.0)
        out.append((e.ends[0], e.ends[1], size_mm * width / 2))
    return out


def _letters(group: InstructionGroup, labels: Sequence[Label], room: TextRoom | None) -> None:
    """The letters on the discs, grown to a readable size while they still fit in the disc (else left out)."""
    for label, centre, height, rgba, px in labels:
        h = height if room is None else room.height(height, height / 0.95 * 1.7)
        if h is not None:
            text(group, label, centre, h, rgba, px)


def figures(group: InstructionGroup, figs: Sequence[FigureView], size_mm: float, alpha: float = 1.0,
            at: dict[str, list[Pt]] | None = None, names: bool = True, room: TextRoom | None = None,
            labels: InstructionGroup | None = None, first: Callable[[], None] | None = None) -> None:
    """Figures as their side's shape in the side's colour with a dark outline and the kind's letter, a wedge on
    the rim where they face; names below, badges above. A stack is drawn disc after disc (the last to arrive on
    top) with its count. ``at`` draws ghosts of a figure at other places instead. ``labels``: the group the names
    and badges go to (one drawn over the overlays), else ``group``; ``first``: what claims its room once the discs
    are in it, before any name (the cells a prompt names)."""
    texts = labels if labels is not None else group
    single = [f for f in figs if f.stack < 2 or f.name_left is not None or at is not None]
    stacked = sorted((f for f in figs if f.stack >= 2 and f.name_left is None and at is None),
                     key=lambda f: f.stack_index)
    if room is not None and at is None:
        room.discs += disc_places(figs, size_mm)
        for wedge in facing_marks(figs, size_mm):
            room.add_mark(wedge)
    if first is not None:
        first()
    named: list[NameLabel] = []
    _letters(group, _discs(group, single, size_mm, alpha, at, names, named), room)
    if names and at is None:
        roster_names(texts, single, size_mm, room)
    for f in stacked:  # each disc over the one below it, its letter with it; smaller, so the one below shows
        _letters(group, _discs(group, [f], size_mm * STACKED_SCALE, alpha, None, names, named), room)
        if f.stack_index == f.stack - 1:
            stack_count(group, f, size_mm * STACKED_SCALE, room)
    name_labels(texts, named, room)


def arrow(batch: MeshBatch, a: Pt, b: Pt, width: float, head: float) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    base = (b[0] - head * 0.8 * math.cos(ang), b[1] - head * 0.8 * math.sin(ang))
    batch.segment(a, base, width)
    left = (b[0] - head * math.cos(ang - 0.45), b[1] - head * math.sin(ang - 0.45))
    right = (b[0] - head * math.cos(ang + 0.45), b[1] - head * math.sin(ang + 0.45))
    batch.polygon([b, left, right])


def dashed(batch: MeshBatch, a: Pt, b: Pt, width: float, dash: tuple[float, float]) -> None:
    """A line drawn as dashes (``dash`` = on/off lengths in mm; (0, 0) = solid)."""
    on, off = dash
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if on <= 0 or length == 0:
        batch.segment(a, b, width)
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        t1 = min(length, t + on)
        batch.segment((a[0] + ux * t, a[1] + uy * t), (a[0] + ux * t1, a[1] + uy * t1), width)
        t = t1 + off


def hexes(board: BoardView, keys: Iterable[HexKey]) -> list[TileView]:
    return [board.tiles[k] for k in keys if k in board.tiles]
