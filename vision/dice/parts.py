"""A mask's 8-connected parts with their stats and centroids, as OpenCV's default labelling gives them, at less cost.

OpenCV's default labelling (Spaghetti) gathers its stats slowly: about 70 µs for a die's box of 70 × 170 pixels, where
its labels alone take 9 µs. Grana's block-based labelling gives the same labels, stats and centroids (in the same
order) at 30 µs, and a frame of rolling dice seen at 65° labels a dozen such boxes (its top faces, their necks, their
lit parts, the parts left out of merged dice). Checked on random masks in the tests.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Parts = tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]]


def parts(mask: NDArray[np.uint8]) -> Parts:
    """``mask``'s 8-connected parts: their count (the background as label 0), labels, stats and centroids, as
    ``cv2.connectedComponentsWithStats(mask)`` gives them."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S,
                                                                                     cv2.CCL_GRANA)
    return int(count), np.asarray(labels, np.int32), np.asarray(stats, np.int32), np.asarray(centroids, np.float64)
