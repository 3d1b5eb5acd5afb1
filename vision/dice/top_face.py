"""A die's top face inside its blob: what remains when the die's sides are taken away.

Rectified on the plane of the top faces, a flat die shows its top face at its true place and size; its
sides and foot appear pushed towards the point under the camera (the nadir), by ``L = r·h/H`` for a
die ``r`` mm from the nadir, ``h`` high, under a camera ``H`` above the mat. So the blob is the top face
swept by ``L`` towards the nadir, and eroding it by that segment (pointing the other way) gives back the
top face — exactly for a cube, roughly for a d10, whose widest part is below its top face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.faces import D6_SIDE_MM
from vision.dice.parts import Parts, parts
from vision.dice.segment import Blob

Mask = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class TopFace:
    """The top face's estimate, in tray mm: centre, the direction of one side, the sides' lengths, how square."""

    centre_mm: tuple[float, float]
    angle_deg: float  # a side's direction in the tray frame, modulo 90 for a square
    sides_mm: tuple[float, float]
    fill: float  # area / the fitted rectangle's area (1 for a square face)
    area_mm2: float
    away: tuple[float, float]  # unit vector from the nadir towards the die, in the tray frame
    placed: bool = False  # not found in the pixels: placed where a die no found top accounts for stands

    def squareness(self) -> float:
        a, b = self.sides_mm
        return min(a, b) / max(a, b, 1e-6)


def sweep_mm(distance_mm: float, die_height_mm: float, camera_height_mm: float) -> float:
    """How far the die's foot appears from its top face on the top faces' plane, towards the nadir."""
    return distance_mm * die_height_mm / max(camera_height_mm, die_height_mm + 1.0)


TWO_DICE_GAP_MM = 8.0  # between two top faces one behind the other, at the least (the far die's side shows)
LONGEST_TOP = 1.45  # no top face (with the picture's blur) is longer than this many d6 sides
MIN_FACE_MM2 = 90.0  # a top face is at least this big (a d10's kite is about 130 mm², a d6's 256)
APART_TOPS = 1.3  # top faces (centres) this many sides apart are two dice's, not one ragged top's pieces
NECK = np.ones((3, 3), np.uint8)  # at 2 px/mm: two top faces joined by less than 1.5 mm are cut apart
# A part left of a blob (its sides taken away) whose lit split gives no two tops is kept as its two ends, a top's length
# each, when it is this many top sides long along the line from the nadir: the ends' centres then lie APART_TOPS sides
# apart, as two dice's tops do (shorter, it is left whole: one die's ragged top, or dice too close to tell, asked as
# touching). No top face is longer than LONGEST_TOP sides. It was two sides and TWO_DICE_GAP_MM (40 mm): at 65°, in
# bench/dice.py's 225 throws and 225 of seed 8000 (kept apart), parts of 36.8–40 mm came three times: 39.6 mm, two d10s
# one behind the other taken for one die with a 39.7 mm top and asked (both now read right), and 37.9 and 38.4 mm, a
# d6's top joined to another die's side, read right before and after (its top now found 2.8 and 0.2 mm off the true
# one, not 8.2 and 11.5).
TWO_ENDS_TOPS = 1.0 + APART_TOPS
PIP_HOLE_MM2 = 30.0  # a hole in a blob up to this big is the die's own: pips of the mat's colour (white on paper)


def top_face(blob: Blob, px_per_mm: float, margin_mm: float, nadir_mm: tuple[float, float],
             camera_height_mm: float, die_height_mm: float) -> TopFace | None:
    """The top face of the die that made ``blob`` (None when nothing is left after taking the sides away)."""
    faces = top_faces(blob, px_per_mm, margin_mm, nadir_mm, camera_height_mm, die_height_mm)
    return faces[0] if faces else None


def top_faces(blob: Blob, px_per_mm: float, margin_mm: float, nadir_mm: tuple[float, float],
              camera_height_mm: float, die_height_mm: float, gray: NDArray[np.uint8] | None = None,
              face_mm: float = D6_SIDE_MM) -> list[TopFace]:
    """Every top face in ``blob``, largest first: seen from an angle, a die standing behind another makes
    one blob with it, but their top faces stay apart once the sides are taken away (and, where the near
    die's top face meets the far die's side, by their light: ``gray``, the blob's box of the rectified tray)."""
    cx, cy = blob.centroid_mm
    dx, dy = cx - nadir_mm[0], cy - nadir_mm[1]
    r = math.hypot(dx, dy)
    ux, uy = (dx / r, dy / r) if r > 1e-6 else (0.0, 1.0)
    length_px = sweep_mm(r, die_height_mm, camera_height_mm) * px_per_mm
    mask = _pips_filled(blob.mask, PIP_HOLE_MM2 * px_per_mm ** 2)  # swept, a pip's hole would cut its top face apart
    eroded = swept_away(mask, (ux, uy), length_px, blob.open_sides)
    components = parts(eroded)  # labelled once for each step that leaves the parts as they were
    if gray is not None:
        cut = _necks_cut(eroded, px_per_mm, face_mm, components)
        if cut is not eroded:
            components = parts(cut)
        eroded = _lit_tops(cut, gray, px_per_mm, face_mm, (ux, uy), components)
        if eroded is not cut:
            components = parts(eroded)
    count, labels, stats, _centroids = components
    order = sorted(range(1, count), key=lambda k: -int(stats[k, cv2.CC_STAT_AREA]))
    faces = []
    for rank, label in enumerate(order):
        area_px = float(stats[label, cv2.CC_STAT_AREA])
        if rank > 0 and area_px / px_per_mm ** 2 < MIN_FACE_MM2:
            break
        face = _face((labels == label).astype(np.uint8), area_px, blob, px_per_mm, margin_mm, (ux, uy))
        if face is not None:
            faces.append(face)
    return faces


def swept_away(mask: Mask, away: tuple[float, float], length_px: float,
               open_sides: tuple[bool, bool, bool, bool] = (False, False, False, False)) -> Mask:
    """``mask`` (a blob's box) eroded by a segment ``length_px`` long towards the nadir (``away``: from the nadir):
    its pixels whose segment towards the nadir lies in it. ``open_sides`` (left, top, right, bottom): the box's
    sides where the blob runs out of the rectified area, beyond which the die goes on unseen (its sides, towards the
    nadir)."""
    if length_px < 1.0:
        return mask
    ux, uy = away
    reach = math.ceil(length_px)
    size = 2 * reach + 1
    kernel = np.zeros((size, size), np.uint8)
    # dst(p) = min over the kernel of src(p + k − anchor): offsets from 0 to −L·u (towards the nadir).
    cv2.line(kernel, (reach, reach), (round(reach - ux * length_px), round(reach - uy * length_px)), 1, 1)
    # The kernel cut to the line (the same offsets), and the box padded only on the sides they reach: the erosion
    # reads nothing beyond (a third to a half of the pixels of a box padded all round, from an angle).
    kx, ky, kw, kh = cv2.boundingRect(kernel)
    kernel = np.ascontiguousarray(kernel[ky:ky + kh, kx:kx + kw])
    pad_left, pad_top = reach - kx, reach - ky
    pad_right, pad_bottom = kw - 1 - pad_left, kh - 1 - pad_top
    padded = cv2.copyMakeBorder(mask, pad_top, pad_bottom, pad_left, pad_right, cv2.BORDER_CONSTANT, value=0)
    left, top, right, bottom = open_sides
    if left and pad_left:
        padded[:, :pad_left] = 255
    if top and pad_top:
        padded[:pad_top, :] = 255
    if right and pad_right:
        padded[:, -pad_right:] = 255
    if bottom and pad_bottom:
        padded[-pad_bottom:, :] = 255
    rows, cols = mask.shape
    eroded = cv2.erode(padded, kernel, anchor=(pad_left, pad_top))
    return np.ascontiguousarray(eroded[pad_top:pad_top + rows, pad_left:pad_left + cols])


def _pips_filled(mask: Mask, most_px: float) -> Mask:
    """``mask`` with its holes of at most ``most_px`` pixels filled (the blob's box's border is outside it)."""
    # What is not the blob and reaches the box's border is its outside: flooded from a frame round the box, what
    # is left are the holes inside the blob (most blobs have none).
    framed = cv2.copyMakeBorder(cv2.bitwise_not(mask), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    cv2.floodFill(framed, None, (0, 0), 0, flags=4)
    holes = np.ascontiguousarray(framed[1:-1, 1:-1])
    out = mask.copy()
    if not cv2.countNonZero(holes):
        return out
    # The holes' areas counted from their labels: OpenCV's 4-connected labelling gathers its stats at eight times
    # the cost of its labels alone.
    labels = np.asarray(cv2.connectedComponents(holes, connectivity=4)[1], np.int32)
    filled = np.bincount(labels.reshape(-1)) <= most_px
    filled[0] = False  # the background: the blob itself and its outside
    if filled.any():
        out[filled[labels]] = 255
    return out


def _necks_cut(eroded: Mask, px_per_mm: float, face_mm: float, components: Parts) -> Mask:
    """Cut what is left of a blob where two top faces touch by a pixel or two only (a near die's corner on the far
    die's side, swept): taken whole, the part is longer than a top face, and a dark top in it may be lost to the
    lit split. Cut only where the pieces are top faces apart (``APART_TOPS`` sides, centres): a ragged top cut in
    two by its pips stays whole. ``components``: ``eroded``'s parts (:func:`parts`); ``eroded`` itself is
    returned when nothing is cut."""
    count, labels, stats, _c = components
    out = eroded
    min_px = MIN_FACE_MM2 * px_per_mm ** 2
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < 2 * min_px:
            continue
        x, y, w, h = (int(v) for v in stats[label, :4])
        part = (labels[y:y + h, x:x + w] == label).astype(np.uint8)
        opened = np.asarray(cv2.morphologyEx(part, cv2.MORPH_OPEN, NECK), np.uint8)
        pieces, _l, piece_stats, centres = parts(opened)
        big = [centres[k] for k in range(1, pieces) if piece_stats[k, cv2.CC_STAT_AREA] >= min_px]
        if len(big) < 2 or any(math.dist(a, b) < APART_TOPS * face_mm * px_per_mm
                               for i, a in enumerate(big) for b in big[i + 1:]):
            continue
        if out is eroded:
            out = eroded.copy()
        out[y:y + h, x:x + w][(part > 0) & (opened == 0)] = 0
    return out


def _lit_tops(eroded: Mask, gray: NDArray[np.uint8], px_per_mm: float, face_mm: float,
              away: tuple[float, float], components: Parts) -> Mask:
    """Split what is left of a blob where it is longer than any top face: dice standing one behind the other
    leave the near die's top face joined to the far die's side. The lamp lights the top faces more than the
    sides, so the brighter pixels of such a part (Otsu's split) are the top faces; when that leaves one
    piece (a dark die's top is no brighter than a light die's side), a part long enough for two top faces
    apart (``TWO_ENDS_TOPS``) keeps its two ends, a top face's length each, along the line from the nadir. The far end
    is a top face in any case (nothing stands beyond the farthest die to hide it): a dark die's top there, which
    no lit piece covers, is kept too. ``components``: ``eroded``'s parts (:func:`parts`); ``eroded`` itself is
    returned when no part is split."""
    count, labels, stats, _c = components
    out = eroded
    min_px = MIN_FACE_MM2 * px_per_mm ** 2
    longest = LONGEST_TOP * face_mm * px_per_mm
    for label in range(1, count):
        x, y, w, h = (int(v) for v in stats[label, :4])
        # No side of the smallest rectangle round the part is longer than the diagonal of its box through the pixels'
        # centres (most parts are one top face, square to the tray's axes or near): no need to fit it then.
        if math.hypot(w - 1, h - 1) + 1.0 + 1e-3 <= longest:
            continue
        part = labels[y:y + h, x:x + w] == label
        contours, _h = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_cx, _cy), (rw, rh), _a = cv2.minAreaRect(contours[0])
        if max(rw, rh) + 1.0 <= longest:
            continue
        values = gray[y:y + h, x:x + w][part]
        level, _t = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        lit = part & (gray[y:y + h, x:x + w] > level)
        lit = cv2.morphologyEx(lit.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
        pieces, piece_labels, piece_stats, _pc = parts(lit.astype(np.uint8))
        along = (np.arange(w) * away[0])[None, :] + (np.arange(h) * away[1])[:, None]  # how far from the nadir
        top = face_mm * px_per_mm
        far_end = part & (along >= float(along[part].max()) - top)
        big = [k for k in range(1, pieces) if piece_stats[k, cv2.CC_STAT_AREA] >= min_px]
        if len(big) < 2:
            reach = float(along[part].max()) - float(along[part].min())
            if reach >= TWO_ENDS_TOPS * face_mm * px_per_mm:
                lit = far_end | (part & (along <= float(along[part].min()) + top))
            else:
                continue  # one die's top and side, or dice too close to tell: leave it whole
        else:
            if not any(np.any((piece_labels == k) & far_end) for k in big):
                # The far end is always a top face (nothing stands beyond the farthest die to hide it), however dark:
                # a red die's top is darker than a white die's side, and Otsu's split may leave it out.
                lit = lit | far_end
            near_end = part & (along <= float(along[part].min()) + top)
            if (float(along[part].max()) - float(along[part].min()) >= (2.0 * face_mm + TWO_DICE_GAP_MM) * px_per_mm
                    and not any(np.any((piece_labels == k) & near_end) for k in big)):
                # So is the near end of a part that long: the nearest die's top (its sides are taken away), a blue
                # top in front of a white die's lit side.
                lit = lit | near_end
        if out is eroded:
            out = eroded.copy()
        window = out[y:y + h, x:x + w]
        window[part & ~lit] = 0
    return out


def _face(part: Mask, area_px: float, blob: Blob, px_per_mm: float, margin_mm: float,
          away: tuple[float, float]) -> TopFace | None:
    contours, _h = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    (rx, ry), (rw, rh), angle = cv2.minAreaRect(contours[0])
    x0, y0 = blob.box[0], blob.box[1]
    centre = ((x0 + rx + 0.5) / px_per_mm - margin_mm, (y0 + ry + 0.5) / px_per_mm - margin_mm)
    # minAreaRect's box is through pixel centres: one pixel short of the face's width.
    sides = ((rw + 1.0) / px_per_mm, (rh + 1.0) / px_per_mm)
    fill = area_px / max((rw + 1.0) * (rh + 1.0), 1.0)
    return TopFace(centre, float(angle), sides, min(fill, 1.0), area_px / px_per_mm ** 2, away)
