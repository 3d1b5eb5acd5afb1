"""Read a d6's top face from its pips, sampled where a die's pips sit in the face's own frame.

The patch shows the plane of the top face seen straight from above, cut around the top face found in the tray
and turned square to it. On the face lie the nine places a pip can take (a 3 × 3 grid, half a half side
apart); the face's frame (centre and turn) is searched within a millimetre and a few degrees, where no pip can
pass for another place. Each place is scored by how far its darkest (or, on a dark die, brightest) part
departs from the face's body towards the pips' colour, relative to the strongest pip: so the light's level and
the face's contrast set no threshold. Every standard layout is symmetric about the face's centre, so the
places are taken in opposite pairs. A highlight on a glossy face only adds light: on a face with light pips it
can light one place, never both of a pair, so a pair is on only as much as its weaker place; on a face with
dark pips it can hide one pip of a pair, so a pair is off only as much as its stronger place (one dark place
left alone puts the layout in doubt). A layout is believed when all its places score high and all the others
low; the gap between the two is the reading's confidence. The face must hold nothing else of the pips' colour
(a numeral, a side's pips); a lone central spot, or a face with one light spot let pass as a highlight, must
also show a square's four corners of the body's colour (a d10's kite does not).

Real dice set their pips at various distances from the middle, many closer in than the rendered ones: the
layout may be tried at smaller spreads as well. Pips set close together are within a spot's reach of the
places between them, so there a layout is believed only when each of its places lies on a pip's middle (the
face's own level there, not the darkest within reach, is the pips'), and only with all its pips and nothing
else (no lone spot, no highlight let pass).

The face is read in its grey, in each colour channel alone (real dice: red pips on a blue die have the
body's brightness; a marbled swirl of one hue vanishes in another channel) and in opposite-colour channels
(red against green, yellow against blue, how coloured: a white highlight on a dark die, as light as its red
pips in the other channels, vanishes there). Channels that show the pips far
less clearly than the clearest one are not heard; of the rest, any that reads another value puts the face in
doubt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice.channels import channel_median
from vision.dice.faces import D6_SIDE_MM, PIP_RADIUS, PIP_SPOT
from vision.dice.parts import parts

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]
# The places in opposite pairs (face coordinates in half sides / PIP_SPOT, u right and v down).
UNITS: dict[str, tuple[tuple[int, int], ...]] = {
    "centre": ((0, 0),), "diagonal": ((-1, -1), (1, 1)), "anti": ((1, -1), (-1, 1)),
    "across": ((-1, 0), (1, 0)), "along": ((0, -1), (0, 1)),
}
LAYOUTS: dict[int, tuple[frozenset[str], ...]] = {  # each value's pips as pairs, in either quarter turn
    1: (frozenset({"centre"}),),
    2: (frozenset({"diagonal"}), frozenset({"anti"})),
    3: (frozenset({"diagonal", "centre"}), frozenset({"anti", "centre"})),
    4: (frozenset({"diagonal", "anti"}),),
    5: (frozenset({"diagonal", "anti", "centre"}),),
    6: (frozenset({"diagonal", "anti", "across"}), frozenset({"diagonal", "anti", "along"})),
}
# A place's level is the darkest (brightest) within this: a highlight over part of a pip spares the rest.
SPOT_REACH_MM = 0.5
INK_SHARE = 0.5  # a pixel this far from the body's level towards the pips' is ink
INK_BORDER_MM = 1.0  # the face's edge (soft in the picture, and a side's colour beyond) is not searched for ink
PIP_ROOM_MM = 1.0  # around each of the layout's pips: its soft edge, and the frame's search step
MIN_STRAY_MM2 = 1.5  # ink of less than this is noise
HIGHLIGHT_PIPS = 1.6  # the one light spot let pass on a light-pipped face is no bigger than this many pips
CORNER_AT = 0.72  # the corners looked at, in half sides along both axes (a frame off by its search step stays in)
CORNER_BESIDE_PIPS = 0.8  # … on a face with corner pips: beyond them
CORNER_MM = 1.8  # … squares this big
CORNER_STEP = 0.3  # a corner is of the body's colour within this share of its brightness (summed B, G, R)
CORNER_BRIGHTNESS_FLOOR = 150.0  # … or of this, on a dark die (noise)
# … but on a face holding nothing but its pips (no light spot let pass), one corner may be lighter than the body in
# every channel: a highlight on a glossy cube's rounded edge. A face with a light spot let pass keeps all four: there
# the spot may be a pip, the face found off the pips' middle (on the training photos, a 2 read as a 1).
LIT_CORNERS = 1
NEARER = 0.01  # margin given up per search step to stay nearer to where the face was found
SEARCH_MM, SEARCH_STEP_MM = 0.8, 0.4  # the face's frame is searched this far around the patch's middle
SEARCH_DEG, SEARCH_STEP_DEG = 8.0, 4.0  # … and turned this far
MIN_CONTRAST = 14.0  # grey levels between the body and its pips, at the least
NOISE_CONTRAST = 5.0  # … and this many times the body's own noise
WEAKER_CHANNEL = 0.5  # a channel whose pips depart less than this share of the clearest channel's is not heard
# At a spread other than the layout's own, each of its places departs from the body this share of the pips' depth
# at least (a pip's middle): on the training photos, 4s with big close pips read as 6s had their middle pair at
# 0.25-0.45 (on the pips' rims), a 4 read as a 5 and a 3 as a 2 at 0.65 and 0.67.
CENTRED_SHARE = 0.75
ONE_OFF_CENTRE_MM = 0.5  # a 1 beside a light spot let pass lies this close to the face's found centre
# A face read in the opposite-colour channels alone must be read this surely (and be no 1): on the real photos'
# dice placed by hand (patches framed by their labels' boxes, sides and all, at 18 turns), opposite colours
# heard alone misread faces framed too small, mostly as 1s, at 0.5-0.7 and one at 0.999 (as a 2).
COLOUR_ONLY_CONFIDENCE = 0.75


@dataclass(frozen=True, slots=True)
class PipReading:
    value: int | None
    confidence: float
    spots: int  # the pips counted (the layout's), 0 when none was believed


def _places(frames: FloatArray, half_px: float) -> FloatArray:
    """The pip places (F, 9, 2 pixels) of frames given as rows (x, y, angle in radians, spread), in ``PLACES``
    order; a frame's spread scales the pips' offset from the centre (``PIP_SPOT``)."""
    grid = np.array(PLACES, np.float64) * PIP_SPOT * half_px  # (9, 2): u, v
    spread = frames[:, 3:4]
    gu, gv = grid[None, :, 0] * spread, grid[None, :, 1] * spread
    cos_a, sin_a = np.cos(frames[:, 2])[:, None], np.sin(frames[:, 2])[:, None]
    x = frames[:, 0:1] + gu * cos_a - gv * sin_a
    y = frames[:, 1:2] + gu * sin_a + gv * cos_a
    return np.stack([x, y], axis=2)


PLACES: tuple[tuple[int, int], ...] = tuple(p for places in UNITS.values() for p in places)
_UNIT_INDEX = {name: [PLACES.index(p) for p in places] for name, places in UNITS.items()}
_LAYOUT_ROWS = [(value, on) for value, layouts in LAYOUTS.items() for on in layouts]
# Each pair's two places (a lone centre twice), in ``UNITS`` order; which pairs each layout has on (rows in
# ``_LAYOUT_ROWS`` order).
_PAIRS = np.array([[idx[0], idx[-1]] for idx in _UNIT_INDEX.values()], np.intp)
_LAYOUT_ON = np.array([[name in on for name in UNITS] for _value, on in _LAYOUT_ROWS], bool)


def _unit_scores(place: FloatArray, weaker: bool) -> FloatArray:
    """(F, 5) scores of the pairs, in ``UNITS`` order, from (F, 9) place scores: each pair's weaker place
    (``weaker``) or its stronger one."""
    pairs = place[:, _PAIRS]
    return np.asarray(pairs.min(axis=2) if weaker else pairs.max(axis=2), np.float64)


def _layout_margins(on_units: FloatArray, off_units: FloatArray) -> tuple[NDArray[np.intp], FloatArray]:
    """For each frame, the best layout's index in ``_LAYOUT_ROWS`` and its margin (weakest on − strongest off)."""
    weakest_on = np.where(_LAYOUT_ON, on_units[:, None, :], np.inf).min(axis=2)  # (F, layouts)
    strongest_off = np.where(_LAYOUT_ON, -np.inf, off_units[:, None, :]).max(axis=2)
    table = weakest_on - strongest_off
    best = np.argmax(table, axis=1)
    return best, table[np.arange(len(best)), best]


