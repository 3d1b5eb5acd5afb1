"""Webcam-like degradations applied to a rendered frame: light, blur, sensor noise, JPEG."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Effects:
    """How the virtual webcam spoils the picture. The defaults look like a decent webcam indoors."""

    gain: float = 1.0  # overall light level; 0.35 is a dim room
    gradient: float = 0.25  # light falls off by this fraction from one side of the frame to the other
    gradient_angle_deg: float = 30.0
    blur_sigma_px: float = 0.7  # optics and focus; 2.0 is a noticeably soft image
    noise_sigma: float = 3.0  # sensor noise in grey levels
    jpeg_quality: int | None = 85  # MJPG webcams compress every frame; None = no compression

    @staticmethod
    def clean() -> Effects:
        """A near-ideal picture (still slightly soft, as every real lens is)."""
        return Effects(gain=1.0, gradient=0.0, blur_sigma_px=0.5, noise_sigma=0.0, jpeg_quality=None)


_gradients: dict[tuple[int, int, float, float], NDArray[np.float32]] = {}


def _gradient(height: int, width: int, strength: float, angle_deg: float) -> NDArray[np.float32]:
    key = (height, width, strength, angle_deg)
    if key not in _gradients:
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        a = math.radians(angle_deg)
        t = (xs * math.cos(a) + ys * math.sin(a)) / max(width, height)
        t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
        _gradients[key] = (1.0 - strength * t).astype(np.float32)[:, :, None]
    return _gradients[key]


def apply_effects(image: Image, effects: Effects, rng: np.random.Generator) -> Image:
    """Return a degraded copy of ``image`` (BGR); deterministic for a given ``rng`` state."""
    out: NDArray[np.uint8] = image
    if effects.blur_sigma_px > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), effects.blur_sigma_px), dtype=np.uint8)
    if effects.gain != 1.0 or effects.gradient > 0 or effects.noise_sigma > 0:
        f = out.astype(np.float32)
        if effects.gradient > 0:
            f *= _gradient(f.shape[0], f.shape[1], effects.gradient, effects.gradient_angle_deg)
        if effects.gain != 1.0:
            f *= effects.gain
        if effects.noise_sigma > 0:
            f += rng.normal(0.0, effects.noise_sigma, size=f.shape[:2]).astype(np.float32)[:, :, None]
        out = np.clip(f, 0, 255).astype(np.uint8)
    if effects.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
    return np.ascontiguousarray(out, dtype=np.uint8)
