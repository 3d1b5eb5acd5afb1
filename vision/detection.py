"""ArUco detection: ``detect(frame) → markers`` in pixels, tuned for small tags in 1080p frames.

Speed: OpenCV's default detector thresholds the full frame with three adaptive windows. Ours
finds candidate squares on a half-resolution image with one window, re-reads at full resolution
the squares whose bits OpenCV could not read there (blurred tags), and refines every corner at
full resolution by fitting the tag's edges. Set ``scale=1.0`` for very small or distant tags.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.decoding import CodeBook, clockwise, decode_quads
from vision.refine import refine_quads

DEFAULT_DICTIONARY = "DICT_4X4_100"
MIN_EDGE_STRENGTH = 8.0  # grey levels per pixel across a rescued candidate's border

DICTIONARY_NAMES: tuple[str, ...] = tuple(sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_") and n.isupper()))


def dictionary_name(name: str) -> str:
    """Normalise ``6X6_250``, ``dict_6x6_250`` or ``DICT_6X6_250`` to OpenCV's name; clear error if unknown."""
    candidate = name.strip().upper()
    if not candidate.startswith("DICT_"):
        candidate = "DICT_" + candidate
    if candidate not in DICTIONARY_NAMES:
        short = ", ".join(n.removeprefix("DICT_") for n in DICTIONARY_NAMES)
        raise ValueError(f"unknown ArUco dictionary {name!r}; choose one of: {short}")
    return candidate


def dictionary_by_name(name: str) -> cv2.aruco.Dictionary:
    """The predefined dictionary called ``name`` (any spelling :func:`dictionary_name` accepts)."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary_name(name)))


@dataclass(frozen=True, slots=True)
class DetectedMarker:
    """One tag found in one image: id and corners in pixels, clockwise from the tag's top-left."""

    marker_id: int
    corners_px: NDArray[np.float64]  # shape (4, 2)
    confidence: float = 1.0

    @property
    def centre_px(self) -> tuple[float, float]:
        """The tag's centre: where its diagonals cross (exact under perspective, unlike the mean)."""
        return diagonal_intersection(self.corners_px)

    @property
    def angle_deg(self) -> float:
        """Direction of the tag's top edge in the image (x right, y down), degrees in (-180, 180]."""
        d = self.corners_px[1] - self.corners_px[0]
        return math.degrees(math.atan2(float(d[1]), float(d[0])))


def diagonal_intersection(corners: NDArray[np.float64]) -> tuple[float, float]:
    """Where the lines corner0–corner2 and corner1–corner3 cross (falls back to the mean)."""
    p0, p1, p2, p3 = (np.asarray(c, dtype=np.float64) for c in corners)
    d1, d2 = p2 - p0, p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-12:
        m = corners.mean(axis=0)
        return float(m[0]), float(m[1])
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    c = p0 + t * d1
    return float(c[0]), float(c[1])


def _to_gray(frame: NDArray[np.uint8]) -> NDArray[np.uint8]:
    if frame.ndim == 3:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return frame


