"""Keep bench/calibration_geometry.py working: quick mode, output shape and answers (never timing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_quick_bench_writes_its_table_and_json(tmp_path: Path) -> None:
    out = tmp_path / "calibration_geometry.json"
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "calibration_geometry.py"), "--quick",
                           "--output", str(out)], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "remap maps 640x360" in proc.stdout and "pixels->table" in proc.stdout
    data = json.loads(out.read_text())
    assert data["benchmark"] == "calibration_geometry" and data["quick"] is True
    (maps,) = data["maps"]
    assert maps["size"] == [640, 360]
    for key in ("grid_step_4", "baseline_every_pixel"):
        assert {"p50_ms", "p95_ms", "mean_ms", "n"} <= set(maps[key])
    # Correctness, not speed: the fast maps stay within a tenth of a picture pixel of the exact ones.
    assert maps["max_difference_picture_px"] < 0.1
    assert data["corners"]["points"] == 256
