"""Simulate deuteranopia and protanopia on screenshots (Machado et al. 2009, severity 1, in linear RGB).

``python -m tests.app.colour_blindness [PNG ...]`` writes NAME-deuteranopia.png and NAME-protanopia.png next to each
image (default: every screenshot under artifacts/screenshots/).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

MATRICES: dict[str, np.ndarray] = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
}


def _to_linear(srgb: np.ndarray) -> np.ndarray:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate_rgb(rgb: np.ndarray, kind: str) -> np.ndarray:
    """``rgb``: float array (..., 3) in 0..1 sRGB; returns how a person with ``kind`` sees it."""
    lin = _to_linear(rgb)
    return _to_srgb(lin @ MATRICES[kind].T)


def simulate_file(path: Path) -> list[Path]:
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError(f"{path}: not a readable image")
    rgb = bgr[..., ::-1].astype(np.float64) / 255.0
    out = []
    for kind in MATRICES:
        sim = (simulate_rgb(rgb, kind) * 255.0 + 0.5).astype(np.uint8)
        target = path.with_name(f"{path.stem}-{kind}.png")
        cv2.imwrite(str(target), sim[..., ::-1])
        out.append(target)
    return out


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
    paths = [Path(a) for a in argv] or sorted(
        p for p in root.glob("*.png") if not p.stem.endswith(tuple(MATRICES))
    )
    for p in paths:
        for made in simulate_file(p):
            print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
