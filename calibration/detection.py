"""Find the ChArUco sheet in one image: its chessboard corners, their ids, and how sharp the view is.

A thin, typed layer over :class:`cv2.aruco.CharucoDetector` so the rest of the calibration code
deals in plain arrays (:class:`BoardView`) and never in OpenCV's nested tuples.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.board_spec import BoardSpec
from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int32]

# Fewer corners than this cannot constrain a pose well (OpenCV itself needs 4, and collinear
# subsets are common at that count).
MIN_CORNERS_PER_VIEW = 6


@dataclass(frozen=True, eq=False)
class BoardView:
    """The sheet as seen in one image: corner pixels and ids, image size, sharpness."""

    corners_px: FloatArray  # (N, 2)
    ids: IntArray  # (N,)
    image_size: tuple[int, int]  # (width, height)
    sharpness: float  # ~1 for crisp edges, falls towards 0 with blur (see edge_sharpness)
    source: str = ""

    @property
    def count(self) -> int:
        return int(self.ids.shape[0])


def to_gray(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Grey copy of a BGR/BGRA/grey image."""
    if image.ndim == 2:
        return image
    code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    return np.asarray(cv2.cvtColor(image, code), dtype=np.uint8)


def edge_sharpness(gray: NDArray[np.uint8], corners_px: FloatArray) -> float:
    """Steepest edge slope over the board's contrast, inside the corners' hull.

    A crisp black/white edge changes by about its full contrast within one or two pixels
    (≈0.5–1); a blur of σ pixels spreads it to ≈0.4/σ. Independent of lighting level.
    """
    if corners_px.shape[0] < 3:
        return 0.0
    hull = cv2.convexHull(corners_px.astype(np.float32)).reshape(-1, 2)
    x, y, w, h = cv2.boundingRect(hull)
    if w < 4 or h < 4:
        return 0.0
    patch = gray[y:y + h, x:x + w].astype(np.float32)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, (hull - (x, y)).astype(np.int32), 1)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    inside = mask.astype(bool)
    magnitude = np.hypot(gx, gy)[inside]
    values = patch[inside]
    if magnitude.size < 16:
        return 0.0
    contrast = float(np.percentile(values, 95) - np.percentile(values, 5))
    if contrast < 10.0:
        return 0.0
    return float(np.percentile(magnitude, 99.5)) / contrast


class BoardDetector:
    """Detects one :class:`BoardSpec` sheet; reuse it across frames (it holds OpenCV state)."""

    def __init__(self, spec: BoardSpec) -> None:
        self.spec = spec
        self.board = spec.make_board()
        detector_params = cv2.aruco.DetectorParameters()
        detector_params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.CharucoDetector(self.board, cv2.aruco.CharucoParameters(), detector_params)

    def detect(self, image: NDArray[np.uint8], source: str = "") -> BoardView | None:
        """The sheet's corners in ``image``, or None if fewer than :data:`MIN_CORNERS_PER_VIEW` are seen."""
        gray = to_gray(image)
        corners, ids, _marker_corners, _marker_ids = self._detector.detectBoard(gray)
        if ids is None or corners is None or len(ids) < MIN_CORNERS_PER_VIEW:
            log.debug("no board in %s (%d corners)", source or "image", 0 if ids is None else len(ids))
            return None
        pts = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
        id_arr = np.asarray(ids, dtype=np.int32).reshape(-1)
        h, w = gray.shape[:2]
        return BoardView(pts, id_arr, (w, h), edge_sharpness(gray, pts), source)

    def object_points(self, view: BoardView) -> FloatArray:
        """The sheet positions (board frame, mm, z = 0) of the view's corners, in the view's order."""
        all_corners = np.asarray(self.board.getChessboardCorners(), dtype=np.float64).reshape(-1, 3)
        return np.asarray(all_corners[view.ids], dtype=np.float64)
