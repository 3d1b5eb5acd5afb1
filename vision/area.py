"""The table area that TUIO positions are normalised over, and where its default comes from.

The camera service knows no map, so the area is either given by the caller (``--area X0,Y0,X1,Y1``
in table millimetres, e.g. the bounds of the scenario's board) or taken from what the service does
know: the board the synthetic table draws, or else the part of the table plane a calibrated camera
sees. Positions outside the area are clamped onto its edge, never dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.camera_model import CameraModel
from engine.i18n import gettext_for
from vision.synthetic.scene import TableDrawing
from vision.tracking import LIFTED, LOST, TrackUpdate

_ = gettext_for(__name__)


@dataclass(frozen=True, slots=True)
class TableArea:
    """A rectangle on the table, in millimetres of the calibration's frame (x right, y down)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.x0) and math.isfinite(self.y0) and self.x1 > self.x0 and self.y1 > self.y0):
            raise ValueError(_("table area ({x0:g}, {y0:g}) to ({x1:g}, {y1:g}) mm: X1 must exceed X0 and Y1 exceed "
                               "Y0", x0=self.x0, y0=self.y0, x1=self.x1, y1=self.y1))

    @property
    def width_mm(self) -> float:
        return self.x1 - self.x0

    @property
    def height_mm(self) -> float:
        return self.y1 - self.y0

    def contains(self, x_mm: float, y_mm: float) -> bool:
        return self.x0 <= x_mm <= self.x1 and self.y0 <= y_mm <= self.y1

    def normalised(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """The position as fractions of the area, clamped to 0..1 (a tag past the edge sits on it)."""
        u = (x_mm - self.x0) / self.width_mm
        v = (y_mm - self.y0) / self.height_mm
        return min(max(u, 0.0), 1.0), min(max(v, 0.0), 1.0)

    def __str__(self) -> str:
        return f"{self.x0:.0f},{self.y0:.0f},{self.x1:.0f},{self.y1:.0f} mm"


def drawing_area(table: TableDrawing) -> TableArea:
    """The bounds of what the synthetic table draws (the scenario's board), else the whole table."""
    points = [p for polygon in table.polygons for p in polygon.points_mm]
    if not points:
        return TableArea(0.0, 0.0, *table.size_mm)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return TableArea(min(xs), min(ys), max(xs), max(ys))


def seen_area(camera: CameraModel, samples: int = 16) -> TableArea | None:
    """The bounding box of the table plane inside the camera's picture; None if its edge sees past the table."""
    w, h = camera.image_size
    steps = np.linspace(0.0, 1.0, samples)
    border = np.concatenate([np.stack([steps * (w - 1), np.zeros_like(steps)], axis=1),
                             np.stack([steps * (w - 1), np.full_like(steps, h - 1.0)], axis=1),
                             np.stack([np.zeros_like(steps), steps * (h - 1)], axis=1),
                             np.stack([np.full_like(steps, w - 1.0), steps * (h - 1)], axis=1)])
    table = camera.table_from_pixels(border)
    if not np.all(np.isfinite(table)):
        return None
    (x0, y0), (x1, y1) = table.min(axis=0), table.max(axis=0)
    return TableArea(float(x0), float(y0), float(x1), float(y1))


def outside_warnings(update: TrackUpdate, area: TableArea) -> dict[int, str]:
    """A warning for each tag on the table (not lifted or lost) outside ``area``, by id; such tags stay tracked."""
    return {t.marker_id: f"marker {t.marker_id} at ({t.x_mm:.0f}, {t.y_mm:.0f}) mm is outside the table area "
            f"{area}: it is still tracked, its TUIO position clamped to the edge; move it onto the table or widen "
            "--area" for t in update.tracks if t.state not in (LIFTED, LOST) and not area.contains(t.x_mm, t.y_mm)}
