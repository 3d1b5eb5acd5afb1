"""Keep bench/dice_sparse.py working: on frames 0.3 s apart every throw still raises the tray's roll exactly
once and no settled die is reported with another face than the one rendered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_sparse_frames_count_every_throw_once_and_read_no_wrong_face(tmp_path: Path) -> None:
    out = tmp_path / "sparse.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "dice_sparse.py"), "--throws", "3", "--gaps", "0.3",
                           "--out", str(out)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    [result] = json.loads(out.read_text())["results"]
    assert result["throws"] == 3
    assert (result["right"], result["missed"], result["extra"], result["wrong_faces"]) == (3, 0, 0, 0), result
    assert result["dice_read"] > 0  # faces were read, so "no wrong face" says something