def _only_pips(gray: NDArray[np.float32], frame: FloatArray, on: frozenset[str], half_px: float, px_per_mm: float,
               body: float, depth: float, dark_pips: bool) -> tuple[bool, bool, NDArray[np.bool_]]:
    """Whether the face holds nothing of the pips' colour besides the layout's pips (a numeral, a side's
    pips or a scratch would): at most one small light spot is let pass on a light-pipped face, a highlight;
    whether that was needed; and the face's pixels of its body (neither pip nor ink)."""
    ys, xs = _pixel_grid(gray.shape[0])
    cos_a, sin_a = math.cos(float(frame[2])), math.sin(float(frame[2]))
    du, dv = xs - float(frame[0]), ys - float(frame[1])
    u, v = du * cos_a + dv * sin_a, -du * sin_a + dv * cos_a
    inner = half_px - INK_BORDER_MM * px_per_mm
    region = (np.abs(u) <= inner) & (np.abs(v) <= inner)
    keep = (PIP_RADIUS * half_px + PIP_ROOM_MM * px_per_mm) ** 2
    for name in on:
        for pu, pv in UNITS[name]:
            spot = PIP_SPOT * half_px * float(frame[3])
            region &= (u - pu * spot) ** 2 + (v - pv * spot) ** 2 > keep
    ink = ((body - gray) if dark_pips else (gray - body)) > INK_SHARE * depth
    stray = np.asarray(ink & region, np.uint8)
    _n, _labels, stats, _c = parts(stray)
    areas = stats[1:, cv2.CC_STAT_AREA] / px_per_mm ** 2
    spots = areas[areas >= MIN_STRAY_MM2]
    plain = region & ~ink
    if len(spots) == 0:
        return True, False, plain
    pip_mm2 = math.pi * (PIP_RADIUS * half_px / px_per_mm) ** 2
    return not dark_pips and len(spots) == 1 and float(spots[0]) <= HIGHLIGHT_PIPS * pip_mm2, True, plain


