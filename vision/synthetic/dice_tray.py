"""A dice tray on the synthetic table: the printed mat beside the map, and a hand throwing dice into it.

:func:`with_tray` adds the mat (paper, felt-green area, corner tags, from :mod:`calibration.tray_spec`) to a
:class:`TableDrawing`. :class:`DiceTray` is what a hand does there: :meth:`DiceTray.throw` throws the asked
dice, which tumble and settle showing the asked faces; :meth:`DiceTray.clear` picks them up. It is
deterministic in table time like :class:`vision.synthetic.motion.Choreography` and thread-safe (a control
thread throws while the frame thread draws), and it knows the truth about every die in every frame.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.tray_spec import TRAY_DICTIONARY, TRAY_FILL_RGB, TraySpec, tray_spec
from engine.i18n import gettext_for
from vision.detection import dictionary_by_name
from vision.dice.faces import D6_SIDE_MM, FACE_RANGES
from vision.synthetic.dice_drawing import DIE_LOOKS, DiePose
from vision.synthetic.dice_models import resting_height, resting_rotation, rotation_about, solid
from vision.synthetic.motion import hand_at
from vision.synthetic.scene import Hand, Polygon, TableDrawing

_ = gettext_for(__name__)

PAPER = (245, 245, 245)
EDGE_GAP_MM = 40.0  # between the map and the mat
THROW_SECONDS = 1.1  # from the hand opening to the last die at rest (the first die rests a little earlier)
HAND_SECONDS = 0.35
MIN_GAP_MM = 30.0  # between the centres of dice that must not touch (nor nearly: corner to corner)
EXPOSURE_S = 1.0 / 60.0


@dataclass(frozen=True, slots=True)
class DieOrder:
    """One die to throw: its kind (d6/d10) and the face it must show."""

    kind: str
    value: int


@dataclass(frozen=True, slots=True)
class HardCase:
    """What makes a throw hard to read: glossy dice, two dice touching, one die cocked or partly outside."""

    glare: bool = False
    touching: bool = False
    cocked: bool = False
    outside: bool = False


@dataclass(frozen=True, slots=True)
class DieTruth:
    """What a die really is in one frame (tray frame mm): for tests and the benchmark."""

    kind: str
    value: int
    x_mm: float
    y_mm: float
    settled: bool
    cocked: bool = False
    outside: bool = False
    touching: bool = False
    up_deg: float = 0.0  # which way the top face's numeral reads upright, in the tray frame (0 = +x, 90 = +y)


@dataclass(frozen=True, slots=True)
class _Die:
    order: DieOrder
    end: tuple[float, float]
    rest: np.ndarray  # the rotation it comes to rest in
    spin_axis: np.ndarray
    spin_rad: float
    start: tuple[float, float]
    seconds: float
    look_index: int
    cocked: bool
    outside: bool
    touching: bool


def tray_polygons(spec: TraySpec, origin_mm: tuple[float, float]) -> tuple[Polygon, ...]:
    """The mat as flat polygons in table mm: paper, felt area, and each tag's black square and white cells."""
    ox, oy = origin_mm
    margin = spec.extent_mm + 3.0
    paper = ((ox - margin, oy - margin), (ox + spec.width_mm + margin, oy - margin),
             (ox + spec.width_mm + margin, oy + spec.height_mm + margin), (ox - margin, oy + spec.height_mm + margin))
    fill_bgr = (TRAY_FILL_RGB[2], TRAY_FILL_RGB[1], TRAY_FILL_RGB[0])
    b = spec.border_mm
    area = ((ox - b, oy - b), (ox + spec.width_mm + b, oy - b), (ox + spec.width_mm + b, oy + spec.height_mm + b),
            (ox - b, oy + spec.height_mm + b))
    polygons = [Polygon(paper, PAPER), Polygon(area, fill_bgr)]
    dictionary = dictionary_by_name(TRAY_DICTIONARY)
    cells = int(dictionary.markerSize) + 2
    for marker_id in spec.tag_centres:
        bits = cv2.aruco.generateImageMarker(dictionary, marker_id, cells, borderBits=1)
        (x0, y0), *_rest = spec.tag_corners(marker_id)
        x0, y0, cell = ox + x0, oy + y0, spec.tag_mm / cells
        polygons.append(Polygon(((x0, y0), (x0 + spec.tag_mm, y0), (x0 + spec.tag_mm, y0 + spec.tag_mm),
                                 (x0, y0 + spec.tag_mm)), (0, 0, 0)))
        for row in range(cells):
            for col in range(cells):
                if bits[row, col] > 127:
                    cx, cy = x0 + col * cell, y0 + row * cell
                    polygons.append(Polygon(((cx, cy), (cx + cell, cy), (cx + cell, cy + cell), (cx, cy + cell)),
                                            (255, 255, 255)))
    return tuple(polygons)


