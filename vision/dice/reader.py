"""Read the dice in every tray of a frame: the tray from its tags, the dice in it, their top faces.

Per frame and tray: the tray's pose from its tags (:mod:`vision.dice.tray_view`), its area (and as far
around it as a die's sides reach) rectified on the plane of the dice's top faces, the dice as blobs of
not-mat (:mod:`vision.dice.segment`) and their top faces in them (:mod:`vision.dice.top_face`), tracked
(:mod:`vision.dice.tracking`); a die is read once still a moment, reported once settled, its reading kept while it
stays put: its kind from its outline (:mod:`vision.dice.outline`), a d6 by its pips (:mod:`vision.dice.pips`), a d10 by
its numeral (:mod:`vision.dice.numerals`) cut out along the axes its outline gives. A die that cannot be read
surely, or whose kind is doubtful and not settled by both tests agreeing, gets a doubt
(:class:`engine.wire.DieDoubt`) instead of a value. A frame that shows the tray as it was when its dice were last
found (settled dice) reuses that finding: the cost of a frame of settled dice is then the rectification and one
comparison. What a tray's pose decides (the rectification's maps, what the mat shows behind the dice) is made once
per pose, and the paper's colour around the felt once per pose and light (:mod:`vision.dice.paper_memory`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import EllipsisType

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera_model import CameraModel
from calibration.tray_spec import TraySpec, tray_spec
from engine.wire import DieDoubt, DieKind, DieSeen, TraySeen
from vision.detection import DetectedMarker
from vision.dice.face_square import FaceSquare, find_face_square, squared_face
from vision.dice.faces import D6_SIDE_MM, DIE_HEIGHT_MM
from vision.dice.kept_faces import KeptFaces
from vision.dice.leaning import (
    MAX_BEYOND_MM2,
    beyond_swept_face_mm2,
    leans_by_pips,
    leans_from_above,
    square_in_tray,
)
from vision.dice.merged import Part, left_out, lost_between, part_of
from vision.dice.numerals import (
    NUMERAL_OFFSET_MM,
    PATCH_MM,
    PATCH_PX_PER_MM,
    SCAN_TURNS,
    NumeralReader,
    load_numerals,
)
from vision.dice.outline import Fit, Outline, numeral_turns, outline_of, top_centre
from vision.dice.paper_memory import PaperMemory
from vision.dice.pips import count_pips
from vision.dice.segment import Blob, MatMasks, find_blobs, mat_masks, mat_seen
from vision.dice.top_face import TopFace, sweep_mm, top_faces
from vision.dice.tracking import DiceTracker, DiceTrackerConfig, Sighting
from vision.dice.tray_view import Lens, TrayView, find_tray

Image = NDArray[np.uint8]
SEGMENT_PX_PER_MM = 2.0  # the whole tray, to find the dice
READ_PX_PER_MM = 6.0  # one die's top face, to read it
D6_PATCH_MM = 22.0  # the square cut around a d6's top face to count its pips
D6_AROUND_MM = 34.0  # the square cut around a die's blob to find its top face in (room for an outline off by mm)
TOP_PLANE_MM = 15.5  # between a d10's and a d6's top face: both read sharp enough
APART_MM = 1.3 * D6_SIDE_MM  # top faces in one blob this far apart (centres) are dice one behind the other
ONE_MIN_AREA_MM2 = D6_SIDE_MM ** 2  # a 1 is read on a top at least this big (a d10's kite measures less)
STILL_LEVELS = 40  # grey levels: a pixel changed by more than the picture's noise
STILL_PIXELS = 12  # … so many at most (3 mm²), and the tray shows what it showed
MAX_MARGIN_MM = 45.0  # the tray is rectified at most this far beyond its area (a tray camera at 65°)
HAND_MM2 = 3000.0  # a patch this big is a hand (or a cup) in the tray, not dice …
# … when it reaches in from beyond what is seen of the tray (an arm does), or when it is bigger than this many dice
# standing together: from a low angle each die shows its sides as well, and four dice one behind the other made a
# patch of 3,600 mm² (a hand there: pieces of 4,100–5,400 mm², every one reaching the edge).
HAND_DICE = 5.0
MIN_CONFIDENCE = 0.5  # below this a read face is a question, not an answer
# A numeral's confidence is a margin between two classes' probabilities, not a probability; a bar lies above the surest
# wrong by 0.1 at least. Held out by vision.dice.train_numerals (seed 1, 2,880 throws: 1,200 dice from above, 1,141
# from a tray camera at 40–67°, half of the throws in glare, a third of the scenes dim from above and at an angle; and,
# held out whole, its ``--steep`` scenes: 2,268 dice from tray cameras at 60–67° and 360–450 mm), read as the reader
# reads them (the outline's turns steadied over small turns, else the face all round), the convolutional network's
# surest wrong numeral came at 0.599 from above (the next 0.507), none wrong at all along rays up to 66° (1,891 flat
# d10s), and no other die (a d6, a cocked die) passed for a numeral at 0.3 or more. From above and at an angle alike
# the bar is 0.7: 97.7 % of the 960 flat d10s from above read right (the perceptron before it, on the same dice: 95.2 %
# at its bar of 0.5, one wrong at 0.551), 99.7 % of those at an angle (98.8 % at 0.6). Trained again (2026-12-07,
# evening) with cocked d10s among its "not a flat d10" (there had been none) and tray cameras up to 69°, as two networks
# read together (:mod:`vision.dice.numerals`), on new held-out dice (889 flat d10s from above, 1,659 along rays up to
# 66°, 1,018 steeper; 949 other dice): no numeral wrong at 0.3 or more from above or along rays up to 66°, the surest
# steeper 0.468; no other die passing for a numeral at 0.7 or more (the surest 0.631, from above; the network before,
# on the same dice: 13 from above up to 0.944, 6 from an angle up to 0.997). Read right: 98.2 % from above at 0.7
# (97.6 % before), 99.8 % along rays up to 66° at 0.8 (99.6 %), 97.1 % steeper at 0.8 (98.2 %).
MIN_D10_CONFIDENCE = 0.7
# Tray cameras swept beyond the bench's (2026-12-07, bench/dice_steep.py at 45–70°, seeds 7400 and 7600, 40 throws a
# camera, 2,784 flat d10s read right) found a lone d10's 5 read as an 8 at 0.732 along a ray of 63.9° (over 0.7), and
# earlier a 4 read as a 6 at 0.834 along 69.0° in a shared blob: the bars where a die's sides show are 0.8 (1 of the
# 1,774 right reads along rays up to 66° lies under it) and, steeper, 0.85 (4 of 713 right reads along 66–70°).
ANGLED_D10_CONFIDENCE = 0.8  # where a die's sides show (below) …
# … and the camera's ray at the die (its angle from vertical, :func:`view_deg`) is at most STEEP_D10_DEG: steeper,
# the numeral is foreshortened to a third of its height and blurs, and the network misreads more surely. Held out along
# rays of 66–71.5° (960 flat d10s, above), the surest wrong numeral came at 0.634 (the next 0.334): beyond 66° a
# numeral is taken from STEEP_D10_CONFIDENCE, which also keeps a misread as sure as the perceptron's steep ones (0.67–
# 0.75: a lone d10's 5 read as an 8 at 0.672 along a ray of 69.9°, two 8s as 0s at 0.734 and 0.746) asked. There
# 97.6 % of the flat d10s read right (the perceptron: 76.0 % at its bar of 0.85). The numerals were trained at tray
# cameras up to 67° and 370 mm, whose rays reach 71.6°; yet along rays of 70–71.5° the sweep above found flat d10s'
# 5s read as 8s at 0.851, 0.907, 0.953 and (other seeds) 0.891 and 0.982, and a cocked d10 read at 0.99: beyond
# MAX_D10_DEG a numeral is not read at all (:func:`d10_bar`; 297 right reads of the sweep lay there, beyond every bench
# camera, whose rays reach 69.2°).
STEEP_D10_DEG = 66.0
STEEP_D10_CONFIDENCE = 0.85
MAX_D10_DEG = 70.0
# The network's "not a flat d10" turns a die of open kind into a d6 (its pips read) only this surely: as before the
# numerals were steadied (the surest wrong numeral then: 0.75 from above, 0.53 at an angle). The convolutional network
# took none of the 3,811 held-out flat d10s above for "not a flat d10".
NOT_D10_CONFIDENCE = 0.8
ANGLED_NOT_D10_CONFIDENCE = 0.7
# Seen from straight above, a d10's outline is close to a d6's and the kind is often left open: the numeral network
# (which knows d6 faces as "not a d10") decides. Seen from an angle, where a die's sides show at least
# SIDES_SEEN_MM long, the outline tells the kinds apart; when it does not, the die is half hidden or merged with
# another, and a numeral must be surer: such a d6, its pips not read, was taken for a d10's 7 at 0.73 (before the
# numerals were steadied). Held out since (rendered throws from a tray camera at 55° and 65°, seeds apart from the
# bench's: 400 throws of mixed dice, 400 with a cocked d6 each), the surest wrong numeral on a die of open kind had a
# margin of 0.735 (a cocked d6 taken for a 6), the next 0.67; right ones on merged d10s came out at 0.79–0.89.
SIDES_SEEN_MM = 10.0
DOUBTFUL_D10_CONFIDENCE = 0.85
# A numeral is read only on a die whose outline fits a d10's this well: dice half hidden behind others, from a low
# angle, gave numerals read wrong at 0.71–0.81 on outlines overlapping 0.42–0.6.
MIN_D10_FIT = 0.8
# … except, from above, a die alone in its blob (nothing to hide it): in dim light its outline can lose a rim and fit
# 0.75–0.8, and its numeral (which knows a d6's face as "not a d10") is read as surely as on a clean outline (held out,
# vision.dice.train_numerals: none such read wrong).
LONE_D10_FIT = 0.75
# Seen from an angle (the sides showing SIDES_SEEN_MM at least), a d10 lying on a face fits its outline closely: of the
# flat d10s read from tray cameras at 55–70° and 360–450 mm (bench/dice_d10_lean.py, seeds 8100 and 8200, 1,074
# read), none fitted less than 0.880 (5 of 1,267 fitted 0.80–0.88, none of them read). A d10 leaning on something
# (18–28°) may fit far less, or as well: of the 269 cocked d10s there, the 29 read with a value (15 of them as
# another face, at 0.72–1.0) fitted 0.853–0.956, 7 of them below 0.88. Below LEANING_D10_FIT a die likelier a d10
# than a d6 is asked as leaning: a partial test (the outline alone cannot tell the others, nor any seen from above,
# where flat d10s fitted 0.825–0.950 and the cocked ones read 0.852–0.932). Held out (bench/dice_steep.py, 40 throws
# from seed 7600 with a cocked die each, 60 from 7400 without; 15 tray cameras at 55–70°): cocked d10s read 19 → 15
# of 300, a flat d10 read 4 → 6 at 0.834 now asked, and 11 of the 2,894 flat d10s read right are asked (fits under
# 0.875 after all: 0.4 %); bench/dice.py's conditions (40 throws) read as before.
LEANING_D10_FIT = 0.875
SQUARE_TOP = 0.85  # a flat die's top (short side / long side) is at least this square; a cocked die's is not
CLEAN_OUTLINE = 0.85  # an outline filling its rectangle this well is the die's own (no shadow, no lost edge)
# A d6 whose outline fits this well but whose found top face gives no reading is read at the outline's top face
# (lone dice fit 0.93–0.98).
FITTED_TOP_FIT = 0.9
# How far out a d6's pips may sit on a face found in the die's own pixels, as shares of the rendered dice's
# (``PIP_SPOT``): many real dice set them closer in (:func:`vision.dice.pips.count_pips`).
FOUND_FACE_SPREADS = (1.0, 0.85, 0.7)
# An outline this close to a flat d6's is one: leaning d6s fitted 0.91 at the most (200 cocked throws of bench/dice.py),
# lone flat ones from a tray camera at 45–65° 0.9–0.99.
FLAT_D6_FIT = 0.93
CLEARLY_D6 = 0.04  # … its overlap beats a d10's by this much (leaning d6s: 0.058 at the least)
FACE_OFF_OUTLINE_MM = 1.5  # a flat die's face lies this close to the middle of its clean outline (sides taken away)


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
    paper: PaperMemory = field(default_factory=PaperMemory)  # the paper's colour, kept for this pose
    mat: MatMasks | None = None  # what ``visible`` says, as the blobs' search works with it
    # The frame the dice were last found in (its view and rectified grey), and what was found there.
    found: tuple[TrayView, NDArray[np.uint8], list[tuple[Blob, TopFace | None, int]], bool] | None = None
    kept: KeptFaces = field(default_factory=KeptFaces)  # the top faces found in the last search's blobs


def segment_margin(view: TrayView) -> float:
    """How far beyond the area the tray is rectified to find the dice: as far as a die's sides reach from
    its top face (towards the point under the camera), so that a die near the edge is seen whole."""
    cam = view.camera_mm
    spec = view.spec
    far = max(math.hypot(x - float(cam[0]), y - float(cam[1]))
              for x in (0.0, spec.width_mm) for y in (0.0, spec.height_mm))
    return float(min(MAX_MARGIN_MM, math.ceil(sweep_mm(far, D6_SIDE_MM, float(cam[2])) + 2.0)))


def visible_felt(view: TrayView, height_mm: float = TOP_PLANE_MM, px_per_mm: float = SEGMENT_PX_PER_MM
                 ) -> NDArray[np.uint8]:
    """What the rectified top-faces plane (with :func:`segment_margin`) shows behind the dice: felt, paper or
    unknown (:func:`mat_seen`)."""
    cam = view.camera_mm
    return mat_seen(view.spec, (float(cam[0]), float(cam[1]), float(cam[2])), height_mm, px_per_mm,
                    segment_margin(view))


def one_die_mm2(blob: Blob, nadir: tuple[float, float], camera_height: float) -> float:
    """How much of the tray one upright cube covers where ``blob`` lies: its top and its sides swept towards the
    nadir."""
    r = math.hypot(blob.centroid_mm[0] - nadir[0], blob.centroid_mm[1] - nadir[1])
    return D6_SIDE_MM * D6_SIDE_MM + D6_SIDE_MM * 1.2 * sweep_mm(r, TOP_PLANE_MM, camera_height)


def dice_in(blob: Blob, nadir: tuple[float, float], camera_height: float) -> int:
    """How many dice a blob holds, from its area against one upright cube's (dice touching make one blob)."""
    return max(1, round(blob.area_mm2 / (one_die_mm2(blob, nadir, camera_height) * 1.15)))


