"""Pixels → table millimetres: ``to_table(markers, camera)``, parallax-corrected for marker height.

Each corner is undistorted with the calibration's lens model and its ray intersected with the
plane at the tag's height above the table (a tag on a 30 mm figure's head seen from the edge of
the camera's view is ~15 mm away from where the table-plane mapping would put it). The centre
and the facing angle then come from the four corners in millimetres, where the tag is a true
square again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration.camera_model import CameraModel
from vision.detection import DetectedMarker


@dataclass(frozen=True, slots=True)
class TableMarker:
    """A detected tag placed on the table: centre (mm), facing, height used, image position, confidence."""

    marker_id: int
    x_mm: float
    y_mm: float
    angle_deg: float
    height_mm: float
    x_px: float
    y_px: float
    confidence: float
    side_mm: float  # measured tag side, a plausibility check on the height configured for the id

    @property
    def on_table(self) -> bool:
        """False when the camera ray never reaches the tag's plane (no calibration covers it)."""
        return math.isfinite(self.x_mm) and math.isfinite(self.y_mm)


def facing_deg(corners_mm: NDArray[np.float64]) -> float:
    """Direction of a tag's top edge (corner 0 → 1) in the table frame, from all four sides."""
    c0, c1, c2, c3 = corners_mm
    across = (c1 - c0) + (c2 - c3)
    down = (c3 - c0) + (c2 - c1)  # the top edge turned a quarter clockwise (y down)
    u = across + np.array([down[1], -down[0]])
    angle = math.degrees(math.atan2(float(u[1]), float(u[0])))
    return 180.0 if angle <= -180.0 else angle


def to_table(markers: Iterable[DetectedMarker], camera: CameraModel, heights: Mapping[int, float] | None = None,
             default_height_mm: float = 0.0) -> list[TableMarker]:
    """Map detected tags to the table, each at its configured height (``heights[id]``, else the default)."""
    markers = list(markers)
    if not markers:
        return []
    heights = heights or {}
    tag_heights = np.array([heights.get(m.marker_id, default_height_mm) for m in markers], dtype=np.float64)
    pixels = np.concatenate([m.corners_px for m in markers])
    table = camera.table_from_pixels(pixels, np.repeat(tag_heights, 4)).reshape(-1, 4, 2)
    out: list[TableMarker] = []
    for marker, corners_mm, height in zip(markers, table, tag_heights, strict=True):
        x_px, y_px = marker.centre_px
        if np.all(np.isfinite(corners_mm)):
            centre = corners_mm.mean(axis=0)
            angle = facing_deg(corners_mm)
            side = float(np.mean(np.linalg.norm(corners_mm - np.roll(corners_mm, -1, axis=0), axis=1)))
        else:
            centre, angle, side = np.array([math.nan, math.nan]), 0.0, math.nan
        out.append(TableMarker(marker.marker_id, float(centre[0]), float(centre[1]), angle, float(height),
                               x_px, y_px, marker.confidence, side))
    return out
