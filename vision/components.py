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
contours (mostly the edges of cells) into Python objects every frame. Shapes are labelled as runs
of pixels along the rows, not pixel by pixel: a run's ends are all the farthest-point rules need.
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
def _root(parent: NDArray[np.int64], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit(cache=True)
def pixel_runs(binary: NDArray[np.uint8]) -> tuple[NDArray[np.int64], NDArray[np.int64], int]:
    """The image's runs of non-zero pixels in raster order, (row, first x, last x) each, and each
    run's shape: the index of the shape's first run, runs joined where they touch (8-connected).

    ``binary`` must be C-contiguous: blank stretches are skipped eight pixels at a time.
    """
    h, w = binary.shape
    w8 = w // 8 * 8
    runs = np.empty((h * ((w + 1) // 2) + 1, 3), np.int64)
    parent = np.empty(runs.shape[0], np.int64)
    k = 0
    above_lo = above_hi = 0  # the previous row's runs
    for y in range(h):
        words = binary[y, :w8].view(np.uint64)
        row_lo = k
        x = 0
        j = above_lo
        while x < w:
            if (x & 7) == 0 and x < w8 and words[x >> 3] == 0:
                x += 8
                continue
            if binary[y, x] == 0:
                x += 1
                continue
            s = x
            while x < w and binary[y, x] != 0:
                x += 1
            e = x - 1
            runs[k, 0], runs[k, 1], runs[k, 2] = y, s, e
            parent[k] = k
            # runs of the row above that touch this one, diagonally included
            while j < above_hi and runs[j, 2] < s - 1:
                j += 1
            i = j
            while i < above_hi and runs[i, 1] <= e + 1:
                a, b = _root(parent, i), _root(parent, k)
                if a < b:
                    parent[b] = a
                elif b < a:
                    parent[a] = b
                i += 1
            if i > j:
                j = i - 1  # the last run touched may touch the next run too
            k += 1
        above_lo, above_hi = row_lo, k
    for i in range(k):
        parent[i] = _root(parent, i)
    return runs[:k], parent[:k], k


def component_quads(binary: NDArray[np.uint8], min_extent: float, max_extent: float,
                    min_pixels: int) -> NDArray[np.float64]:
    """Quads (k, 4, 2), corners in order around the shape, of the shapes ``min_extent``–``max_extent``
    pixels across (their bounding box's longer side) with at least ``min_pixels`` pixels.

    Shapes are found as runs of pixels (a few per row of a shape): along a run, the distance from
    a point and the distance either side of a line are largest at one of its ends, so each rule
    reads only the runs' ends, first end first (the same corners as reading every pixel in turn).
    """
    return _component_quads(np.ascontiguousarray(binary, dtype=np.uint8), float(min_extent), float(max_extent),
                            int(min_pixels))


@njit(cache=True)
def _component_quads(binary: NDArray[np.uint8], min_extent: float, max_extent: float,
                     min_pixels: int) -> NDArray[np.float64]:
    runs, shape, n = pixel_runs(binary)
    # shapes numbered in the order of their first run (raster order), arrays per shape, not per run
    label = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if shape[i] == i:
            label[i] = m
            m += 1
        else:
            label[i] = label[shape[i]]
    count = np.zeros(m, np.int64)
    stats = np.zeros((m, 6))  # per shape: x0, y0, x1, y1, sum x, sum y
    for i in range(n):
        r = label[i]
        y, s, e = runs[i, 0], runs[i, 1], runs[i, 2]
        length = e - s + 1
        st = stats[r]
        if count[r] == 0:
            st[0], st[1], st[2], st[3] = s, y, e, y
        else:
            st[0], st[2] = min(st[0], s), max(st[2], e)
            st[3] = y
        count[r] += length
        st[4] += (s + e) * length / 2.0
        st[5] += y * length
    kept = np.full(m, -1, np.int64)  # a kept shape's place among the kept ones
    k = 0
    for r in range(m):
        extent = max(stats[r, 2] - stats[r, 0], stats[r, 3] - stats[r, 1]) + 1
        if count[r] >= min_pixels and min_extent <= extent <= max_extent:
            kept[r] = k
            k += 1
    # the kept shapes' run ends, grouped by shape in raster order: (x, y) of a run's first end, then its last
    start = np.zeros(k + 1, np.int64)
    for i in range(n):
        c = kept[label[i]]
        if c >= 0:
            start[c + 1] += 2 if runs[i, 2] > runs[i, 1] else 1
    for c in range(k):
        start[c + 1] += start[c]
    fill = start.copy()
    px, py = np.empty(start[k], np.float64), np.empty(start[k], np.float64)
    for i in range(n):
        c = kept[label[i]]
        if c >= 0:
            px[fill[c]], py[fill[c]] = runs[i, 1], runs[i, 0]
            fill[c] += 1
            if runs[i, 2] > runs[i, 1]:
                px[fill[c]], py[fill[c]] = runs[i, 2], runs[i, 0]
                fill[c] += 1
    out = np.zeros((k, 4, 2))
    corners = np.zeros((4, 2))
    best = np.zeros(4)  # the distances that chose each corner
    q = 0
    for r in range(m):
        c = kept[r]
        if c < 0:
            continue
        lo, hi = start[c], start[c + 1]
        cx, cy = stats[r, 4] / count[r], stats[r, 5] / count[r]
        corners[:] = 0.0
        best[:] = 0.0
        far = -1.0
        for i in range(lo, hi):
            d = (px[i] - cx) ** 2 + (py[i] - cy) ** 2
            if d > far:
                far, corners[0, 0], corners[0, 1] = d, px[i], py[i]
        ax, ay = corners[0, 0], corners[0, 1]
        far = -1.0
        for i in range(lo, hi):
            d = (px[i] - ax) ** 2 + (py[i] - ay) ** 2
            if d > far:
                far, corners[2, 0], corners[2, 1] = d, px[i], py[i]
        best[2] = far
        ux, uy = corners[2, 0] - ax, corners[2, 1] - ay
        for i in range(lo, hi):
            side = (px[i] - ax) * uy - (py[i] - ay) * ux
            if side > best[1]:
                best[1], corners[1, 0], corners[1, 1] = side, px[i], py[i]
            if -side > best[3]:
                best[3], corners[3, 0], corners[3, 1] = -side, px[i], py[i]
        diagonal_sq = best[2]  # squared length; the side distances are |diagonal| × offset
        if diagonal_sq < 1.0:
            continue
        if min(best[1], best[3]) < MIN_SPREAD * diagonal_sq:
            continue
        out[q] = corners
        q += 1
    return out[:q]
