"""Figures moving on the synthetic table: one at a time a hand picks a figure up, carries it a
hex or two and puts it down, and now and then a hand sweeps over the board hiding a few tags.

Deterministic in time: :meth:`Choreography.at` gives the figures and hands at any instant, so a
test can ask for "the frame at 2.5 s" and the benchmark can replay the same run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.synthetic.scene import Figure, Hand


def hand_at(x_mm: float, y_mm: float, height_mm: float, reach_deg: float = 100.0, length_mm: float = 260.0,
            width_mm: float = 70.0) -> Hand:
    """A hand whose fingertips are at (x, y) with the forearm reaching in from direction ``reach_deg``."""
    a = math.radians(reach_deg)
    ux, uy = math.cos(a), math.sin(a)  # from the fingertips towards the elbow
    nx, ny = -uy, ux
    tip = (x_mm - ux * 10, y_mm - uy * 10)
    pts = [
        (tip[0] + nx * width_mm * 0.3, tip[1] + ny * width_mm * 0.3),
        (tip[0] + ux * 60 + nx * width_mm / 2, tip[1] + uy * 60 + ny * width_mm / 2),
        (tip[0] + ux * length_mm + nx * width_mm * 0.45, tip[1] + uy * length_mm + ny * width_mm * 0.45),
        (tip[0] + ux * length_mm - nx * width_mm * 0.45, tip[1] + uy * length_mm - ny * width_mm * 0.45),
        (tip[0] + ux * 60 - nx * width_mm / 2, tip[1] + uy * 60 - ny * width_mm / 2),
        (tip[0] - nx * width_mm * 0.3, tip[1] - ny * width_mm * 0.3),
    ]
    return Hand(tuple(pts), height_mm)


@dataclass(frozen=True)
class Move:
    """Figure ``index`` goes from ``start`` to ``end`` (mm) between ``t0`` and ``t1`` seconds."""

    index: int
    start: tuple[float, float]
    end: tuple[float, float]
    t0: float
    t1: float


class Choreography:
    """A looping schedule of moves and hand sweeps over a set of figures."""

    def __init__(self, figures: tuple[Figure, ...], step_mm: float = 50.0, move_s: float = 1.0, rest_s: float = 2.0,
                 sweep_every_s: float = 7.0, seed: int = 0, area_mm: tuple[float, float, float, float] | None = None
                 ) -> None:
        self.initial = figures
        self.move_s, self.rest_s, self.sweep_every_s = move_s, rest_s, sweep_every_s
        rng = np.random.default_rng(seed)
        self.moves: list[Move] = []
        t = rest_s
        for i, f in enumerate(figures):  # each figure goes a step away and later comes back
            a = rng.uniform(0, 2 * math.pi)
            end = (f.x_mm + step_mm * math.cos(a), f.y_mm + step_mm * math.sin(a))
            if area_mm is not None:
                end = (min(max(end[0], area_mm[0]), area_mm[2]), min(max(end[1], area_mm[1]), area_mm[3]))
            self.moves.append(Move(i, (f.x_mm, f.y_mm), end, t, t + move_s))
            t += move_s + rest_s
            self.moves.append(Move(i, end, (f.x_mm, f.y_mm), t, t + move_s))
            t += move_s + rest_s
        self.period_s = t

    def at(self, t: float) -> tuple[tuple[Figure, ...], tuple[Hand, ...]]:
        """Figures and hands at ``t`` seconds (the schedule repeats every ``period_s``)."""
        t = t % self.period_s
        figures = list(self.initial)
        hands: list[Hand] = []
        for move in self.moves:
            f = figures[move.index]
            if t >= move.t1:
                figures[move.index] = f.moved(*move.end, self.initial[move.index].angle_deg)
            elif t >= move.t0:
                s = (t - move.t0) / (move.t1 - move.t0)
                s = s * s * (3 - 2 * s)  # ease in and out
                x = move.start[0] + s * (move.end[0] - move.start[0])
                y = move.start[1] + s * (move.end[1] - move.start[1])
                figures[move.index] = f.moved(x, y, self.initial[move.index].angle_deg + 30.0 * math.sin(math.pi * s))
                # The hand holds the figure's body from the side (player sits at +y), tag visible.
                hands.append(hand_at(x, y + f.base_mm * 0.6, f.height_mm * 0.5))
        if self.sweep_every_s > 0 and (t % self.sweep_every_s) < 0.25 and figures:
            s = (t % self.sweep_every_s) / 0.25
            target = figures[0]
            hands.append(hand_at(target.x_mm - 80 + 160 * s, target.y_mm, 150.0, reach_deg=90.0))
        return tuple(figures), tuple(hands)
