"""Where the board's texts go at the current zoom: each at least the readable size (:mod:`readability`), never
over a figure's disc or another text. A text that does not fit is dropped, never shrunk below the minimum."""

from __future__ import annotations

import math
from collections.abc import Sequence

from companion_app.ui.textures import text_texture

Pt = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in map millimetres (y down)
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


class TextRoom:
    """The room left on the board for texts: ``min_mm`` is the smallest readable text height (texture height, map
    millimetres) at the zoom drawn; ``discs`` the figures' discs (centre, radius) no text may cover."""

    def __init__(self, min_mm: float, discs: Sequence[tuple[Pt, float]] = ()) -> None:
        self.min_mm = min_mm
        self.discs = list(discs)
        # The texts placed, by the cells of a grid they touch: a text is checked against its neighbours only, not
        # against every text placed (a small map's hex labels are laid out again whenever a figure moves).
        self._cell = max(1.0, 4.0 * min_mm)
        self._by_cell: dict[tuple[int, int], list[Box]] = {}
        self._discs_by_cell: dict[tuple[int, int], list[tuple[Pt, float]]] = {}
        self._discs_filed = 0  # how many of ``discs`` are filed by cell (callers add discs to the list)

    def copy(self) -> TextRoom:
        room = TextRoom(self.min_mm, self.discs)
        room._by_cell = {cell: list(boxes) for cell, boxes in self._by_cell.items()}
        return room

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
        cover); its height, or None when it is dropped."""
        h = self.height(height_mm, max_mm)
        if h is None:
            return None
        tex = text_texture(label, font_px)
        w = h * tex.width / max(1, tex.height)
        if w > max_width_mm:
            return None
        g = h * GLYPH_SHARE / 2
        box = (centre[0] - w / 2, centre[1] - g, centre[0] + w / 2, centre[1] + g)
        cells = self._cells(box)
        if any(_disc_hits(c, r, box) for c, r in self._near_discs(cells) if own is None or c != own):
            return None
        if any(_boxes_hit(box, b) for cell in cells for b in self._by_cell.get(cell, ())):
            return None
        for cell in cells:
            self._by_cell.setdefault(cell, []).append(box)
        return h
