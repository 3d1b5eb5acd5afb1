"""Canvas instructions for the board, in map millimetres with y flipped (so the view matrix is the only transform).

Each function fills one InstructionGroup; the board widget decides which groups to rebuild when.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from kivy.graphics import Color, InstructionGroup, Line, Mesh, Rectangle, Triangle

from companion_app.ui.textures import text_texture
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import BoardView, EdgeView, FigureView, HexKey, TileView

Pt = tuple[float, float]


def flip(p: Pt) -> Pt:
    return (p[0], -p[1])


def _flat(points: Iterable[Pt]) -> list[float]:
    return [c for p in points for c in flip(p)]


def _fix_inset(t: TileView, inset: float) -> list[Pt]:
    return [(t.centre[0] + (x - t.centre[0]) * inset, t.centre[1] + (y - t.centre[1]) * inset) for x, y in t.corners]


def hex_fill(group: InstructionGroup, tiles: Sequence[TileView], rgba: palette.RGBA, inset: float = 1.0) -> None:
    """One mesh of triangle fans for many hexes of one colour (one draw call)."""
    if not tiles:
        return
    vertices: list[float] = []
    indices: list[int] = []
    for t in tiles:
        base = len(vertices) // 4
        cx, cy = flip(t.centre)
        vertices += [cx, cy, 0.0, 0.0]
        for p in _fix_inset(t, inset):
            fx, fy = flip(p)
            vertices += [fx, fy, 0.0, 0.0]
        for i in range(6):
            indices += [base, base + 1 + i, base + 1 + (i + 1) % 6]
    group.add(Color(*rgba))
    group.add(Mesh(vertices=vertices, indices=indices, mode="triangles"))


def hex_outlines(group: InstructionGroup, tiles: Sequence[TileView], rgba: palette.RGBA, width: float,
                 inset: float = 1.0, dashed: bool = False) -> None:
    group.add(Color(*rgba))
    for t in tiles:
        pts = _fix_inset(t, inset)
        if dashed:
            for i in range(6):
                a, b = pts[i], pts[(i + 1) % 6]
                mid1 = (a[0] + (b[0] - a[0]) * 0.25, a[1] + (b[1] - a[1]) * 0.25)
                mid2 = (a[0] + (b[0] - a[0]) * 0.75, a[1] + (b[1] - a[1]) * 0.75)
                group.add(Line(points=_flat([mid1, mid2]), width=width, cap="none"))
        else:
            group.add(Line(points=_flat(pts), width=width, close=True, joint="miter"))


def grid_lines(group: InstructionGroup, tiles: Sequence[TileView], rgba: palette.RGBA) -> None:
    """All hex outlines as one line mesh (1 px wide, cheap)."""
    vertices: list[float] = []
    indices: list[int] = []
    for t in tiles:
        base = len(vertices) // 4
        for p in t.corners:
            fx, fy = flip(p)
            vertices += [fx, fy, 0.0, 0.0]
        for i in range(6):
            indices += [base + i, base + (i + 1) % 6]
    group.add(Color(*rgba))
    group.add(Mesh(vertices=vertices, indices=indices, mode="lines"))


def terrain_patterns(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float) -> None:
    """Hatching for rock, a cross for crates, waves for water: terrain reads without colour."""
    group.add(Color(1, 1, 1, 0.28))
    for t in tiles:
        cx, cy = t.centre
        r = size_mm * 0.6
        if t.pattern == "hatch":
            for k in (-0.5, 0.0, 0.5):
                o = k * size_mm
                group.add(Line(points=_flat([(cx - r + o, cy + r), (cx + r + o, cy - r)]), width=size_mm * 0.03))
        elif t.pattern == "cross":
            group.add(Line(points=_flat([(cx - r, cy - r), (cx + r, cy + r)]), width=size_mm * 0.05))
            group.add(Line(points=_flat([(cx - r, cy + r), (cx + r, cy - r)]), width=size_mm * 0.05))
            group.add(Line(rectangle=(cx - r, -cy - r, 2 * r, 2 * r), width=size_mm * 0.04))
        elif t.pattern == "waves":
            for dy in (-0.3, 0.0, 0.3):
                pts = [(cx - r + i * r / 4.0, cy + dy * size_mm + math.sin(i * math.pi / 2) * size_mm * 0.08)
                       for i in range(9)]
                group.add(Line(points=_flat(pts), width=size_mm * 0.03))


def text(group: InstructionGroup, label: str, centre: Pt, height_mm: float, rgba: palette.RGBA = palette.TEXT,
         font_px: int = 32) -> None:
    tex = text_texture(label, font_px)
    w = height_mm * tex.width / max(1, tex.height)
    cx, cy = flip(centre)
    group.add(Color(*rgba))
    group.add(Rectangle(texture=tex, pos=(cx - w / 2, cy - height_mm / 2), size=(w, height_mm)))


def tile_labels(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float) -> None:
    for t in tiles:
        top = (t.centre[0], t.centre[1] - size_mm * 0.62)
        text(group, t.label, top, size_mm * 0.26, palette.TEXT_DIM, 24)
        if t.level:
            text(group, f"L{t.level}", (t.centre[0], t.centre[1] + size_mm * 0.55),
                 size_mm * 0.26, palette.TEXT, 24)
        for token in t.tokens:
            token_mark(group, token, t.centre, size_mm)


def token_mark(group: InstructionGroup, token: str, centre: Pt, size_mm: float) -> None:
    """Treasure and other tokens: a gold diamond with the token's initial."""
    cx, cy = flip(centre)
    r = size_mm * 0.42
    group.add(Color(0.95, 0.78, 0.20, 1.0))
    group.add(Mesh(vertices=[cx, cy + r, 0, 0, cx + r, cy, 0, 0, cx, cy - r, 0, 0, cx - r, cy, 0, 0],
                   indices=[0, 1, 2, 0, 2, 3], mode="triangles"))
    text(group, token[:1].upper(), centre, size_mm * 0.45, (0.1, 0.1, 0.1, 1.0))


