"""Read tags' bits at full resolution from candidate quads.

Each cell is sampled at its centre on the full image and thresholded halfway between the black
border and the white quiet zone: only exact dictionary matches are accepted (no error correction),
the border must be black all round and every side of the quiet zone white.

Every candidate is also matched against every code as the camera would see it blurred: each
code's tag (quiet zone, border, bits) is blurred at several strengths, exactly, since a tag is
made of uniform cells. An exact read stands only if the best blurred code agrees: under strong
blur a lone white cell falls below the halfway line while a pair of white cells stays above it,
so a tag can threshold exactly as another code. Otherwise (no exact read, or a contradicted one)
the blurred match is accepted only if it correlates well, clearly better than any other id, and
the whole tag fits too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numba import njit
from numpy.typing import NDArray

from vision.sampling import sample_cells

MIN_CONTRAST = 25.0  # grey levels between the quiet zone and the black border
HARD_MIN_MARGIN = 0.2  # a cell closer than this (share of half the contrast) to the threshold is a guess
# Soft decoding (blurred tags whose lone cells no longer cross the halfway threshold): the bits
# must correlate with one blurred code at least this well, better than with any other id by this
# margin, and the whole tag with its border and quiet zone must fit too. Chosen on rendered frames
# of varied blur, light, noise and JPEG, hands included (bench/vision_wrong_ids.py).
SOFT_MIN_CORRELATION = 0.88
SOFT_MIN_MARGIN = 0.1
SOFT_MIN_TAG_CORRELATION = 0.92
# Blur strengths the codes are matched at: Gaussian σ in cells (a 2 px blur on 4 px cells is 0.5).
BLUR_LEVELS_CELLS = (0.0, 0.15, 0.3, 0.45, 0.6, 0.75)
# Samples per cell (in cells): the centre and four close neighbours. Sampling wider pulls blurred
# lone cells towards their neighbours' colour and loses tags at σ = 2 px.
_SUB = np.array([[0.0, 0.0], [-0.05, -0.05], [0.05, -0.05], [-0.05, 0.05], [0.05, 0.05]])


def _unit_rows(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """Rows shifted to zero mean and scaled to unit length (for correlation by dot product)."""
    z = x - x.mean(axis=-1, keepdims=True)
    norm = np.sqrt(np.add.reduce(z * z, axis=-1, keepdims=True))  # what np.linalg.norm computes, without its checks
    return np.asarray(z / np.maximum(norm, 1e-6), dtype=np.float32)


class CodeBook:
    """A dictionary's codes in all four rotations: exact lookup, and templates of every code blurred."""

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
        # templates grouped by blur level and rotation, each group holding every id in order, so
        # that the best of every id is a maximum over the groups (fast: one pass per group)
        levels = len(BLUR_LEVELS_CELLS)
        blurred = np.stack([blur_cells(full, sigma) for sigma in BLUR_LEVELS_CELLS])  # (level, id × rotation, n, n)
        blurred = blurred.reshape(levels, -1, 4, n, n).transpose(0, 2, 1, 3, 4).reshape(-1, n, n)
        count = blurred.shape[0]
        self.code_count = count // (levels * 4)
        self.inner_templates_t = np.ascontiguousarray(_unit_rows(blurred[:, 2:-2, 2:-2].reshape(count, -1)).T)
        self.full_templates = _unit_rows(blurred.reshape(count, -1))
        self.template_ids = np.tile(np.arange(self.code_count), levels * 4)
        self.template_rotations = np.tile(np.repeat(np.array(rotations[:4]), self.code_count), levels)

    def code(self, bits: NDArray[np.generic]) -> int:
        return int((np.asarray(bits, dtype=np.int64) * self.weights).sum())

    def identify(self, code: int) -> tuple[int, int] | None:
        """(id, rotation) of an exact match, rotation counted in :func:`numpy.rot90` turns."""
        return self._codes.get(code)


_normal_cdf = np.vectorize(lambda z: 0.5 * (1.0 + math.erf(z / math.sqrt(2.0))))