@lru_cache(maxsize=4)
def _pixel_grid(n: int) -> NDArray[np.float32]:
    """Each pixel's row and column in an ``n`` × ``n`` patch (2, n, n), made once per size; never written to."""
    grid = np.mgrid[0:n, 0:n].astype(np.float32)
    grid.flags.writeable = False
    return grid


def _pips_centred(gray: NDArray[np.float32], frame: FloatArray, on: frozenset[str], half_px: float, body: float,
                  depth: float, dark_pips: bool) -> bool:
    """Whether every pip place of the layout ``on`` lies on a pip's middle, not on the rim of one beside it:
    the face's own level there (no spot reach) departs from the body by ``CENTRED_SHARE`` of the pips' depth.
    Pips set close together are within a spot's reach of the places between them."""
    idx = [i for name in on for i in _UNIT_INDEX[name]]
    places = _places(frame[None, :], half_px)[0, idx].astype(np.float32)  # (P, 2)
    levels = cv2.remap(gray, places[None, :, 0], places[None, :, 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).astype(np.float64)[0]
    departs = (body - levels) if dark_pips else (levels - body)
    return bool(float(departs.min()) >= CENTRED_SHARE * depth)


def _corners_are_face(patch: Image, frame: FloatArray, half_px: float, px_per_mm: float,
                      plain: NDArray[np.bool_], at: float, lit_corners: int = 0) -> bool:
    """Whether the face's four corners are of its body's colour (that of its ``plain`` pixels), as on a
    cube's square face (a d10's kite leaves them to its neighbouring faces or the felt). They are looked at
    ``at`` half sides from the centre along both axes; ``lit_corners`` of them may be lighter than the body in
    every channel instead (a glossy cube's rounded edge reflects the lamp near a corner)."""
    n = patch.shape[0]
    if not plain.any():
        return False
    body = channel_median(patch[plain])
    brightness = max(float(body.sum()), CORNER_BRIGHTNESS_FLOOR)
    cos_a, sin_a = math.cos(float(frame[2])), math.sin(float(frame[2]))
    w = max(1, round(CORNER_MM / 2.0 * px_per_mm))
    lit = 0
    for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        u, v = su * at * half_px, sv * at * half_px
        x, y = round(float(frame[0]) + u * cos_a - v * sin_a), round(float(frame[1]) + u * sin_a + v * cos_a)
        part = patch[max(0, y - w):min(n, y + w + 1), max(0, x - w):min(n, x + w + 1)].reshape(-1, 3).astype(np.float64)
        if part.size == 0:
            return False
        if float(np.median(np.abs(part - body).sum(axis=1))) > CORNER_STEP * brightness:
            if not bool(np.all(np.median(part, axis=0) > body)):
                return False
            lit += 1
    return lit <= lit_corners


def _opponents(patch: Image) -> list[NDArray[np.float32]]:
    """The patch's opposite-colour channels: red against green, yellow (red and green) against blue, and how
    coloured each pixel is (its brightest channel over its darkest). A glossy highlight is white, the same in
    every channel, so it vanishes from the first two and is as uncoloured as a black body in the third, while
    coloured pips on a body of another hue (red pips on a black or blue die, yellow on green) stand out: in the
    grey and in each colour channel alone, such a face's highlight is as light as its pips and passes for
    stray ink."""
    b, g, r = (np.asarray(c, np.float32) for c in cv2.split(patch))
    return [r - g, (r + g) / 2.0 - b, np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)]


