"""Dice merged into one blob, told apart by the top faces found in it.

Seen from an angle, a die's sides hang below its top face, towards the point under the camera (the nadir),
and a die standing behind another makes one blob with it. A flat die's top face is never hidden by another
flat die (the camera looks down on both, and no die stands higher than its top face), so each die in the
blob has its top face there; the rest of the die lies within its *reach*: the top face's place grown by
as far as any corner of a d6 or d10 lies from its top face's centre, swept towards the nadir by as far as
a die's foot appears from its top face (:func:`vision.dice.top_face.sweep_mm`). The reach does not depend on
the die's kind, so it cannot bias the kind its outline gives.

A die's own part of the blob is what lies in its reach. Where two dice's reaches meet, a pixel may be
either's (the near die in front of the far die's side): such *shared* pixels count neither for nor against
an outline fitted to either die (:func:`vision.dice.outline.outline_of` with ``shared``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.parts import parts
from vision.dice.segment import Blob
from vision.dice.top_face import TopFace, sweep_mm

Mask = NDArray[np.uint8]
# No corner of a flat d6 (11.3 mm) or d10 (12.2 mm) lies farther than this from its top face's centre (across),
# with room for a top face found a little off (the picture's blur, a side's edge taken for the top's).
REACH_MM = 13.5
SWEEP_ROOM_MM = 1.5  # a die's foot is found this much farther towards the nadir at most (blur, the d10's shape)
# A part of a merged blob this big that no found top face's reach accounts for is another die's, its top lost (a near
# d10's kite taken away with its sides, a dark top between lit ones). At 55° and 65°, bench/dice.py's 225 throws and as
# many of other seeds each: such parts of 149–715 mm² where a die was left out (26 of 30; 17–108 mm² for the others),
# 102 mm² at the most where none was.
LEFT_OUT_MM2 = 120.0
HALF_DEPTH_MM = 8.0  # a flat die's top centre lies this far from its far edge, its foot this far past the sweep


@dataclass(frozen=True, slots=True)
class Part:
    """One die's share of a blob: its own pixels (as a blob of the same box) and those it may share with others."""

    blob: Blob
    shared: Mask | None  # 1 where another die's reach meets this one's (None: the blob holds no other die)


def reach(blob: Blob, face: TopFace, px_per_mm: float, margin_mm: float, nadir_mm: tuple[float, float],
          camera_height_mm: float, plane_mm: float) -> NDArray[np.bool_]:
    """Where in ``blob``'s box the die with this top face may show (on the plane ``plane_mm`` of the top faces,
    rectified at ``px_per_mm`` with ``margin_mm`` around the area): within ``REACH_MM`` of a point of the segment
    from its top face's centre towards the nadir, as long as its foot's sweep."""
    x0, y0, w, h = blob.box
    xs = (np.arange(w) + x0 + 0.5) / px_per_mm - margin_mm
    ys = (np.arange(h) + y0 + 0.5) / px_per_mm - margin_mm
    gx, gy = np.meshgrid(xs, ys)
    cx, cy = face.centre_mm
    dx, dy = nadir_mm[0] - cx, nadir_mm[1] - cy
    r = math.hypot(dx, dy)
    length = sweep_mm(r, plane_mm, camera_height_mm) + SWEEP_ROOM_MM
    ux, uy = (dx / r, dy / r) if r > 1e-6 else (0.0, 0.0)
    along = np.clip((gx - cx) * ux + (gy - cy) * uy, 0.0, length)
    across = np.hypot(gx - (cx + along * ux), gy - (cy + along * uy))
    return np.asarray(across <= REACH_MM, np.bool_)


