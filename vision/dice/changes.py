"""Where a tray's picture changed since the dice were last searched for there: cells of a few pixels, and the windows
the search must be made again in.

In a camera's stream of a throw, most of the tray is bare mat or dice already at rest: only the cells round a die that
moves change. Each cell (``CELL_PX`` square of the rectified tray, its mean colour) is held against its mean in the
frame it was last searched in: a cell off by more than ``CHANGE_LEVELS`` in any channel has changed. The search's steps
reach ``vision.dice.segment.SEARCH_ROOM_PX`` round a pixel, so the pixels whose result may change lie within that reach
of a changed cell (:func:`windows`); the rest keep what the last search found there.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
CELL_PX = 4  # 2 mm at the search's 2 px/mm: a die moving by 1 mm (the tracker's "still") shifts half a cell
# A cell's mean off by more than this (grey levels, any channel) has changed: a first guess, not calibrated (a die's
# moving by 1 mm shifts a cell by half the die's contrast against the mat; the noise of a 4 × 4 mean is a quarter of
# the picture's, σ 4 in dim light).
CHANGE_LEVELS = 8
# More of the box's cells than this changed (a lamp switched on, a hand over the tray, a throw landing): the whole tray
# is searched again, as is any frame whose mat colours moved from those the kept search was made with
# (``vision.dice.segment.COLOUR_SLACK``).
FULL_SHARE = 0.4


def cells_round(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The rows and columns (top, bottom, left, right) of whole cells round ``box`` in a picture of ``shape``
    (cut at its edge)."""
    top, bottom, left, right = box
    return (top // CELL_PX * CELL_PX, min(shape[0], -(-bottom // CELL_PX) * CELL_PX), left // CELL_PX * CELL_PX,
            min(shape[1], -(-right // CELL_PX) * CELL_PX))


def cell_means(part: Image) -> Image:
    """The mean colour of each ``CELL_PX`` cell of ``part`` (its last cells padded by repeating its edge)."""
    rows, cols = part.shape[:2]
    down, across = -rows % CELL_PX, -cols % CELL_PX
    padded = cv2.copyMakeBorder(part, 0, down, 0, across, cv2.BORDER_REPLICATE) if down or across else part
    size = ((cols + across) // CELL_PX, (rows + down) // CELL_PX)
    return np.asarray(cv2.resize(padded, size, interpolation=cv2.INTER_AREA), np.uint8)


def changed_cells(means: Image, kept: Image) -> NDArray[np.bool_]:
    """The cells whose mean is off the kept one by more than ``CHANGE_LEVELS`` in any channel."""
    diff = np.asarray(cv2.absdiff(means, kept), np.uint8)
    most = cv2.reduce(diff.reshape(-1, diff.shape[2]), 1, cv2.REDUCE_MAX)  # OpenCV's: numpy's last axis is slow
    return np.asarray(most.reshape(diff.shape[:2]) > CHANGE_LEVELS, np.bool_)


def windows(changed: NDArray[np.bool_], reach_px: int, shape: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The boxes (top, bottom, left, right; pixels of a box of ``shape``) holding every pixel within ``reach_px`` of a
    changed cell: the cells so near, their connected groups' bounding boxes."""
    if not changed.any():
        return []
    grow = math.ceil(reach_px / CELL_PX)
    near = cv2.dilate(changed.astype(np.uint8), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    count, _labels, stats, _c = cv2.connectedComponentsWithStats(near, connectivity=8)
    rows, cols = shape
    out = []
    for x, y, w, h, _area in stats[1:count]:
        out.append((int(y) * CELL_PX, min(rows, int(y + h) * CELL_PX), int(x) * CELL_PX,
                    min(cols, int(x + w) * CELL_PX)))
    return out
