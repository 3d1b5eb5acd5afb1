"""Where calibration views come from: a folder of images, a video file, or a live camera.

Each source fails with a :class:`CalibrationError` that names the problem and the fix (empty
folder, unreadable image, missing video, no camera at that index).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.solver import CalibrationError
from engine.i18n import gettext_for

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# Videos are sampled so that about this many frames are examined, whatever their length.
TARGET_VIDEO_SAMPLES = 150

Image = NDArray[np.uint8]


def image_files(folder: str | Path) -> list[Path]:
    """Image files in ``folder``, in file-name order."""
    path = Path(folder)
    if not path.is_dir():
        raise CalibrationError(_("{path} is not a folder; pass --images with the folder holding the sheet pictures.",
                                 path=path))
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
    if not files:
        raise CalibrationError(_("{path} holds no images ({join}); put the pictures of the calibration sheet there.",
                                 path=path, join=', '.join(IMAGE_SUFFIXES)))
    return files


def read_image(path: str | Path) -> Image:
    """Load one image as BGR, or fail saying which file is unreadable."""
    p = Path(path)
    if not p.is_file():
        raise CalibrationError(_("image {p} does not exist; check the file name.", p=p))
    image = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if image is None:
        raise CalibrationError(_("image {p} cannot be read (damaged or not an image); remove it or take it again.",
                                 p=p))
    return np.asarray(image, dtype=np.uint8)


def video_frames(path: str | Path, stride: int | None = None) -> Iterator[tuple[int, int, Image]]:
    """Yield ``(frame_index, frame_count, frame)`` for every ``stride``-th frame (auto when None)."""
    p = Path(path)
    if not p.is_file():
        raise CalibrationError(_("video {p} does not exist; check the file name.", p=p))
    capture = cv2.VideoCapture(str(p))
    try:
        if not capture.isOpened():
            raise CalibrationError(_("video {p} cannot be opened (unknown format or damaged); convert it to MP4 or "
                                     "AVI, or extract images and use --images.", p=p))
        count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
        step = stride or max(1, count // TARGET_VIDEO_SAMPLES)
        index = 0
        delivered = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            if index % step == 0:
                delivered += 1
                yield index, count, np.asarray(frame, dtype=np.uint8)
            index += 1
        if delivered == 0:
            raise CalibrationError(_("video {p} holds no frames that can be decoded; record it again.", p=p))
    finally:
        capture.release()


def open_camera(index: int, width: int | None = None, height: int | None = None) -> cv2.VideoCapture:
    """Open camera ``index`` (optionally asking for a resolution), or fail saying what to try."""
    capture = cv2.VideoCapture(index)
    if not capture.isOpened():
        capture.release()
        raise CalibrationError(_("no camera found at index {index}: check it is plugged in and not used by another "
                                 "program, try another --camera number, or calibrate from stored pictures with "
                                 "--images DIR.", index=index))
    if width and height:
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
    return capture
