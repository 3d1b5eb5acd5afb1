"""Read the dice in every tray of a frame: the tray from its tags, the dice in it, their top faces.

Per frame and tray: the tray's pose from its tags (:mod:`vision.dice.tray_view`), its area rectified on
the plane of the dice's top faces, the dice as blobs of not-felt (:mod:`vision.dice.segment`), tracked
(:mod:`vision.dice.tracking`); a die is read once it has settled, and its reading is kept while it stays
put: a d6 by its pips (:mod:`vision.dice.pips`), a d10 by its numeral (:mod:`vision.dice.numerals`). A die
that cannot be read surely gets a doubt (:class:`engine.wire.DieDoubt`) instead of a value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from calibration.camera_model import CameraModel
from calibration.tray_spec import TraySpec, tray_spec
from engine.wire import DieDoubt, DieKind, DieSeen, TraySeen
from vision.detection import DetectedMarker
from vision.dice.face_square import FaceSquare, find_face_square, squared_face
from vision.dice.faces import D6_SIDE_MM, DIE_HEIGHT_MM
from vision.dice.numerals import PATCH_MM, PATCH_PX_PER_MM, TURN_DEG, NumeralReader, load_numerals
from vision.dice.pips import count_pips
from vision.dice.segment import Blob, find_blobs
from vision.dice.top_face import TopFace, sweep_mm, top_faces
from vision.dice.tracking import DiceTracker, DiceTrackerConfig, Sighting
from vision.dice.tray_view import Lens, TrayView, find_tray

Image = NDArray[np.uint8]
SEGMENT_PX_PER_MM = 2.0  # the whole tray, to find the dice
READ_PX_PER_MM = 6.0  # one die's top face, to read it
D6_PATCH_MM = 22.0  # the square cut around a d6's top face to count its pips
D6_AROUND_MM = 34.0  # the square cut around a die's blob to find its top face in (room for an outline off by mm)
TOP_PLANE_MM = 15.5  # between a d10's and a d6's top face: both read sharp enough
HAND_MM2 = 3000.0  # a patch this big is a hand (or a cup) in the tray, not dice
MIN_CONFIDENCE = 0.5  # below this a read face is a question, not an answer
# A numeral's confidence is a margin between two classes' probabilities, not a probability: on 5,400
# rendered dice (bench/dice.py) numerals read wrong had margins up to 0.75; none above 0.8.
MIN_D10_CONFIDENCE = 0.8
SQUARE_TOP = 0.85  # a flat die's top (short side / long side) is at least this square; a cocked die's is not
CLEAN_OUTLINE = 0.85  # an outline filling its rectangle this well is the die's own (no shadow, no lost edge)
FACE_OFF_OUTLINE_MM = 1.5  # a flat die's face lies this close to the middle of its clean outline (sides taken away)
SQUARE_D10_CONFIDENCE = 0.9  # a top as square as a d6's is taken for a d10 only when its numeral is surer


@dataclass(frozen=True, slots=True)
class DieReading:
    """What one die's top face says: kind, face (None when unread), confidence, doubt."""

    kind: DieKind
    value: int | None
    confidence: float
    doubt: DieDoubt | None


@dataclass
class _TrayState:
    spec: TraySpec
    tracker: DiceTracker
    view: TrayView | None = None
    visible: NDArray[np.uint8] | None = None
    faces: dict[int, TopFace | None] = field(default_factory=dict)


def visible_felt(view: TrayView, height_mm: float = TOP_PLANE_MM, px_per_mm: float = SEGMENT_PX_PER_MM
                 ) -> NDArray[np.uint8]:
    """The pixels of the rectified top-faces plane through which the camera sees the felt (255), the rest 0."""
    spec = view.spec
    cam = view.camera_mm
    w = math.ceil(spec.width_mm * px_per_mm)
    h = math.ceil(spec.height_mm * px_per_mm)
    xs = (np.arange(w) + 0.5) / px_per_mm
    ys = (np.arange(h) + 0.5) / px_per_mm
    gx, gy = np.meshgrid(xs, ys)
    k = height_mm / max(float(cam[2]) - height_mm, 1.0)
    fx, fy = gx + (gx - cam[0]) * k, gy + (gy - cam[1]) * k  # where the ray meets the mat
    b = spec.border_mm  # the felt goes on beyond the area
    inside = (fx >= -b) & (fx <= spec.width_mm + b) & (fy >= -b) & (fy <= spec.height_mm + b)
    return np.asarray(inside, np.uint8) * np.uint8(255)


def dice_in(blob: Blob, nadir: tuple[float, float], camera_height: float) -> int:
    """How many dice a blob holds, from its area against one upright cube's (dice touching make one blob)."""
    r = math.hypot(blob.centroid_mm[0] - nadir[0], blob.centroid_mm[1] - nadir[1])
    one = D6_SIDE_MM * D6_SIDE_MM + D6_SIDE_MM * 1.2 * sweep_mm(r, TOP_PLANE_MM, camera_height)
    return max(1, round(blob.area_mm2 / (one * 1.15)))


