"""Sub-pixel corner refinement by fitting straight lines to a tag's four outer edges.

A blurred tag's corners are rounded, so corner-based refinement (``cv2.cornerSubPix``) is pulled
inside the tag by up to a pixel or more. Straight edges stay where they are under a symmetric
blur: find the dark→bright step of the black border along many normals of each edge, fit a line
per edge and intersect neighbouring lines. Vectorised over all tags of a frame.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Quads = NDArray[np.float64]  # (N, 4, 2)

_NEXT = np.array([1, 2, 3, 0])
_PREV = np.array([3, 0, 1, 2])


def refine_quads(gray: NDArray[np.uint8], quads: Quads, search_px: float = 3.0, iterations: int = 2,
                 samples_per_edge: int = 8) -> tuple[Quads, NDArray[np.float64]]:
    """Refine (N, 4, 2) quads of dark-bordered tags; returns the quads and each tag's edge strength.

    The edge strength (the mean grey-level step per pixel across the border) lets callers drop
    candidates without a real edge. Quads whose refinement fails keep their input corners.
    """
    quads = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2).copy()
    n = quads.shape[0]
    strength = np.zeros(n)
    if n == 0:
        return quads, strength
    t = np.linspace(0.15, 0.85, samples_per_edge)
    for it in range(iterations):
        radius = search_px if it == 0 else max(1.0, search_px / 2)
        offsets = np.arange(-radius, radius + 0.25, 0.5)
        p, q = quads, quads[:, _NEXT]
        direction = q - p
        direction /= np.maximum(np.hypot(direction[..., 0], direction[..., 1]), 1e-9)[..., None]
        normal = np.stack([direction[..., 1], -direction[..., 0]], axis=-1)
        outward = ((p + q) / 2 - quads.mean(axis=1, keepdims=True)) * normal
        normal *= np.where(outward.sum(axis=2) < 0, -1.0, 1.0)[..., None]
        base = p[:, :, None, :] + t[None, None, :, None] * (q - p)[:, :, None, :]  # (N, 4, K, 2)
        pts = base[..., None, :] + offsets[None, None, None, :, None] * normal[:, :, None, None, :]
        flat = pts.reshape(-1, offsets.size, 2).astype(np.float32)
        values = cv2.remap(gray, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        step = np.diff(values.astype(np.float64), axis=-1)  # outward: dark border → bright surround is positive
        k = np.argmax(step, axis=-1)
        rows = np.arange(step.shape[0])
        last = step.shape[1] - 1
        peak = step[rows, k]
        left = step[rows, np.maximum(k - 1, 0)]
        right = step[rows, np.minimum(k + 1, last)]
        denom = left - 2 * peak + right
        safe = np.where(np.abs(denom) > 1e-9, denom, 1.0)
        frac = np.clip(np.where(np.abs(denom) > 1e-9, 0.5 * (left - right) / safe, 0.0), -0.5, 0.5)
        edge_offset = (offsets[0] + (k + 0.5 + frac) * 0.5).reshape(n, 4, samples_per_edge)
        edge_pts = base + edge_offset[..., None] * normal[:, :, None, :]
        w = np.clip(peak, 0.0, None).reshape(n, 4, samples_per_edge)
        w = w / np.maximum(w.sum(axis=2, keepdims=True), 1e-9)
        centroid = (edge_pts * w[..., None]).sum(axis=2)
        d = edge_pts - centroid[:, :, None, :]
        sxx = (w * d[..., 0] * d[..., 0]).sum(axis=2)
        syy = (w * d[..., 1] * d[..., 1]).sum(axis=2)
        sxy = (w * d[..., 0] * d[..., 1]).sum(axis=2)
        angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # principal direction of each edge's points
        line_dir = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
        # corner i is where edge i-1 (corner i-1 → i) meets edge i (corner i → i+1)
        c1, d1 = centroid[:, _PREV], line_dir[:, _PREV]
        cross = d1[..., 0] * line_dir[..., 1] - d1[..., 1] * line_dir[..., 0]
        delta = centroid - c1
        s = (delta[..., 0] * line_dir[..., 1] - delta[..., 1] * line_dir[..., 0]) / np.where(
            np.abs(cross) > 1e-6, cross, 1.0)
        corners = c1 + s[..., None] * d1
        moved = np.abs(corners - quads).max(axis=(1, 2))
        ok = (np.abs(cross) > 0.2).all(axis=1) & (moved < 2 * search_px) & np.isfinite(corners).all(axis=(1, 2))
        quads = np.where(ok[:, None, None], corners, quads)
        strength = 2.0 * np.clip(peak, 0.0, None).reshape(n, -1).mean(axis=1)  # per 0.5 px sample → per pixel
    return quads, strength