def blur_cells(grids: NDArray[np.float32], sigma: float, surround: float = 0.5) -> NDArray[np.float32]:
    """Grids of uniform cells (…, n, n) blurred by a Gaussian of ``sigma`` cells, read at cell centres.

    Exact for cells of constant value: the blur separates into rows and columns, and what each
    cell centre gathers from cell j is the Gaussian's mass over that cell. Beyond the grid the
    surroundings are taken as ``surround`` (mid grey: a tag may lie on anything).
    """
    n = grids.shape[-1]
    if sigma <= 0:
        return np.asarray(grids, dtype=np.float32)
    centres = np.arange(n) + 0.5
    edges = np.arange(n + 1, dtype=np.float64)
    cdf = _normal_cdf((edges[None, :] - centres[:, None]) / sigma)
    mix = np.diff(cdf, axis=1)  # mix[i, j]: share of cell j in what cell i's centre sees
    inside = mix.sum(axis=1)
    out = np.einsum("ij,...jk,lk->...il", mix, grids, mix)
    return np.asarray(out + surround * (1.0 - inside[:, None] * inside[None, :]), dtype=np.float32)


def decode_quads(gray: NDArray[np.uint8], quads: NDArray[np.float64], codes: CodeBook, soft: bool = True
                 ) -> list[tuple[int, int, NDArray[np.float64], float]]:
    """Identify tags in (M, 4, 2) clockwise quads: (index into quads, id, corners from top-left, confidence).

    With ``soft`` False only exact reads that the blurred codes agree with are kept.
    """
    m = quads.shape[0]
    if m == 0:
        return []
    n = codes.bits_side + 4  # bits, black border and one cell of quiet zone on each side
    v = sample_cells(np.ascontiguousarray(gray, dtype=np.uint8), np.ascontiguousarray(quads, dtype=np.float64), n, _SUB)
    framed, sure, code_values, margin = _threshold_read(v, codes.weights.reshape(-1))
    candidates = np.flatnonzero(framed)
    if candidates.size == 0:
        return []
    blurred = _match_blurred(v[candidates], codes)
    found: list[tuple[int, int, NDArray[np.float64], float]] = []
    # plain lists: indexing numpy arrays one element at a time costs more than the reads
    sure_list, code_list, margin_list = sure.tolist(), code_values.tolist(), margin.tolist()
    best_list, accepted_list = blurred.best.tolist(), blurred.accepted.tolist()
    confidence_list = blurred.confidence.tolist()
    for j, index in enumerate(candidates.tolist()):
        match = codes.identify(code_list[index]) if sure_list[index] else None
        template = best_list[j]
        if match is not None and match[0] == template % codes.code_count:
            # the exact read and the blurred codes agree
            marker_id, rotation = match
            confidence = min(max(margin_list[index], 0.0), 1.0)
        elif soft and accepted_list[j]:
            # No exact read, or one the blurred codes contradict: under strong blur lone white cells
            # fall below the halfway threshold while pairs stay above it, so a tag can read exactly
            # as another code; the blurred codes, which model that, must then be clearly sure.
            marker_id, rotation = int(codes.template_ids[template]), int(codes.template_rotations[template])
            confidence = confidence_list[j]
        else:
            continue
        found.append((index, marker_id, quads[index][_ROLL[rotation]], confidence))
    return found


@njit(cache=True)
def _second_lowest(values: NDArray[np.float32]) -> float:
    """The second-lowest value: one dark cell (a speck, a blurred corner) is forgiven, two are not."""
    lowest = second = np.inf
    for value in values:
        if value < lowest:
            lowest, second = value, lowest
        elif value < second:
            second = value
    return float(second)


