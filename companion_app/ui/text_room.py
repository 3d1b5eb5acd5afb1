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
        self.boxes: list[Box] = []

    def copy(self) -> TextRoom:
        room = TextRoom(self.min_mm, self.discs)
        room.boxes = list(self.boxes)
        return room

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
        if any(_disc_hits(c, r, box) for c, r in self.discs if own is None or c != own):
            return None
        if any(_boxes_hit(box, b) for b in self.boxes):
            return None
        self.boxes.append(box)
        return h
