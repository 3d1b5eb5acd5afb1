"""The fixed benchmark corpus for the vision benches: rendered 1080p frames of 20 tags each.

Several camera poses (tilted 10°–30°, panned), the demo hex map, 20 tags of 20–25 mm on figures
0/30/45 mm tall, placed on a jittered grid so that no two overlap, webcam-like effects. Seeded:
every run renders the same frames. Shared helpers for the bench scripts live here too.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from calibration.camera_model import CameraModel  # noqa: E402
from vision.synthetic.demo_scene import demo_table  # noqa: E402
from vision.synthetic.effects import Effects  # noqa: E402
from vision.synthetic.renderer import RenderedFrame, TableRenderer  # noqa: E402
from vision.synthetic.scene import Figure  # noqa: E402

WEBCAM = Effects(gain=0.9, gradient=0.3, blur_sigma_px=0.9, noise_sigma=3.0, jpeg_quality=85)
class CameraPose(TypedDict, total=False):
    """A synthetic camera's pose over the table (``CameraModel.synthetic``'s keywords)."""

    tilt_deg: float
    pan_deg: float
    height_mm: float


POSES: tuple[CameraPose, ...] = (
    {"tilt_deg": 10.0, "pan_deg": 0.0},
    {"tilt_deg": 20.0, "pan_deg": 30.0},
    {"tilt_deg": 30.0, "pan_deg": -40.0},
)

# A camera clamped to a shelf or on a tripod at the table's edge: tilted 45°–65° from vertical,
# 1 m from the middle of the map (so lower as it tilts), panned a little.
OBLIQUE_POSES: tuple[CameraPose, ...] = tuple(
    CameraPose(tilt_deg=tilt, pan_deg=20.0, height_mm=round(1000.0 * math.cos(math.radians(tilt)), 1))
    for tilt in (45.0, 55.0, 65.0)
)


@dataclass(frozen=True)
class Pose:
    name: str
    renderer: TableRenderer


_RENDERERS: dict[str, list[Pose]] = {}


def renderers(poses: tuple[CameraPose, ...] = POSES) -> list[Pose]:
    """One renderer per camera pose over the demo table, 1 m above it (made once per run)."""
    key = repr(poses)
    if key not in _RENDERERS:
        table = demo_table()
        _RENDERERS[key] = [
            Pose(f"tilt {pose['tilt_deg']:.0f}°",
                 TableRenderer(CameraModel.synthetic(look_at_mm=(300.0, 210.0), **pose), table))
            for pose in poses
        ]
    return _RENDERERS[key]


def scatter(rng: np.random.Generator, count: int = 20) -> tuple[Figure, ...]:
    """``count`` tags with distinct random ids on a jittered 8×5 grid over the map."""
    ids = rng.permutation(100)[:count]
    cells = rng.permutation(40)[:count]
    return tuple(
        Figure(int(i), 75.0 + (c % 8) * 64 + rng.uniform(-8, 8), 70.0 + (c // 8) * 68 + rng.uniform(-8, 8),
               float(rng.uniform(-180, 180)), float(rng.uniform(20, 25)), float(rng.choice([0.0, 30.0, 45.0])))
        for i, c in zip(ids, cells, strict=True)
    )


def corpus(frames: int, effects: Effects = WEBCAM, seed: int = 1, poses: list[Pose] | None = None
           ) -> Iterator[tuple[str, RenderedFrame]]:
    """``frames`` rendered frames cycling through the poses: (pose name, frame)."""
    rng = np.random.default_rng(seed)
    poses = poses or renderers()
    for k in range(frames):
        pose = poses[k % len(poses)]
        yield pose.name, pose.renderer.render(scatter(rng), effects=effects, rng=rng)


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import cv2

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "opencv": cv2.__version__,
            "platform": platform.platform()}


def write_result(name: str, result: dict[str, Any], out_dir: str | None) -> Path:
    folder = Path(out_dir) if out_dir else REPO / "bench" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return path


def progress(done: int, total: int, what: str) -> None:
    """A one-line progress report on stderr (benches take longer than a second)."""
    step = max(1, total // 10)
    if done == total or done % step == 0:
        print(f"  {what}: {done}/{total}", file=sys.stderr, flush=True)
