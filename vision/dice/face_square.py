"""A d6's top face found in the pixels around it: the die told from its surroundings, its face fitted as a square.

The blob of not-mat colour that finds a die (:mod:`vision.dice.segment`) is a coarse outline: on a real table it
takes in the die's shadow, the mat's light gradient and a touching neighbour, it loses a pale die's pixels near
a grey mat, and the pips are holes in it. Here, in a patch seen straight from above around that blob:

* the mat's colour is the patch's border (a die is smaller than the patch); a pixel is the die's when its
  colour is far from the mat's — except a *shadow*: darker than the mat by at most ``SHADOW_DEPTH`` and of
  the mat's own tint (a shadow dims the mat's colour; it does not change it), and a pale die is told from a
  grey mat by being brighter (its lit top face) as well;
* the die is the part of that nearest the patch's middle, its holes (pips) filled, thin bridges (to a
  neighbour, a shadow's rim) opened away at a third of a die's side; its deepest point near the patch's middle
  is inside its top face;
* the top face is the region of the body colour around that point (its pips and highlights filled in), taken
  ever closer to that colour (``BODY_STEPS``) — a phone close above sees a side or two of the same colour,
  which the lamp lights less — and the smallest that is a face: the rectangle of least area around its
  convex hull (so rounded corners and pip holes do not matter) of a face's size, square, and filled.
  Where none is, the top runs into a side of its colour, and each region is cut along the edges in the patch
  (the die's top turns down there) before it is looked at again.

Everything is relative to the die's expected side, so the same code finds a 12 mm die and a 19 mm one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.channels import channel_median, channel_sum
from vision.dice.faces import D6_SIDE_MM
from vision.dice.pale_mat import edges_at_scale, outlined_at_scale, pale_grey
from vision.dice.parts import parts

Image = NDArray[np.uint8]
Mask = NDArray[np.uint8]
SIDE_RANGE = (0.55, 1.3)  # a d6's top face measures this share of the expected side (dice come in sizes)
MIN_SQUARENESS = 0.86  # short side / long side of the fitted rectangle
MIN_FILL = 0.82  # the face's area (holes filled) / its rectangle's: a square with rounded corners fills ~0.95
COLOUR_STEP = 0.3  # colour distance (sum over B, G, R) from the mat, as a share of the mat's brightness
BRIGHTER = 0.12  # … or brighter than the mat by this share (a white die on a pale grey mat)
SHADOW_DEPTH = 0.55  # a shadow keeps at least this share of the mat's brightness
SHADOW_TINT = 0.06  # … and its chromaticity (B, G, R over their sum) within this of the mat's
BODY_STEPS = (0.4, 0.3, 0.22, 0.15, 0.1)  # the face's body colour, ever closer, until its outline is a square
BORDER_SHARE = 0.08  # the patch's outer band that gives the mat's colour
SEED_REACH = 0.3  # the face's body colour is taken this many sides at most from the patch's middle
# On a pale grey mat a pale die's top is found by its outline (:func:`vision.dice.pale_mat.outlined_at_scale`): the
# part about as light as the mat or lighter, which leaves out the shaded side of a top lit from one side (a ragged
# square, 0.74–0.82 of its rectangle on *train* photos of bench/dice_real.py).
PALE_MIN_FILL = 0.74
# … on a mat it lies on: at least this share of the patch's rim is of the mat's colour. Seen from a tray camera at 65°,
# a white die on the felt has the paper band behind it, pale grey over 0.61 of its rim, the felt below, and its top
# found so came out no face (bench/dice.py's 65°, throw 163: a 4 read before the step, asked with it); the photos'
# pale dice on the grey card found so have 0.78–0.99 of theirs.
PALE_MAT_RIM = 0.7
# Where no region of the body colour is a face, the top and a side of its colour showing beyond it (a phone close above
# a die) are told apart by the edge between them (the top turns down there, and the lamp lights it less): each region
# is cut along the edges of the patch (:func:`vision.dice.pale_mat.edges_at_scale`, widened by ``EDGE_CUT_MM``), gaps
# in them narrower than ``EDGE_GAP`` sides opened away. On *train* photos of bench/dice_real.py, more dice read right
# (net): 0 → 4 (a gap in the edge joins the side again), 0.15 → 11, 0.25 → 12; 0 wrong at each.
EDGE_CUT_MM = 0.5
EDGE_GAP = 0.25


@dataclass(frozen=True, slots=True)
class FaceSquare:
    """The top face found in a patch: centre (pixels), a side's direction (degrees), sides (pixels)."""

    centre_px: tuple[float, float]
    angle_deg: float
    sides_px: tuple[float, float]
    fill: float

    @property
    def side_px(self) -> float:
        return (self.sides_px[0] + self.sides_px[1]) / 2.0

    def squareness(self) -> float:
        a, b = self.sides_px
        return min(a, b) / max(a, b, 1e-6)