def locate_dice(image: Image, view: TrayView, visible: NDArray[np.uint8]
                ) -> tuple[list[tuple[Blob, TopFace | None, int]], bool]:
    """The dice in the tray (blob, top face, how many dice the blob holds), and whether a hand is in it."""
    rectified = view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM)
    blobs = find_blobs(rectified, visible, SEGMENT_PX_PER_MM)
    if any(b.area_mm2 >= HAND_MM2 for b in blobs):
        return [], True
    cam = view.camera_mm
    nadir = (float(cam[0]), float(cam[1]))
    found: list[tuple[Blob, TopFace | None, int]] = []
    for blob in blobs:
        faces = top_faces(blob, SEGMENT_PX_PER_MM, 0.0, nadir, float(cam[2]), TOP_PLANE_MM)
        if len(faces) > 1 and all(f.area_mm2 <= 1.5 * D6_SIDE_MM ** 2 * 1.4 for f in faces):
            found.extend((blob, face, 1) for face in faces)  # dice one behind the other, not touching
        else:
            found.append((blob, faces[0] if faces else None, dice_in(blob, nadir, float(cam[2]))))
    return found, False


class DiceReader:
    """Reads the dice of the given trays in each frame; keeps their tracks between frames."""

    def __init__(self, trays: tuple[str, ...] = ("tray",), camera: CameraModel | None = None,
                 tracker: DiceTrackerConfig | None = None, numerals: NumeralReader | None = None) -> None:
        self.camera = camera
        self._trays = {name: _TrayState(tray_spec(name), DiceTracker(tracker)) for name in trays}
        self.numerals = numerals if numerals is not None else load_numerals()

    def read(self, image: Image, markers: list[DetectedMarker], now: float) -> list[TraySeen]:
        """Every tray whose tags are in view, with its dice; trays out of view are left out."""
        size = (image.shape[1], image.shape[0])
        lens = Lens.of(self.camera, size)
        out = []
        for name, state in self._trays.items():
            view = find_tray(markers, state.spec, lens, state.view)
            if view is None:
                continue
            if view is not state.view:
                state.view = view
                state.visible = visible_felt(view)
            out.append(self._read_tray(name, state, image, now))
        return out

    def pixel_of(self, tray: str, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Where a die's top face centre (tray mm) is in the picture the tray was last seen in."""
        view = self._trays[tray].view
        if view is None:
            return (math.nan, math.nan)
        px = view.project(np.array([[x_mm, y_mm, TOP_PLANE_MM]]))[0]
        return (float(px[0]), float(px[1]))

    def _read_tray(self, name: str, state: _TrayState, image: Image, now: float) -> TraySeen:
        view, visible = state.view, state.visible
        assert view is not None and visible is not None
        candidates, hand = locate_dice(image, view, visible)
        sightings = []
        for blob, face, _n in candidates:
            x, y = face.centre_mm if face is not None else blob.centroid_mm
            shape = (min(face.sides_mm), max(face.sides_mm)) if face is not None else (0.0, 0.0)
            share = sum(1 for other, _f, _n in candidates if other is blob)  # one blob, several dice
            sightings.append(Sighting(x, y, blob.area_mm2 / share, shape))
        tracks = state.tracker.update(sightings, now, hand)
        settled_all = state.tracker.all_settled(tracks, now) and not hand
        dice: list[DieSeen] = []
        for (blob, face, count), track in zip(candidates, tracks, strict=True):
            settled = track.settled(now, state.tracker.config)
            if not settled:
                dice.append(DieSeen(track.track_id, DieKind.D6, None, 0.0, round(track.x_mm, 1),
                                    round(track.y_mm, 1), False))
                continue
            if track.reading is None:
                track.reading = self._read_die(image, view, blob, face, count)
            reading: DieReading = track.reading
            for k in range(count):
                dice.append(DieSeen(track.track_id if k == 0 else -track.track_id * 10 - k, reading.kind,
                                    reading.value, reading.confidence, round(track.x_mm, 1), round(track.y_mm, 1),
                                    True, reading.doubt))
        return TraySeen(name, state.tracker.roll, settled_all, tuple(dice))

    def _read_die(self, image: Image, view: TrayView, blob: Blob, face: TopFace | None, count: int) -> DieReading:
        if count > 1:
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.TOUCHING)
        if _crosses_edge(view.spec, face, blob):
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.OUTSIDE)
        if face is None:
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.UNREADABLE)
        if near_d6_size(face):
            a = math.radians(face.angle_deg)
            around = view.patch(image, face.centre_mm, DIE_HEIGHT_MM["d6"], D6_AROUND_MM, READ_PX_PER_MM,
                                (math.cos(a), math.sin(a)))
            read, _square = read_d6_around(around, face)
            if read is not None:
                return read
        square = looks_like_d6_top(face)
        if square:
            a = math.radians(face.angle_deg)
            patch = view.patch(image, face.centre_mm, DIE_HEIGHT_MM["d6"], D6_PATCH_MM, READ_PX_PER_MM,
                               (math.cos(a), math.sin(a)))
            read = read_d6_face(patch)
            if read is not None:
                return read
        if self.numerals is None:
            return DieReading(DieKind.D6 if square else DieKind.D10, None, 0.0, DieDoubt.UNREADABLE)
        turns = [numeral_patch(view, image, face, k * TURN_DEG) for k in range(round(360 / TURN_DEG))]
        guess = self.numerals.classify(turns)
        if square and (guess.value is None or guess.confidence < SQUARE_D10_CONFIDENCE):
            # A square top whose pips did not add up, and no sure numeral either: a d6 to ask about.
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.LOW_CONFIDENCE)
        if guess.value is None:
            return DieReading(DieKind.D10, None, guess.confidence, DieDoubt.COCKED)
        doubt = DieDoubt.LOW_CONFIDENCE if guess.confidence < MIN_D10_CONFIDENCE else None
        return DieReading(DieKind.D10, guess.value, guess.confidence, doubt)


