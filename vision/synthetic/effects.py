"""Webcam-like degradations applied to a rendered frame: light, blur, sensor noise, JPEG."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

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


@lru_cache(maxsize=4)  # a few recent ones: a run that varies the light per frame must not hoard them
def _gradient(height: int, width: int, strength: float, angle_deg: float) -> NDArray[np.uint8]:
    """The light fall-off as a 3-channel 8-bit gain image (255 = full light); callers must not modify it."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    a = math.radians(angle_deg)
    t = (xs * math.cos(a) + ys * math.sin(a)) / max(width, height)
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    gain = np.round(255.0 * (1.0 - strength * t)).astype(np.uint8)
    return np.ascontiguousarray(np.repeat(gain[:, :, None], 3, axis=2))


def apply_effects(image: Image, effects: Effects, rng: np.random.Generator) -> Image:
    """Return a degraded copy of ``image`` (BGR); deterministic for a given ``rng`` state.

    Everything runs in OpenCV on 8/16-bit images so that a 1080p frame takes milliseconds, which
    keeps the synthetic camera close to real time.
    """
    out: NDArray[np.uint8] = image
    if effects.blur_sigma_px > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), effects.blur_sigma_px), dtype=np.uint8)
    if effects.gradient > 0 or effects.gain != 1.0:
        if effects.gradient > 0:
            gain = _gradient(out.shape[0], out.shape[1], effects.gradient, effects.gradient_angle_deg)
            out = np.asarray(cv2.multiply(out, gain, scale=effects.gain / 255.0), dtype=np.uint8)
        else:
            out = np.asarray(cv2.convertScaleAbs(out, alpha=effects.gain), dtype=np.uint8)
    if effects.noise_sigma > 0:
        noise = np.empty(out.shape[:2], np.int16)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(noise, np.array([0.0]), np.array([effects.noise_sigma]))
        noisy = cv2.add(out.astype(np.int16), cv2.merge([noise, noise, noise]), dtype=cv2.CV_16S)
        out = np.asarray(cv2.convertScaleAbs(noisy), dtype=np.uint8)
    if effects.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
    return np.ascontiguousarray(out, dtype=np.uint8)
