"""Read tags' bits at full resolution from candidate quads, for candidates OpenCV gave up on.

On a half-resolution image a blurred tag's cells are two pixels wide and OpenCV's bit reader
fails on many of them although their square was found. Re-reading those squares on the full
image, sampling only each cell's centre and thresholding halfway between the black border and
the white quiet zone, recovers them. Only exact dictionary matches are accepted (no error
correction) and the border must be black all round, which keeps wrong ids out.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

MIN_CONTRAST = 25.0  # grey levels between the quiet zone and the black border
# Samples per cell (in cells): the centre and four close neighbours. Sampling wider pulls blurred
# lone cells towards their neighbours' colour and loses tags at σ = 2 px.
_SUB = np.array([[0.0, 0.0], [-0.05, -0.05], [0.05, -0.05], [-0.05, 0.05], [0.05, 0.05]])


class CodeBook:
    """Exact lookup of a dictionary's codes in all four rotations: bits → (id, rotation)."""

    def __init__(self, dictionary: cv2.aruco.Dictionary) -> None:
        self.dictionary = dictionary
        self.bits_side = int(dictionary.markerSize)
        self.weights = (1 << np.arange(self.bits_side * self.bits_side, dtype=np.int64)).reshape(
            self.bits_side, self.bits_side)
        self._codes: dict[int, tuple[int, int]] = {}
        for marker_id in range(dictionary.bytesList.shape[0]):
            packed = dictionary.bytesList[marker_id].reshape(1, -1, 4)
            bits = cv2.aruco.Dictionary.getBitsFromByteList(packed, self.bits_side)
            for rotation in range(4):
                self._codes.setdefault(self.code(np.rot90(bits, rotation)), (marker_id, rotation))

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
    ok = (white - black >= MIN_CONTRAST) & (border.max(axis=1) <= threshold)
    bits = (inner > threshold[:, None, None]).astype(np.int64)
    code_values = (bits * codes.weights[None]).sum(axis=(1, 2))
    margin = np.abs(inner - threshold[:, None, None]).min(axis=(1, 2)) / np.maximum((white - black) / 2, 1e-9)
    found: list[tuple[int, int, NDArray[np.float64], float]] = []
    for index in np.flatnonzero(ok):
        match = codes.identify(int(code_values[index]))
        if match is None:
            continue
        marker_id, rotation = match
        corners = np.roll(quads[index], rotation, axis=0)
        found.append((int(index), marker_id, corners, float(np.clip(margin[index], 0.0, 1.0))))
    return found


def clockwise(quads: NDArray[np.float64]) -> NDArray[np.float64]:
    """The (M, 4, 2) quads with corners in clockwise order on screen (y down), first corner kept."""
    x, y = quads[..., 0], quads[..., 1]
    area = (x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1)).sum(axis=1)
    return np.where((area > 0)[:, None, None], quads, quads[:, [0, 3, 2, 1]])
