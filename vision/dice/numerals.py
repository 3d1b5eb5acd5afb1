"""Read a d10's numeral: a small convolutional network, run by OpenCV's ``cv2.dnn`` (ONNX), on the crop.

It was trained on the synthetic table's renders by :mod:`vision.dice.train_numerals`; the model ships in this
package: two networks of the same shape fitted from different starting weights (``MODEL_NAMES``), whose class
probabilities are averaged (one network alone is sure of a few crops it has no business being sure of; two seldom
are of the same one). It knows numerals upright only: the die's outline gives the axis its top face
lies along (:mod:`vision.dice.outline`), and the top face is cut out with that axis up, both ways up (and
along the next likeliest axis when the outline is not sure): a handful of crops, one of them upright, each read
as cut and turned a little either way (:func:`steadied`: a wrong numeral seldom holds over all three). When
those crops give no sure reading (in dim light or glare the outline can be off by a tenth of a turn, and no
crop is upright), the face is cut out all round and each numeral is weighed over neighbouring turns
(:func:`scan_guess`). Besides 0–9 the network knows an eleventh answer, "not a flat d10" (a d6, a cocked die:
the reader turns that into a doubt), and a twelfth, "a numeral not upright", so that a turned numeral is not
taken for another upright one (a 6 upside down is not a 9: real d10s underline both, and so do the rendered
ones).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

log = logging.getLogger(__name__)

Image = NDArray[np.uint8]
# The networks read together. A single network trained with cocked d10s (2026-12-07) read a glossy d10's 1, its
# numeral under a highlight, as a 3 at 0.86 (bench/dice.py's glare, throw 189 of 225), where the network before it
# asked; each is sure of some crops the other is not.
MODEL_NAMES = ("d10_numerals.onnx", "d10_numerals_2.onnx")
PATCH_MM = 14.0  # the crop: the numeral and its underline, with a little of the kite round them
PATCH_PX_PER_MM = 2.5
NUMERAL_OFFSET_MM = -1.0  # the numeral's centre from the die's axis, along its top face's apex direction
SIDE_PX = 32
NOT_FLAT = 10  # the class of a die that is not a d10 lying flat
NOT_UPRIGHT = 11  # a flat d10's numeral turned away from upright: the turns that do not read
CLASSES = 12
DETAIL_SIGMA_PX = 3.0  # the blur taken away to leave a crop's detail: wider than a stroke, narrower than a highlight
VIEWS = 2  # the crop's levels spread, and its detail (:func:`features`): the network's input channels
# When the outline's axes give no sure reading (a dim or glossy die's outline off by a tenth of a turn or more), the
# face is cut out all round, every SCAN_STEP_DEG: a numeral is upright (as trained: within 25°) in at least four
# neighbouring crops, and is trusted as far as it holds over SCAN_WINDOW of them.
SCAN_STEP_DEG = 12.0
SCAN_TURNS = tuple(i * SCAN_STEP_DEG for i in range(round(360.0 / SCAN_STEP_DEG)))
SCAN_WINDOW = 3
# Each crop along the outline's axes is read as cut and turned a little either way, and its class probabilities are
# averaged: a right numeral holds over the three, a wrong one rarely does. On the held-out renders of
# vision.dice.train_numerals the surest numeral the perceptron before this network read wrong fell from a margin of
# 0.75 to 0.40 from above (0.53 to 0.47 at an angle), while right ones kept theirs.
STEADY_TURNS_DEG = (0.0, -7.0, 7.0)


@dataclass(frozen=True, slots=True)
class NumeralGuess:
    value: int | None  # None: not a flat d10
    confidence: float


def features(patch: Image) -> NDArray[np.float32]:
    """The network's input: the crop, grey, ink made light (dice of every colour look alike), 32 px square, seen two
    ways, one channel each, scaled to 0–1: its levels spread full range, and its detail (less its blurred self,
    which takes away the smooth light across the face and most of a highlight, and keeps the strokes). In glare
    the two err on different dice."""
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    small = cv2.resize(gray, (SIDE_PX, SIDE_PX), interpolation=cv2.INTER_AREA)
    n = SIDE_PX
    centre = small[n // 4: 3 * n // 4, n // 4: 3 * n // 4]
    level = float(np.median(centre))
    low, high = (float(v) for v in np.percentile(centre, (3, 97)))
    if high - level < level - low:  # light body, dark ink: invert
        small = 255 - small
    spread: NDArray[np.uint8] = np.asarray(cv2.normalize(small, None, 0, 255, cv2.NORM_MINMAX), np.uint8)
    f = small.astype(np.float32)
    detail = f - cv2.GaussianBlur(f, (0, 0), DETAIL_SIGMA_PX)
    lo, hi = (float(v) for v in np.percentile(detail, (1, 99)))
    strokes = np.asarray(np.clip((detail - lo) * (255.0 / max(hi - lo, 1.0)), 0, 255), np.uint8)
    return np.stack([spread, strokes]).astype(np.float32) / np.float32(255.0)


class NumeralReader:
    """The trained networks and the crop they expect."""

    patch_mm = PATCH_MM
    px_per_mm = PATCH_PX_PER_MM

    def __init__(self, nets: Sequence[cv2.dnn.Net]) -> None:
        assert nets, "at least one network"
        self.nets = tuple(nets)

    def scores(self, patch: Image) -> NDArray[np.float64]:
        """Class probabilities for one upright crop."""
        return np.asarray(self.table([patch])[0], np.float64)

    def table(self, crops: list[Image]) -> NDArray[np.float64]:
        """Class probabilities for each crop (crops × classes), in one pass of each network, averaged."""
        x = np.stack([features(p) for p in crops])
        total = np.zeros((len(crops), CLASSES), np.float64)
        for net in self.nets:
            net.setInput(x)
            total += np.asarray(net.forward(), np.float64).reshape(len(crops), CLASSES)
        return total / len(self.nets)

    def classify(self, turns: list[Image]) -> NumeralGuess:
        """The surest reading over the crops of one face cut out in a few turns, one of them upright
        (:func:`axes_guess`), each crop's probabilities steadied over small turns (:func:`steadied`)."""
        return axes_guess(steady_mean(self.table(steadied(turns)), len(turns)))

    def classify_scan(self, crops: list[Image]) -> NumeralGuess:
        """The surest reading over the crops of one face cut out at every one of ``SCAN_TURNS``
        (:func:`scan_guess`)."""
        return scan_guess(self.table(crops))


