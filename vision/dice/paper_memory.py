"""The paper's colour around the felt, kept from frame to frame while the light on it stays as it was.

Measuring the paper's colour (:func:`vision.dice.paper.paper_reference`: a median over a window wider than four dice)
is most of the cost of finding dice seen from an angle, and it changes only with the tray's pose and the light. Each
frame, the paper (where no die is known to be) is held against the kept colour at ``REFERENCE_PX_PER_MM``, tile by tile
(``TILE_MM`` square, half the median's window): a tile most of whose paper is off the kept colour by more than
``STALE_SHARE`` of the steps that make a pixel no paper has seen its light change (a lamp switched on, a hand's
shadow), and the colour is measured again from this frame. A die covers less than half of a tile's paper but where it
lies along the paper's narrow band; then the colour is measured again too, as it was before it was kept. It is
measured again every ``REFRESH_FRAMES`` frames whatever the tiles say.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.channels import planes
from vision.dice.paper import (
    KNOWN_MM,
    REFERENCE_PX_PER_MM,
    Image,
    PaperReference,
    enough_paper,
    paper_reference,
    reference_size,
)

TILE_MM = 30.0  # the tiles the paper is held against its kept colour in: half the reference's median window
STALE_SHARE = 0.5  # a pixel off the kept colour by this share of a step (brightness or tint): its light changed
STALE_TILE = 0.5  # … and a tile with more than this share of its paper so: the kept colour is stale
MIN_TILE_PX = 16  # a tile with less paper than this (at REFERENCE_PX_PER_MM) says nothing
REFRESH_FRAMES = 300  # the colour is measured again at least this often (10 s at 30 frames a second)


@dataclass(frozen=True, slots=True)
class HeldPaper:
    """What :func:`light_changed` holds each frame's paper against, made once with the kept colour: the pixels wholly
    of the paper at ``REFERENCE_PX_PER_MM`` (flat indices), the kept colour there, and the tile each lies in."""

    at: NDArray[np.intp]
    colour: tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32]]  # B, G, R: N each
    tiles: NDArray[np.intp]
    tile_count: int


def held_paper(reference: PaperReference) -> HeldPaper:
    """:class:`HeldPaper` of ``reference``."""
    rows, cols = reference.paper_small.shape
    at = np.flatnonzero(reference.paper_small)
    tile = max(1, round(TILE_MM * REFERENCE_PX_PER_MM))
    row, col = np.divmod(at, cols)
    across = -(-cols // tile)
    colour = np.take(reference.small.reshape(-1, 3), at, axis=0)
    blue, green, red = (np.ascontiguousarray(colour[:, c]) for c in range(3))
    return HeldPaper(at, (blue, green, red), (row // tile) * across + col // tile, -(-rows // tile) * across)


def light_changed(reference: PaperReference, smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_],
                  px_per_mm: float, held: HeldPaper | None = None) -> bool:
    """Whether the paper of ``smooth`` (not ``known`` to be a die, nor near one) is off ``reference`` in any tile
    (``TILE_MM``) over more than ``STALE_TILE`` of its paper, by more than ``STALE_SHARE`` of its steps; ``held``:
    :func:`held_paper` of ``reference``, when already made."""
    size = reference_size(paper.shape, px_per_mm)
    if reference.small.shape[:2] != (size[1], size[0]):
        return True
    small = np.asarray(cv2.resize(smooth, size, interpolation=cv2.INTER_AREA), np.uint8)
    away = max(1, round(KNOWN_MM * REFERENCE_PX_PER_MM))
    known_small = np.asarray(cv2.resize(known.astype(np.uint8), size, interpolation=cv2.INTER_AREA), np.uint8) > 0
    near = cv2.dilate(known_small.astype(np.uint8), np.ones((2 * away + 1, 2 * away + 1), np.uint8)) > 0
    # The paper does not change with the light: it is the pose's. Only its pixels are looked at (flat indices), a
    # channel at a time: picking them from each channel's plane, rather than as rows of B, G, R, gives the same numbers
    # at under half the cost (0.07 ms against 0.18, the resize apart, a tray camera at 65°).
    held = held or held_paper(reference)
    clean = ~near.reshape(-1)[held.at]
    at = held.at[clean]
    blue, green, red = (np.asarray(plane, np.uint8).reshape(-1).take(at).astype(np.float32) - kept[clean]
                        for plane, kept in zip(planes(small), held.colour, strict=True))
    mean = (blue + green + red) / 3  # as channel_sum adds them
    tint = np.abs(blue - mean) + np.abs(green - mean) + np.abs(red - mean)
    stale = (np.abs(mean) > STALE_SHARE * reference.grey_step) | (tint > STALE_SHARE * reference.tint_step)
    tiles = held.tiles[clean]  # each clean pixel's tile
    stale_sums = np.bincount(tiles[stale], minlength=held.tile_count)
    return bool(np.any(stale_sums > STALE_TILE * np.maximum(np.bincount(tiles, minlength=held.tile_count),
                                                            MIN_TILE_PX)))


class PaperMemory:
    """The paper's colour for one tray pose: measured in one frame, kept while :func:`light_changed` says no (and
    never measured when the pose's view holds too little paper for it)."""

    def __init__(self) -> None:
        self.reference: PaperReference | None = None
        self._held: HeldPaper | None = None  # what the kept colour's paper is held against (:func:`held_paper`)
        self.measured = 0  # how many times it was measured (for tests and figures)
        self._age = 0
        self._enough: bool | None = None  # whether the pose's view holds enough paper for a reference
        self._cut: tuple[PaperReference, tuple[int, int, int, int], PaperReference] | None = None  # (:meth:`cut`)

    def reference_for(self, smooth: Image, paper: NDArray[np.bool_], known: NDArray[np.bool_], px_per_mm: float
                      ) -> PaperReference | None:
        """The paper's colour in this frame (:func:`vision.dice.paper.paper_reference`): the kept one while the light
        on the paper stays as it was, else measured from this frame (and kept)."""
        if self._enough is None:
            self._enough = enough_paper(paper, px_per_mm)
        if not self._enough:
            return None
        self._age += 1
        kept = self.reference
        if kept is not None and self._age < REFRESH_FRAMES and kept.colour.shape == smooth.shape:
            if self._held is None:
                self._held = held_paper(kept)
            if not light_changed(kept, smooth, paper, known, px_per_mm, self._held):
                return kept
        self.reference = paper_reference(smooth, paper, known, px_per_mm)
        self._held = None
        self.measured += 1
        self._age = 0
        return self.reference

    def cut(self, reference: PaperReference | None, box: tuple[int, int, int, int]) -> PaperReference | None:
        """``reference`` (the whole rectified tray's) cut to the search ``box`` (top, bottom, left, right), its colour
        laid out anew once for as long as both are kept: each frame picks the paper's pixels of it by their indices,
        which a cut seen through the whole tray's rows would copy out every time."""
        if reference is None:
            return None
        if self._cut is None or self._cut[0] is not reference or self._cut[1] != box:
            top, bottom, left, right = box
            colour = np.ascontiguousarray(reference.colour[top:bottom, left:right])
            self._cut = (reference, box, replace(reference, colour=colour))
        return self._cut[2]
