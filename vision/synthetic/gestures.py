"""A hand's gestures with one figure, for measuring when the tracker calls a figure at rest.

Each :class:`Gesture` is a choreography (``at(t)`` → figures and hands, as :class:`~vision.synthetic.motion.
Choreography`) with its truth: when the hand let go of the figure (``released_s``, None when it never does)
and where. While the hand holds the figure it trembles (``tremor_mm``: a smooth sway of the figure and the
hand together, as a held figure has); after letting go, the hand withdraws towards the player. Kinds:

``put_down``       carried to the next hex and let go.
``put_down_lift``  carried to the next hex, touched down and held there ``hold_s``, then lifted away again.
``hesitate``       carried half-way, held still over the border ``hold_s``, then carried on and let go.
``slide``          slid along the table across a border (never lifted), paused on it, slid on and let go.

A judgement is false when the tracker calls the figure settled while the hand still holds it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from vision.synthetic.motion import Choreography, hand_at
from vision.synthetic.scene import Figure, Hand

KINDS = ("put_down", "put_down_lift", "hesitate", "slide")
WITHDRAW_MM_S = 400.0  # a hand that let go moves away this fast
WITHDRAW_S = 0.3


@dataclass(frozen=True)
class _Key:
    t: float
    x: float
    y: float
    angle: float


class Gesture(Choreography):
    """One figure moved by one hand from ``start`` towards ``end`` (mm), following ``kind`` (no schedule of its own)."""

    def __init__(self, kind: str, figure: Figure, end: tuple[float, float], start_s: float = 0.3,
                 move_s: float = 0.6, hold_s: float = 0.4, tremor_mm: float = 0.6, seed: int = 0) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown gesture {kind!r}; one of {', '.join(KINDS)}")
        super().__init__(())
        self.kind, self.figure, self.tremor_mm = kind, figure, tremor_mm
        sx, sy, a = figure.x_mm, figure.y_mm, figure.angle_deg
        ex, ey = end
        mx, my = (sx + ex) / 2, (sy + ey) / 2
        t0 = start_s
        if kind == "put_down":
            keys = [_Key(t0, sx, sy, a), _Key(t0 + move_s, ex, ey, a)]
        elif kind == "put_down_lift":
            keys = [_Key(t0, sx, sy, a), _Key(t0 + move_s, ex, ey, a), _Key(t0 + move_s + hold_s, ex, ey, a)]
        else:  # hesitate, slide: half-way, a pause on the border, on to the end
            half = move_s / 2
            keys = [_Key(t0, sx, sy, a), _Key(t0 + half, mx, my, a), _Key(t0 + half + hold_s, mx, my, a),
                    _Key(t0 + move_s + hold_s, ex, ey, a)]
        self.keys = keys
        self.picked_s = t0
        self.released_s: float | None = None if kind == "put_down_lift" else keys[-1].t
        self.end = (ex, ey)
        self.duration_s = keys[-1].t + 0.7
        rng = np.random.default_rng(seed)
        # The tremor: a few sines of random phase at 4–9 Hz (a hand's physiological tremor and sway).
        self._waves = [(float(rng.uniform(4, 9)), float(rng.uniform(0, 2 * math.pi)),
                        float(rng.uniform(0, 2 * math.pi))) for _ in range(3)]

    def _tremor(self, t: float) -> tuple[float, float, float]:
        if self.tremor_mm <= 0:
            return 0.0, 0.0, 0.0
        dx = sum(math.sin(2 * math.pi * f * t + p) for f, p, _ in self._waves)
        dy = sum(math.sin(2 * math.pi * f * t + q) for f, _, q in self._waves)
        scale = self.tremor_mm / math.sqrt(1.5)  # three unit sines: standard deviation √1.5 per axis
        return dx * scale, dy * scale, dx * scale * 1.5  # a held figure also turns a little (degrees)

    def _pose(self, t: float) -> tuple[float, float, float]:
        keys = self.keys
        if t <= keys[0].t:
            return keys[0].x, keys[0].y, keys[0].angle
        for a, b in pairwise(keys):
            if t <= b.t:
                s = (t - a.t) / max(b.t - a.t, 1e-9)
                s = s * s * (3 - 2 * s)  # ease in and out, as a hand does
                return a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), a.angle + s * (b.angle - a.angle)
        return keys[-1].x, keys[-1].y, keys[-1].angle

    def held(self, t: float) -> bool:
        """True while the hand holds the figure (the span in which calling it settled is a false judgement)."""
        return t >= self.picked_s and (self.released_s is None or t < self.released_s)

    def at(self, t: float) -> tuple[tuple[Figure, ...], tuple[Hand, ...]]:
        f = self.figure
        x, y, angle = self._pose(t)
        grip = f.base_mm * 0.6
        if t < self.picked_s:
            return (f,), ()
        if self.released_s is not None and t >= self.released_s:  # let go: the hand withdraws, the figure lies
            away = t - self.released_s
            if away > WITHDRAW_S:
                return (f.moved(x, y, angle),), ()
            return (f.moved(x, y, angle),), (hand_at(x, y + grip + WITHDRAW_MM_S * away, f.height_mm * 0.5
                                                     + 200.0 * away),)
        lift_at = self.keys[-1].t
        if self.kind == "put_down_lift" and t >= lift_at:  # lifted away again: in the palm, off towards the player
            away = t - lift_at
            return (), (hand_at(x, y + 60.0 * away / 0.3, f.height_mm + 40.0, reach_deg=90.0),) if away < 0.5 else ()
        dx, dy, da = self._tremor(t)
        height = f.height_mm * 0.5 if self.kind != "slide" else f.height_mm * 0.3
        return (f.moved(x + dx, y + dy, angle + da),), (hand_at(x + dx, y + dy + grip, height),)
