"""Dice in a rectified tray: every patch that is not the felt's colour, as a blob in tray millimetres.

The felt's colour is measured in each frame (the median of the area: dice cover little of it), so the light's
level and tint do not matter; a pixel belongs to a die when its colour differs from the felt's by more than a
fraction of the felt's brightness.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.face_square import shadow_mask

Image = NDArray[np.uint8]
Mask = NDArray[np.uint8]
MIN_BLOB_MM2 = 60.0  # less than half a die's top face: noise, a crumb, a corner of a die leaving the area
COLOUR_STEP = 0.45  # colour distance (sum over B, G, R) from the felt, as a fraction of the felt's brightness


@dataclass(frozen=True, slots=True)
class Blob:
    """One patch of not-felt in the rectified tray: its mask (the patch's bounding box), where, how big."""

    mask: Mask  # 255 inside, the box (x0, y0) .. (x0 + w, y0 + h) of the rectified image
    box: tuple[int, int, int, int]  # x0, y0, w, h in rectified pixels
    centroid_mm: tuple[float, float]
    area_mm2: float
    touches_edge: bool  # reaches the edge of the felt that the camera sees


def felt_mask(visible: Mask) -> Mask:
    """The visible felt shrunk by one pixel, so that a blob touching it can be told."""
    return np.asarray(cv2.erode(visible, np.ones((3, 3), np.uint8)), np.uint8)


def find_blobs(rectified: Image, visible: Mask, px_per_mm: float, margin_mm: float = 0.0) -> list[Blob]:
    """Blobs of not-felt inside ``visible`` (the pixels where the felt can be seen), largest first."""
    inside = visible > 0
    if not inside.any():
        return []
    sample = rectified[::3, ::3][inside[::3, ::3]]  # a ninth of the pixels give the median as well
    felt = np.median(sample, axis=0)
    brightness = max(float(felt.mean()), 8.0)
    diff = cv2.absdiff(rectified, (float(felt[0]), float(felt[1]), float(felt[2]), 0.0))  # type: ignore[call-overload]  # a Scalar
    distance = cv2.transform(diff, np.ones((1, 3), np.float32))  # |ΔB| + |ΔG| + |ΔR|
    _t, mask = cv2.threshold(distance, COLOUR_STEP * brightness, 255, cv2.THRESH_BINARY)
    mask = cv2.bitwise_and(mask.astype(np.uint8), visible)
    candidates = mask > 0
    mask[candidates] = np.where(shadow_mask(rectified[candidates], felt), 0, 255)  # felt in a shadow is felt
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    inner = felt_mask(visible)
    blobs: list[Blob] = []
    mm2_per_px = 1.0 / (px_per_mm * px_per_mm)
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area * mm2_per_px < MIN_BLOB_MM2:
            continue
        part = (labels[y:y + h, x:x + w] == label).astype(np.uint8) * 255
        touches = bool(np.any((part > 0) & (inner[y:y + h, x:x + w] == 0)))
        cx, cy = centroids[label]
        blobs.append(Blob(part, (x, y, w, h), ((cx + 0.5) / px_per_mm - margin_mm, (cy + 0.5) / px_per_mm - margin_mm),
                          area * mm2_per_px, touches))
    blobs.sort(key=lambda b: -b.area_mm2)
    return blobs
