"""Table → map registration: where the scenario's hex map lies on the table, kept up to date.

The map frame is the scenario layout's millimetres (``engine.layout.Layout.hex_to_mm``); the table
frame is the calibration sheet's. Anchor tags (reserved ids, :mod:`calibration.anchor_tags`) on
named hexes give point pairs (seen on the table ↔ expected on the map); a 2D rigid, similarity or
affine transform is fitted to them, robust to a misplaced or misread anchor by trying every
minimal subset (anchors are few, so this is exhaustive RANSAC), then refitted by least squares on
the inliers. :class:`RegistrationTracker` re-estimates as frames come and reports drift (camera
or board bumped) beyond a fraction of a hex. :func:`manual_registration` is the no-tag fallback:
figures placed on three named hexes.

Everything here is pure: plain ``id → (x_mm, y_mm)`` mappings in, values out.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from calibration.anchor_tags import ANCHOR_DICTIONARY, ANCHOR_IDS
from calibration.quality import DEFAULT_HEX_ACROSS_FLATS_MM
from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

__all__ = [
    "ANCHOR_DICTIONARY",
    "ANCHOR_IDS",
    "DriftReport",
    "ManualPoint",
    "Registration",
    "RegistrationError",
    "RegistrationTracker",
    "estimate_registration",
    "manual_registration",
    "registration_drift",
]

FloatArray = NDArray[np.float64]
Point = tuple[float, float]

KINDS = ("rigid", "similarity", "affine")
_MIN_POINTS = {"rigid": 2, "similarity": 2, "affine": 3}
# An anchor further than this from where the fit puts it is an outlier (moved tile, misread tag).
DEFAULT_INLIER_HEX = 0.25
# Drift beyond this share of a hex is reported: a figure near an edge could change hex.
DEFAULT_DRIFT_HEX = 0.2
# Manual points further than this from the fit mean a figure is not on the hex it was named for.
MANUAL_TOLERANCE_HEX = 0.3
_MAX_SUBSETS = 500


class RegistrationError(ValueError):
    """The map cannot be registered from what was seen; the message says what to check."""


@dataclass(frozen=True, eq=False)
class Registration:
    """A fitted table → map transform and how well the anchors agree with it."""

    matrix: FloatArray  # 2×3: map = A @ table + b
    kind: str
    inliers: tuple[int, ...]
    outliers: tuple[int, ...]
    residual_mm_rms: float
    residual_mm_max: float
    hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM
    missing: tuple[int, ...] = ()  # expected anchors not seen
    unknown: tuple[int, ...] = ()  # anchors seen that the map does not name

    @property
    def residual_hex(self) -> float:
        return self.residual_mm_rms / self.hex_mm

    @property
    def scale(self) -> float:
        """Mean scale of the linear part (1.0 when table and map millimetres agree)."""
        return float(math.sqrt(abs(np.linalg.det(self.matrix[:, :2]))))

    @property
    def rotation_deg(self) -> float:
        """Rotation of the map relative to the table (clockwise as seen from above, y down)."""
        return float(math.degrees(math.atan2(self.matrix[1, 0], self.matrix[0, 0])))

    def table_to_map(self, points: ArrayLike) -> FloatArray:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return np.asarray(pts @ self.matrix[:, :2].T + self.matrix[:, 2], dtype=np.float64)

    def map_to_table(self, points: ArrayLike) -> FloatArray:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        inv = np.linalg.inv(self.matrix[:, :2])
        return np.asarray((pts - self.matrix[:, 2]) @ inv.T, dtype=np.float64)


def fit_transform(src: FloatArray, dst: FloatArray, kind: str) -> FloatArray:
    """Least-squares 2×3 transform with ``dst ≈ A @ src + b`` (Umeyama for rigid/similarity)."""
    if kind == "affine":
        design = np.concatenate([src, np.ones((src.shape[0], 1))], axis=1)
        solution, *_fit = np.linalg.lstsq(design, dst, rcond=None)
        return np.asarray(solution.T, dtype=np.float64)
    mu_s, mu_d = src.mean(axis=0), dst.mean(axis=0)
    s0, d0 = src - mu_s, dst - mu_d
    cov = d0.T @ s0 / src.shape[0]
    u, sing, vt = np.linalg.svd(cov)
    sign = np.diag([1.0, 1.0 if np.linalg.det(u) * np.linalg.det(vt) > 0 else -1.0])
    rot = u @ sign @ vt
    scale = 1.0
    if kind == "similarity":
        var = float((s0**2).sum() / src.shape[0])
        scale = float(np.trace(np.diag(sing) @ sign) / var) if var > 0 else 1.0
    a = scale * rot
    return np.asarray(np.concatenate([a, (mu_d - a @ mu_s)[:, None]], axis=1), dtype=np.float64)


def _errors(matrix: FloatArray, src: FloatArray, dst: FloatArray) -> FloatArray:
    return np.asarray(np.linalg.norm(src @ matrix[:, :2].T + matrix[:, 2] - dst, axis=1), dtype=np.float64)


def _cross(u: FloatArray, v: FloatArray) -> float:
    """z of the 2D cross product (twice the signed triangle area)."""
    return float(u[0] * v[1] - u[1] * v[0])


def _degenerate(src: FloatArray, kind: str) -> bool:
    if kind == "affine":
        a, b, c = src[:3]
        return abs(_cross(b - a, c - a)) < 1e-6 * max(1.0, float(np.ptp(src, axis=0).max()) ** 2)
    return float(np.linalg.norm(src[1] - src[0])) < 1e-6


def estimate_registration(
    observed_table: Mapping[int, Point],
    expected_map: Mapping[int, Point],
    kind: str = "similarity",
    hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM,
    inlier_hex: float = DEFAULT_INLIER_HEX,
) -> Registration:
    """Fit table → map from anchors seen (``id → table mm``) and where the map puts them (``id → map mm``)."""
    if kind not in KINDS:
        raise ValueError(_("unknown transform kind {kind!r}; use one of {KINDS}", kind=kind, KINDS=KINDS))
    if not expected_map:
        raise RegistrationError(_("the map names no anchor hexes; add anchors to the scenario or use the manual "
                                  "registration (figures on three named hexes)."))
    common = sorted(set(observed_table) & set(expected_map))
    missing = tuple(sorted(set(expected_map) - set(observed_table)))
    unknown = tuple(sorted(set(observed_table) - set(expected_map)))
    need = _MIN_POINTS[kind]
    if len(common) < need:
        seen = ", ".join(map(str, common)) or "none"
        raise RegistrationError(_("only {count} of the map's anchors seen (ids {seen}); need {need}. Check that "
                                  "anchors {join} are on their hexes, in view and not covered by figures.",
                                  count=len(common), seen=seen, need=need, join=', '.join(map(str, missing))))
    src = np.array([observed_table[i] for i in common], dtype=np.float64)
    dst = np.array([expected_map[i] for i in common], dtype=np.float64)
    threshold = inlier_hex * hex_mm
    best: tuple[int, float, NDArray[np.bool_]] | None = None
    subsets = list(itertools.islice(itertools.combinations(range(len(common)), need), _MAX_SUBSETS))
    for subset in subsets:
        idx = list(subset)
        if _degenerate(src[idx], kind):
            continue
        errors = _errors(fit_transform(src[idx], dst[idx], kind), src, dst)
        mask = errors <= threshold
        score = (int(mask.sum()), -float(np.sum(np.minimum(errors, threshold) ** 2)))
        if best is None or score > (best[0], best[1]):
            best = (score[0], score[1], mask)
    if best is None or best[0] < need:
        raise RegistrationError(_("the anchors seen do not agree on where the map is (no consistent subset): check "
                                  "that each anchor tag is on the hex the scenario names for it."))
    mask = best[2]
    matrix = fit_transform(src[mask], dst[mask], kind)
    errors = _errors(matrix, src, dst)
    mask = errors <= threshold  # the refit can bring a borderline anchor in or push one out
    if int(mask.sum()) >= need:
        matrix = fit_transform(src[mask], dst[mask], kind)
        errors = _errors(matrix, src, dst)
    inliers = tuple(i for i, m in zip(common, mask, strict=True) if m)
    outliers = tuple(i for i, m in zip(common, mask, strict=True) if not m)
    if outliers:
        log.warning("anchors %s do not fit the others (moved tile or wrong hex?)", outliers)
    inlier_err = errors[mask]
    return Registration(matrix, kind, inliers, outliers, float(np.sqrt(np.mean(inlier_err**2))),
                        float(inlier_err.max()), hex_mm, missing, unknown)


@dataclass(frozen=True)
class DriftReport:
    """How far the map has moved on the table between two registrations."""

    max_mm: float
    max_hex: float
    exceeded: bool


def registration_drift(previous: Registration, current: Registration, map_points: ArrayLike,
                       threshold_hex: float = DEFAULT_DRIFT_HEX) -> DriftReport:
    """Largest table displacement of ``map_points`` (e.g. the map's hex centres or corners)."""
    pts = np.asarray(map_points, dtype=np.float64).reshape(-1, 2)
    if pts.shape[0] == 0:
        raise ValueError(_("drift needs at least one map point to compare"))
    moved = np.linalg.norm(current.map_to_table(pts) - previous.map_to_table(pts), axis=1)
    max_mm = float(moved.max())
    max_hex = max_mm / current.hex_mm
    return DriftReport(max_mm, max_hex, max_hex > threshold_hex)


@dataclass
class RegistrationTracker:
    """Keeps the registration current from a stream of anchor observations and reports drift.

    A new estimate replaces the accepted one only after it has disagreed with it beyond the
    threshold for ``confirm_updates`` consecutive observations (one hand passing over an anchor
    must not move the map); small changes are taken at once.
    """

    expected_map: Mapping[int, Point]
    map_points: Sequence[Point]
    kind: str = "similarity"
    hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM
    threshold_hex: float = DEFAULT_DRIFT_HEX
    confirm_updates: int = 3
    current: Registration | None = None
    _pending: int = field(default=0, repr=False)

    def update(self, observed_table: Mapping[int, Point]) -> DriftReport | None:
        """Take one frame's anchors; returns a drift report when the map moved beyond the threshold."""
        try:
            estimate = estimate_registration(observed_table, self.expected_map, self.kind, self.hex_mm)
        except RegistrationError as exc:
            log.debug("anchors not usable this frame: %s", exc)
            return None
        if self.current is None:
            self.current = estimate
            return None
        drift = registration_drift(self.current, estimate, self.map_points, self.threshold_hex)
        if not drift.exceeded:
            self._pending = 0
            self.current = estimate
            return None
        self._pending += 1
        if self._pending < self.confirm_updates:
            return None
        self._pending = 0
        self.current = estimate
        log.warning("map moved %.1f mm (%.2f hex) on the table", drift.max_mm, drift.max_hex)
        return drift


@dataclass(frozen=True)
class ManualPoint:
    """One manual-registration pair: the hex's label, its map position, the figure's table position."""

    label: str
    map_mm: Point
    table_mm: Point


def manual_registration(points: Sequence[ManualPoint], hex_mm: float = DEFAULT_HEX_ACROSS_FLATS_MM,
                        kind: str = "rigid") -> Registration:
    """Register from figures the player placed on named hexes (three, not in a line)."""
    if len(points) < 3:
        raise RegistrationError(_("manual registration needs figures on three named hexes, got {count}.",
                                  count=len(points)))
    src = np.array([p.table_mm for p in points], dtype=np.float64)
    dst = np.array([p.map_mm for p in points], dtype=np.float64)
    spread = float(np.linalg.norm(dst - dst.mean(axis=0), axis=1).max())
    area = abs(_cross(dst[1] - dst[0], dst[2] - dst[0])) / 2.0
    if spread < hex_mm or area < 0.5 * hex_mm**2:
        raise RegistrationError(_("the three hexes are too close together or in a line; pick hexes far apart, e.g. "
                                  "near three corners of the map."))
    matrix = fit_transform(src, dst, kind)
    errors = _errors(matrix, src, dst)
    worst = int(errors.argmax())
    if errors[worst] > MANUAL_TOLERANCE_HEX * hex_mm:
        raise RegistrationError(_("the figure for hex {label} is {value:.0f} mm from where the other two put that "
                                  "hex: check it stands on that hex, centred, and confirm again.",
                                  label=points[worst].label, value=errors[worst]))
    return Registration(matrix, kind, tuple(range(len(points))), (), float(np.sqrt(np.mean(errors**2))),
                        float(errors.max()), hex_mm)
