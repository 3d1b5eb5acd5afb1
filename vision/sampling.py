"""Bilinear sampling of a grey image at sub-pixel points, compiled (numba) for the detector's inner loops.

Edges replicate, as with OpenCV's ``BORDER_REPLICATE``; unlike ``cv2.remap`` the weights are exact
rather than quantised to 1/32 pixel, which matters when an edge is located to a tenth of a pixel.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray


@njit(cache=True, inline="always")
def bilinear(gray: NDArray[np.uint8], x: float, y: float) -> float:
    """The grey level at (x, y), pixel centres at integer coordinates."""
    h, w = gray.shape
    x = min(max(x, 0.0), w - 1.0)
    y = min(max(y, 0.0), h - 1.0)
    x0 = min(int(x), w - 2) if w > 1 else 0  # x ≥ 0 here, so int() is floor()
    y0 = min(int(y), h - 2) if h > 1 else 0
    fx, fy = x - x0, y - y0
    x1, y1 = min(x0 + 1, w - 1), min(y0 + 1, h - 1)
    top = gray[y0, x0] * (1.0 - fx) + gray[y0, x1] * fx
    bottom = gray[y1, x0] * (1.0 - fx) + gray[y1, x1] * fx
    return float(top * (1.0 - fy) + bottom * fy)


@njit(cache=True)
def sample_cells(gray: NDArray[np.uint8], homographies: NDArray[np.float64], n: int,
                 sub: NDArray[np.float64]) -> NDArray[np.float32]:
    """Mean grey level of every cell of an n×n grid per quad: (m, n, n).

    ``homographies`` (m, 3, 3) map grid coordinates (cell (r, c) spans [c, c+1] × [r, r+1]) to
    pixels; each cell is sampled at its centre shifted by every row of ``sub`` (in cells).
    """
    m = homographies.shape[0]
    out = np.zeros((m, n, n), dtype=np.float32)
    for q in range(m):
        h = homographies[q]
        for r in range(n):
            for c in range(n):
                total = 0.0
                for s in range(sub.shape[0]):
                    gx, gy = c + 0.5 + sub[s, 0], r + 0.5 + sub[s, 1]
                    den = h[2, 0] * gx + h[2, 1] * gy + h[2, 2]
                    if abs(den) < 1e-9:
                        den = 1e-9
                    px = (h[0, 0] * gx + h[0, 1] * gy + h[0, 2]) / den
                    py = (h[1, 0] * gx + h[1, 1] * gy + h[1, 2]) / den
                    total += bilinear(gray, px, py)
                out[q, r, c] = total / sub.shape[0]
    return out
