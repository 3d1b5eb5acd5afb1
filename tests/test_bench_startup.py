"""Keep bench/startup.py working: a quick run starts the real engine and camera service once each, and the windowed
demo once, and reports their start-up beside a same-run baseline and the import profile of each start path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.window  # the demo's window: on this display, or on an Xvfb the bench starts
def test_startup_bench_reports_each_service_with_a_baseline_and_the_heaviest_imports(tmp_path: Path) -> None:
    if not (shutil.which("Xvfb") or os.environ.get("DISPLAY")):
        pytest.skip("no display: install Xvfb (apt-get install xvfb) to time the demo's window")
    out = tmp_path / "startup.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "startup.py"), "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["quick"] is True and result["runs"] == 1
    assert {"nproc", "cpu", "python", "load_1min_at_start", "load_1min_at_end"} <= set(result["machine"])
    base = result["baseline"]["python_pass"]["wall_s"]
    assert 0 < base < result["engine_serving_s"]  # a service cannot start before the interpreter does
    assert result["camera_heartbeat_s"] > 0 and result["camera_publishing_s"] > 0  # in either order
    assert result["engine_serving_cpu_s"] > 0 and result["camera_publishing_cpu_s"] > 0
    for name in ("engine", "vision"):
        imports = result["imports"][name]
        assert 0 < len(imports["top10"]) <= 10 and imports["total_ms"] > 0
        ms = [t["ms"] for t in imports["top10"]]
        assert ms == sorted(ms, reverse=True) and sum(ms) <= imports["total_ms"] + 0.5
    assert "cv2" not in {t["package"] for t in result["imports"]["engine"]["top10"]}  # the engine loads no OpenCV
    # hexa demo: its stages in the order the demo goes through them, the board on screen after them all
    stages = result["demo_stages_s"]
    assert base < stages["camera_service_started_s"] < stages["camera_service_ready_s"] < stages["engine_ready_s"]
    assert stages["engine_ready_s"] <= stages["app_opening_s"] < result["demo_first_frame_s"]
    assert result["demo_first_frame_cpu_s"] > 0
    assert {"demo", "vision", "engine"} <= set(result["demo_samples"][0]["cpu_s"])  # every process of the demo counted
    assert "kivy" in {t["package"] for t in result["imports"]["app"]["top10"]}
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("start-up: engine ") and "camera service" in last and "python -c pass" in last
    assert "hexa demo first frame" in last