def count_pips(patch: Image, px_per_mm: float, face_mm: float = D6_SIDE_MM, spreads: tuple[float, ...] = (1.0,),
               centred: bool = False) -> PipReading:
    """Read the face near the middle of ``patch`` (BGR, the top face's plane seen from above, ``px_per_mm``).

    The face is read in its brightness, in each colour channel alone and in opposite-colour channels
    (:func:`_opponents`): red pips on a blue die, a marbled swirl of one hue or a white highlight on a dark die
    stand out (or vanish) in one channel and not in the grey. The surest reading is
    kept when no channel reads another value; channels that read nothing (no contrast, stray ink) are silent.
    ``spreads`` are how far out the pips may sit, as shares of the layout's ``PIP_SPOT`` (dice differ: many
    real dice set theirs closer in); each is read on its own, and any that reads another value puts the face
    in doubt as a channel does. ``centred``: the patch's middle may lie off the face's by half a pip spacing or
    more (a top placed from a blob's outline, not found in the face's own pixels): a 6 is then believed only with
    each of its places on a pip's middle, at every spread (:meth:`_Candidate.believed`).
    """
    plain = [cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), *cv2.split(patch)]
    channels = [(c, False) for c in plain] + [(c, True) for c in _opponents(patch)]
    ready = [(_channel(np.asarray(c, np.float32), px_per_mm, face_mm), colour) for c, colour in channels]
    found = [(candidate, colour) for channel, colour in ready for spread in spreads
             if (candidate := _candidate(patch, channel, px_per_mm, face_mm, spread)) is not None]
    # Where one channel shows the pips far better than another, the weaker one's reading does not count: the
    # candidates are checked clearest first, and once one is believed, those far less clear need no checking.
    found.sort(key=lambda f: -f[0].depth)
    heard: list[tuple[int, float, float, bool]] = []
    for candidate, colour in found:
        if heard and candidate.depth < WEAKER_CHANNEL * heard[0][2]:
            break
        if candidate.believed(centred):
            heard.append((candidate.value, candidate.margin, candidate.depth, colour))
        elif centred and candidate.value == 6 and candidate.believed():
            # A 6 off its pips' middles puts the face in doubt: what it leaves (its corners, a 4) is no answer (a
            # cocked 6, stretched towards the camera, was read so as a 4).
            return PipReading(None, 0.0, 0)
    if not heard:
        return PipReading(None, 0.0, 0)
    if len({r[0] for r in heard}) > 1:
        return PipReading(None, 0.0, 0)
    # On the opposite colours' word alone (the grey and the colour channels silent), a face is read only surely,
    # and never as a lone spot: there a face framed too small reads its middle pip alone (its other pips beyond).
    if heard[0][0] == 1 and all(r[3] for r in heard):
        return PipReading(None, 0.0, 0)
    value, confidence, _depth, _colour = max(heard, key=lambda r: r[1])
    if all(r[3] for r in heard) and confidence < COLOUR_ONLY_CONFIDENCE:
        return PipReading(None, 0.0, 0)
    return PipReading(value, round(min(confidence, 1.0), 3), value)


