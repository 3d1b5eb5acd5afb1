"""Where the tags might be: small dark squares framed by white, found without scanning the whole frame.

A table frame is mostly table: hex interiors, cloth, the floor. Searching all of it for squares
(adaptive threshold and contours over two million pixels, as OpenCV's detector does three times)
is what makes detection slow. Here cheap steps narrow the search first:

1. **Regions.** On a quarter-resolution copy, a black-hat (the image's morphological closing
   minus the image, with a kernel wider than a tag's black cells) lights up dark structures
   narrower than the kernel lying on brighter ground: a tag's black border and cells on its white
   label. Where that darkness is deep both in grey levels and relative to its surroundings (so a
   dim room still counts), the blobs, grown by a margin, give the boxes searched further; on a
   table frame they cover a few percent of the image.
2. **Quads.** The boxes, cut from a half-resolution copy, are packed side by side into one small
   canvas, which gets one adaptive threshold. Each tag-sized connected shape in it gives a
   rough quad (:mod:`vision.components`), mapped back to the frame; quads touching a box's edge
   are cut-off shapes and dropped. The decoder keeps only quads that read as tags.
3. **Second look.** Boxes where nothing was read are traced again at full resolution, with a
   wider threshold window that fills a tag's black instead of outlining it: tags seen at a steep
   angle, whose one-cell white label is a pixel or two wide and whose outline merges at half
   resolution with the dark table beyond the label.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numba import njit
from numpy.typing import NDArray

from vision.components import component_quads, pixel_runs

Quads = NDArray[np.float64]  # (N, 4, 2), pixels of the full frame
Box = tuple[int, int, int, int]  # x0, y0, x1, y1
SAME_QUAD_PX = 2.0  # quads whose centres and sizes agree this closely are one
TOUCHING_MARGIN_PX = 24.0  # labels and search margin around two touching tags, full resolution


@dataclass(frozen=True, slots=True)
class CandidateSettings:
    """Sizes in full-resolution pixels; the defaults suit 20–25 mm tags at 1080p from about 1 m.

    ``min_side_px``/``max_side_px`` bound a tag's side in the image; ``min_darkness`` is how many
    grey levels and ``min_relative_darkness`` what share of its surroundings' brightness a tag's
    black must be below them (at quarter resolution); ``threshold_window`` and
    ``threshold_constant`` are the adaptive threshold's, at half resolution; the ``second_look_``
    ones are the full-resolution trace's of boxes where nothing was read, which also accepts
    shorter sides (a steeply foreshortened tag's); boxes at least ``split_min_box_px`` long are
    also traced with touching tags split apart. A frame where nothing was read is searched once
    more with ``fallback_relative_darkness`` (faded prints, glare).
    """

    min_side_px: float = 12.0
    max_side_px: float = 120.0
    min_darkness: int = 20
    min_relative_darkness: float = 0.6
    threshold_window: int = 3
    threshold_constant: float = 5.0
    second_look_window: int = 7
    second_look_constant: float = 7.0
    second_look_min_side_px: float = 8.0
    split_min_box_px: float = 100.0
    fallback_relative_darkness: float = 0.5


class CandidateFinder:
    """Finds candidate tag quads in grey frames; create once per camera (not thread-safe)."""

    def __init__(self, settings: CandidateSettings | None = None) -> None:
        self.settings = s = settings or CandidateSettings()
        # Black structures in a tag are at most about a third of its side wide (border plus two
        # black cells); the border alone, one cell, still shows for tags up to twice that size.
        kernel = max(5, int(np.ceil(s.max_side_px / 3 / 4)) | 1)  # at quarter resolution
        self._kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
        self._grow = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
        self._cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
        self._margin = 3  # quarter-resolution pixels around each blob: the label and some table
        level = np.arange(256)
        bound = np.minimum(level - s.min_darkness, np.floor(level * (1.0 - s.min_relative_darkness))) + 1
        self._bound = np.clip(bound, 0, 255).astype(np.uint8)  # a pixel counts when it is below this
        loose = np.minimum(level - s.min_darkness, np.floor(level * (1.0 - s.fallback_relative_darkness))) + 1
        self._loose_bound = np.clip(loose, 0, 255).astype(np.uint8)

    def regions(self, half: NDArray[np.uint8], loose: bool = False) -> list[Box]:
        """Boxes (x0, y0, x1, y1) in pixels of the half-resolution image ``half`` that may hold tags
        (``loose``: with the fallback's darkness bound, for faded prints)."""
        h, w = half.shape[:2]
        small = cv2.resize(half, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
        closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, self._kernel)
        # dark enough: below its surroundings (the closing) by min_darkness grey levels and by
        # min_relative_darkness of their brightness; one table lookup gives the bound per pixel
        bound = self._loose_bound if loose else self._bound
        mask = cv2.dilate(cv2.compare(small, cv2.LUT(closed, bound), cv2.CMP_LT), self._grow)
        boxes = _blob_boxes(np.ascontiguousarray(mask), self._margin, w, h)
        return [(x0, y0, x1, y1) for x0, y0, x1, y1 in boxes.tolist()]

    def search(self, gray: NDArray[np.uint8], loose: bool = False) -> tuple[Quads, list[Box]]:
        """Candidate quads (N, 4, 2) in full-resolution pixels, traced at half resolution, and the
        boxes searched (full-resolution pixels); ``loose`` as for :meth:`regions`."""
        h, w = gray.shape[:2]
        if h < 8 or w < 8:
            return np.zeros((0, 4, 2)), []
        half = np.asarray(cv2.resize(gray, (w // 2, h // 2), interpolation=cv2.INTER_AREA), dtype=np.uint8)
        boxes = self.regions(half, loose)
        quads = self.trace(half, boxes, 2)
        return quads, [(2 * x0, 2 * y0, 2 * x1, 2 * y1) for x0, y0, x1, y1 in boxes]

    def quads(self, gray: NDArray[np.uint8]) -> Quads:
        """Candidate quads (N, 4, 2) in full-resolution pixels, corners in order around each quad."""
        return self.search(gray)[0]

    def trace(self, image: NDArray[np.uint8], boxes: list[Box], scale: int) -> Quads:
        """Quads traced in ``boxes`` of ``image``, which is the frame reduced ``scale`` times (1 or 2).

        Returned in full-resolution pixels; at full resolution (``scale`` 1) the second look's
        threshold window and smallest side apply.
        """
        if not boxes:
            return np.zeros((0, 4, 2))
        s = self.settings
        canvas, placed = _mosaic(image, boxes)
        if scale == 2:
            window, constant, min_side = s.threshold_window, s.threshold_constant, s.min_side_px
        else:
            window, constant, min_side = s.second_look_window, s.second_look_constant, s.second_look_min_side_px
        binary = cv2.adaptiveThreshold(canvas, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                       window, constant)
        # a tag's side ranges over min..max; across its bounding box, up to √2 times more when turned
        quads = component_quads(np.asarray(binary, dtype=np.uint8), min_side / scale,
                                1.5 * s.max_side_px / scale, int(2 * min_side / scale))
        found = _to_frame(quads, placed, float(scale), float(min_side), SAME_QUAD_PX)
        if scale == 1:
            found = np.concatenate([found, self.split_touching(image, boxes)])
        return found

    def may_hold_touching(self, box: Box) -> bool:
        """Whether ``box`` (full-resolution pixels) is large enough for tags touching at a corner:
        ``split_min_box_px`` long, and two of the smallest tags wide both ways (with their labels)."""
        w, h = box[2] - box[0], box[3] - box[1]
        s = self.settings
        return max(w, h) >= s.split_min_box_px and min(w, h) >= 2 * s.min_side_px + TOUCHING_MARGIN_PX

    def split_touching(self, image: NDArray[np.uint8], boxes: list[Box]) -> Quads:
        """Quads of tags touching others at their corners (a chessboard layout), in the long boxes.

        Touching tags are one shape in the filled threshold; one erosion cuts the pixel-wide joins
        and keeps every tag's border (the quads come out a pixel inside: the edge fit moves them
        out). Only boxes that :meth:`may_hold_touching` are traced. ``image`` is the full-resolution
        frame.
        """
        s = self.settings
        long = [b for b in boxes if self.may_hold_touching(b)]
        if not long:
            return np.zeros((0, 4, 2))
        canvas, placed = _mosaic(image, long)
        binary = cv2.adaptiveThreshold(canvas, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                       s.second_look_window, s.second_look_constant)
        eroded = np.asarray(cv2.erode(binary, self._cross), dtype=np.uint8)
        min_side = s.second_look_min_side_px
        quads = component_quads(eroded, min_side, 1.5 * s.max_side_px, int(2 * min_side))
        return _to_frame(quads, placed, 1.0, float(min_side), SAME_QUAD_PX)


def merge_overlapping(boxes: list[Box]) -> list[Box]:
    """The boxes with every group of overlapping ones replaced by the box around the group.

    A tag whose dark parts came out as two blobs (a large white patch between its cells) would
    otherwise be cut by both boxes, and its quad dropped in each as a cut-off shape.
    """
    if len(boxes) < 2:
        return boxes
    return [(int(x0), int(y0), int(x1), int(y1)) for x0, y0, x1, y1 in _merge(np.asarray(boxes, dtype=np.int64))]


@njit(cache=True)
def _merge(boxes: NDArray[np.int64]) -> NDArray[np.int64]:
    """Merge overlapping boxes (n, 4) until none overlap; compiled: a frame has tens of boxes."""
    out = boxes.copy()
    n = out.shape[0]
    alive = np.ones(n, np.bool_)
    changed = True
    while changed:
        changed = False
        for i in range(n):
            if not alive[i]:
                continue
            for j in range(i + 1, n):
                if (alive[j] and out[i, 0] < out[j, 2] and out[j, 0] < out[i, 2]
                        and out[i, 1] < out[j, 3] and out[j, 1] < out[i, 3]):
                    out[i, 0], out[i, 1] = min(out[i, 0], out[j, 0]), min(out[i, 1], out[j, 1])
                    out[i, 2], out[i, 3] = max(out[i, 2], out[j, 2]), max(out[i, 3], out[j, 3])
                    alive[j] = False
                    changed = True
    return out[alive]


@njit(cache=True)
def _blob_boxes(mask: NDArray[np.uint8], margin: int, w: int, h: int) -> NDArray[np.int64]:
    """The boxes around the mask's outer 8-connected blobs, grown by ``margin`` and doubled (clipped
    to ``w`` × ``h``), overlapping ones merged: what bounding the blobs' outer contours gave.

    As with outer contours, blobs inside another's hole are left out and the blobs come in reverse
    raster order, so that the merged boxes come in the same order too (the canvas is packed in it).
    """
    runs, shape, n = pixel_runs(mask)
    rect = np.empty((n, 4), np.int64)  # per blob, raster order of its first pixel: x0, y0, x1, y1 (exclusive)
    root = np.empty(n, np.int64)
    slot = np.full(n, -1, np.int64)
    m = 0
    for i in range(n):
        r = shape[i]
        y, x0, x1 = runs[i, 0], runs[i, 1], runs[i, 2] + 1
        if slot[r] < 0:
            slot[r] = m
            root[m] = r
            rect[m, 0], rect[m, 1], rect[m, 2], rect[m, 3] = x0, y, x1, y + 1
            m += 1
        else:
            b = slot[r]
            rect[b, 0], rect[b, 2] = min(rect[b, 0], x0), max(rect[b, 2], x1)
            rect[b, 3] = y + 1
    boxes = np.empty((m, 4), np.int64)
    k = 0
    for c in range(m - 1, -1, -1):
        nested = False
        for o in range(m):
            if (o != c and not nested and rect[o, 0] <= rect[c, 0] and rect[o, 1] <= rect[c, 1]
                    and rect[c, 2] <= rect[o, 2] and rect[c, 3] <= rect[o, 3]):
                nested = _in_hole(runs, shape, root[o], rect[o], runs[root[c], 1], runs[root[c], 0])
        if nested:
            continue
        boxes[k, 0], boxes[k, 1] = max(0, (rect[c, 0] - margin) * 2), max(0, (rect[c, 1] - margin) * 2)
        boxes[k, 2], boxes[k, 3] = min(w, (rect[c, 2] + margin) * 2), min(h, (rect[c, 3] + margin) * 2)
        k += 1
    return _merge(boxes[:k]) if k > 1 else boxes[:k]


@njit(cache=True)
def _in_hole(runs: NDArray[np.int64], shape: NDArray[np.int64], blob: int, rect: NDArray[np.int64],
             x: int, y: int) -> bool:
    """Whether pixel (x, y) lies in a hole of ``blob`` (the index of its first run; ``rect`` its
    bounding box): unreachable from outside the box through pixels not of the blob, 4-connected."""
    x0, y0 = rect[0] - 1, rect[1] - 1
    bw, bh = rect[2] - rect[0] + 2, rect[3] - rect[1] + 2
    seen = np.zeros((bh, bw), np.uint8)  # 1: the blob, 2: reached from outside
    for i in range(blob, runs.shape[0]):
        if shape[i] == blob:
            seen[runs[i, 0] - y0, runs[i, 1] - x0:runs[i, 2] + 1 - x0] = 1
    stack = np.empty((bw * bh, 2), np.int64)
    top = 0
    for yy in range(bh):
        for xx in range(bw):
            if (yy == 0 or xx == 0 or yy == bh - 1 or xx == bw - 1) and seen[yy, xx] == 0:
                seen[yy, xx] = 2
                stack[top, 0], stack[top, 1] = yy, xx
                top += 1
    while top > 0:
        top -= 1
        yy, xx = stack[top, 0], stack[top, 1]
        for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            ny, nx = yy + dy, xx + dx
            if 0 <= ny < bh and 0 <= nx < bw and seen[ny, nx] == 0:
                seen[ny, nx] = 2
                stack[top, 0], stack[top, 1] = ny, nx
                top += 1
    return bool(seen[y - y0, x - x0] != 2)


@njit(cache=True)
def _to_frame(quads: Quads, placed: NDArray[np.int64], scale: float, min_side: float, same_px: float) -> Quads:
    """Canvas quads back in the frame (full-resolution pixels), dropping quads that touch their tile's
    edge (cut-off shapes), that are too small or too skewed for a tag, and repeats of a kept quad
    (a tag seen in two overlapping boxes)."""
    out = np.zeros_like(quads)
    centres = np.zeros((quads.shape[0], 3))  # x, y and mean corner distance of each kept quad
    k = 0
    for q in range(quads.shape[0]):
        lo_x, lo_y = quads[q, :, 0].min(), quads[q, :, 1].min()
        hi_x, hi_y = quads[q, :, 0].max(), quads[q, :, 1].max()
        tile = -1
        for t in range(placed.shape[0]):
            if (lo_x >= placed[t, 0] + 1 and lo_y >= placed[t, 1] + 1
                    and hi_x <= placed[t, 2] - 2 and hi_y <= placed[t, 3] - 2):
                tile = t
                break
        if tile < 0:
            continue
        quad = np.empty((4, 2))
        for i in range(4):
            quad[i, 0] = (quads[q, i, 0] + placed[tile, 4] - placed[tile, 0] + 0.5) * scale - 0.5
            quad[i, 1] = (quads[q, i, 1] + placed[tile, 5] - placed[tile, 1] + 0.5) * scale - 0.5
        shortest, longest = np.inf, 0.0
        for i in range(4):
            side = np.hypot(quad[(i + 1) % 4, 0] - quad[i, 0], quad[(i + 1) % 4, 1] - quad[i, 1])
            shortest, longest = min(shortest, side), max(longest, side)
        if shortest < min_side or longest > 3.0 * shortest:
            continue
        cx, cy = quad[:, 0].mean(), quad[:, 1].mean()
        size = 0.0
        for i in range(4):
            size += np.hypot(quad[i, 0] - cx, quad[i, 1] - cy) / 4
        repeat = False
        for j in range(k):
            if np.hypot(cx - centres[j, 0], cy - centres[j, 1]) < same_px and abs(size - centres[j, 2]) < same_px:
                repeat = True
                break
        if repeat:
            continue
        out[k] = quad
        centres[k, 0], centres[k, 1], centres[k, 2] = cx, cy, size
        k += 1
    return out[:k]


def _mosaic(image: NDArray[np.uint8], boxes: list[Box], gap: int = 2
            ) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Pack the boxes of ``image`` side by side into one canvas (shelves, tallest first).

    Returns the canvas and, per box, (canvas x0, y0, x1, y1, image x0, y0).
    """
    return _pack(np.ascontiguousarray(image), np.asarray(boxes, dtype=np.int64).reshape(-1, 4), gap)


@njit(cache=True)
def _pack(image: NDArray[np.uint8], boxes: NDArray[np.int64], gap: int) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """:func:`_mosaic`'s packing and copying, compiled: a frame has tens of boxes."""
    n = boxes.shape[0]
    heights = boxes[:, 3] - boxes[:, 1]
    order = np.argsort(-heights, kind="mergesort")  # stable: equal heights keep their order
    area = 0
    widest = 0
    for i in range(n):
        area += (boxes[i, 2] - boxes[i, 0] + gap) * (boxes[i, 3] - boxes[i, 1] + gap)
        widest = max(widest, boxes[i, 2] - boxes[i, 0])
    width = max(widest + gap, int(np.sqrt(area) * 1.3))
    placed = np.zeros((n, 6), dtype=np.int64)
    x = y = shelf = 0
    for i in order:
        x0, y0, x1, y1 = boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3]
        bw, bh = x1 - x0, y1 - y0
        if x + bw > width:
            x, y, shelf = 0, y + shelf + gap, 0
        placed[i, 0], placed[i, 1], placed[i, 2], placed[i, 3] = x, y, x + bw, y + bh
        placed[i, 4], placed[i, 5] = x0, y0
        x += bw + gap
        shelf = max(shelf, bh)
    canvas = np.full((y + shelf, width), 128, dtype=np.uint8)
    for i in range(n):
        cx, cy = placed[i, 0], placed[i, 1]
        x0, y0 = boxes[i, 0], boxes[i, 1]
        canvas[cy:cy + boxes[i, 3] - y0, cx:cx + boxes[i, 2] - x0] = image[y0:boxes[i, 3], x0:boxes[i, 2]]
    return canvas, placed