def steadied(crops: list[Image]) -> list[Image]:
    """The crops, then each turned by every other of ``STEADY_TURNS_DEG`` about its centre (in that order: one
    block of crops per turn), for :func:`steady_mean`."""
    out = []
    for turn in STEADY_TURNS_DEG:
        for crop in crops:
            if turn == 0.0:
                out.append(crop)
                continue
            h, w = crop.shape[:2]
            m = cv2.getRotationMatrix2D(((w - 1) / 2.0, (h - 1) / 2.0), turn, 1.0)
            out.append(np.asarray(cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR,
                                                 borderMode=cv2.BORDER_REPLICATE), np.uint8))
    return out


def steady_mean(table: NDArray[np.float64], count: int) -> NDArray[np.float64]:
    """The class probabilities of :func:`steadied` crops (turns × ``count`` crops, × classes) averaged over the
    turns: one row per original crop."""
    return np.asarray(table.reshape(len(STEADY_TURNS_DEG), count, CLASSES).mean(axis=0), np.float64)


def _guess(per_class: NDArray[np.float64], table: NDArray[np.float64]) -> NumeralGuess:
    """The best class and its margin over the next: a numeral's evidence as given, "not flat" whichever way the
    face is turned (its mean over the turns), "not upright" none (it says nothing about which face is up)."""
    per_class = per_class.copy()
    per_class[NOT_FLAT] = float(np.mean(table[:, NOT_FLAT]))
    per_class[NOT_UPRIGHT] = 0.0
    order = np.argsort(-per_class)
    best = int(order[0])
    confidence = round(float(max(0.0, per_class[best] - per_class[int(order[1])])), 3)
    return NumeralGuess(None if best == NOT_FLAT else best, confidence)


def axes_guess(table: NDArray[np.float64]) -> NumeralGuess:
    """The reading of a face cut out in a few turns (turns × classes), one of them upright: each numeral at its
    best turn. The confidence is that reading's probability less the best probability any other class gets in
    any turn (a 6 read upside down is a 9: both turns are seen, and the margin tells how sure the choice is)."""
    return _guess(table.max(axis=0), table)


def scan_guess(table: NDArray[np.float64]) -> NumeralGuess:
    """The reading of a face cut out all round (``SCAN_TURNS`` × classes): each numeral by its mean over the
    ``SCAN_WINDOW`` neighbouring turns where it holds best. A numeral seen in one turn alone (a 5 upside down
    taken for a 0 once) weighs a third; one upright over the neighbouring turns weighs fully."""
    n = table.shape[0]
    window = sum(np.roll(table, -k, axis=0) for k in range(SCAN_WINDOW)) / SCAN_WINDOW
    assert n == len(SCAN_TURNS)
    return _guess(np.asarray(window, np.float64).max(axis=0), table)


def model_paths() -> list[Path]:
    """The shipped networks' files."""
    return [Path(str(resources.files("vision.dice").joinpath(name))) for name in MODEL_NAMES]


def load_numerals(paths: Sequence[Path] | None = None) -> NumeralReader | None:
    """The shipped networks, or those at ``paths``, read together (None, with a warning, when one is missing: d10s
    are then never read)."""
    targets = list(paths) if paths else model_paths()
    missing = [str(t) for t in targets if not t.is_file()]
    if missing:
        log.warning("no d10 numeral model at %s: d10s will be asked, not read (rebuild it with "
                    "'python -m vision.dice.train_numerals')", ", ".join(missing))
        return None
    return NumeralReader([cv2.dnn.readNetFromONNX(str(t)) for t in targets])