def _count_in(patch: Image, raw: NDArray[np.float32], px_per_mm: float, face_mm: float,
              spread: float = 1.0) -> tuple[int, float, float]:
    """The face's value (0 when none is believed) and the reading's margin, read in one channel ``raw`` of
    ``patch``, with the pips' depth (how far they depart from the body)."""
    candidate = _candidate(patch, _channel(raw, px_per_mm, face_mm), px_per_mm, face_mm, spread)
    if candidate is None or not candidate.believed():
        return 0, 0.0, 0.0
    return candidate.value, candidate.margin, candidate.depth


@dataclass(frozen=True, slots=True)
class _Candidate:
    """The layout that fits one channel best, before the checks that it is the face's (:meth:`believed`)."""

    patch: Image
    gray: NDArray[np.float32]
    frame: FloatArray  # the best fitting frame: x, y, angle in radians, spread
    start: tuple[float, float]  # where the face was found (the patch's middle)
    value: int
    on: frozenset[str]
    margin: float
    depth: float  # the layout's pips' median departure from the body
    body: float
    dark_pips: bool
    half_px: float
    px_per_mm: float

    def believed(self, centred: bool = False) -> bool:
        """Whether the face holds nothing else of the pips' colour, and a lone spot (or a face with a light spot
        let pass) shows a square's corners; at a spread other than the layout's own (or at any, for a 6,
        ``centred``), whether every pip lies on a pip's middle."""
        frame, value, on, half_px, px_per_mm = self.frame, self.value, self.on, self.half_px, self.px_per_mm
        clean, highlight, plain = _only_pips(self.gray, frame, on, half_px, px_per_mm, self.body, self.depth,
                                             self.dark_pips)
        if not clean:
            return False
        # A lone central spot, or a face with a light spot let pass, could be a d10's numeral: the face must
        # then show a square's corners. A lone light pip off the face's centre beside another light spot is no
        # 1: the spot may be a 2's other pip, closer in than the layout's (dice differ in how far out their pips
        # sit), with the face found off the pips' middle (a side that shows).
        at = CORNER_AT if value == 1 else CORNER_BESIDE_PIPS
        found_at = np.array([self.start[0], self.start[1], 0.0, 1.0])
        off_mm = math.hypot(float(frame[0]) - self.start[0], float(frame[1]) - self.start[1]) / px_per_mm
        # At a spread other than the layout's own, only a face with all its pips and nothing else counts: a lone
        # spot says nothing of how far out the pips sit.
        # A face read where its top was placed rather than found (``centred``) may lie off by half a pip spacing
        # along a row of pips: the search's frame then sets a row's places on the rims of the pips beside them
        # (within a spot's reach of both), and a 4's two rows pass for a 6's three. Seen from a tray camera at
        # 67.5°, a 4 read so as a 6 at 0.77 (its top found 2.8 mm off in a blob with another die; read at its
        # fitted top, a 4 at 0.96): there a 6's places must each lie on a pip's middle, as at another spread. No
        # other layout has a place halfway between two pips of another (a 5's or a 3's centre lies 5.7 mm from the
        # corner pips, beyond a pip's rim and a spot's reach), and seen steeply, blurred along the camera's ray,
        # other values read right fail the check: with every layout checked, 1,440 throws held out at 55–70° (seed
        # 7200 of bench/dice_steep.py) asked 10 right 2s–5s more.
        own_spread = float(frame[3]) == 1.0
        plain_spread = (own_spread and (not centred or value != 6)) or (
            (own_spread or (value != 1 and not highlight))
            and _pips_centred(self.gray, frame, on, half_px, self.body, self.depth, self.dark_pips))
        lone_off = value == 1 and highlight and off_mm > ONE_OFF_CENTRE_MM
        return plain_spread and not lone_off and (
            (value != 1 and not highlight)
            or any(_corners_are_face(self.patch, f, half_px, px_per_mm, plain, at, 0 if highlight else LIT_CORNERS)
                   for f in (frame, found_at)))


