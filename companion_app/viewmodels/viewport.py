"""Board view transform: map millimetres ↔ screen pixels under zoom, pan and rotation (pure math).

Screen y points up (Kivy), map y points down, so the map is mirrored in y on the way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass
class Viewport:
    """``zoom`` pixels per mm; the map point ``centre_mm`` shows at the widget point ``screen_centre``."""

    centre_mm: Point = (0.0, 0.0)
    screen_centre: Point = (0.0, 0.0)
    zoom: float = 1.0
    rotation_deg: float = 0.0  # counter-clockwise on screen
    min_zoom: float = 0.05
    max_zoom: float = 40.0

    def to_screen(self, x_mm: float, y_mm: float) -> Point:
        dx, dy = (x_mm - self.centre_mm[0]) * self.zoom, -(y_mm - self.centre_mm[1]) * self.zoom
        a = math.radians(self.rotation_deg)
        c, s = math.cos(a), math.sin(a)
        return self.screen_centre[0] + dx * c - dy * s, self.screen_centre[1] + dx * s + dy * c

    def to_map(self, sx: float, sy: float) -> Point:
        dx, dy = sx - self.screen_centre[0], sy - self.screen_centre[1]
        a = math.radians(-self.rotation_deg)
        c, s = math.cos(a), math.sin(a)
        rx, ry = dx * c - dy * s, dx * s + dy * c
        return self.centre_mm[0] + rx / self.zoom, self.centre_mm[1] - ry / self.zoom

    def fit(self, bounds_mm: tuple[float, float, float, float], size_px: Point, margin: float = 0.04) -> None:
        """Show the whole map in a widget of ``size_px`` (keeps the rotation)."""
        x0, y0, x1, y1 = bounds_mm
        w, h = max(1e-6, x1 - x0), max(1e-6, y1 - y0)
        a = math.radians(self.rotation_deg)
        rw = abs(w * math.cos(a)) + abs(h * math.sin(a))
        rh = abs(w * math.sin(a)) + abs(h * math.cos(a))
        self.centre_mm = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
        self.screen_centre = (size_px[0] / 2.0, size_px[1] / 2.0)
        self.zoom = max(self.min_zoom, min(self.max_zoom, (1.0 - 2 * margin) * min(size_px[0] / rw, size_px[1] / rh)))

    def pan(self, dx_px: float, dy_px: float) -> None:
        self.screen_centre = (self.screen_centre[0] + dx_px, self.screen_centre[1] + dy_px)

    def zoom_about(self, factor: float, sx: float, sy: float) -> None:
        """Zoom by ``factor`` keeping the map point under (sx, sy) in place (pinch and wheel)."""
        anchor = self.to_map(sx, sy)
        self.zoom = max(self.min_zoom, min(self.max_zoom, self.zoom * factor))
        after = self.to_screen(*anchor)
        self.pan(sx - after[0], sy - after[1])

    def rotate_to(self, degrees: float, pivot: Point) -> None:
        """Turn the board to face a seat, keeping the map point at ``pivot`` in place."""
        anchor = self.to_map(*pivot)
        self.rotation_deg = degrees % 360.0
        after = self.to_screen(*anchor)
        self.pan(pivot[0] - after[0], pivot[1] - after[1])