def is_hand(blob: Blob, nadir: tuple[float, float], camera_height: float) -> bool:
    """Whether ``blob`` is a hand (or a cup) in the tray rather than dice (``HAND_MM2``, ``HAND_DICE``)."""
    return blob.area_mm2 >= HAND_MM2 and (
        blob.touches_edge or blob.area_mm2 >= HAND_DICE * one_die_mm2(blob, nadir, camera_height))


def locate_dice(image: Image, view: TrayView, visible: NDArray[np.uint8] | MatMasks, paper: PaperMemory | None = None
                ) -> tuple[list[tuple[Blob, TopFace | None, int]], bool]:
    """The dice in the tray (blob, top face, how many dice the blob holds), and whether a hand is in it;
    ``paper``: the paper's colour kept for this pose (:mod:`vision.dice.paper_memory`)."""
    return locate_in(view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, segment_margin(view)), view, visible, paper)


def unchanged(gray: NDArray[np.uint8], reference: NDArray[np.uint8]) -> bool:
    """Whether the rectified tray shows what it showed in ``reference``: no more than a few pixels differ by
    more than the picture's noise (a die moving by a millimetre changes its whole outline)."""
    if gray.shape != reference.shape:
        return False
    diff = cv2.absdiff(gray, reference)
    return cv2.countNonZero(cv2.threshold(diff, STILL_LEVELS, 255, cv2.THRESH_BINARY)[1]) <= STILL_PIXELS