def _crosses_edge(spec: TraySpec, face: TopFace | None, blob: Blob) -> bool:
    """Whether the die reaches over the area's edge (onto the felt's border or beyond): its top face's
    corners, straight above its foot's, lie outside the area by more than a millimetre; a die with no face
    found, when its blob meets the edge of the felt seen."""
    if face is None:
        return blob.touches_edge
    cx, cy = face.centre_mm
    a = math.radians(face.angle_deg)
    half = D6_SIDE_MM / 2.0
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x = cx + half * (sx * math.cos(a) - sy * math.sin(a))
        y = cy + half * (sx * math.sin(a) + sy * math.cos(a))
        if not spec.contains(x, y, 1.0):
            return True
    return blob.touches_edge


def read_d6_face(patch: Image) -> DieReading | None:
    """A d6's face from the patch around its top face (``D6_PATCH_MM`` square at ``READ_PX_PER_MM``, turned
    square to the face's sides): its reading when the pips add up surely enough, else None (a question)."""
    pips = count_pips(patch, READ_PX_PER_MM)
    if pips.value is not None and pips.confidence >= MIN_CONFIDENCE:
        return DieReading(DieKind.D6, pips.value, pips.confidence, None)
    return None


def read_d6_around(around: Image, outline: TopFace | None = None) -> tuple[DieReading | None, FaceSquare | None]:
    """A d6's face from a wider patch around its blob (``D6_AROUND_MM`` square at ``READ_PX_PER_MM``, centred
    on the blob's top ``outline``): its top face found in the pixels
    (:func:`vision.dice.face_square.find_face_square`), cut squared to its sides at the face's own size, and its
    pips counted. The reading is None (a question) when there is no sure count, or when the blob's outline is
    clean but its middle is off the face's (a cocked die: a side shows where a flat die's cannot); the face
    (in the patch's pixels) is None when no square face is there."""
    face = find_face_square(around, D6_SIDE_MM * READ_PX_PER_MM)
    if face is None:
        return None, None
    if outline is not None and outline.fill >= CLEAN_OUTLINE - 0.05:
        n = around.shape[0]
        off_mm = math.hypot(face.centre_px[0] - n / 2.0, face.centre_px[1] - n / 2.0) / READ_PX_PER_MM
        if off_mm > FACE_OFF_OUTLINE_MM:
            return None, face
    return read_d6_face(squared_face(around, face, round(D6_PATCH_MM * READ_PX_PER_MM))), face


def near_d6_size(face: TopFace) -> bool:
    """A blob's top of about a die's size, perhaps too big or ragged for :func:`looks_like_d6_top` (a shadow's
    rim, a pale die's edge lost on a pale mat, pip holes, rounded corners): worth looking for a d6's face in
    its pixels. Not when the outline is clean (it fills its rectangle) but not square: a cocked die's."""
    a, b = face.sides_mm
    cocked = face.fill >= CLEAN_OUTLINE and face.squareness() < SQUARE_TOP
    return min(a, b) >= 0.6 * D6_SIDE_MM and max(a, b) <= 2.0 * D6_SIDE_MM and not cocked


def looks_like_d6_top(face: TopFace) -> bool:
    """A square face of a d6's size, lying flat (a cocked cube's top face is foreshortened and shifted).

    The patch measures a little large (the picture's blur and its colours' JPEG bleed); a d10's top is a
    kite, which fills its bounding box less (about 0.76) than a square does (0.8 seen from an angle, else 0.9).
    """
    a, b = face.sides_mm
    size_ok = min(a, b) >= 0.82 * D6_SIDE_MM and max(a, b) <= 1.35 * D6_SIDE_MM
    return size_ok and face.squareness() >= SQUARE_TOP and face.fill >= 0.83


def numeral_patch(view: TrayView, image: Image, face: TopFace, up_deg: float) -> Image:
    """The crop the numeral classifier sees: around the top face, its top towards ``up_deg`` in the tray frame."""
    up = (math.cos(math.radians(up_deg)), math.sin(math.radians(up_deg)))
    return view.patch(image, face.centre_mm, DIE_HEIGHT_MM["d10"], PATCH_MM, PATCH_PX_PER_MM, up)


