"""Sub-pixel corner refinement by fitting straight lines to a tag's four outer edges.

A blurred tag's corners are rounded, so corner-based refinement (``cv2.cornerSubPix``) is pulled
inside the tag by up to a pixel or more. Straight edges stay where they are under a symmetric
blur: find the dark→bright step of the black border along many normals of each edge, fit a line
per edge and intersect neighbouring lines. Compiled (numba): a frame's tags take tens of
microseconds, where array code spent a millisecond on its own overhead.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

from vision.sampling import bilinear, bilinear_inside, inside

Quads = NDArray[np.float64]  # (N, 4, 2)

OFFSET_STEP_PX = 0.5  # spacing of the samples along each normal
CENTROID_HALF_WIDTH = 2.5  # steps either side of the edge's centre that locate it
CENTRE_ITERATIONS = 3
REFINED_SEARCH_PX = 2.0


def refine_quads(gray: NDArray[np.uint8], quads: Quads, search_px: float = 3.0, iterations: int = 2,
                 samples_per_edge: int = 6) -> tuple[Quads, NDArray[np.float64]]:
    """Refine (N, 4, 2) quads of dark-bordered tags; returns the quads and each tag's edge strength.

    The edge strength (the mean grey-level step per pixel across the border) lets callers drop
    candidates without a real edge. Quads whose refinement fails keep their input corners.
    """
    quads = np.ascontiguousarray(np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2))
    if quads.shape[0] == 0:
        return quads.copy(), np.zeros(0)
    image = np.ascontiguousarray(gray, dtype=np.uint8)
    return _refine(image, quads, float(search_px), int(iterations), int(samples_per_edge))


@njit(cache=True)
def _window_centroid(values: NDArray[np.float64], count: int, centre: float) -> float:
    """Centre of mass of the rising steps within ``CENTROID_HALF_WIDTH`` steps of ``centre`` (step units)."""
    mass = moment = 0.0
    first = max(int(centre - CENTROID_HALF_WIDTH - 1.0), 0)
    last = min(int(centre + CENTROID_HALF_WIDTH + 2.0), count - 1)
    for j in range(first, last):
        overlap = min(j + 0.5, centre + CENTROID_HALF_WIDTH) - max(j - 0.5, centre - CENTROID_HALF_WIDTH)
        if overlap > 0:
            w = max(values[j + 1] - values[j], 0.0) * min(overlap, 1.0)
            mass += w
            moment += w * j
    return moment / mass if mass > 0 else centre


@njit(cache=True)
def _edge_centre(values: NDArray[np.float64], count: int, best: int) -> float:
    """Where the edge is along a profile, in step units: the point the window of steps is centred on.

    The centre of mass of the rising steps in a window centred on the edge is exact for an
    anti-aliased sharp edge and for a symmetric blur, whatever the samples' phase against the
    pixel grid; the window's centre is solved for by the secant method (a blurred edge is wider
    than the window, so plain re-centring creeps).
    """
    c0 = float(best)
    g0 = _window_centroid(values, count, c0) - c0
    c1 = c0 + g0
    g1 = _window_centroid(values, count, c1) - c1
    for _ in range(CENTRE_ITERATIONS):
        if abs(g1) < 1e-3 or g1 == g0:  # a two-thousandth of a pixel
            break
        c2 = min(max(c1 - g1 * (c1 - c0) / (g1 - g0), 0.0), count - 2.0)
        c0, g0 = c1, g1
        c1 = c2
        g1 = _window_centroid(values, count, c1) - c1
    return c1


@njit(cache=True)
def _refine(gray: NDArray[np.uint8], quads: Quads, search_px: float, iterations: int, samples: int
            ) -> tuple[Quads, NDArray[np.float64]]:
    n = quads.shape[0]
    out = quads.copy()
    strength = np.zeros(n)
    edge_pts = np.zeros((4, samples, 2))
    weights = np.zeros((4, samples))
    centroid = np.zeros((4, 2))
    direction = np.zeros((4, 2))
    corners = np.zeros((4, 2))
    max_steps = int(2 * max(search_px, 1.0) / OFFSET_STEP_PX) + 2
    values = np.zeros(max_steps)
    cur = np.zeros((4, 2))
    for q in range(n):
        cur[:, :] = out[q]
        for it in range(iterations):
            # later passes start within a fraction of a pixel: a narrower search still holds the
            # centring window (CENTROID_HALF_WIDTH steps) with room to spare
            radius = search_px if it == 0 else min(search_px, REFINED_SEARCH_PX)
            count = math.floor((2 * radius + 0.25) / OFFSET_STEP_PX - 1e-9) + 1  # like np.arange(-r, r + .25, .5)
            cx = (cur[0, 0] + cur[1, 0] + cur[2, 0] + cur[3, 0]) / 4
            cy = (cur[0, 1] + cur[1, 1] + cur[2, 1] + cur[3, 1]) / 4
            peak_sum = 0.0
            for e in range(4):
                px, py = cur[e, 0], cur[e, 1]
                qx, qy = cur[(e + 1) % 4, 0], cur[(e + 1) % 4, 1]
                dx, dy = qx - px, qy - py
                length = max(math.hypot(dx, dy), 1e-9)
                nx, ny = dy / length, -dx / length
                if ((px + qx) / 2 - cx) * nx + ((py + qy) / 2 - cy) * ny < 0:  # point the normal outwards
                    nx, ny = -nx, -ny
                for k in range(samples):
                    t = 0.15 + 0.7 * k / (samples - 1) if samples > 1 else 0.5
                    bx, by = px + t * dx, py + t * dy
                    last = -radius + (count - 1) * OFFSET_STEP_PX
                    first_in = inside(gray, bx - radius * nx, by - radius * ny)
                    if first_in and inside(gray, bx + last * nx, by + last * ny):
                        for j in range(count):  # the whole profile inside the frame: no clamping
                            off = -radius + j * OFFSET_STEP_PX
                            values[j] = bilinear_inside(gray, bx + off * nx, by + off * ny)
                    else:
                        for j in range(count):
                            off = -radius + j * OFFSET_STEP_PX
                            values[j] = bilinear(gray, bx + off * nx, by + off * ny)
                    best, peak = 0, -1e18
                    for j in range(count - 1):  # outward, dark border → bright surround is a positive step
                        step = values[j + 1] - values[j]
                        if step > peak:
                            best, peak = j, step
                    centre = _edge_centre(values, count, best)
                    offset = -radius + (centre + 0.5) * OFFSET_STEP_PX
                    edge_pts[e, k, 0] = bx + offset * nx
                    edge_pts[e, k, 1] = by + offset * ny
                    weights[e, k] = max(peak, 0.0)
                    peak_sum += max(peak, 0.0)
                # weighted line fit: centroid and principal direction of the edge points
                weight_sum = sum_x = sum_y = 0.0  # loops, not array expressions: no temporaries per edge
                for k in range(samples):
                    weight_sum += weights[e, k]
                for k in range(samples):
                    sum_x += weights[e, k] * edge_pts[e, k, 0]
                for k in range(samples):
                    sum_y += weights[e, k] * edge_pts[e, k, 1]
                total = max(weight_sum, 1e-9)
                mx = sum_x / total
                my = sum_y / total
                sxx = syy = sxy = 0.0
                for k in range(samples):
                    ux, uy = edge_pts[e, k, 0] - mx, edge_pts[e, k, 1] - my
                    w = weights[e, k] / total
                    sxx += w * ux * ux
                    syy += w * uy * uy
                    sxy += w * ux * uy
                angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
                centroid[e, 0], centroid[e, 1] = mx, my
                direction[e, 0], direction[e, 1] = math.cos(angle), math.sin(angle)
            strength[q] = 2.0 * peak_sum / (4 * samples)  # per 0.5 px sample → per pixel
            # corner i is where edge i-1 (corner i-1 → i) meets edge i (corner i → i+1)
            ok = True
            moved = 0.0
            for i in range(4):
                p = (i + 3) % 4
                cross = direction[p, 0] * direction[i, 1] - direction[p, 1] * direction[i, 0]
                if abs(cross) <= 0.2:
                    ok = False
                    break
                ddx, ddy = centroid[i, 0] - centroid[p, 0], centroid[i, 1] - centroid[p, 1]
                s = (ddx * direction[i, 1] - ddy * direction[i, 0]) / cross
                corners[i, 0] = centroid[p, 0] + s * direction[p, 0]
                corners[i, 1] = centroid[p, 1] + s * direction[p, 1]
                if not (math.isfinite(corners[i, 0]) and math.isfinite(corners[i, 1])):
                    ok = False
                    break
                moved = max(moved, abs(corners[i, 0] - cur[i, 0]), abs(corners[i, 1] - cur[i, 1]))
            if ok and moved < 2 * search_px:
                cur[:, :] = corners
        out[q] = cur
    return out, strength