def locate_in(rectified: Image, view: TrayView, visible: NDArray[np.uint8] | MatMasks,
              paper: PaperMemory | None = None, gray: NDArray[np.uint8] | None = None,
              kept: KeptFaces | None = None, reuse: bool = False
              ) -> tuple[list[tuple[Blob, TopFace | None, int]], bool]:
    """:func:`locate_dice` on the tray already rectified on the top faces' plane at ``SEGMENT_PX_PER_MM``,
    with :func:`segment_margin`; ``gray``: its grey, when already made; ``kept``: the top faces kept from the frame
    before (:mod:`vision.dice.kept_faces`), taken for blobs that have not changed when ``reuse``, and told this
    frame's."""
    margin = segment_margin(view)
    blobs = find_blobs(rectified, visible, SEGMENT_PX_PER_MM, margin, paper)
    cam = view.camera_mm
    nadir = (float(cam[0]), float(cam[1]))
    found: list[tuple[Blob, TopFace | None, int]] = []
    hand = any(is_hand(b, nadir, float(cam[2])) for b in blobs)
    if hand:
        blobs = []
    elif gray is None:
        gray = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY), np.uint8)
    for blob in blobs:
        faces = kept.faces_of(blob) if kept is not None and reuse else None
        if faces is None:
            assert gray is not None
            faces = _faces_in(blob, gray, margin, nadir, float(cam[2]))
            if kept is not None:
                kept.found(blob, faces)
        if (len(faces) > 1 and all(f.area_mm2 <= 1.5 * D6_SIDE_MM ** 2 * 1.4 for f in faces)
                and all(math.dist(f.centre_mm, g.centre_mm) >= APART_MM for f, g in itertools.combinations(faces, 2))):
            found.extend((blob, face, 1) for face in faces)  # dice one behind the other, not touching
        else:
            found.append((blob, faces[0] if faces else None, dice_in(blob, nadir, float(cam[2]))))
    if kept is not None:
        kept.next_frame()
    return found, hand


def _faces_in(blob: Blob, gray: NDArray[np.uint8], margin: float, nadir: tuple[float, float], camera_height: float
              ) -> list[TopFace]:
    """The top faces in ``blob`` (``gray``: the rectified tray's grey, with ``margin``; the camera above ``nadir``
    at ``camera_height``): those found in its pixels, and, seen from an angle, a top left out between them or behind
    one (:mod:`vision.dice.merged`)."""
    x, y, w, h = blob.box
    faces = top_faces(blob, SEGMENT_PX_PER_MM, margin, nadir, camera_height, TOP_PLANE_MM, gray[y:y + h, x:x + w])
    if faces and _may_hold_more(blob, nadir, camera_height):
        lost = left_out(blob, faces, SEGMENT_PX_PER_MM, margin, nadir, camera_height, TOP_PLANE_MM)
        if lost is not None and all(math.dist(lost.centre_mm, f.centre_mm) >= APART_MM for f in faces):
            faces.append(lost)
        between = lost_between(faces, nadir, camera_height, TOP_PLANE_MM)
        if between is not None and all(math.dist(between.centre_mm, f.centre_mm) >= APART_MM for f in faces):
            faces.append(between)
    return faces


def _may_hold_more(blob: Blob, nadir: tuple[float, float], camera_height: float) -> bool:
    """Whether a die's top may be lost in ``blob`` besides those found: seen from an angle (dice one behind the
    other merge), the blob bigger than one die."""
    r = math.hypot(blob.centroid_mm[0] - nadir[0], blob.centroid_mm[1] - nadir[1])
    return (sweep_mm(r, TOP_PLANE_MM, camera_height) >= SIDES_SEEN_MM
            and blob.area_mm2 > one_die_mm2(blob, nadir, camera_height))


