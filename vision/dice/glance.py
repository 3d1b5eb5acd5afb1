"""A glance at the tray between whole searches: its blobs' places at half the search's resolution, to tell that no die
moved, came or left (nor a hand) since the frame last searched whole, so that what was found there stands for this one.

The frames before dice settle cost the most (each die's top face found again, the tray searched at
``SEGMENT_PX_PER_MM``), yet in most of them no die moves by more than the picture's noise: the tracker only has to
learn that each die is still where it was. A glance rectifies the tray at ``GLANCE_PX_PER_MM`` (a quarter of the
pixels) and finds its blobs there (:func:`vision.dice.segment.find_blobs`, no top faces); when every blob lies within
``GLANCE_STEP_MM`` of its place in the glance of the frame last searched whole, with its area and box as they were,
that frame's finding is given to the tracker again. The glance is always held against the frame *searched* last,
never the frame before: a die creeping a little each frame cannot hide its drift, which adds up against that frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.dice.paper_memory import PaperMemory
from vision.dice.segment import MatMasks, find_blobs
from vision.dice.tray_view import TrayView

GLANCE_PX_PER_MM = 1.0  # half the blob search's resolution: a quarter of its pixels
GLANCE_STEP_MM = 0.3  # a blob's centre moved at most this since the frame searched whole: the die did not move
GLANCE_AREA_SHARE = 0.05  # … its area changed by at most this share
GLANCE_BOX_PX = 1  # … and its box's sides by at most this many pixels (a die turning in place)


@dataclass(frozen=True, slots=True)
class Glance:
    """The blobs of one frame seen at ``GLANCE_PX_PER_MM``: centre (tray mm), area (mm²) and box sides (px) each."""

    blobs: tuple[tuple[float, float, float, int, int], ...]


def glance(image: NDArray[np.uint8], view: TrayView, mat: MatMasks, paper: PaperMemory, height_mm: float,
           margin_mm: float) -> Glance:
    """The tray's blobs in ``image`` at ``GLANCE_PX_PER_MM``, on the plane ``height_mm`` with ``margin_mm`` around
    (``mat``: what that plane shows behind the dice, at that resolution; ``paper``: its paper's colour kept)."""
    rectified = view.rectify(image, height_mm, GLANCE_PX_PER_MM, margin_mm, mat.box)
    blobs = find_blobs(rectified, mat, GLANCE_PX_PER_MM, margin_mm, paper)
    return Glance(tuple((b.centroid_mm[0], b.centroid_mm[1], b.area_mm2, b.box[2], b.box[3]) for b in blobs))


def same_places(now: Glance, then: Glance) -> bool:
    """Whether ``now`` shows the blobs ``then`` showed, each where it was (``GLANCE_STEP_MM``), as big
    (``GLANCE_AREA_SHARE``) and as wide and tall (``GLANCE_BOX_PX``); no blob more, none less."""
    if len(now.blobs) != len(then.blobs):
        return False
    left = list(now.blobs)
    for x, y, area, w, h in then.blobs:
        match = next((b for b in left if math.hypot(b[0] - x, b[1] - y) <= GLANCE_STEP_MM), None)
        if (match is None or abs(match[2] - area) > GLANCE_AREA_SHARE * area
                or abs(match[3] - w) > GLANCE_BOX_PX or abs(match[4] - h) > GLANCE_BOX_PX):
            return False
        left.remove(match)
    return True
