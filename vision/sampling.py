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


@njit(cache=True, inline="always")
def bilinear_inside(gray: NDArray[np.uint8], x: float, y: float) -> float:
    """:func:`bilinear` for a point known to lie in [0, w - 1) × [0, h - 1): the same value, no clamping."""
    x0, y0 = int(x), int(y)
    fx, fy = x - x0, y - y0
    top = gray[y0, x0] * (1.0 - fx) + gray[y0, x0 + 1] * fx
    bottom = gray[y0 + 1, x0] * (1.0 - fx) + gray[y0 + 1, x0 + 1] * fx
    return float(top * (1.0 - fy) + bottom * fy)


@njit(cache=True, inline="always")
def inside(gray: NDArray[np.uint8], x: float, y: float) -> bool:
    """Whether (x, y) lies well inside the image, where :func:`bilinear_inside` may read it."""
    h, w = gray.shape
    return bool(0.5 <= x <= w - 1.5 and 0.5 <= y <= h - 1.5)


@njit(cache=True)
def sample_cells(gray: NDArray[np.uint8], quads: NDArray[np.float64], n: int,
                 sub: NDArray[np.float64]) -> NDArray[np.float32]:
    """Mean grey level of every cell of an n×n grid per quad: (m, n, n).

    Each quad (m, 4, 2), corners clockwise from the top-left, is the square from grid point
    (1, 1) to (n-1, n-1): a tag inside a one-cell frame (cell (r, c) spans [c, c+1] × [r, r+1]).
    Each cell is sampled at its centre shifted by every row of ``sub`` (in cells). A degenerate
    quad gives zeros.
    """
    m = quads.shape[0]
    out = np.zeros((m, n, n), dtype=np.float32)
    span = n - 2.0
    for q in range(m):
        x0, y0 = quads[q, 0, 0], quads[q, 0, 1]
        x1, y1 = quads[q, 1, 0], quads[q, 1, 1]
        x2, y2 = quads[q, 2, 0], quads[q, 2, 1]
        x3, y3 = quads[q, 3, 0], quads[q, 3, 1]
        # the projective map of the unit square onto the quad, in closed form (Heckbert, 1989)
        sx, sy = x0 - x1 + x2 - x3, y0 - y1 + y2 - y3
        den = (x1 - x2) * (y3 - y2) - (x3 - x2) * (y1 - y2)
        if abs(den) < 1e-9:
            continue
        g = (sx * (y3 - y2) - (x3 - x2) * sy) / den
        h = ((x1 - x2) * sy - sx * (y1 - y2)) / den
        a, b, d, e = x1 - x0 + g * x1, x3 - x0 + h * x3, y1 - y0 + g * y1, y3 - y0 + h * y3
        # every sample lies within the image of the square spanned by the extreme samples: when its
        # corners lie well inside the frame (and in front of the camera), no sample needs clamping
        lo_u, hi_u = (0.5 + sub[:, 0].min() - 1.0) / span, (n - 0.5 + sub[:, 0].max() - 1.0) / span
        lo_v, hi_v = (0.5 + sub[:, 1].min() - 1.0) / span, (n - 0.5 + sub[:, 1].max() - 1.0) / span
        clear = True
        for u, v in ((lo_u, lo_v), (hi_u, lo_v), (hi_u, hi_v), (lo_u, hi_v)):
            w = g * u + h * v + 1.0
            clear = clear and w > 1e-6 and inside(gray, (a * u + b * v + x0) / w, (d * u + e * v + y0) / w)
        for r in range(n):
            for c in range(n):
                total = 0.0
                for s in range(sub.shape[0]):
                    u = (c + 0.5 + sub[s, 0] - 1.0) / span
                    v = (r + 0.5 + sub[s, 1] - 1.0) / span
                    w = g * u + h * v + 1.0
                    if clear:
                        total += bilinear_inside(gray, (a * u + b * v + x0) / w, (d * u + e * v + y0) / w)
                        continue
                    if abs(w) < 1e-9:
                        w = 1e-9
                    total += bilinear(gray, (a * u + b * v + x0) / w, (d * u + e * v + y0) / w)
                out[q, r, c] = total / sub.shape[0]
    return out