class DiceReader:
    """Reads the dice of the given trays in each frame; keeps their tracks between frames."""

    def __init__(self, trays: tuple[str, ...] = ("tray",), camera: CameraModel | None = None,
                 tracker: DiceTrackerConfig | None = None, numerals: NumeralReader | None = None,
                 keep_faces: bool = True) -> None:
        """``keep_faces``: a blob that has not changed since the frame before takes the top faces found in it there,
        while no die is to be read (:mod:`vision.dice.kept_faces`); else every search finds every blob's faces."""
        self.camera = camera
        self.keep_faces = keep_faces
        self._trays = {name: _TrayState(tray_spec(name), DiceTracker(tracker)) for name in trays}
        self.numerals = numerals if numerals is not None else load_numerals()
        self.dice_read = 0  # how many times a die has been read (for figures: which frames paid for a reading)

    @property
    def tag_ids(self) -> frozenset[int]:
        """The tags printed on its trays' mats: they locate the trays, they are never a figure's."""
        return frozenset(i for state in self._trays.values() for i in state.spec.tag_centres)

    def read(self, image: Image, markers: list[DetectedMarker], now: float) -> list[TraySeen]:
        """Every tray whose tags are in view, with its dice; trays out of view are left out."""
        return [self._read_tray(name, state, image, now) for name, state in self._in_view(image, markers)]

    def prepare(self, image: Image, markers: list[DetectedMarker]) -> int:
        """Find the trays in view and make ready what their pose decides (the rectification's maps, what the
        mat shows behind the dice, the paper's colour under this light), reading no dice: the cost a new pose (a
        camera's first frame, a tray moved) adds to the frame that brings it, once. How many trays are in view."""
        ready = 0
        for _name, state in self._in_view(image, markers):
            assert state.view is not None and state.mat is not None
            margin = segment_margin(state.view)
            rectified = state.view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin, state.mat.box)
            find_blobs(rectified, state.mat, SEGMENT_PX_PER_MM, margin, state.paper)
            ready += 1
        return ready

    def _in_view(self, image: Image, markers: list[DetectedMarker]) -> list[tuple[str, _TrayState]]:
        """The trays whose tags are in ``markers``, their pose (and what it decides) found or kept."""
        lens = Lens.of(self.camera, (image.shape[1], image.shape[0]))
        out = []
        for name, state in self._trays.items():
            view = find_tray(markers, state.spec, lens, state.view)
            if view is None:
                continue
            if view is not state.view:
                state.view = view
                state.kept = KeptFaces()
                state.visible = visible_felt(view)
                state.mat = mat_masks(state.visible)
                state.paper = PaperMemory()
            out.append((name, state))
        return out

    def pixel_of(self, tray: str, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Where a die's top face centre (tray mm) is in the picture the tray was last seen in."""
        view = self._trays[tray].view
        if view is None:
            return (math.nan, math.nan)
        px = view.project(np.array([[x_mm, y_mm, TOP_PLANE_MM]]))[0]
        return (float(px[0]), float(px[1]))

    def _read_tray(self, name: str, state: _TrayState, image: Image, now: float) -> TraySeen:
        view, mat = state.view, state.mat
        assert view is not None and mat is not None
        # A frame like the one the dice were last found in (settled dice, nothing moving) reuses what was found.
        # Only once every die has settled: in dim light a die creeping to rest (even one still rolling) changes too
        # few pixels by more than the noise, and reused positions would make it look still and settle it early.
        rectified = view.rectify(image, TOP_PLANE_MM, SEGMENT_PX_PER_MM, segment_margin(view), mat.box)
        gray = np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY), np.uint8)
        known = list(state.tracker.tracks.values())
        at_rest = not known or state.tracker.all_settled(known, now)
        if at_rest and state.found is not None and state.found[0] is view and unchanged(gray, state.found[1]):
            candidates, hand = state.found[2], state.found[3]
        else:
            # Dice not yet settled, none to be read in this frame: a blob as it was keeps its top faces (its die's
            # stillness is judged from the blob, found afresh in every frame, so a creeping die is still seen moving).
            reuse = self.keep_faces and not at_rest and not any(
                t.reading is None and t.ready_to_read(now, state.tracker.config) for t in known)
            candidates, hand = locate_in(rectified, view, mat, state.paper, gray, state.kept, reuse)
            state.found = (view, gray, candidates, hand)
        # Each die where its top face is, still or moving as its blob is (a top face found afresh wanders far more).
        sightings = []
        for blob, face, _n in candidates:
            x, y = face.centre_mm if face is not None else blob.centroid_mm
            share = sum(1 for other, _f, _n in candidates if other is blob)  # one blob, several dice
            held = sum(n for other, _f, n in candidates if other is blob)
            box = (blob.box[2] / SEGMENT_PX_PER_MM, blob.box[3] / SEGMENT_PX_PER_MM)
            sightings.append(Sighting(x, y, blob.area_mm2 / share, box, blob.centroid_mm, held))
        tracks = state.tracker.update(sightings, now, hand)
        settled_all = state.tracker.all_settled(tracks, now) and not hand
        dice: list[DieSeen] = []
        for (blob, face, count), track in zip(candidates, tracks, strict=True):
            if track.reading is None and not hand and track.ready_to_read(now, state.tracker.config):
                others = tuple(f for b, f, _n in candidates if b is blob and f is not None and f is not face)
                track.reading = self._read_die(image, view, blob, face, count, others)
                self.dice_read += 1
            if not track.settled(now, state.tracker.config):  # read ahead or not, reported only once settled
                dice.append(DieSeen(track.track_id, DieKind.D6, None, 0.0, round(track.x_mm, 1),
                                    round(track.y_mm, 1), False))
                continue
            reading: DieReading = track.reading
            for die_id in state.tracker.ids_of(track, count):
                dice.append(DieSeen(die_id, reading.kind, reading.value, reading.confidence, round(track.x_mm, 1),
                                    round(track.y_mm, 1), True, reading.doubt))
        return TraySeen(name, state.tracker.roll, settled_all, tuple(dice))

    def _read_die(self, image: Image, view: TrayView, blob: Blob, face: TopFace | None, count: int,
                  others: tuple[TopFace, ...] = ()) -> DieReading:
        if _crosses_edge(view.spec, face, blob):  # first: seen whole, a die over the edge may join the felt's rim
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.OUTSIDE)
        if count > 1:
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.TOUCHING)
        # The kind from the die's outline (a glossy or blurred top face cannot make a d10 pass for a d6).
        outline = die_outline(view, blob, face, others)
        cam = view.camera_mm
        kind = outline.kind
        if face is not None and face.placed and kind != "d10":  # no top found there: no pips read at the place
            return self._placed_d6(view, image, outline, face)
        around = _around_face(view, image, face) if face is not None else None  # cut and searched once, if asked
        # A lone die whose outline is clearly likelier a d6's (a glossy d10's kite can pass for a square face, its
        # outline fitting a d6's 0.02 better) but whose blob is no flat cube's around its top face leans on something.
        if (face is not None and not others and kind != "d10" and outline.d6.overlap > outline.d10.overlap + CLEARLY_D6
                and around is not None and self._leaning(view, blob, face, around)):
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.COCKED)
        if face is None and (kind != "d10" or self.numerals is None):  # a d10's top face is found from its outline
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.UNREADABLE)
        pips = None
        if kind != "d10" and face is not None:
            pips = read_d6_top(face, _cutter(view, image, face), around)
        found_pips, fitted_pips = pips, None
        # A clean top not square is a cocked die's, unless a lone die's outline is a flat d6's beyond doubt (from a
        # low angle the top left once the sides are taken away is ragged: a flat die's came out square to 0.82 at 65°).
        leaning = (face is not None and face.fill >= CLEAN_OUTLINE and face.squareness() < SQUARE_TOP
                   and (bool(others) or outline.d6.overlap < FLAT_D6_FIT))
        # Alone in its blob, such a top with no square face in the die's own pixels around it is no flat d6's: a die
        # leaning away from the camera turns a side to it, seen nearly face on where a flat die's top would be (on the
        # top faces' plane no square), and that side's pips are counted there (bench/dice_steep.py, seed 9300 at 45°:
        # a cocked 6 read as a 4 at 0.828). A flat die's top may come out so in its blob (bench/dice.py's 55°, throw 10:
        # a 3, 15.7 × 18.8 mm at fill 0.90, its outline fitting a d6's 0.929), but its face is found square in its
        # pixels. On calibration seed 9500 (bench/dice_cocked_why.py, 360 throws at 45–70°) no flat die was such.
        if leaning and not others and pips is not None and around is not None and around()[1] is None:
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.COCKED)
        # A d6 merged with another is read at the top its fitted outline places as well, counted or not at the top
        # found: the face found in its own pixels there may be a part of its top only (bench/dice_steep.py, seed 7600
        # at 65°: a yellow 5 whose face was found 10.4 × 11.4 mm around its middle pip and one corner pip, a diagonal
        # pair read as a 2 at 0.566, where the fitted top reads its 5 at 0.888).
        if ((pips is None or kind is None or others) and kind != "d10" and outline.d6.overlap >= FITTED_TOP_FIT
                and not leaning):
            # The top face found in a merged blob (or a low angle's ragged one) may be off: the d6's outline,
            # fitted to its own part, gives its top face's place and turn (a doubtful kind is settled below).
            fitted_pips = read_d6_face(_cutter(view, image, fitted_top(outline.d6, face))(D6_PATCH_MM))
            # Two places of one top that read different counts: one lies off its pips, and which is not known. A top
            # placed off by half a pip spacing along a row sets the places between a 4's pips on their rims (within a
            # spot's reach of both): a tray camera at 67.5° and 450 mm read a 4 merged with another die as a 6 at 0.77
            # at its top found 2.8 mm off, a 4 at 0.96 at its fitted top.
            if pips is not None and fitted_pips is not None and pips.value != fitted_pips.value:
                return DieReading(DieKind.D6, None, 0.0, DieDoubt.LOW_CONFIDENCE)
            pips = pips or fitted_pips
        # From an angle the pips tell a die leaning towards the camera in a merged blob too (its top is found there).
        angled = face is not None and _sides_sweep_mm(view, face) >= SIDES_SEEN_MM
        if (pips is not None and pips.value is not None and face is not None and (angled or not others)
                and leans_by_pips(_cutter(view, image, face)(D6_PATCH_MM), pips.value, READ_PX_PER_MM, angled)):
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.COCKED)  # leaning towards the camera
        # A top found in a blob as a ragged piece (its sides swept away, a merged neighbour cut off) is boxed at its
        # pixels' own turn, not the cube's: at 65° such tops came out at the tray's axes (-90°) where the cube turned
        # 22–86°, and the pip count searches its frame within 8° only. The d6's outline, fitted to the die's whole
        # body, turns as the cube: where no pips were read, the top is read where its pixels put it, turned so.
        turned = None
        if found_pips is None and face is not None and angled and kind != "d10" and not leaning:
            turned = _turned_d6(view, image, face, outline)
            if turned is not None and turned.doubt is DieDoubt.COCKED:
                return turned
        # A d6 merged with another, seen from an angle, whose top found in the blob and the top its fitted outline
        # places read nothing: its top found there (a square of the blob's pixels once its sides are taken away) may
        # lie mm off its face, the merged neighbour's or the paper's pixels taken in (bench/dice.py's 65°, throw 224: a
        # blue 5 against the paper, found 2.7 mm off, so that its face in its own pixels lay off the found top's middle
        # by more than a flat die's may, the check against a cocked die's side). The face found in its own pixels is
        # read then, unless its pips make a lean's oblong. Measured on tray cameras at 55–70° (bench/dice_steep.py):
        # of the 107 cocked d6s merged with another die at seeds 8700 and 8710 (58 of them asked for low confidence,
        # where this reads; 18 of them at 8710 came this far and gave no count in their own pixels), none was read so;
        # flat d6s read so, all right: 1 at seed 8700, 5 at 8710, 4 at 8600 (flat, 45–70°).
        if (kind == "d6" and pips is None and turned is None and others and angled and face is not None
                and around is not None):
            patch, square = around()
            own, _square = read_d6_around(patch, None, square)
            if (own is not None and own.value is not None
                    and not leans_by_pips(_cutter(view, image, face)(D6_PATCH_MM), own.value, READ_PX_PER_MM, True)):
                return own
        if kind == "d6":
            return pips or turned or DieReading(DieKind.D6, None, 0.0, DieDoubt.LOW_CONFIDENCE)
        if self.numerals is None:
            return DieReading(DieKind.D10 if kind == "d10" else DieKind.D6, None, 0.0, DieDoubt.UNREADABLE)
        likelier = DieKind.D10 if outline.d10.overlap > outline.d6.overlap else DieKind.D6
        sides = sweep_mm(math.dist(outline.d10.centre_mm, (float(cam[0]), float(cam[1]))), TOP_PLANE_MM, float(cam[2]))
        from_above = sides < SIDES_SEEN_MM
        if outline.d10.overlap < (LONE_D10_FIT if from_above and not others else MIN_D10_FIT):
            return pips or DieReading(likelier, None, 0.0, DieDoubt.UNREADABLE)  # no flat d10's outline
        if not from_above and likelier is DieKind.D10 and pips is None and outline.d10.overlap < LEANING_D10_FIT:
            return DieReading(DieKind.D10, None, 0.0, DieDoubt.COCKED)  # likelier a d10 than a d6: no pips to read
        bar = d10_bar(view_deg(view, outline.d10.centre_mm), from_above)
        if bar is None:  # too steep a view for a numeral: a d10 (or a die of open kind) is asked
            return DieReading(likelier, None, 0.0, DieDoubt.UNREADABLE)
        numeral = self._read_numeral(image, view, outline, bar,
                                     NOT_D10_CONFIDENCE if from_above else ANGLED_NOT_D10_CONFIDENCE)
        if kind == "d10":  # "not a flat d10" from a d10's outline: a cocked d10
            return numeral if numeral.kind is DieKind.D10 else DieReading(DieKind.D10, None, 0.0, DieDoubt.COCKED)
        # A doubtful outline: a face is taken only when the other kind's test says "not mine" as well.
        if pips is not None and numeral.kind is DieKind.D6:
            return pips
        # A pale die merged with another, its top against the paper, comes out ragged (its edges hardly differ from
        # the paper) and its pips are not counted there; "not a flat d10" and pips counted at the top face found,
        # ragged or not, settle it (held out: no cocked d6 merged with another gave a count there, 119 at 55°–65°).
        if pips is None and others and not from_above and numeral.kind is DieKind.D6 and face is not None:
            ragged = read_d6_face(_cutter(view, image, face)(D6_PATCH_MM))
            if ragged is not None and ragged.value != 1 and outline.d6.overlap > outline.d10.overlap:
                return ragged
        # From an angle, where the outline fits a d6 better than a d10 (dice merged into one blob fit both closely),
        # the same pips read at the top face found in the pixels and at the one the d6's outline places settle it.
        # In a merged blob the top found there may lie mm off the face found in the die's own pixels (a far die's
        # top against the paper): that face is read as it lies, and taken only as the same count at the fitted top.
        if found_pips is None and others and around is not None and fitted_pips is not None:
            patch, square = around()
            found_pips, _square = read_d6_around(patch, None, square)
        # The top found read turned as the fitted outline (above) stands for the found top's reading; where the
        # fitted top reads nothing (placed mm off in a merged blob), it is taken alone unless the numeral network reads
        # a d10 there surely.
        found_pips = found_pips or turned
        if (turned is not None and fitted_pips is None and found_pips is turned
                and not (numeral.kind is DieKind.D10 and numeral.confidence >= bar)):
            return turned
        if (not from_above and found_pips is not None and fitted_pips is not None
                and found_pips.value == fitted_pips.value and outline.d6.overlap > outline.d10.overlap):
            return found_pips
        # A lone spot read alike at the top found and at the top the d6's outline places, from an angle, on a die
        # alone in its blob whose outline fits a cube clearly better than a d10 (its blob then passed the leaning test
        # above: a cocked die's shows one too) and whose numeral the network does not read surely: a 1, though its top
        # came out smaller than :func:`read_d6_top` takes a 1 on. Seen steeply, the top found in a d6's
        # blob loses a strip to its sides' sweep (bench/dice.py's 65°: a 1's top of 16.0 × 17.7 mm at fill 0.82); a
        # lone spot is believed only with a square's four corners of the body's colour around it, which a d10's kite
        # leaves to its neighbouring faces, and here at both places.
        if (not from_above and face is not None and not others and fitted_pips is not None and fitted_pips.value == 1
                and outline.d6.overlap > outline.d10.overlap + CLEARLY_D6
                and not (numeral.kind is DieKind.D10 and numeral.confidence >= bar)):
            spot = read_d6_face(_cutter(view, image, face)(D6_PATCH_MM), centred=True)
            if spot is not None and spot.value == 1:
                return spot
        # A pale d6 merged with another, its top against the paper band: the top found there takes in a strip of the
        # paper and comes out clean but oblong (bench/dice.py's 65°, throw 187: a white 2, 16.5 × 20.0 mm at fill
        # 0.88), which stands for a cocked die's top above. Where the network says "not a flat d10", the outline fits a
        # d6 better than a d10 and the pips read at the top its fitted outline places and at the top found, turned
        # as that outline, give the same count (no lean's oblong there), that count is taken. Measured as the rule
        # above: none of the 107 cocked d6s merged with another at seeds 8700 and 8710 was read so.
        if (leaning and others and not from_above and face is not None and numeral.kind is DieKind.D6
                and outline.d6.overlap > outline.d10.overlap):
            at_fitted = read_d6_face(_cutter(view, image, fitted_top(outline.d6, face))(D6_PATCH_MM))
            at_found = _turned_d6(view, image, face, outline)
            if (at_fitted is not None and at_found is not None and at_found.doubt is None
                    and at_fitted.value == at_found.value):
                return at_found
        floor = MIN_D10_CONFIDENCE if from_above else max(bar, DOUBTFUL_D10_CONFIDENCE)
        if pips is None and numeral.doubt is None and numeral.confidence >= floor:
            return numeral
        return DieReading(likelier, None, 0.0, DieDoubt.LOW_CONFIDENCE)

    @staticmethod
    def _placed_d6(view: TrayView, image: Image, outline: Outline, face: TopFace) -> DieReading:
        """A d6 of a merged blob whose top was placed (:func:`vision.dice.merged.left_out`), not found: read only
        where the face found in its own pixels around the place and the top its fitted outline places give the same
        count, and those pips make no oblong of a die leaning towards the camera (never at the place itself)."""
        asked = DieReading(DieKind.D6, None, 0.0, DieDoubt.UNREADABLE)
        if outline.d6.overlap < FITTED_TOP_FIT or outline.d6.overlap <= outline.d10.overlap:
            return asked
        fitted = _cutter(view, image, fitted_top(outline.d6, face))(D6_PATCH_MM)
        pips = read_d6_face(fitted)
        if pips is None or pips.value is None:
            return asked
        patch, square = _around_face(view, image, face)()
        found, _square = read_d6_around(patch, None, square)
        if found is None or found.value != pips.value:
            return asked
        if leans_by_pips(fitted, pips.value, READ_PX_PER_MM, True):
            return DieReading(DieKind.D6, None, 0.0, DieDoubt.COCKED)
        return found

    @staticmethod
    def _leaning(view: TrayView, blob: Blob, face: TopFace, around: AroundFace) -> bool:
        """Whether a lone die's blob is no flat cube's around its top face (:mod:`vision.dice.leaning`)."""
        cam = view.camera_mm
        nadir = (float(cam[0]), float(cam[1]))
        sweep = _sides_sweep_mm(view, face)
        if sweep < SIDES_SEEN_MM and leans_from_above(face):
            return True
        _patch, square = around()
        if square is None:
            return False
        corners = square_in_tray(square, face, D6_AROUND_MM, READ_PX_PER_MM)
        beyond = beyond_swept_face_mm2(blob, corners, nadir, sweep, SEGMENT_PX_PER_MM, segment_margin(view))
        return beyond > MAX_BEYOND_MM2

    def _read_numeral(self, image: Image, view: TrayView, outline: Outline, sure: float, not_d10: float
                      ) -> DieReading:
        """A d10's numeral, cut out along the axes its outline gives, taken from a margin ``sure``; "not a flat
        d10" from a margin ``not_d10`` (a reading of kind d6)."""
        assert self.numerals is not None
        fit = outline.d10
        turns = [numeral_patch(view, image, fit.centre_mm, up) for up in numeral_turns(fit)]
        guess = self.numerals.classify(turns)
        if guess.confidence < sure:  # the outline's axes may be off (dim light, glare): the face cut out all round
            scan = self.numerals.classify_scan([numeral_patch(view, image, fit.centre_mm, up) for up in SCAN_TURNS])
            if scan.confidence >= sure:
                guess = scan
        if guess.value is None:
            kind = DieKind.D6 if guess.confidence >= not_d10 else DieKind.D10
            return DieReading(kind, None, guess.confidence, DieDoubt.COCKED)
        doubt = DieDoubt.LOW_CONFIDENCE if guess.confidence < sure else None
        return DieReading(DieKind.D10, guess.value, guess.confidence, doubt)