def tray_origin_beside(table: TableDrawing, spec: TraySpec) -> tuple[float, float]:
    """Where the mat's area starts when the mat lies right of the map, vertically centred on it."""
    w, h = table.size_mm
    margin = spec.extent_mm + 3.0
    return w + EDGE_GAP_MM + margin, max(margin, (h - spec.height_mm) / 2.0)


def with_tray(table: TableDrawing, spec: TraySpec, origin_mm: tuple[float, float]) -> TableDrawing:
    """``table`` with the mat drawn at ``origin_mm`` (the area's top-left corner, table mm), grown to hold it."""
    margin = spec.extent_mm + 3.0
    w = max(table.size_mm[0], origin_mm[0] + spec.width_mm + margin)
    h = max(table.size_mm[1], origin_mm[1] + spec.height_mm + margin)
    return replace(table, size_mm=(w, h), polygons=(*table.polygons, *tray_polygons(spec, origin_mm)))


def _ease_out(s: float) -> float:
    return 1.0 - (1.0 - s) ** 3


class DiceTray:
    """The dice in one tray on the synthetic table, thrown and picked up by a hand on command."""

    def __init__(self, spec: TraySpec | None = None, origin_mm: tuple[float, float] = (0.0, 0.0),
                 seed: int = 0) -> None:
        self.spec = spec or tray_spec()
        self.origin_mm = origin_mm
        self._rng = np.random.default_rng(seed)
        self._lock = threading.Lock()
        self._dice: tuple[_Die, ...] = ()
        self._glossy = False
        self._t0 = 0.0
        self._cleared_at: float | None = None
        self._now = 0.0
        self.throws = 0

    @property
    def name(self) -> str:
        return self.spec.name

    # -- commands -------------------------------------------------------------------------------------
    def throw(self, orders: list[DieOrder], hard: HardCase = HardCase(), at: float | None = None) -> float:
        """A hand throws ``orders`` into the tray (picking up the dice already there); returns the seconds
        until every die rests. ``at``: table time of the throw (default: now on the table's clock)."""
        if not orders:
            raise ValueError(_("a throw needs at least one die"))
        for order in orders:
            if order.kind not in FACE_RANGES:
                raise ValueError(_("unknown die {kind!r}: use d6 or d10", kind=order.kind))
            low, high = FACE_RANGES[order.kind]
            if not low <= order.value <= high:
                raise ValueError(_("a {kind} shows {low} to {high}, not {value}", kind=order.kind, low=low, high=high,
                                   value=order.value))
        if hard.touching and len(orders) < 2:
            raise ValueError(_("touching needs at least two dice: throw two or more"))
        with self._lock:
            t0 = (self._now if at is None else at) + 1e-6
            self._dice = self._plan(orders, hard)
            self._glossy = hard.glare
            self._t0 = t0
            self._cleared_at = None
            self.throws += 1
            return max(d.seconds for d in self._dice)

    def clear(self, at: float | None = None) -> None:
        """A hand picks every die up."""
        with self._lock:
            self._cleared_at = (self._now if at is None else at) + 1e-6

    def _free_spot(self, taken: list[tuple[float, float]], inset: float) -> tuple[float, float]:
        w, h = self.spec.width_mm, self.spec.height_mm
        best: tuple[float, float] = (w / 2, h / 2)
        best_gap = -1.0
        for _attempt in range(300):
            p = (float(self._rng.uniform(inset, w - inset)), float(self._rng.uniform(inset, h - inset)))
            gap = min((math.dist(p, q) for q in taken), default=1e9)
            if gap >= MIN_GAP_MM:
                return p
            if gap > best_gap:
                best, best_gap = p, gap
        return best

    def _plan(self, orders: list[DieOrder], hard: HardCase) -> tuple[_Die, ...]:
        rng = self._rng
        taken: list[tuple[float, float]] = []
        dice: list[_Die] = []
        first_look = int(rng.integers(0, len(DIE_LOOKS)))
        n = len(orders)
        for i, order in enumerate(orders):
            yaw = float(rng.uniform(0, 360))
            touching = hard.touching and i in (0, 1)
            cocked = hard.cocked and i == n - 1 and not (touching and n == 2)
            outside = hard.outside and i == n - 1 and not cocked
            if touching and i == 1:
                prev = dice[0]
                yaw = float(np.degrees(math.atan2(prev.rest[1, 0], prev.rest[0, 0])))
                a = math.radians(yaw + float(rng.choice([0.0, 90.0])))
                gap = D6_SIDE_MM + 0.4 if order.kind == prev.order.kind == "d6" else 18.5
                end = (prev.end[0] + gap * math.cos(a), prev.end[1] + gap * math.sin(a))
                if not self.spec.contains(end[0], end[1], -12.0):
                    end = (prev.end[0] - gap * math.cos(a), prev.end[1] - gap * math.sin(a))
            elif outside:
                end = (self.spec.width_mm - 2.0, float(rng.uniform(30.0, self.spec.height_mm - 30.0)))
            else:
                end = self._free_spot(taken, 24.0 if i == 0 and hard.touching else 14.0)
            taken.append(end)
            rest = resting_rotation(order.kind, order.value, yaw)
            if cocked:
                tilt_axis = np.array([math.cos(math.radians(yaw)), math.sin(math.radians(yaw)), 0.0])
                rest = rotation_about(tilt_axis, math.radians(float(rng.uniform(18.0, 28.0)))) @ rest
            axis = rng.normal(size=3)
            start = (float(np.clip(end[0] * 0.4 + self.spec.width_mm * 0.3 + rng.uniform(-15, 15), 0,
                                   self.spec.width_mm)), self.spec.height_mm + 35.0)
            dice.append(_Die(order, end, rest, axis / np.linalg.norm(axis), float(rng.uniform(4.0, 7.0) * math.pi),
                             start, THROW_SECONDS * float(rng.uniform(0.8, 1.0)), (first_look + i) % len(DIE_LOOKS),
                             cocked, outside, touching))
        return tuple(dice)

    # -- the renderer's side -----------------------------------------------------------------------------
    def _centre(self, die: _Die, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Rotation and centre (tray frame mm, height up) of a die at table time ``t``."""
        s = min(1.0, max(0.0, (t - self._t0) / die.seconds))
        tumble = max(0.0, 1.0 - s / 0.8)  # it stops tumbling, then slides the last bit flat on its face
        rotation = die.rest @ rotation_about(die.spin_axis, die.spin_rad * tumble ** 2)
        e = _ease_out(s)
        x = die.start[0] + e * (die.end[0] - die.start[0])
        y = die.start[1] + e * (die.end[1] - die.start[1])
        bounce = 45.0 * tumble ** 2 * abs(math.cos(2.0 * math.pi * s / 0.8))
        h = resting_height(die.order.kind, rotation) + bounce
        if die.cocked and s >= 1.0:
            h += 2.0  # leans on something: not quite down
        return rotation, np.array([x, y, h])

    def at(self, t: float) -> tuple[tuple[DiePose, ...], tuple[Hand, ...]]:
        """The dice (table mm) and the throwing or picking hand at table time ``t``."""
        with self._lock:
            self._now = max(self._now, t)
            ox, oy = self.origin_mm
            hands: list[Hand] = []
            if self._dice and self._t0 <= t < self._t0 + HAND_SECONDS:
                hands.append(hand_at(ox + self.spec.width_mm * 0.5, oy + self.spec.height_mm + 20.0, 80.0, 90.0))
            if self._cleared_at is not None and t >= self._cleared_at:
                if t < self._cleared_at + HAND_SECONDS:
                    hands.append(hand_at(ox + self.spec.width_mm * 0.5, oy + self.spec.height_mm * 0.5, 60.0, 90.0))
                return (), tuple(hands)
            poses = []
            for die in self._dice:
                if t < self._t0 + 0.12:
                    continue  # still in the hand
                rotation, centre = self._centre(die, t)
                _r, before = self._centre(die, t - EXPOSURE_S)
                look = DIE_LOOKS[die.look_index]
                look = replace(look, glossy=self._glossy)
                motion = centre - before
                poses.append(DiePose(die.order.kind, rotation, (ox + centre[0], oy + centre[1], centre[2]), look,
                                     (float(motion[0]), float(motion[1]), float(motion[2]))))
            return tuple(poses), tuple(hands)

    def truth(self, t: float) -> tuple[DieTruth, ...]:
        """Every die in the tray at table time ``t``: kind, face, where (tray mm) and whether it rests."""
        with self._lock:
            if self._cleared_at is not None and t >= self._cleared_at:
                return ()
            out = []
            for die in self._dice:
                if t < self._t0 + 0.12:
                    continue
                rotation, centre = self._centre(die, t)
                face = solid(die.order.kind).face(die.order.value)
                up = rotation @ (face.corners[0] - face.corners.mean(axis=0))  # the texture's top corner
                out.append(DieTruth(die.order.kind, die.order.value, float(centre[0]), float(centre[1]),
                                    t >= self._t0 + die.seconds, die.cocked, die.outside, die.touching,
                                    math.degrees(math.atan2(float(up[1]), float(up[0])))))
            return tuple(out)

    def resting_at(self) -> float | None:
        """Table time at which the last die of the current throw rests (None with no dice)."""
        with self._lock:
            if not self._dice or self._cleared_at is not None:
                return None
            return self._t0 + max(d.seconds for d in self._dice)