class MarkerDetector:
    """A configured ArUco detector; create once, call :meth:`detect` per frame (not thread-safe).

    ``scale`` is the resolution candidates are searched at, ``threshold_window`` the one adaptive
    threshold window (pixels of the reduced image) and ``threshold_constant`` how much darker than
    its surroundings a pixel must be to count as part of a tag's border, ``rescue`` re-reads at full resolution the
    squares OpenCV rejected, ``refine`` fits the tag edges at full resolution for sub-pixel corners.
    """

    def __init__(self, dictionary: str = DEFAULT_DICTIONARY, scale: float = 0.5, threshold_window: int = 3,
                 threshold_constant: float = 5.0, rescue: bool = True, refine: bool = True) -> None:
        if not 0.1 <= scale <= 1.0:
            raise ValueError(f"detection scale must be within 0.1..1.0, got {scale}")
        self.dictionary_name = dictionary_name(dictionary)
        self.dictionary = dictionary_by_name(self.dictionary_name)
        self.scale = scale
        self.rescue = rescue
        self.refine = refine
        params = cv2.aruco.DetectorParameters()
        params.adaptiveThreshWinSizeMin = threshold_window
        params.adaptiveThreshWinSizeMax = threshold_window
        params.adaptiveThreshWinSizeStep = 10
        # OpenCV's 7 grey levels lose tags in a dim room; 5 keeps them at no measurable cost.
        params.adaptiveThreshConstant = threshold_constant
        # Perimeter limits are relative to the (reduced) image's larger side.
        params.minMarkerPerimeterRate = 0.02
        params.maxMarkerPerimeterRate = 1.0
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        self._detector = cv2.aruco.ArucoDetector(self.dictionary, params)
        self._codes = CodeBook(self.dictionary)

    def detect(self, frame: NDArray[np.uint8]) -> list[DetectedMarker]:
        """Find every tag of the dictionary in ``frame`` (BGR or grey)."""
        gray = _to_gray(frame)
        small = gray
        if self.scale < 1.0:
            size = (max(1, round(gray.shape[1] * self.scale)), max(1, round(gray.shape[0] * self.scale)))
            small = np.asarray(cv2.resize(gray, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
        corners, ids, confidences, rejected = self._detector.detectMarkersWithConfidence(small)
        factor = np.array([gray.shape[1] / small.shape[1], gray.shape[0] / small.shape[0]])

        def full_res(quads: Sequence[Any]) -> NDArray[np.float64]:
            pts = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
            return np.asarray((pts + 0.5) * factor - 0.5, dtype=np.float64)

        accepted = full_res(corners) if ids is not None and len(ids) > 0 else np.zeros((0, 4, 2))
        candidates = self._plausible(full_res(rejected), accepted, gray.shape) if self.rescue else np.zeros((0, 4, 2))
        if candidates.shape[0]:
            # A rejected square may be the outline of the white label around a tag rather than the
            # tag's black border: also try it shrunk by the one-cell quiet zone.
            cells = int(self.dictionary.markerSize) + 2
            centre = candidates.mean(axis=1, keepdims=True)
            candidates = np.concatenate([candidates, centre + (candidates - centre) * (cells / (cells + 2))])
        quads = np.concatenate([accepted, candidates])
        strength = np.full(quads.shape[0], np.inf)
        if self.refine and quads.shape[0]:
            quads, strength = refine_quads(gray, quads)
        n_ok = accepted.shape[0]
        markers: list[DetectedMarker] = []
        if n_ok:
            conf = np.asarray(confidences, dtype=np.float64).reshape(-1)
            markers = [DetectedMarker(int(i), quads[k], float(np.clip(conf[k], 0.0, 1.0)))
                       for k, i in enumerate(np.asarray(ids).reshape(-1))]
        rest = quads[n_ok:][strength[n_ok:] >= MIN_EDGE_STRENGTH]
        taken = [np.asarray(m.centre_px) for m in markers]
        for _, marker_id, ordered, confidence in decode_quads(gray, clockwise(rest), self._codes):
            centre = ordered.mean(axis=0)
            if any(float(np.hypot(*(centre - c))) < 3.0 for c in taken):
                continue  # the same square found twice (inner and outer contour)
            markers.append(DetectedMarker(marker_id, ordered, confidence))
            taken.append(centre)
        return markers

    @staticmethod
    def _plausible(quads: NDArray[np.float64], accepted: NDArray[np.float64],
                   shape: tuple[int, ...]) -> NDArray[np.float64]:
        """Rejected squares worth re-reading: tag-sized, not too skewed, not on top of a found tag."""
        if quads.shape[0] == 0:
            return quads
        sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
        shortest, longest = sides.min(axis=1), sides.max(axis=1)
        keep = (shortest >= 8.0) & (longest <= 2.5 * shortest) & (longest <= 0.25 * max(shape))
        if accepted.shape[0]:
            dist = np.linalg.norm(quads.mean(axis=1)[:, None, :] - accepted.mean(axis=1)[None, :, :], axis=2)
            keep &= dist.min(axis=1) > shortest / 2
        return np.asarray(quads[keep], dtype=np.float64)


class OpenCVDefaultDetector:
    """OpenCV's ``ArucoDetector`` with default parameters: the benchmark's baseline."""

    def __init__(self, dictionary: str = DEFAULT_DICTIONARY) -> None:
        self._detector = cv2.aruco.ArucoDetector(dictionary_by_name(dictionary), cv2.aruco.DetectorParameters())

    def detect(self, frame: NDArray[np.uint8]) -> list[DetectedMarker]:
        corners, ids, _ = self._detector.detectMarkers(_to_gray(frame))
        if ids is None:
            return []
        return [DetectedMarker(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2))
                for c, i in zip(corners, np.asarray(ids).reshape(-1), strict=True)]


def detect(frame: NDArray[np.uint8], detector: MarkerDetector | None = None) -> list[DetectedMarker]:
    """Convenience: detect with ``detector`` or a default one (build your own to reuse it per frame)."""
    return (detector or MarkerDetector()).detect(frame)