def shadow_mask(image: NDArray[np.uint8], mat: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which pixels of ``image`` (B, G, R along the last axis) look like the mat's colour ``mat`` in a shadow:
    darker by at most ``SHADOW_DEPTH``, of the mat's own tint."""
    pixels = image.astype(np.float32)
    brightness = channel_sum(pixels)
    mat_brightness = max(float(mat.sum()), 24.0)
    dim = np.asarray((brightness < mat_brightness) & (brightness >= SHADOW_DEPTH * mat_brightness), np.bool_)
    at = np.flatnonzero(dim)  # the tint only where dim enough (most of a die is not)
    # Channel by channel, as the pixels' rows against the mat's tint would do it, without numpy's slow short last axis.
    channels = pixels.reshape(-1, pixels.shape[-1])
    dim_brightness = np.maximum(brightness.reshape(-1)[at], 1.0)
    mat_tint = (mat / mat_brightness).astype(np.float32)
    tint_off = np.abs(channels[at, 0] / dim_brightness - mat_tint[0])  # summed over B, G, R in that order
    tint_off += np.abs(channels[at, 1] / dim_brightness - mat_tint[1])
    tint_off += np.abs(channels[at, 2] / dim_brightness - mat_tint[2])
    dim.reshape(-1)[at] = tint_off <= SHADOW_TINT
    return dim


def _rim(patch: Image) -> NDArray[np.uint8]:
    """The pixels (B, G, R rows) of ``patch``'s border band, ``BORDER_SHARE`` of its side wide."""
    n = patch.shape[0]
    band = max(2, round(n * BORDER_SHARE))
    ring = np.ones(patch.shape[:2], bool)
    ring[band:-band, band:-band] = False
    return np.asarray(patch[ring].reshape(-1, 3), np.uint8)


def mat_colour(patch: Image) -> NDArray[np.float64]:
    """The mat's colour (B, G, R) around a die: the median of ``patch``'s border band."""
    return channel_median(_rim(patch))


def _on_the_mat(rim: NDArray[np.uint8], mat: NDArray[np.float64]) -> bool:
    """Whether the die lies on the mat of colour ``mat`` all round: ``PALE_MAT_RIM`` of its patch's border band
    (``rim``, :func:`_rim`) within ``COLOUR_STEP`` of it (a die seen against a band of it behind has another colour
    below)."""
    distance = channel_sum(np.abs(rim.astype(np.float32) - mat.astype(np.float32)))
    return float(np.mean(distance < COLOUR_STEP * max(float(mat.sum()), 24.0))) >= PALE_MAT_RIM


def die_mask(patch: Image, mat: NDArray[np.float64] | None = None) -> Mask:
    """The pixels of ``patch`` that are no mat and no shadow on it (255), the mat's colour ``mat`` (B, G, R; by
    default from the border)."""
    if mat is None:
        mat = mat_colour(patch)
    pixels = patch.astype(np.float32)
    brightness = channel_sum(pixels)
    mat_brightness = max(float(mat.sum()), 24.0)
    distance = channel_sum(np.abs(pixels - mat.astype(np.float32)))
    die = (((distance > COLOUR_STEP * mat_brightness) & ~shadow_mask(patch, mat))
           | (brightness > (1.0 + BRIGHTER) * mat_brightness))
    return np.asarray(die, np.uint8) * np.uint8(255)


def _fill_holes(mask: Mask) -> Mask:
    """``mask`` with every hole (a region not reachable from the border) filled."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    flood = padded.copy()
    cv2.floodFill(flood, None, (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    return np.asarray(cv2.bitwise_or(mask, holes), np.uint8)


def _solid(mask: Mask, close: NDArray[np.uint8], open_: NDArray[np.uint8]) -> Mask:
    """``mask`` closed with the kernel ``close`` (gaps and pips' rims bridged), its holes filled, and opened with
    ``open_`` (thin bridges and rims taken away).

    Worked out in the box around ``mask``'s pixels, widened by both kernels' reach: beyond it the mask is empty,
    and stays empty through each step (closing reaches one kernel's radius out, then erodes back; opening
    erodes first), so the box alone gives the same pixels as the whole patch, for a fraction of the cost.
    """
    out = np.zeros_like(mask)
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0 or h == 0:
        return out
    reach = close.shape[0] // 2 + open_.shape[0] // 2 + 1
    rows, cols = mask.shape
    x0, y0, x1, y1 = max(0, x - reach), max(0, y - reach), min(cols, x + w + reach), min(rows, y + h + reach)
    box = np.asarray(cv2.morphologyEx(mask[y0:y1, x0:x1], cv2.MORPH_CLOSE, close), np.uint8)
    box = _fill_holes(box)
    out[y0:y1, x0:x1] = np.asarray(cv2.morphologyEx(box, cv2.MORPH_OPEN, open_), np.uint8)
    return out


def _nearest_part(mask: Mask, min_px: float) -> Mask | None:
    """The connected part of ``mask`` covering (or, failing that, nearest to) the patch's middle."""
    count, labels, stats, centroids = parts(mask)
    n = mask.shape[0]
    c = n // 2
    best, best_d = 0, math.inf
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < min_px:
            continue
        d = 0.0 if labels[c, c] == label else math.dist(centroids[label], (c, c))
        if d < best_d:
            best, best_d = label, d
    if best == 0 or best_d > n / 4.0:
        return None
    return np.asarray(labels == best, np.uint8) * np.uint8(255)


def _disc(diameter_px: float) -> NDArray[np.uint8]:
    k = max(3, round(diameter_px) | 1)
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), np.uint8)