@njit(cache=True)
def _median_of(values: NDArray[np.float32], scratch: NDArray[np.float32]) -> float:
    """The median of ``values``, sorted in ``scratch`` (at least as long): no allocation per tag."""
    k = values.shape[0]
    for i in range(k):  # insertion sort: a few dozen cells
        value = values[i]
        j = i
        while j > 0 and scratch[j - 1] > value:
            scratch[j] = scratch[j - 1]
            j -= 1
        scratch[j] = value
    return float((scratch[(k - 1) // 2] + scratch[k // 2]) / 2)


@njit(cache=True)
def _threshold_read(v: NDArray[np.float32], weights: NDArray[np.int64]
                    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.int64], NDArray[np.float32]]:
    """Per candidate's cells (m, n, n): framed (a white quiet zone on every side, enough contrast),
    sure (framed, black border all round, every bit clear of the threshold), the bits' code, and
    how clear of the threshold the closest bit is (share of half the contrast)."""
    m, n = v.shape[0], v.shape[1]
    framed = np.zeros(m, np.bool_)
    sure = np.zeros(m, np.bool_)
    codes = np.zeros(m, np.int64)
    margins = np.zeros(m, np.float32)
    quiet = np.empty(4 * (n - 2), np.float32)
    border = np.empty(4 * (n - 4), np.float32)
    scratch = np.empty(4 * (n - 2), np.float32)
    for q in range(m):
        c = v[q]
        # the quiet zone's four sides and the black border's four sides, corners left out
        lowest_side = np.inf
        for side in range(4):
            for i in range(n - 2):
                if side == 0:
                    quiet[side * (n - 2) + i] = c[0, i + 1]
                elif side == 1:
                    quiet[side * (n - 2) + i] = c[n - 1, i + 1]
                elif side == 2:
                    quiet[side * (n - 2) + i] = c[i + 1, 0]
                else:
                    quiet[side * (n - 2) + i] = c[i + 1, n - 1]
            lowest_side = min(lowest_side, _second_lowest(quiet[side * (n - 2):(side + 1) * (n - 2)]))
        for i in range(n - 4):
            border[i] = c[1, i + 2]
            border[(n - 4) + i] = c[n - 2, i + 2]
            border[2 * (n - 4) + i] = c[i + 2, 1]
            border[3 * (n - 4) + i] = c[i + 2, n - 2]
        white, black = _median_of(quiet, scratch), _median_of(border, scratch)
        threshold = (white + black) / 2
        # Each side of the quiet zone must be white, not just most of the ring: a quad with one edge
        # fitted to a line inside a tag has that side of its "quiet zone" on the tag's black border,
        # or (half of a foreshortened tag) on its cells, of which a few are white: so all but one
        # cell of every side must be above the threshold, not just the side's median.
        framed[q] = white - black >= MIN_CONTRAST and lowest_side > threshold
        closest = np.inf
        code = 0
        for r in range(n - 4):
            for col in range(n - 4):
                value = c[r + 2, col + 2]
                if value > threshold:
                    code += weights[r * (n - 4) + col]
                closest = min(closest, abs(value - threshold))
        margins[q] = closest / max((white - black) / 2, 1e-9)
        codes[q] = code
        sure[q] = framed[q] and border.max() <= threshold and margins[q] >= HARD_MIN_MARGIN
    return framed, sure, codes, margins


_ROLL = [np.roll(np.arange(4), r) for r in range(4)]  # corner order after np.roll(corners, r, axis=0)


@dataclass(frozen=True, slots=True)
class BlurredMatch:
    """Per candidate: the best blurred template, whether it is sure enough on its own, how sure."""

    best: NDArray[np.intp]
    accepted: NDArray[np.bool_]
    confidence: NDArray[np.float32]


def _match_blurred(v: NDArray[np.float32], codes: CodeBook) -> BlurredMatch:
    """Correlate candidates' cells (k, n, n) with every code blurred; strict acceptance."""
    k = v.shape[0]
    inner = _unit_rows(v[:, 2:-2, 2:-2].reshape(k, -1))
    corr = inner @ codes.inner_templates_t  # (k, blur levels × 4 rotations × ids)
    best = np.argmax(corr, axis=1)
    rows = np.arange(k)
    best_corr = corr[rows, best]
    per_id = corr.reshape(k, -1, codes.code_count).max(axis=1)  # the best of every id
    per_id[rows, codes.template_ids[best]] = -np.inf
    runner_up = per_id.max(axis=1)
    whole = (_unit_rows(v.reshape(k, -1)) * codes.full_templates[best]).sum(axis=1)
    accepted = (best_corr >= SOFT_MIN_CORRELATION) & (best_corr - runner_up >= SOFT_MIN_MARGIN) & (
        whole >= SOFT_MIN_TAG_CORRELATION)
    return BlurredMatch(best, accepted, np.clip(best_corr - runner_up, 0.0, 1.0).astype(np.float32))


@njit(cache=True)
def clockwise(quads: NDArray[np.float64]) -> NDArray[np.float64]:
    """The (M, 4, 2) quads with corners in clockwise order on screen (y down), first corner kept."""
    out = np.empty_like(quads)
    for q in range(quads.shape[0]):
        area = 0.0
        for i in range(4):
            j = (i + 1) % 4
            area += quads[q, i, 0] * quads[q, j, 1] - quads[q, i, 1] * quads[q, j, 0]
        for i in range(4):
            src = i if area > 0 else (4 - i) % 4  # corners 0, 3, 2, 1 when anticlockwise
            out[q, i, 0], out[q, i, 1] = quads[q, src, 0], quads[q, src, 1]
    return out