@dataclass(frozen=True, slots=True)
class _Channel:
    """One channel of the patch made ready to read: lightly blurred, its darkest and brightest within a spot's
    reach, the face's body level and the picture's noise."""

    gray: NDArray[np.float32]
    darkest: NDArray[np.float32]
    brightest: NDArray[np.float32]
    body: float
    noise: float


def _channel(raw: NDArray[np.float32], px_per_mm: float, face_mm: float) -> _Channel | None:
    """``raw`` made ready to read (:class:`_Channel`); None when the patch holds no face's middle."""
    n = raw.shape[0]
    gray = np.asarray(cv2.GaussianBlur(raw, (0, 0), 0.3 * px_per_mm), np.float32)
    half_px = face_mm / 2.0 * px_per_mm
    inner = round(half_px * 0.85)
    cx = cy = round(n / 2.0)
    face = gray[max(0, cy - inner):cy + inner, max(0, cx - inner):cx + inner]
    if face.size == 0:
        return None
    body = float(np.median(face))
    # The picture's noise: what a light blur takes away, typically (pips' edges are too few to count).
    residual = raw[max(0, cy - inner):cy + inner, max(0, cx - inner):cx + inner] - face
    noise = float(np.median(np.abs(residual))) * 1.48
    reach = max(1, round(SPOT_REACH_MM * px_per_mm))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    return _Channel(gray, np.asarray(cv2.erode(gray, disc), np.float32), np.asarray(cv2.dilate(gray, disc), np.float32),
                    body, noise)


