"""Where the board's texts go at the current zoom: each at least the readable size (:mod:`readability`), inside the
board's visible area (moved in from its edge), never over a figure's disc, a facing mark, a wall or another text.
A text that does not fit is dropped, never shrunk below the minimum."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from companion_app.ui.textures import text_texture

Pt = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in map millimetres (y down)
Stroke = tuple[Pt, Pt, float]  # a wall, fence, line or door: its ends and half its width
GLYPH_SHARE = 0.8  # the share of a text texture's height its glyphs fill (the rest is the line's padding)


def texture_per_font() -> float:
    """A text texture's height per pixel of font size (the font's line height), measured on the font in use."""
    return float(text_texture("Hg", 64).height) / 64.0


def _disc_hits(centre: Pt, r: float, box: Box) -> bool:
    x = min(max(centre[0], box[0]), box[2])
    y = min(max(centre[1], box[1]), box[3])
    return math.hypot(centre[0] - x, centre[1] - y) < r


def _boxes_hit(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _point_segment(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _crosses(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    def turn(p: Pt, q: Pt, r: Pt) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return turn(a, b, c) * turn(a, b, d) < 0 and turn(c, d, a) * turn(c, d, b) < 0


def _box_corners(box: Box) -> list[Pt]:
    return [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]


def _stroke_hits(stroke: Stroke, box: Box) -> bool:
    """Whether a stroke (a segment ``half`` wide either side) touches a box: most strokes filed under a box's grid
    cells are apart from it along x or y by more than half their width, which is told before any geometry."""
    a, b, half = stroke
    if (max(a[0], b[0]) + half < box[0] or min(a[0], b[0]) - half > box[2]
            or max(a[1], b[1]) + half < box[1] or min(a[1], b[1]) - half > box[3]):
        return False
    return _stroke_touches(stroke, box)


def _stroke_touches(stroke: Stroke, box: Box) -> bool:
    """:func:`_stroke_hits` by geometry alone: an end inside, a side crossed, or within ``half`` of the box."""
    a, b, half = stroke
    if any(box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3] for p in (a, b)):
        return True
    corners = _box_corners(box)
    sides = [(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    if any(_crosses(a, b, c, d) for c, d in sides):
        return True
    near = min([_point_segment(c, a, b) for c in corners]
               + [_point_segment(p, c, d) for p in (a, b) for c, d in sides])
    return near < half


def _polygon_hits(points: Sequence[Pt], box: Box) -> bool:
    """Whether a convex polygon overlaps a box (separating axes: the box's two and the polygon's edge normals)."""
    if max(p[0] for p in points) <= box[0] or min(p[0] for p in points) >= box[2]:
        return False
    if max(p[1] for p in points) <= box[1] or min(p[1] for p in points) >= box[3]:
        return False
    corners = _box_corners(box)
    for i, p in enumerate(points):
        q = points[(i + 1) % len(points)]
        nx, ny = q[1] - p[1], p[0] - q[0]
        own = [nx * v[0] + ny * v[1] for v in points]
        other = [nx * v[0] + ny * v[1] for v in corners]
        if max(own) <= min(other) or max(other) <= min(own):
            return False
    return True


def _extent(points: Sequence[Pt], pad: float = 0.0) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


class TextRoom:
    """The room left on the board for texts: ``min_mm`` is the smallest readable text height (texture height, map
    millimetres) at the zoom drawn; ``discs`` the figures' discs (centre, radius) no text may cover; ``bounds`` the
    board's visible area, which every text lies inside (a text reaching past it is moved in). Walls and the like
    (:meth:`add_stroke`) and marks such as a figure's facing wedge (:meth:`add_mark`) are kept clear as well."""

    def __init__(self, min_mm: float, discs: Sequence[tuple[Pt, float]] = (), bounds: Box | None = None) -> None:
        self.min_mm = min_mm
        self.discs = list(discs)
        self.bounds = bounds
        self.placed: list[tuple[str, Box]] = []  # every text placed, with its box (tests and the board read it)
        self._shapes_by_cell: dict[tuple[int, int], list[Stroke | tuple[Pt, ...]]] = {}
        # The texts placed, by the cells of a grid they touch: a text is checked against its neighbours only, not
        # against every text placed (a small map's hex labels are laid out again whenever a figure moves).
        self._cell = max(1.0, 4.0 * min_mm)
        self._by_cell: dict[tuple[int, int], list[Box]] = {}
        self._discs_by_cell: dict[tuple[int, int], list[tuple[Pt, float]]] = {}
        self._discs_filed = 0  # how many of ``discs`` are filed by cell (callers add discs to the list)
        self.shapes: list[Box] = []  # the extents of the strokes and marks added (what :meth:`obstacles` reports)

    def copy(self) -> TextRoom:
        room = TextRoom(self.min_mm, self.discs, self.bounds)
        room._by_cell = {cell: list(boxes) for cell, boxes in self._by_cell.items()}
        room._shapes_by_cell = {cell: list(shapes) for cell, shapes in self._shapes_by_cell.items()}
        room.placed = list(self.placed)
        room.shapes = list(self.shapes)
        return room

    def obstacles(self) -> frozenset[Box]:
        """Everything a text now keeps clear of, as boxes: the discs' squares, the texts placed, the strokes' and
        marks' extents (two layouts that differ only inside some of these boxes lay a text out elsewhere alike)."""
        discs = ((c[0] - r, c[1] - r, c[0] + r, c[1] + r) for c, r in self.discs)
        return frozenset(itertools.chain(discs, (box for _, box in self.placed), self.shapes))

    def claim(self, label: str, box: Box) -> None:
        """Take ``box`` for a text without checking it (it was checked where nothing near it has changed since)."""
        for cell in self._cells(box):
            self._by_cell.setdefault(cell, []).append(box)
        self.placed.append((label, box))

    def add_stroke(self, a: Pt, b: Pt, half_width: float) -> None:
        """A wall, fence, line or door no text may lie on."""
        extent = _extent((a, b), half_width)
        self.shapes.append(extent)
        for cell in self._cells(extent):
            self._shapes_by_cell.setdefault(cell, []).append((a, b, half_width))

    def add_mark(self, points: Sequence[Pt]) -> None:
        """A convex mark (a figure's facing wedge) no text may lie on."""
        shape = tuple(points)
        extent = _extent(shape)
        self.shapes.append(extent)
        for cell in self._cells(extent):
            self._shapes_by_cell.setdefault(cell, []).append(shape)

    def _shape_hits(self, cells: list[tuple[int, int]], box: Box) -> bool:
        for cell in cells:
            for shape in self._shapes_by_cell.get(cell, ()):
                if len(shape) == 3 and isinstance(shape[2], (int, float)):
                    if _stroke_hits(shape, box):
                        return True
                elif _polygon_hits(shape, box):
                    return True
        return False

    def _moved_in(self, box: Box, within: Box | None = None) -> Box | None:
        """``box`` moved inside the bounds and ``within`` (None: larger than they are)."""
        limits = [b for b in (self.bounds, within) if b is not None]
        if not limits:
            return box
        x0, y0 = max(b[0] for b in limits), max(b[1] for b in limits)
        x1, y1 = min(b[2] for b in limits), min(b[3] for b in limits)
        if box[2] - box[0] > x1 - x0 or box[3] - box[1] > y1 - y0:
            return None
        dx = max(0.0, x0 - box[0]) - max(0.0, box[2] - x1)
        dy = max(0.0, y0 - box[1]) - max(0.0, box[3] - y1)
        return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)

    def _near_discs(self, cells: list[tuple[int, int]]) -> list[tuple[Pt, float]]:
        """The discs that may touch a box over ``cells`` (each disc filed under every cell its square touches)."""
        for centre, r in self.discs[self._discs_filed:]:
            for cell in self._cells((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)):
                self._discs_by_cell.setdefault(cell, []).append((centre, r))
        self._discs_filed = len(self.discs)
        near: list[tuple[Pt, float]] = []
        for cell in cells:
            for disc in self._discs_by_cell.get(cell, ()):
                if disc not in near:
                    near.append(disc)
        return near

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        c = self._cell
        return [(i, j) for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1)
                for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)]

    def height(self, height_mm: float, max_mm: float = math.inf) -> float | None:
        """The height a text of ``height_mm`` is drawn at (the readable minimum at least), None when that is more
        than the ``max_mm`` it has room for."""
        h = max(height_mm, self.min_mm)
        return h if h <= max_mm * 1.0001 else None

    def place(self, label: str, centre: Pt, height_mm: float, font_px: int, own: Pt | None = None,
              max_mm: float = math.inf, max_width_mm: float = math.inf) -> float | None:
        """Claim room for a text centred on ``centre`` (the disc at ``own`` is the text's own figure's, which it may
        cover); its height, or None when it is dropped. (:meth:`fit` also says where it went.)"""
        fitted = self.fit(label, centre, height_mm, font_px, own, max_mm, max_width_mm)
        return None if fitted is None else fitted[0]

    def fit(self, label: str, centre: Pt, height_mm: float, font_px: int, own: Pt | None = None,
            max_mm: float = math.inf, max_width_mm: float = math.inf,
            within: Box | None = None) -> tuple[float, Pt] | None:
        """Claim room for a text centred on ``centre``, or as near it as the bounds (and ``within``: its zone)
        allow: its height and centre, or None when it is dropped."""
        return self.attempt(label, centre, height_mm, font_px, own, max_mm, max_width_mm, within)[0]

    def attempt(self, label: str, centre: Pt, height_mm: float, font_px: int, own: Pt | None = None,
                max_mm: float = math.inf, max_width_mm: float = math.inf,
                within: Box | None = None) -> tuple[tuple[float, Pt] | None, Box | None]:
        """:meth:`fit`, and the box the text was tried in: where its outcome depends on what else is in the room
        (None: dropped whatever the room holds, for its size alone)."""
        h = self.height(height_mm, max_mm)
        if h is None:
            return None, None
        tex = text_texture(label, font_px)
        w = h * tex.width / max(1, tex.height)
        if w > max_width_mm:
            return None, None
        g = h * GLYPH_SHARE / 2
        box = self._moved_in((centre[0] - w / 2, centre[1] - g, centre[0] + w / 2, centre[1] + g), within)
        if box is None:
            return None, None
        cells = self._cells(box)
        if any(_disc_hits(c, r, box) for c, r in self._near_discs(cells) if own is None or c != own):
            return None, box
        if any(_boxes_hit(box, b) for cell in cells for b in self._by_cell.get(cell, ())):
            return None, box
        if self._shape_hits(cells, box):
            return None, box
        for cell in cells:
            self._by_cell.setdefault(cell, []).append(box)
        self.placed.append((label, box))
        return (h, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)), box
