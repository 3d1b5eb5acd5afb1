"""Benchmark the camera model's hot paths against straightforward baselines, in one run.

(a) Plane remap maps (what the synthetic table and the test fixtures render through): the coarse
    grid + bilinear upsampling (``grid_step=4``) against computing every pixel exactly
    (``grid_step=1``), at 720p and 1080p; the largest difference between the two maps is reported
    in picture pixels (the accuracy price of the speed-up).
(b) Pixels → table mm for one frame's tag corners (64 tags × 4 corners, at a height): the
    vectorised ``table_from_pixels`` against one ``cv2.undistortPoints`` call and plane
    intersection per point; answers are checked to agree within 1e-6 mm.

Targets: 1080p maps p95 <= 150 ms; a frame's 256 corners p95 <= 1 ms.
Usage: ``.venv/bin/python bench/calibration_geometry.py [--quick]``; prints a table and writes
``bench/results/calibration_geometry.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from calibration.camera_model import CameraModel  # noqa: E402

MAPS_TARGET_P95_MS = 150.0
CORNERS_TARGET_P95_MS = 1.0


def timings(fn: Callable[[], object], repeats: int) -> dict[str, float]:
    """p50/p95/mean wall time in ms over ``repeats`` calls (after one warm-up)."""
    fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000.0)
    arr = np.array(samples)
    return {"p50_ms": float(np.percentile(arr, 50)), "p95_ms": float(np.percentile(arr, 95)),
            "mean_ms": float(arr.mean()), "n": repeats}


def bench_maps(size: tuple[int, int], focal: float, repeats: int) -> dict[str, Any]:
    cam = CameraModel.synthetic(image_size=size, focal_px=focal)
    exact = cam.plane_remap_maps(0.25, grid_step=1)
    fast = cam.plane_remap_maps(0.25, grid_step=4)
    max_diff = float(max(np.abs(exact[0] - fast[0]).max(), np.abs(exact[1] - fast[1]).max()))
    return {
        "size": list(size),
        "grid_step_4": timings(lambda: cam.plane_remap_maps(0.25, grid_step=4), repeats),
        "baseline_every_pixel": timings(lambda: cam.plane_remap_maps(0.25, grid_step=1), max(1, repeats // 4)),
        "max_difference_picture_px": max_diff,
    }


def per_point_baseline(cam: CameraModel, pixels: np.ndarray, height: float) -> np.ndarray:
    """One undistortion and one plane intersection per point, the way a first version would."""
    return np.array([cam.table_from_pixels(p[None, :], height)[0] for p in pixels])


def bench_corners(repeats: int) -> dict[str, Any]:
    cam = CameraModel.synthetic()
    rng = np.random.default_rng(7)
    table = np.column_stack([rng.uniform(-50, 350, 256), rng.uniform(-50, 250, 256), np.full(256, 30.0)])
    pixels = cam.project(table)
    fast = cam.table_from_pixels(pixels, 30.0)
    slow = per_point_baseline(cam, pixels, 30.0)
    assert np.abs(fast - slow).max() < 1e-6, "vectorised and per-point answers differ"
    assert np.abs(fast - table[:, :2]).max() < 1e-4, "back-projection does not return the projected points"
    return {
        "points": 256,
        "vectorised": timings(lambda: cam.table_from_pixels(pixels, 30.0), repeats),
        "baseline_per_point": timings(lambda: per_point_baseline(cam, pixels, 30.0), max(1, repeats // 10)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats (for the test suite)")
    parser.add_argument("--output", default=str(REPO / "bench" / "results" / "calibration_geometry.json"))
    args = parser.parse_args(argv)
    sizes = [((640, 360), 470.0)] if args.quick else [((1280, 720), 930.0), ((1920, 1080), 1400.0)]
    repeats = 3 if args.quick else 20
    maps = [bench_maps(size, focal, repeats) for size, focal in sizes]
    corners = bench_corners(5 if args.quick else 200)
    result = {
        "benchmark": "calibration_geometry",
        "quick": args.quick,
        "machine": {"nproc": os.cpu_count(), "cpu": platform.processor() or platform.machine(),
                    "python": platform.python_version()},
        "targets": {"maps_1080p_p95_ms": MAPS_TARGET_P95_MS, "corners_p95_ms": CORNERS_TARGET_P95_MS},
        "maps": maps,
        "corners": corners,
    }
    print(f"{'case':34} {'p50 ms':>9} {'p95 ms':>9} {'baseline p50':>13} {'ratio':>7}")
    for m in maps:
        fast, base = m["grid_step_4"], m["baseline_every_pixel"]
        label = f"remap maps {m['size'][0]}x{m['size'][1]} (step 4)"
        print(f"{label:34} {fast['p50_ms']:9.2f} {fast['p95_ms']:9.2f} {base['p50_ms']:13.2f} "
              f"{base['p50_ms'] / fast['p50_ms']:7.1f}   max diff {m['max_difference_picture_px']:.4f} px")
    fast, base = corners["vectorised"], corners["baseline_per_point"]
    print(f"{'pixels->table, 256 corners':34} {fast['p50_ms']:9.3f} {fast['p95_ms']:9.3f} {base['p50_ms']:13.3f} "
          f"{base['p50_ms'] / fast['p50_ms']:7.1f}")
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
