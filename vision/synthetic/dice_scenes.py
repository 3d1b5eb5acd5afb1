"""Ready-made dice scenes for tests, the benchmark and the numeral classifier's training: the demo map with
a tray beside it, seen by the table's camera or by a tray camera from an angle, in a chosen condition.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from calibration.camera_model import CameraModel
from calibration.tray_spec import tray_spec
from vision.synthetic.demo_scene import demo_table, table_centre
from vision.synthetic.dice_tray import DiceTray, DieOrder, DieTruth, HardCase, tray_origin_beside, with_tray
from vision.synthetic.effects import Effects
from vision.synthetic.renderer import TableRenderer

Image = np.ndarray


@dataclass(frozen=True)
class DiceCondition:
    """How a tray is seen: by the table's camera (tilted ``tilt_deg``) or a tray camera ``tray_camera_mm`` away
    looking down at ``tilt_deg`` from vertical; the webcam's effects; and the throw's hard case."""

    name: str
    tilt_deg: float = 15.0
    tray_camera_mm: float | None = None
    effects: Effects = field(default_factory=Effects)
    hard: HardCase = field(default_factory=HardCase)


CONDITIONS: dict[str, DiceCondition] = {c.name: c for c in (
    DiceCondition("plain"),
    DiceCondition("glare", hard=HardCase(glare=True)),
    DiceCondition("dim", effects=Effects(gain=0.35, noise_sigma=4.0)),
    DiceCondition("oblique45", 45.0, 420.0),
    DiceCondition("oblique55", 55.0, 420.0),
    DiceCondition("oblique65", 65.0, 420.0),
    DiceCondition("touching", hard=HardCase(touching=True)),
    DiceCondition("cocked", hard=HardCase(cocked=True)),
    DiceCondition("outside", hard=HardCase(outside=True)),
)}
READABLE = ("plain", "glare", "dim", "oblique45", "oblique55", "oblique65")  # every die must be read right
DOUBTFUL = ("touching", "cocked", "outside")  # the marked dice must come out as doubts


class DiceScene:
    """One camera over the demo map and a tray beside it; throws dice and renders frames with their truth."""

    def __init__(self, condition: DiceCondition, seed: int = 0) -> None:
        self.condition = condition
        spec = tray_spec()
        base = demo_table()
        origin = tray_origin_beside(base, spec)
        self.table = with_tray(base, spec, origin)
        if condition.tray_camera_mm is None:
            self.camera = CameraModel.synthetic(look_at_mm=table_centre(self.table), tilt_deg=condition.tilt_deg)
        else:
            centre = (origin[0] + spec.width_mm / 2, origin[1] + spec.height_mm / 2)
            t = math.radians(condition.tilt_deg)
            d = condition.tray_camera_mm
            main = CameraModel.synthetic()
            self.camera = CameraModel.looking_at(main.camera_matrix, main.dist_coeffs, main.image_size,
                                                 (centre[0], centre[1] + d * math.sin(t), d * math.cos(t)),
                                                 (centre[0], centre[1], 0.0))
        self.renderer = TableRenderer(self.camera, self.table)
        self.tray = DiceTray(spec, origin, seed=seed)
        self.rng = np.random.default_rng(seed)

    def throw(self, orders: list[DieOrder], at: float, hard: HardCase | None = None) -> float:
        """Throw at table time ``at``; returns the table time when every die rests."""
        return at + self.tray.throw(orders, hard or self.condition.hard, at=at)

    def frame(self, t: float, rng: np.random.Generator | None = None) -> tuple[Image, tuple[DieTruth, ...]]:
        """The picture at table time ``t`` and the dice's truth then; the webcam's noise is drawn from ``rng``
        (default: the scene's own generator, which each frame advances)."""
        poses, hands = self.tray.at(t)
        rendered = self.renderer.render(None, hands, self.condition.effects, self.rng if rng is None else rng, poses)
        return rendered.image, self.tray.truth(t)


def random_orders(rng: np.random.Generator, count: int, d10_share: float = 0.5) -> list[DieOrder]:
    out = []
    for _ in range(count):
        if rng.random() < d10_share:
            out.append(DieOrder("d10", int(rng.integers(0, 10))))
        else:
            out.append(DieOrder("d6", int(rng.integers(1, 7))))
    return out