def _square_of(part: Mask, side_px: float, min_fill: float = MIN_FILL) -> FaceSquare | None:
    """The rectangle of least area around ``part``'s convex hull, when it is a d6 face's."""
    contours, _h = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    (x, y), (w, h), angle = cv2.minAreaRect(hull)
    w, h = w + 1.0, h + 1.0  # the rectangle runs through pixel centres
    area = float(np.count_nonzero(part))
    face = FaceSquare((float(x), float(y)), float(angle), (float(w), float(h)), min(1.0, area / max(w * h, 1.0)))
    low, high = SIDE_RANGE
    if not (low * side_px <= min(w, h) and max(w, h) <= high * side_px):
        return None
    if face.squareness() < MIN_SQUARENESS or face.fill < min_fill:
        return None
    return face


def _seed(part: Mask, side_px: float) -> tuple[int, int]:
    """The point deepest inside ``part`` (farthest from its outline) within ``SEED_REACH`` sides of the patch's
    middle, where the blob put the die: well inside the die's top face. Dice lying close merge in the patch's
    pixels (and their shadows with them), and the deepest point of them all may be a neighbour's; a part that
    does not come so near the middle gives its deepest point anywhere."""
    distance = cv2.distanceTransform(part, cv2.DIST_L2, 3)
    rows, cols = part.shape
    ys, xs = np.ogrid[0:rows, 0:cols]
    near = (xs - cols / 2.0) ** 2 + (ys - rows / 2.0) ** 2 <= (SEED_REACH * side_px) ** 2
    _lo, top, _lo_at, hi_at = cv2.minMaxLoc(np.where(near, distance, 0.0).astype(np.float32))
    if top <= 0.0:
        _lo, _top, _lo_at, hi_at = cv2.minMaxLoc(distance)
    return int(hi_at[0]), int(hi_at[1])


def _body_distance(patch: Image, seed: tuple[int, int], side_px: float) -> tuple[NDArray[np.float32], float]:
    """How far each pixel's colour is from the face's body colour (the median around ``seed``; summed over B, G,
    R), and that colour's brightness."""
    r = max(2, round(side_px * 0.35))
    x, y = seed
    body = channel_median(patch[max(0, y - r):y + r, max(0, x - r):x + r].reshape(-1, 3))
    return channel_sum(np.abs(patch.astype(np.float32) - body.astype(np.float32))), float(body.sum())


def _body_part(distance: NDArray[np.float32], brightness: float, seed: tuple[int, int], side_px: float, step: float
               ) -> Mask | None:
    """The pixels of the face's body colour (``distance`` from it within ``step`` of its ``brightness``) joined to
    ``seed``, the pips' holes filled, thin bridges opened away."""
    x, y = seed
    near = np.asarray(distance < max(step * brightness, 30.0), np.uint8) * np.uint8(255)
    near = _solid(near, _disc(side_px * 0.15), _disc(side_px * 0.3))
    _count, labels = cv2.connectedComponents(near, connectivity=8)
    if labels[y, x] == 0:
        return None
    return np.asarray(labels == labels[y, x], np.uint8) * np.uint8(255)


