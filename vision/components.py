"""Quads from the connected shapes of a thresholded image, compiled (numba).

A tag's black border, thresholded against its neighbourhood, is a closed ring (joined by the
edges of the cells inside it): one 8-connected shape whose outermost points are the tag's four
corners, however it is turned or foreshortened. So each tag-sized shape gives a quad by the
farthest-point rule: the point farthest from the shape's centre is a corner, the point farthest
from that one is the opposite corner, and the points farthest either side of the diagonal
between them are the other two. Shapes that do not reach out on both sides of that diagonal
(lines, specks) give none. The quads are rough (a pixel or two at rounded corners); the edge fit
(:mod:`vision.refine`) makes them exact, and the decoder rejects shapes that are not tags.

This replaces contour tracing and polygon fitting, whose cost was converting hundreds of small
contours (mostly the edges of cells) into Python objects every frame.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

# Each side corner must lie this share of the diagonal's length off the diagonal. A tag seen at a
# steep angle is a long thin rhombus or trapezoid: at 65° from vertical its side corners lie about
# a fifth of the long diagonal off it (a square's lie half), so the bound only rules out lines.
MIN_SPREAD = 0.12


@njit(cache=True)
def _root(parent: NDArray[np.int32], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit(cache=True)
def _label(binary: NDArray[np.uint8]) -> tuple[NDArray[np.int32], int, NDArray[np.int64], NDArray[np.float64]]:
    """8-connected components of the non-zero pixels: a label per pixel (0 = background), how many
    labels, and per label its pixel count and its (x0, y0, x1, y1, sum x, sum y)."""
    h, w = binary.shape
    labels = np.zeros((h, w), np.int32)
    parent = np.zeros(h * w // 2 + 2, np.int32)
    n = 1
    for y in range(h):
        for x in range(w):
            if binary[y, x] == 0:
                continue
            best = 0
            for dy, dx in ((0, -1), (-1, -1), (-1, 0), (-1, 1)):  # the neighbours already labelled
                yy, xx = y + dy, x + dx
                if yy < 0 or xx < 0 or xx >= w or labels[yy, xx] == 0:
                    continue
                r = _root(parent, labels[yy, xx])
                if best == 0:
                    best = r
                elif r != best:
                    if r < best:
                        parent[best] = r
                        best = r
                    else:
                        parent[r] = best
            if best == 0:
                parent[n] = n
                best = n
                n += 1
            labels[y, x] = best
    count = np.zeros(n, np.int64)
    stats = np.zeros((n, 6))
    stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3] = w, h, -1, -1
    for y in range(h):
        for x in range(w):
            if labels[y, x]:
                r = _root(parent, labels[y, x])
                labels[y, x] = r
                count[r] += 1
                st = stats[r]
                st[0], st[2] = min(st[0], x), max(st[2], x)
                st[1], st[3] = min(st[1], y), max(st[3], y)
                st[4] += x
                st[5] += y
    return labels, n, count, stats


@njit(cache=True)
def component_quads(binary: NDArray[np.uint8], min_extent: float, max_extent: float,
                    min_pixels: int) -> NDArray[np.float64]:
    """Quads (k, 4, 2), corners in order around the shape, of the shapes ``min_extent``–``max_extent``
    pixels across (their bounding box's longer side) with at least ``min_pixels`` pixels."""
    h, w = binary.shape
    labels, n, count, stats = _label(binary)
    keep = np.zeros(n, np.bool_)
    for r in range(1, n):
        extent = max(stats[r, 2] - stats[r, 0], stats[r, 3] - stats[r, 1]) + 1
        keep[r] = count[r] >= min_pixels and min_extent <= extent <= max_extent
    # the kept shapes' pixels, grouped by shape (one pass), so that each rule below reads only them
    start = np.zeros(n + 1, np.int64)
    for r in range(1, n):
        start[r + 1] = start[r] + (count[r] if keep[r] else 0)
    fill = start.copy()
    px, py = np.empty(start[n], np.float64), np.empty(start[n], np.float64)
    for y in range(h):
        for x in range(w):
            r = labels[y, x]
            if r and keep[r]:
                px[fill[r]], py[fill[r]] = x, y
                fill[r] += 1
    corners = np.zeros((n, 4, 2))
    best = np.zeros((n, 4))  # per shape: the distances that chose each corner
    for r in range(1, n):
        if not keep[r]:
            continue
        lo, hi = start[r], start[r + 1]
        cx, cy = stats[r, 4] / count[r], stats[r, 5] / count[r]
        far = -1.0
        for i in range(lo, hi):
            d = (px[i] - cx) ** 2 + (py[i] - cy) ** 2
            if d > far:
                far, corners[r, 0, 0], corners[r, 0, 1] = d, px[i], py[i]
        ax, ay = corners[r, 0, 0], corners[r, 0, 1]
        far = -1.0
        for i in range(lo, hi):
            d = (px[i] - ax) ** 2 + (py[i] - ay) ** 2
            if d > far:
                far, corners[r, 2, 0], corners[r, 2, 1] = d, px[i], py[i]
        best[r, 2] = far
        ux, uy = corners[r, 2, 0] - ax, corners[r, 2, 1] - ay
        for i in range(lo, hi):
            side = (px[i] - ax) * uy - (py[i] - ay) * ux
            if side > best[r, 1]:
                best[r, 1], corners[r, 1, 0], corners[r, 1, 1] = side, px[i], py[i]
            if -side > best[r, 3]:
                best[r, 3], corners[r, 3, 0], corners[r, 3, 1] = -side, px[i], py[i]
    out = np.zeros((n, 4, 2))
    k = 0
    for r in range(1, n):
        if not keep[r]:
            continue
        diagonal_sq = best[r, 2]  # squared length; the side distances are |diagonal| × offset
        if diagonal_sq < 1.0:
            continue
        if min(best[r, 1], best[r, 3]) < MIN_SPREAD * diagonal_sq:
            continue
        out[k] = corners[r]
        k += 1
    return out[:k]