def _candidate(patch: Image, channel: _Channel | None, px_per_mm: float, face_mm: float, spread: float = 1.0
               ) -> _Candidate | None:
    """The layout fitting one ``channel`` of ``patch`` best with a margin above 0, or None.

    The face's frame is searched a little around the patch's middle and axes: within a millimetre and a few
    degrees no pip can pass for another place, so the best fitting frame is the face's.
    """
    if channel is None:
        return None
    n = patch.shape[0]
    gray, darkest, brightest, body, noise = (channel.gray, channel.darkest, channel.brightest, channel.body,
                                             channel.noise)
    half_px = face_mm / 2.0 * px_per_mm
    start = (n / 2.0, n / 2.0)  # the patch is cut around the top face found in the tray, turned square to it
    search = _search(start, spread, px_per_mm, half_px)
    frames = search.frames
    floor = max(MIN_CONTRAST, NOISE_CONTRAST * noise)
    depths = []
    for levels, sign in ((darkest, 1.0), (brightest, -1.0)):
        sampled = cv2.remap(levels, search.x, search.y, cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float64)  # (F, 9)
        depths.append(sign * (body - sampled))
    # The pips are the face's far end from its body: darker on a light die, lighter on a dark one.
    dark_pips = float(depths[0].max()) >= float(depths[1].max())
    depth = depths[0] if dark_pips else depths[1]
    strongest = depth.max(axis=1, keepdims=True)
    if float(strongest.max()) < floor:
        return None
    place = np.clip(depth / np.maximum(strongest, 1e-6), 0.0, 1.0)
    # A highlight only adds light: it can make a light spot (never both of a pair), or hide a dark pip.
    # So on a light-pipped face a pair is off unless both its places are lit; on a dark-pipped face a pair
    # with one dark place is not off — its partner may lie under a highlight — and the layout is in doubt.
    on_units = _unit_scores(place, True)
    rows, margins = _layout_margins(on_units, on_units if not dark_pips else _unit_scores(place, False))
    margins = np.where(strongest[:, 0] >= floor, margins, -1.0)
    # Of the frames fitting (almost) as well, the one nearest to where the face was found.
    k = int(np.argmax(margins - search.farther))
    if not margins[k] > 0.0:
        return None
    value, on = _LAYOUT_ROWS[int(rows[k])]
    pip_depth = float(np.median([depth[k, i] for name in on for i in _UNIT_INDEX[name]]))
    return _Candidate(patch, gray, frames[k], start, value, on, float(margins[k]), pip_depth, body, dark_pips,
                      half_px, px_per_mm)


@dataclass(frozen=True, slots=True)
class _Search:
    """The face's frames searched and where their pip places fall, made once per patch size and spread."""

    frames: FloatArray  # (F, 4): x, y, angle in radians, spread
    x: NDArray[np.float32]  # (F, 9): each frame's pip places (``PLACES`` order), their columns …
    y: NDArray[np.float32]  # … and rows
    farther: FloatArray  # (F,): the margin given up for each frame's distance from where the face was found


@lru_cache(maxsize=16)
def _search(start: tuple[float, float], spread: float, px_per_mm: float, half_px: float) -> _Search:
    """:class:`_Search` for a face found at ``start`` (its side ``2 half_px``), its pips ``spread`` out."""
    frames = _search_frames(start, spread, px_per_mm)
    places = _places(frames, half_px).astype(np.float32)  # (F, 9, 2)
    away = (np.hypot(frames[:, 0] - start[0], frames[:, 1] - start[1]) / (SEARCH_STEP_MM * px_per_mm)
            + np.abs(frames[:, 2]) / math.radians(SEARCH_STEP_DEG))
    x, y, farther = np.ascontiguousarray(places[:, :, 0]), np.ascontiguousarray(places[:, :, 1]), NEARER * away
    for array in (x, y, farther):
        array.flags.writeable = False
    return _Search(frames, x, y, farther)


def _search_frames(start: tuple[float, float], spread: float, px_per_mm: float) -> FloatArray:
    """The face's frames searched (rows of x, y, angle in radians, spread): within ``SEARCH_MM`` of ``start`` and
    ``SEARCH_DEG`` of the patch's axes; never written to."""
    shifts = np.arange(-SEARCH_MM, SEARCH_MM + 1e-6, SEARCH_STEP_MM) * px_per_mm
    turns = np.radians(np.arange(-SEARCH_DEG, SEARCH_DEG + 1e-6, SEARCH_STEP_DEG))
    sx, sy, st, ss = np.meshgrid(shifts, shifts, turns, np.array([spread]), indexing="ij")
    frames = np.stack([start[0] + sx.ravel(), start[1] + sy.ravel(), st.ravel(), ss.ravel()], axis=1)
    frames.flags.writeable = False
    return frames