def _turned_d6(view: TrayView, image: Image, face: TopFace, outline: Outline) -> DieReading | None:
    """A d6's pips read at its top ``face`` found in the blob, turned as its fitted outline (``outline.d6``): its
    reading, a cocked doubt when the pips there make the oblong of a die leaning towards the camera, or None (no sure
    count, or an outline no likelier a d6's than a d10's). Never a 1: a lone spot makes no oblong, and a cocked die
    merged with another (no leaning test for its blob) shows one as well (held out at 67.5°: one read so at 0.785)."""
    if outline.d6.overlap <= outline.d10.overlap:
        return None
    patch = _cutter(view, image, replace(face, angle_deg=outline.d6.turn_deg))(D6_PATCH_MM)
    pips = read_d6_face(patch, centred=True)
    if pips is None or pips.value is None or pips.value == 1:
        return None
    if leans_by_pips(patch, pips.value, READ_PX_PER_MM, True):
        return DieReading(DieKind.D6, None, 0.0, DieDoubt.COCKED)
    return pips


def view_deg(view: TrayView, at_mm: tuple[float, float]) -> float:
    """How steeply the camera sees a die whose top lies at ``at_mm``: the ray's angle from vertical at the top faces'
    plane, in degrees (0: straight above)."""
    cam = view.camera_mm
    across = math.dist(at_mm, (float(cam[0]), float(cam[1])))
    return math.degrees(math.atan2(across, float(cam[2]) - TOP_PLANE_MM))


