"""Read tags' bits at full resolution from candidate quads, for candidates OpenCV gave up on.

On a half-resolution image a blurred tag's cells are two pixels wide and OpenCV's bit reader
fails on many of them although their square was found. Re-reading those squares on the full
image, sampling only each cell's centre and thresholding halfway between the black border and
the white quiet zone, recovers most of them: only exact dictionary matches are accepted (no error
correction) and the border must be black all round. When blur is so strong that a lone white
cell no longer crosses that halfway line, the cells are correlated with every code instead and a
match is accepted only if it is clearly the best, and the whole tag (border, quiet zone) fits.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

MIN_CONTRAST = 25.0  # grey levels between the quiet zone and the black border
# Soft decoding (for blurred tags whose lone cells no longer cross the halfway threshold): the
# cells must correlate with one code's bits at least this well, better than with any other id by
# this margin, and the whole tag with its border and quiet zone must fit too. Measured on rendered
# blurred frames, wrong candidates stayed below 0.85 whole-tag correlation (bench/vision_wrong_ids.py).
HARD_MIN_MARGIN = 0.2  # a cell closer than this (share of half the contrast) to the threshold is a guess
SOFT_MIN_CORRELATION = 0.88
SOFT_MIN_MARGIN = 0.2
SOFT_MIN_TAG_CORRELATION = 0.85
# Samples per cell (in cells): the centre and four close neighbours. Sampling wider pulls blurred
# lone cells towards their neighbours' colour and loses tags at σ = 2 px.
_SUB = np.array([[0.0, 0.0], [-0.05, -0.05], [0.05, -0.05], [-0.05, 0.05], [0.05, 0.05]])


def _unit_rows(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """Rows shifted to zero mean and scaled to unit length (for correlation by dot product)."""
    z = x - x.mean(axis=-1, keepdims=True)
    return np.asarray(z / np.maximum(np.linalg.norm(z, axis=-1, keepdims=True), 1e-6), dtype=np.float32)


class CodeBook:
    """A dictionary's codes in all four rotations: exact lookup and correlation templates."""

    def __init__(self, dictionary: cv2.aruco.Dictionary) -> None:
        self.dictionary = dictionary
        self.bits_side = int(dictionary.markerSize)
        self.weights = (1 << np.arange(self.bits_side * self.bits_side, dtype=np.int64)).reshape(
            self.bits_side, self.bits_side)
        self._codes: dict[int, tuple[int, int]] = {}
        patterns, ids, rotations = [], [], []
        for marker_id in range(dictionary.bytesList.shape[0]):
            packed = dictionary.bytesList[marker_id].reshape(1, -1, 4)
            bits = cv2.aruco.Dictionary.getBitsFromByteList(packed, self.bits_side)
            for rotation in range(4):
                turned = np.rot90(bits, rotation)
                self._codes.setdefault(self.code(turned), (marker_id, rotation))
                patterns.append(turned.astype(np.float32))
                ids.append(marker_id)
                rotations.append(rotation)
        n = self.bits_side + 4
        full = np.ones((len(patterns), n, n), np.float32)  # quiet zone white, border black, then the bits
        full[:, 1:-1, 1:-1] = 0.0
        full[:, 2:-2, 2:-2] = np.array(patterns)
        self.inner_templates = _unit_rows(np.array(patterns).reshape(len(patterns), -1))
        self.full_templates = _unit_rows(full.reshape(len(patterns), -1))
        self.template_ids = np.array(ids)
        self.template_rotations = np.array(rotations)

    def code(self, bits: NDArray[np.generic]) -> int:
        return int((np.asarray(bits, dtype=np.int64) * self.weights).sum())

    def identify(self, code: int) -> tuple[int, int] | None:
        """(id, rotation) of an exact match, rotation counted in :func:`numpy.rot90` turns."""
        return self._codes.get(code)


def _homographies(quads: NDArray[np.float64], side: float) -> NDArray[np.float64]:
    """Per quad, the 3×3 map from cell coordinates (tag from (1, 1) to (side-1, side-1)) to pixels."""
    src = np.array([[1.0, 1.0], [side - 1, 1.0], [side - 1, side - 1], [1.0, side - 1]])
    m = quads.shape[0]
    a = np.zeros((m, 8, 8))
    b = quads.reshape(m, 8)
    for i, (x, y) in enumerate(src):
        u, v = quads[:, i, 0], quads[:, i, 1]
        a[:, 2 * i, 0:3] = (x, y, 1.0)
        a[:, 2 * i, 6], a[:, 2 * i, 7] = -u * x, -u * y
        a[:, 2 * i + 1, 3:6] = (x, y, 1.0)
        a[:, 2 * i + 1, 6], a[:, 2 * i + 1, 7] = -v * x, -v * y
    h = np.linalg.solve(a, b[..., None])[..., 0]
    return np.concatenate([h, np.ones((m, 1))], axis=1).reshape(m, 3, 3)


