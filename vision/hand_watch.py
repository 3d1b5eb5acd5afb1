"""Is a hand near a tag? A cheap per-frame signal for the tracker: did the picture around the tag change?

A figure let go lies still and so does the table around it; a figure still in a hand has fingers next to
its tag, and fingers move (they carry, hesitate, tremble, let go and withdraw). For every tag found in a
frame, :class:`HandWatch` takes a small grey copy of a square around it (``box_sides`` tag sides wide,
reduced ``reduce`` times) and compares it with the same square in the previous frame: when more than
``changed_fraction`` of its pixels changed by more than ``grey_levels`` (after removing the square's
median change, so that the camera's exposure drifting counts for nothing), something moves near the
tag. A tag that was not seen in the previous frame (covered by the hand, or just put down from it) has
nothing to compare with and counts as touched too: it must then be seen steadily before it settles.

About 20 µs per tag at 1080p; no state but the previous frame's squares.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detection import DetectedMarker

Grey = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class WatchSettings:
    """How big a square is watched around each tag and how much change counts as a hand."""

    box_sides: float = 3.5  # the square's side, in tag sides (fingers hold a figure within about a tag of it)
    reduce: int = 3  # the square is compared at 1/reduce resolution (sensor noise averages out)
    grey_levels: int = 12  # a pixel changed when it differs by more than this
    changed_fraction: float = 0.006  # …and the square changed when more than this share of its pixels did
    same_place_px: float = 2.0  # a tag that moved further than this is compared in a square around its new place


@dataclass(frozen=True, slots=True)
class _Square:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels
    centre: tuple[float, float]
    grey: Grey


def _side_px(corners: NDArray[np.float64]) -> float:
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))


class HandWatch:
    """Keeps the previous frame's square around every tag; :meth:`near_hand` says which tags' squares changed."""

    def __init__(self, settings: WatchSettings | None = None) -> None:
        self.settings = settings or WatchSettings()
        self._squares: dict[int, _Square] = {}

    def near_hand(self, image: NDArray[np.uint8], detected: Iterable[DetectedMarker]) -> set[int]:
        """The ids of the tags in ``image`` with something moving around them since the previous frame."""
        s = self.settings
        height, width = image.shape[:2]
        squares: dict[int, _Square] = {}
        touched: set[int] = set()
        for marker in detected:
            cx, cy = (float(v) for v in marker.corners_px.mean(axis=0))
            before = self._squares.get(marker.marker_id)
            if before is not None and math.dist(before.centre, (cx, cy)) <= s.same_place_px:
                box = before.box
            else:
                half = max(4.0, s.box_sides * _side_px(marker.corners_px) / 2.0)
                box = (max(0, int(cx - half)), max(0, int(cy - half)), min(width, int(cx + half) + 1),
                       min(height, int(cy + half) + 1))
                before = None
            grey = self._grey(image, box)
            if grey is None:
                touched.add(marker.marker_id)
                continue
            if before is None or before.grey.shape != grey.shape or self._changed(before.grey, grey):
                touched.add(marker.marker_id)
            squares[marker.marker_id] = _Square(box, before.centre if before is not None else (cx, cy), grey)
        self._squares = squares  # tags unseen in this frame are compared with nothing when they come back
        return touched

    def _grey(self, image: NDArray[np.uint8], box: tuple[int, int, int, int]) -> Grey | None:
        x0, y0, x1, y1 = box
        crop = image[y0:y1, x0:x1]
        r = self.settings.reduce
        if crop.shape[0] < 2 * r or crop.shape[1] < 2 * r:
            return None
        grey = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop, dtype=np.uint8)
        small = cv2.resize(grey, (grey.shape[1] // r, grey.shape[0] // r), interpolation=cv2.INTER_AREA)
        return np.asarray(small, dtype=np.uint8)

    def _changed(self, before: Grey, now: Grey) -> bool:
        s = self.settings
        diff = now.astype(np.int16) - before.astype(np.int16)
        diff -= np.int16(np.median(diff))
        changed = np.count_nonzero(np.abs(diff) > s.grey_levels)
        return bool(changed > s.changed_fraction * diff.size)
