"""Which parts of the image the collected sheet corners have reached, and a picture of it.

Lens distortion is strongest in the image corners and is only measured where the sheet was
seen, so the guided flow steers the player towards the cells still empty.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.detection import BoardView
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

GRID_COLUMNS = 8
GRID_ROWS = 6

CORNER_NAMES: dict[str, tuple[int, int]] = {
    N_("top-left"): (0, 0),
    N_("top-right"): (0, GRID_COLUMNS - 1),
    N_("bottom-left"): (GRID_ROWS - 1, 0),
    N_("bottom-right"): (GRID_ROWS - 1, GRID_COLUMNS - 1),
}


def coverage_counts(views: Iterable[BoardView], image_size: tuple[int, int]) -> NDArray[np.int32]:
    """Corners seen per grid cell, shape (GRID_ROWS, GRID_COLUMNS)."""
    w, h = image_size
    counts = np.zeros((GRID_ROWS, GRID_COLUMNS), np.int32)
    for view in views:
        cols = np.clip((view.corners_px[:, 0] / w * GRID_COLUMNS).astype(int), 0, GRID_COLUMNS - 1)
        rows = np.clip((view.corners_px[:, 1] / h * GRID_ROWS).astype(int), 0, GRID_ROWS - 1)
        np.add.at(counts, (rows, cols), 1)
    return counts


def coverage_fraction(counts: NDArray[np.int32]) -> float:
    """Share of grid cells with at least one corner."""
    return float(np.count_nonzero(counts)) / counts.size


def uncovered_corners(counts: NDArray[np.int32]) -> tuple[str, ...]:
    """Names of the image corners no view has reached, e.g. ``("top-left",)``."""
    return tuple(name for name, (r, c) in CORNER_NAMES.items() if counts[r, c] == 0)


def coverage_picture(counts: NDArray[np.int32], views: Iterable[BoardView], image_size: tuple[int, int],
                     width: int = 320) -> NDArray[np.uint8]:
    """A small BGR picture: empty cells red, covered cells green by count, corners as dots."""
    w, h = image_size
    height = max(1, round(width * h / w))
    pic = np.zeros((height, width, 3), np.uint8)
    cell_w, cell_h = width / GRID_COLUMNS, height / GRID_ROWS
    for r in range(GRID_ROWS):
        for c in range(GRID_COLUMNS):
            n = int(counts[r, c])
            colour = (40, 40, 150) if n == 0 else (40, min(230, 90 + 15 * n), 40)
            p0 = (round(c * cell_w) + 1, round(r * cell_h) + 1)
            p1 = (round((c + 1) * cell_w) - 1, round((r + 1) * cell_h) - 1)
            cv2.rectangle(pic, p0, p1, colour, -1)
    scale = width / w
    for view in views:
        for x, y in view.corners_px:
            cv2.circle(pic, (round(x * scale), round(y * scale)), 1, (255, 255, 255), -1)
    return pic