def find_face_square(patch: Image, side_px: float) -> FaceSquare | None:
    """The top face of the die near ``patch``'s middle (BGR, seen from above, a die's side about ``side_px``
    pixels; the patch some twice a side wide), or None when no flat square face is there."""
    rim = _rim(patch)
    mat = channel_median(rim)  # the mat's colour (:func:`mat_colour`)
    die = die_mask(patch, mat)
    best = _by_colour(patch, die, side_px)
    if best is None and pale_grey(mat) and _on_the_mat(rim, mat):
        best = _pale_top(patch, die, mat, side_px)
    return best


def _by_colour(patch: Image, die: Mask, side_px: float) -> FaceSquare | None:
    """The top face from the die's pixels told by colour (``die``) and its body colour's region."""
    mask = _solid(die, _disc(side_px * 0.15), _disc(side_px * 0.33))
    part = _nearest_part(mask, 0.3 * side_px * side_px)
    if part is None:
        return None
    seed = _seed(part, side_px)
    # The die's own outline is its face when little of its sides shows; else its body colour's region.
    distance, brightness = _body_distance(patch, seed, side_px)
    bodies = [part] + [_body_part(distance, brightness, seed, side_px, step) for step in BODY_STEPS]
    best = _smallest_square(bodies, side_px)
    if best is None:  # the top runs into a side of its colour: each region cut along the edges in it
        edges = np.asarray(cv2.dilate(edges_at_scale(patch, side_px / D6_SIDE_MM),
                                      _disc(EDGE_CUT_MM * side_px / D6_SIDE_MM)), np.uint8)
        best = _smallest_square([_cut_along(body, edges, side_px) if body is not None else None for body in bodies],
                                side_px)
    return best


def _smallest_square(bodies: list[Mask | None], side_px: float) -> FaceSquare | None:
    """The smallest of the regions ``bodies`` that is a d6's face (:func:`_square_of`), or None."""
    best = None
    for body in bodies:
        square = _square_of(body, side_px) if body is not None else None
        if square is not None and (best is None or square.side_px < best.side_px):
            best = square
    return best


def _cut_along(body: Mask, edges: Mask, side_px: float) -> Mask | None:
    """The part of ``body`` (a region of the face's body colour) that ``edges`` (255, an edge's width wide) bound
    around its deepest point near the patch's middle: the top, without a side of the same colour beyond the edge
    where the die's top turns down. A neck through a gap in that edge, narrower than ``EDGE_GAP`` sides, is opened
    away; the edge's own pixels are given back."""
    apart = np.asarray(cv2.bitwise_and(body, cv2.bitwise_not(edges)), np.uint8)
    cut = np.asarray(cv2.morphologyEx(_fill_holes(apart), cv2.MORPH_OPEN, _disc(side_px * EDGE_GAP)), np.uint8)
    if not cut.any():
        return None
    x, y = _seed(cut, side_px)
    _count, labels = cv2.connectedComponents(cut, connectivity=4)
    if labels[y, x] == 0:
        return None
    top = np.asarray(labels == labels[y, x], np.uint8) * np.uint8(255)
    width = _disc(EDGE_CUT_MM * side_px / D6_SIDE_MM)
    return _fill_holes(np.asarray(cv2.bitwise_and(cv2.dilate(top, width), body), np.uint8))


def _pale_top(patch: Image, die: Mask, mat: NDArray[np.float64], side_px: float) -> FaceSquare | None:
    """A pale die's top on a pale grey mat (``mat``, B, G, R), which its colour does not tell: the part about as light
    as the mat inside the outline nearest the patch's middle, square and filled as a top lit from one side is."""
    light = outlined_at_scale(patch, side_px / D6_SIDE_MM, die, mat)
    part = _nearest_part(light, 0.3 * side_px * side_px)
    return _square_of(part, side_px, PALE_MIN_FILL) if part is not None else None


def squared_face(patch: Image, face: FaceSquare, out_px: int) -> Image:
    """A patch of ``out_px`` pixels around ``face``, turned square to its sides, its face's side a fixed share
    of it (the same as a 16 mm face in a 22 mm patch), so that the pip count sees every face at one scale."""
    scale = out_px * (16.0 / 22.0) / face.side_px
    matrix = cv2.getRotationMatrix2D(face.centre_px, face.angle_deg, scale)
    matrix[0, 2] += out_px / 2.0 - face.centre_px[0]
    matrix[1, 2] += out_px / 2.0 - face.centre_px[1]
    return np.asarray(cv2.warpAffine(patch, matrix, (out_px, out_px), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)