def edges(group: InstructionGroup, edge_views: Sequence[EdgeView], size_mm: float) -> None:
    """Walls: thick light bars. Doors: coloured bars with a shape — closed a solid bar, open two stubs, locked a bar
    with a cross."""
    for e in edge_views:
        (ax, ay), (bx, by) = e.ends
        if e.state == "open":
            group.add(Color(*e.colour))
            for t0, t1 in ((0.0, 0.22), (0.78, 1.0)):
                p0 = (ax + (bx - ax) * t0, ay + (by - ay) * t0)
                p1 = (ax + (bx - ax) * t1, ay + (by - ay) * t1)
                group.add(Line(points=_flat([p0, p1]), width=size_mm * 0.12, cap="square"))
            continue
        width = size_mm * (0.10 if e.state == "wall" else 0.14)
        group.add(Color(*e.colour))
        group.add(Line(points=_flat([(ax, ay), (bx, by)]), width=width, cap="square"))
        if e.state == "locked":
            mx, my = (ax + bx) / 2, (ay + by) / 2
            r = size_mm * 0.22
            group.add(Color(0.1, 0.1, 0.1, 1.0))
            group.add(Line(points=_flat([(mx - r, my - r), (mx + r, my + r)]), width=size_mm * 0.05))
            group.add(Line(points=_flat([(mx - r, my + r), (mx + r, my - r)]), width=size_mm * 0.05))


def shape(group: InstructionGroup, kind: str, centre: Pt, r: float, rgba: palette.RGBA, outline: palette.RGBA,
          line_w: float) -> None:
    cx, cy = flip(centre)
    group.add(Color(*rgba))
    if kind == "square":
        group.add(Rectangle(pos=(cx - r * 0.85, cy - r * 0.85), size=(r * 1.7, r * 1.7)))
        group.add(Color(*outline))
        group.add(Line(rectangle=(cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7), width=line_w))
    elif kind == "triangle":
        pts = [cx, cy + r, cx - r * 0.95, cy - r * 0.75, cx + r * 0.95, cy - r * 0.75]
        group.add(Triangle(points=pts))
        group.add(Color(*outline))
        group.add(Line(points=pts, close=True, width=line_w))
    elif kind == "diamond":
        pts = [cx, cy + r, cx + r, cy, cx, cy - r, cx - r, cy]
        group.add(Mesh(vertices=[v for i in range(4) for v in (pts[2 * i], pts[2 * i + 1], 0, 0)],
                       indices=[0, 1, 2, 0, 2, 3], mode="triangles"))
        group.add(Color(*outline))
        group.add(Line(points=pts, close=True, width=line_w))
    else:
        group.add(Line(circle=(cx, cy, r * 0.5), width=r * 0.5))  # a filled disc as a thick ring
        group.add(Color(*outline))
        group.add(Line(circle=(cx, cy, r), width=line_w))


def figure(group: InstructionGroup, f: FigureView, size_mm: float, alpha: float = 1.0, at: Pt | None = None,
           names: bool = True) -> None:
    centre = at or f.centre
    if centre is None:
        return
    r = size_mm * 0.58
    colour = (f.colour[0], f.colour[1], f.colour[2], alpha)
    shape(group, f.shape, centre, r, colour, (0.05, 0.05, 0.05, alpha), size_mm * 0.05)
    text(group, f.letter, centre, size_mm * 0.55, (0.05, 0.05, 0.05, alpha), 40)
    if names:
        below = (centre[0], centre[1] + size_mm * 0.78)
        text(group, f.name, below, size_mm * 0.28, (1, 1, 1, alpha), 28)
        if f.badges:
            above = (centre[0], centre[1] - size_mm * 0.78)
            text(group, " ".join(f.badges)[:24], above, size_mm * 0.24, (1.0, 0.9, 0.4, alpha), 24)


def arrow(group: InstructionGroup, a: Pt, b: Pt, rgba: palette.RGBA, width: float, head: float) -> None:
    group.add(Color(*rgba))
    group.add(Line(points=_flat([a, b]), width=width))
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (b[0] - head * math.cos(ang - 0.45), b[1] - head * math.sin(ang - 0.45))
    right = (b[0] - head * math.cos(ang + 0.45), b[1] - head * math.sin(ang + 0.45))
    group.add(Triangle(points=_flat([b, left, right])))


def dashed(group: InstructionGroup, a: Pt, b: Pt, rgba: palette.RGBA, width: float, dash: tuple[float, float]) -> None:
    """A line drawn as dashes (``dash`` = on/off lengths in mm; (0, 0) = solid)."""
    group.add(Color(*rgba))
    on, off = dash
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if on <= 0 or length == 0:
        group.add(Line(points=_flat([a, b]), width=width))
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        t1 = min(length, t + on)
        group.add(Line(points=_flat([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * t1, a[1] + uy * t1)]), width=width))
        t = t1 + off


def hexes(board: BoardView, keys: Iterable[HexKey]) -> list[TileView]:
    return [board.tiles[k] for k in keys if k in board.tiles]