def d10_bar(ray_deg: float, from_above: bool) -> float | None:
    """The margin a d10's numeral is taken from, seen along a ray ``ray_deg`` from vertical (:func:`view_deg`);
    ``from_above``: the die's sides hardly show (``SIDES_SEEN_MM``). None: too steep a view to read a numeral at all
    (``MAX_D10_DEG``)."""
    if from_above:
        return MIN_D10_CONFIDENCE
    if ray_deg > MAX_D10_DEG:
        return None
    return STEEP_D10_CONFIDENCE if ray_deg > STEEP_D10_DEG else ANGLED_D10_CONFIDENCE


def _sides_sweep_mm(view: TrayView, face: TopFace) -> float:
    """How far a flat die's sides show beyond its top ``face``, towards the nadir, on the top faces' plane."""
    cam = view.camera_mm
    return sweep_mm(math.dist(face.centre_mm, (float(cam[0]), float(cam[1]))), TOP_PLANE_MM, float(cam[2]))


# The wider patch around a d6's top face (``D6_AROUND_MM``) and the face found in its pixels (or None).
AroundFace = Callable[[], tuple[Image, FaceSquare | None]]


def _around_face(view: TrayView, image: Image, face: TopFace) -> AroundFace:
    """The wider patch around ``face`` and the face found in it, cut and searched at the first call only: the
    leaning test and the pip count look at the same face."""

    @functools.cache
    def around() -> tuple[Image, FaceSquare | None]:
        patch = _cutter(view, image, face)(D6_AROUND_MM)
        return patch, find_face_square(patch, D6_SIDE_MM * READ_PX_PER_MM)

    return around


