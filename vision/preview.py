"""The low-rate preview picture for the app's camera screen: the frame, small, detections drawn."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.i18n import gettext_for
from engine.wire import TrackState
from vision.detection import DetectedMarker

_ = gettext_for(__name__)

STATE_COLOURS: dict[str, tuple[int, int, int]] = {
    TrackState.MOVING: (0, 200, 255),
    TrackState.SETTLED: (60, 200, 60),
    TrackState.LIFTED: (160, 160, 160),
    TrackState.LOST: (80, 80, 200),
}


def draw_detections(image: NDArray[np.uint8], markers: Iterable[DetectedMarker], states: dict[int, str],
                    width: int = 640) -> NDArray[np.uint8]:
    """A ``width``-pixel-wide copy of ``image`` with each tag outlined in its state's colour and labelled."""
    scale = width / image.shape[1]
    small = cv2.resize(image, (width, max(1, round(image.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    for m in markers:
        colour = STATE_COLOURS.get(states.get(m.marker_id, TrackState.MOVING), (255, 255, 255))
        pts = np.round(m.corners_px * scale * 16).astype(np.int32)
        cv2.polylines(small, [pts], True, colour, 2, cv2.LINE_AA, shift=4)
        corner = tuple(int(v) for v in np.round(m.corners_px[0] * scale))
        cv2.circle(small, corner, 3, colour, -1, cv2.LINE_AA)
        x, y = (int(v) for v in np.round(np.asarray(m.centre_px) * scale))
        cv2.putText(small, str(m.marker_id), (x + 8, y - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(small, str(m.marker_id), (x + 8, y - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return np.asarray(small, dtype=np.uint8)


def encode_jpeg(image: NDArray[np.uint8], quality: int = 70) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(_("JPEG encoding failed"))
    return bytes(buf.tobytes())