def decode_quads(gray: NDArray[np.uint8], quads: NDArray[np.float64], codes: CodeBook
                 ) -> list[tuple[int, int, NDArray[np.float64], float]]:
    """Identify tags in (M, 4, 2) clockwise quads: (index into quads, id, corners from top-left, confidence)."""
    m = quads.shape[0]
    if m == 0:
        return []
    n = codes.bits_side + 4  # bits, black border and one cell of quiet zone on each side
    cells = np.stack(np.meshgrid(np.arange(n) + 0.5, np.arange(n) + 0.5), axis=-1).reshape(-1, 1, 2)
    grid = (cells + _SUB[None, :, :]).reshape(-1, 2)
    try:
        hom = _homographies(quads, float(n))
    except np.linalg.LinAlgError:
        return []
    ones = np.ones((grid.shape[0], 1))
    proj = np.einsum("mij,pj->mpi", hom, np.concatenate([grid, ones], axis=1))
    pix = (proj[..., :2] / np.where(np.abs(proj[..., 2:]) > 1e-9, proj[..., 2:], 1e-9)).astype(np.float32)
    values = cv2.remap(gray, pix[..., 0], pix[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    v = values.astype(np.float32).reshape(m, n, n, _SUB.shape[0]).mean(axis=3)
    ring = np.concatenate([v[:, 0, :], v[:, -1, :], v[:, 1:-1, 0], v[:, 1:-1, -1]], axis=1)
    border = np.concatenate([v[:, 1, 1:-1], v[:, -2, 1:-1], v[:, 2:-2, 1], v[:, 2:-2, -2]], axis=1)
    white, black = np.median(ring, axis=1), np.median(border, axis=1)
    threshold = (white + black) / 2
    inner = v[:, 2:-2, 2:-2]
    # Each side of the quiet zone must be white, not just most of the ring: a quad with one edge
    # fitted to a line inside a tag has that side of its "quiet zone" on the tag's black border.
    sides = np.stack([np.median(v[:, 0, 1:-1], axis=1), np.median(v[:, -1, 1:-1], axis=1),
                      np.median(v[:, 1:-1, 0], axis=1), np.median(v[:, 1:-1, -1], axis=1)], axis=1)
    framed = (white - black >= MIN_CONTRAST) & (sides.min(axis=1) > threshold)
    ok = framed & (border.max(axis=1) <= threshold)
    bits = (inner > threshold[:, None, None]).astype(np.int64)
    code_values = (bits * codes.weights[None]).sum(axis=(1, 2))
    margin = np.abs(inner - threshold[:, None, None]).min(axis=(1, 2)) / np.maximum((white - black) / 2, 1e-9)
    found: list[tuple[int, int, NDArray[np.float64], float]] = []
    failed: list[int] = []
    for index in range(m):
        sure = ok[index] and margin[index] >= HARD_MIN_MARGIN
        match = codes.identify(int(code_values[index])) if sure else None
        if match is None:
            if framed[index]:
                failed.append(index)
            continue
        marker_id, rotation = match
        corners = np.roll(quads[index], rotation, axis=0)
        found.append((int(index), marker_id, corners, float(np.clip(margin[index], 0.0, 1.0))))
    if failed:
        found.extend(_soft_decode(v[failed], quads[failed], np.array(failed), codes))
    return found


def _soft_decode(v: NDArray[np.float32], quads: NDArray[np.float64], indices: NDArray[np.intp], codes: CodeBook
                 ) -> list[tuple[int, int, NDArray[np.float64], float]]:
    """Identify tags by correlating their cell means with every code (blur-tolerant, strict acceptance)."""
    k = v.shape[0]
    inner = _unit_rows(v[:, 2:-2, 2:-2].reshape(k, -1))
    corr = inner @ codes.inner_templates.T  # (k, codes × 4 rotations)
    best = np.argmax(corr, axis=1)
    rows = np.arange(k)
    best_corr = corr[rows, best]
    same_id = codes.template_ids[None, :] == codes.template_ids[best][:, None]
    runner_up = np.where(same_id, -np.inf, corr).max(axis=1)
    whole = (_unit_rows(v.reshape(k, -1)) * codes.full_templates[best]).sum(axis=1)
    accept = (best_corr >= SOFT_MIN_CORRELATION) & (best_corr - runner_up >= SOFT_MIN_MARGIN) & (
        whole >= SOFT_MIN_TAG_CORRELATION)
    out: list[tuple[int, int, NDArray[np.float64], float]] = []
    for j in np.flatnonzero(accept):
        t = best[j]
        corners = np.roll(quads[j], int(codes.template_rotations[t]), axis=0)
        confidence = float(np.clip(best_corr[j] - runner_up[j], 0.0, 1.0))
        out.append((int(indices[j]), int(codes.template_ids[t]), corners, confidence))
    return out


def clockwise(quads: NDArray[np.float64]) -> NDArray[np.float64]:
    """The (M, 4, 2) quads with corners in clockwise order on screen (y down), first corner kept."""
    x, y = quads[..., 0], quads[..., 1]
    area = (x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1)).sum(axis=1)
    return np.where((area > 0)[:, None, None], quads, quads[:, [0, 3, 2, 1]])