def _cutter(view: TrayView, image: Image, face: TopFace) -> Callable[[float], Image]:
    """Cuts the patch of a given size around a d6's top ``face``, turned square to its sides."""
    a = math.radians(face.angle_deg)

    def cut(size_mm: float) -> Image:
        return view.patch(image, face.centre_mm, DIE_HEIGHT_MM["d6"], size_mm, READ_PX_PER_MM,
                          (math.cos(a), math.sin(a)))

    return cut


def fitted_top(fit: Fit, found: TopFace | None) -> TopFace:
    """A d6's top face as its fitted outline (:func:`vision.dice.outline.fit_kind`) places it: a square of a d6's
    side on the die's axis, turned as the outline."""
    away = found.away if found is not None else (0.0, 1.0)
    return TopFace(fit.centre_mm, fit.turn_deg, (D6_SIDE_MM, D6_SIDE_MM), 1.0, D6_SIDE_MM ** 2, away)


def die_outline(view: TrayView, blob: Blob, face: TopFace | None, others: tuple[TopFace, ...] = ()) -> Outline:
    """The outline of the die with top face ``face`` (None: found from the blob alone) in ``blob``, whose other dice
    have top faces ``others`` (:func:`die_part`)."""
    return die_part(view, blob, face, others)[1]


def die_part(view: TrayView, blob: Blob, face: TopFace | None, others: tuple[TopFace, ...] = ()
             ) -> tuple[Part, Outline]:
    """The die's own part of ``blob`` (:func:`vision.dice.merged.part_of`) and its outline fitted to it, for the die
    with top face ``face`` (None: found from the blob alone), the blob's other dice having top faces ``others``. The
    top face found in a merged blob may be mm off; the better-fitting outline places it closer, and the die's part is
    taken again around that place and fitted again. The numeral network is trained on crops cut where this outline
    places them (:mod:`vision.dice.train_numerals`), so both see the same dice."""
    margin = segment_margin(view)
    cam = view.camera_mm
    nadir, height = (float(cam[0]), float(cam[1])), float(cam[2])
    part = Part(blob, None) if face is None else part_of(
        blob, face, others, SEGMENT_PX_PER_MM, margin, nadir, height, TOP_PLANE_MM)
    outline = outline_of(part.blob, cam, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin, part.shared)
    if face is not None and others:
        best = outline.d6 if outline.d6.overlap >= outline.d10.overlap else outline.d10
        placed = replace(face, centre_mm=top_centre(best))
        part = part_of(blob, placed, others, SEGMENT_PX_PER_MM, margin, nadir, height, TOP_PLANE_MM)
        outline = outline_of(part.blob, cam, TOP_PLANE_MM, SEGMENT_PX_PER_MM, margin, part.shared)
    return part, outline