def part_of(blob: Blob, face: TopFace, others: tuple[TopFace, ...], px_per_mm: float, margin_mm: float,
            nadir_mm: tuple[float, float], camera_height_mm: float, plane_mm: float) -> Part:
    """The part of ``blob`` that is the die with top face ``face``, the blob's other dice having top faces
    ``others``: the blob within its reach; the pixels within another's reach as well are shared."""
    if not others:
        return Part(blob, None)
    mine = reach(blob, face, px_per_mm, margin_mm, nadir_mm, camera_height_mm, plane_mm)
    theirs = np.zeros(mine.shape, np.bool_)
    for other in others:
        theirs |= reach(blob, other, px_per_mm, margin_mm, nadir_mm, camera_height_mm, plane_mm)
    inside = blob.mask > 0
    own = inside & mine
    mask = np.where(own, 255, 0).astype(np.uint8)
    area = float(np.count_nonzero(own)) / px_per_mm ** 2
    shared = (own & theirs).astype(np.uint8)
    return Part(Blob(mask, blob.box, face.centre_mm, area, blob.touches_edge, blob.touches_unknown, blob.open_sides),
                shared)


def left_out(blob: Blob, faces: list[TopFace], px_per_mm: float, margin_mm: float, nadir_mm: tuple[float, float],
             camera_height_mm: float, plane_mm: float) -> TopFace | None:
    """The top face of a die in ``blob`` that none of the top ``faces`` found there accounts for (None: none is
    left out): the biggest part of the blob out of their reaches, when ``LEFT_OUT_MM2`` at least. Its top is placed
    from that part's ends along the line from the nadir, as a flat die's body lies there (its top's far edge at the
    far end, its foot a sweep nearer), from the end no other die's reach cuts off; ``placed`` (no size, no
    outline: its reading comes from its outline, fitted to its own part of the blob)."""
    cover = _reaches_drawn(blob, faces, px_per_mm, margin_mm, nadir_mm, camera_height_mm, plane_mm)
    inside = blob.mask > 0
    rest = np.asarray(cv2.morphologyEx((inside & ~cover).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                      np.uint8)
    count, labels, stats, _c = parts(rest)
    if count < 2:
        return None
    label = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[label, cv2.CC_STAT_AREA] < LEFT_OUT_MM2 * px_per_mm ** 2:
        return None
    part = labels == label
    x0, y0 = blob.box[0], blob.box[1]
    rows, cols = np.nonzero(part)
    xs = (cols + x0 + 0.5) / px_per_mm - margin_mm
    ys = (rows + y0 + 0.5) / px_per_mm - margin_mm
    cx, cy = float(xs.mean()), float(ys.mean())
    r = math.hypot(cx - nadir_mm[0], cy - nadir_mm[1])
    if r < 1e-6:
        return None
    ux, uy = (cx - nadir_mm[0]) / r, (cy - nadir_mm[1]) / r
    along = (xs - nadir_mm[0]) * ux + (ys - nadir_mm[1]) * uy
    near, far = float(along.min()), float(along.max())
    from_foot = near + sweep_mm(r, plane_mm, camera_height_mm) + HALF_DEPTH_MM
    from_top = far - HALF_DEPTH_MM
    # Another die's reach beyond the part (farther from the nadir) hides this die's top: placed from its foot.
    edge = (cv2.dilate(part.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0) & cover & inside
    if edge.any():
        er, ec = np.nonzero(edge)
        e_along = ((ec + x0 + 0.5) / px_per_mm - margin_mm - nadir_mm[0]) * ux + (
            (er + y0 + 0.5) / px_per_mm - margin_mm - nadir_mm[1]) * uy
        cut_far = float(e_along.mean()) > float(along.mean())
    else:
        cut_far = False
    at = max(from_foot, from_top) if cut_far else min(from_foot, from_top)
    lateral = float(((xs - nadir_mm[0]) * -uy + (ys - nadir_mm[1]) * ux).mean())
    centre = (nadir_mm[0] + at * ux - lateral * uy, nadir_mm[1] + at * uy + lateral * ux)
    return TopFace(centre, 0.0, (0.0, 0.0), 0.0, 0.0, (ux, uy), placed=True)


def _reaches_drawn(blob: Blob, faces: list[TopFace], px_per_mm: float, margin_mm: float, nadir_mm: tuple[float, float],
                   camera_height_mm: float, plane_mm: float) -> NDArray[np.bool_]:
    """The union of the faces' :func:`reach` in ``blob``'s box, drawn as round-ended thick lines: the same shape but
    for a pixel at its rim (2 % of its pixels), at a fraction of the cost (every frame of dice moving pays for it)."""
    x0, y0, _w, _h = blob.box
    cover = np.zeros(blob.mask.shape, np.uint8)
    scale = 16  # cv2's sub-pixel shift of 4 bits
    for face in faces:
        cx, cy = face.centre_mm
        dx, dy = nadir_mm[0] - cx, nadir_mm[1] - cy
        r = math.hypot(dx, dy)
        length = sweep_mm(r, plane_mm, camera_height_mm) + SWEEP_ROOM_MM
        ux, uy = (dx / r, dy / r) if r > 1e-6 else (0.0, 0.0)
        start = ((cx + margin_mm) * px_per_mm - 0.5 - x0, (cy + margin_mm) * px_per_mm - 0.5 - y0)
        end = (start[0] + ux * length * px_per_mm, start[1] + uy * length * px_per_mm)
        ends = [(round(x * scale), round(y * scale)) for x, y in (start, end)]
        cv2.line(cover, ends[0], ends[1], 1, round(2 * REACH_MM * px_per_mm), cv2.LINE_8, 4)
    return np.asarray(cover > 0, np.bool_)


# A flat die's foot lies at most this far from its top face's centre (a d10's corner, 12.2 mm; a d6's 11.3 mm), and a
# top face found in a blob a millimetre off (blur): two dice one behind the other make one blob only when the near
# die's top reaches the far die's foot, so their top faces' centres lie at most a sweep (the far die's) and twice this
# apart along the line from the nadir. Farther apart, in one blob, a third die stands between them, its top lost. At
# 65° (tray camera at 420 mm), in-line pairs of tops in one blob, 225 throws of seed 8000 (kept apart) and 225 of
# bench/dice.py's: two dice alone came at most 56.5 and 56.1 mm apart, 5.3 mm under this bound; each pair over it had a
# third die between (its top found in 4, lost in 3: a black, a blue or a yellow top in front of the far die's side);
# two lost middles lay under it (59.7 and 61.8 mm, bounds 62.3 and 62.2) and are still missed.
FOOT_REACH_MM = 12.2 + 1.0
IN_LINE_MM = 20.0  # … a third die lies between two tops this close to one line (the lost middles: 1.1–10.5 mm across)
BEHIND_NEAR_MM = 28.0  # its top, placed this far behind the near die's (the lost middles lay 25.5–30.6 mm behind)


def lost_between(faces: list[TopFace], nadir_mm: tuple[float, float], camera_height_mm: float, plane_mm: float
                 ) -> TopFace | None:
    """The top face of a die standing between two of a blob's top ``faces`` found in its pixels, one behind the other
    (no other top between them), farther apart than one die's body bridges (``FOOT_REACH_MM``), or None; placed
    ``BEHIND_NEAR_MM`` behind the near one on the line between them (``placed``: its reading comes from its outline,
    fitted to its own part of the blob)."""
    order = sorted(faces, key=lambda f: math.dist(f.centre_mm, nadir_mm))  # the nearest to the nadir first
    found = [f for f in order if not f.placed]  # a placed top may lie mm off: only tops found in the pixels bound one
    for i, near in enumerate(found):
        for far in found[i + 1:]:
            r = math.dist(far.centre_mm, nadir_mm)
            ux, uy = (far.centre_mm[0] - nadir_mm[0]) / r, (far.centre_mm[1] - nadir_mm[1]) / r
            dx, dy = far.centre_mm[0] - near.centre_mm[0], far.centre_mm[1] - near.centre_mm[1]
            apart, across = dx * ux + dy * uy, -dx * uy + dy * ux
            if abs(across) > IN_LINE_MM or apart <= sweep_mm(r, plane_mm, camera_height_mm) + 2 * FOOT_REACH_MM:
                continue
            if any(0.0 < (f.centre_mm[0] - near.centre_mm[0]) * ux + (f.centre_mm[1] - near.centre_mm[1]) * uy < apart
                   for f in order if f is not near and f is not far):
                continue
            t = BEHIND_NEAR_MM / math.hypot(dx, dy)
            centre = (near.centre_mm[0] + t * dx, near.centre_mm[1] + t * dy)
            return TopFace(centre, 0.0, (0.0, 0.0), 0.0, 0.0, (ux, uy), placed=True)
    return None