def _crosses_edge(spec: TraySpec, face: TopFace | None, blob: Blob) -> bool:
    """Whether the die reaches over the area's edge (onto the felt's border or beyond): its top face's
    corners, straight above its foot's, lie outside the area by more than a millimetre, or its blob meets a
    part of the mat not seen (a tag); a die with no face found, when its blob meets the edge of what is seen."""
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
    return blob.touches_unknown


def read_d6_top(face: TopFace, cut: Callable[[float], Image], around: AroundFace | None = None
                ) -> DieReading | None:
    """A d6's face from the top ``face`` found in its blob, or None (a question): first in the die's own pixels
    around it (:func:`read_d6_around`: shadows, rounded corners, any size of die), else, on a top square enough,
    in the patch squared to it. ``cut(size_mm)`` gives the patch of that size around the top face, turned square
    to its sides, at ``READ_PX_PER_MM``; ``around``: the wider patch and the face found in it, when already made."""
    pips = None
    if near_d6_size(face):
        if around is None:
            pips, _found = read_d6_around(cut(D6_AROUND_MM), face)
        else:
            patch, found = around()
            pips, _found = read_d6_around(patch, face, found)
    in_pixels = pips is not None
    square = looks_like_d6_top(face)
    if pips is None and (square or _near_d6_top(face)):
        pips = read_d6_face(cut(D6_PATCH_MM))
    # A lone central spot is taken for a 1 only on a clearly square top of a d6's size at least: a d10's numeral
    # can look so, and its top, a kite, may come out square but is smaller. A face found square in the die's own
    # pixels, its four corners of its body's colour around the spot (the pip count's check), is a cube's at any
    # size of die.
    if pips is not None and pips.value == 1 and not (in_pixels or (square and face.area_mm2 >= ONE_MIN_AREA_MM2)):
        return None
    return pips


def read_d6_face(patch: Image, spreads: tuple[float, ...] = (1.0,), centred: bool = False) -> DieReading | None:
    """A d6's face from the patch around its top face (``D6_PATCH_MM`` square at ``READ_PX_PER_MM``, turned
    square to the face's sides): its reading when the pips add up surely enough, else None (a question).
    ``centred``: the patch is cut around a top placed where no count was found, and may lie off by half a pip
    spacing: a 6's pips must each lie on a pip's middle (:func:`vision.dice.pips.count_pips`)."""
    pips = count_pips(patch, READ_PX_PER_MM, spreads=spreads, centred=centred)
    if pips.value is not None and pips.confidence >= MIN_CONFIDENCE:
        return DieReading(DieKind.D6, pips.value, pips.confidence, None)
    return None


def read_d6_around(around: Image, outline: TopFace | None = None, found: FaceSquare | EllipsisType | None = ...
                   ) -> tuple[DieReading | None, FaceSquare | None]:
    """A d6's face from a wider patch around its blob (``D6_AROUND_MM`` square at ``READ_PX_PER_MM``, centred
    on the blob's top ``outline``): its top face found in the pixels
    (:func:`vision.dice.face_square.find_face_square`), cut squared to its sides at the face's own size, and its
    pips counted. The reading is None (a question) when there is no sure count, or when the blob's outline is
    clean but its middle is off the face's (a cocked die: a side shows where a flat die's cannot); the pips
    may sit closer in than the rendered dice's (``FOUND_FACE_SPREADS``); ``found``: the face already searched for
    in ``around`` (None: none there), else it is searched here; the face
    (in the patch's pixels) is None when no square face is there."""
    face = find_face_square(around, D6_SIDE_MM * READ_PX_PER_MM) if found is ... else found
    if face is None:
        return None, None
    if outline is not None and outline.fill >= CLEAN_OUTLINE - 0.05:
        n = around.shape[0]
        off_mm = math.hypot(face.centre_px[0] - n / 2.0, face.centre_px[1] - n / 2.0) / READ_PX_PER_MM
        if off_mm > FACE_OFF_OUTLINE_MM:
            return None, face
    return read_d6_face(squared_face(around, face, round(D6_PATCH_MM * READ_PX_PER_MM)), FOUND_FACE_SPREADS), face


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


def _near_d6_top(face: TopFace) -> bool:
    """A top of about a d6's size whose outline came out ragged (a dim, noisy picture; a face seen from a
    low angle against the mat's paper): its pips decide, which a d10's numeral does not pass for (but a 1)."""
    a, b = face.sides_mm
    return min(a, b) >= 0.75 * D6_SIDE_MM and max(a, b) <= 1.45 * D6_SIDE_MM and face.fill >= 0.6


def numeral_patch(view: TrayView, image: Image, axis_mm: tuple[float, float], up_deg: float,
                  size_mm: float = PATCH_MM) -> Image:
    """The crop the numeral classifier sees: a d10's top face around its numeral, for a die whose axis stands at
    ``axis_mm``, the crop's top towards ``up_deg`` in the tray frame (the face's apex, when upright)."""
    up = (math.cos(math.radians(up_deg)), math.sin(math.radians(up_deg)))
    centre = (axis_mm[0] + NUMERAL_OFFSET_MM * up[0], axis_mm[1] + NUMERAL_OFFSET_MM * up[1])
    return view.patch(image, centre, DIE_HEIGHT_MM["d10"], size_mm, PATCH_PX_PER_MM, up)


