"""Frame sources behind one small interface: webcam, video file, image folder, synthetic table.

Every source has ``read() -> Frame | None`` (``None``: the stream has ended) and ``close()``. A
live source that fails (camera unplugged) raises :class:`SourceError` with a message saying what
happened and what to do; :class:`vision.grabber.LatestFrameGrabber` turns that into "keep running,
reconnect". Nothing here touches sockets.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.i18n import gettext_for
from vision.synthetic.dice_drawing import DiePose
from vision.synthetic.dice_tray import DiceTray, DieTruth
from vision.synthetic.effects import Effects
from vision.synthetic.motion import Choreography
from vision.synthetic.renderer import MarkerTruth, TableRenderer

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class SourceError(RuntimeError):
    """A frame source cannot deliver: the message names the source, the problem and the fix."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One image and when it was taken (wall clock for messages, monotonic for tracking)."""

    image: NDArray[np.uint8]
    index: int
    captured_at: float
    monotonic: float
    name: str = ""
    truth: tuple[MarkerTruth, ...] = field(default=(), repr=False)
    error: str = ""  # set (with an empty image) for an input that could not be read, e.g. a corrupt file
    dice_truth: dict[str, tuple[DieTruth, ...]] = field(default_factory=dict, repr=False)  # synthetic: per tray


class FrameSource(Protocol):
    """What the service needs from any source of frames."""

    name: str
    live: bool  # a camera-like source: frames come at their own pace, a stale one is worthless

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def _stamp(image: NDArray[np.uint8], index: int, name: str = "") -> Frame:
    return Frame(image, index, time.time(), time.monotonic(), name)


@contextmanager
def opencv_quiet(quiet: bool = True) -> Iterator[None]:
    """Silence OpenCV's own log lines for a while (``quiet=False``: leave them).

    Opening a camera that is not there makes OpenCV try every video backend and print a dozen
    lines from each attempt; our own message says what is wrong once.
    """
    if not quiet:
        yield
        return
    before = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(before)


class CameraSource:
    """A webcam by index (``0``) or device path (``/dev/video2``), MJPG at the chosen size and rate.

    ``quiet`` (default) keeps OpenCV's own warnings out of stderr while opening and closing it.
    """

    live = True

    def __init__(self, device: int | str, width: int = 1920, height: int = 1080, fps: float = 30.0,
                 mjpg: bool = True, quiet: bool = True) -> None:
        self.name = f"camera {device}"
        self.quiet = quiet
        self._index = 0
        with opencv_quiet(quiet):
            self._capture = cv2.VideoCapture(device)
            opened = self._capture.isOpened()
            if not opened:
                self._capture.release()
        if not opened:
            raise SourceError(_("{name} cannot be opened: is it plugged in and not used by another program? List "
                                "cameras with 'v4l2-ctl --list-devices' (Linux) and pass --camera INDEX or PATH.",
                                name=self.name))
        if mjpg:
            self._capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._capture.set(cv2.CAP_PROP_FPS, fps)
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        got = (int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        if got != (width, height):
            log.warning("%s", _("{name} delivers {w}x{h} instead of the requested {width}x{height}", name=self.name,
                                w=got[0], h=got[1], width=width, height=height))

    def read(self) -> Frame | None:
        with opencv_quiet(self.quiet):  # a camera pulled out makes the driver complain at every read
            ok, image = self._capture.read()
        if not ok or image is None:
            raise SourceError(_("{name} stopped delivering frames (unplugged?). Waiting for it to come back.",
                                name=self.name))
        self._index += 1
        return _stamp(np.asarray(image, dtype=np.uint8), self._index - 1)

    def close(self) -> None:
        with opencv_quiet(self.quiet):
            self._capture.release()


class VideoFileSource:
    """Frames of a video file, in order; ``read()`` returns None at the end."""

    live = False

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.name = f"video {self.path.name}"
        if not self.path.is_file():
            raise SourceError(_("video file {path} does not exist: check the path", path=self.path))
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise SourceError(_("video file {path} cannot be decoded: convert it to MP4 (H.264) or MJPG AVI",
                                path=self.path))
        # A file OpenCV opens may still hold no frame it can decode (a corrupt or renamed file): say so now, rather
        # than end at once as if the video had been played.
        ok, first = self._capture.read()
        if not ok or first is None:
            self._capture.release()
            raise SourceError(_("video file {path} holds no frame that can be decoded: convert it to MP4 (H.264) or "
                                "MJPG AVI", path=self.path))
        self._first: NDArray[np.uint8] | None = np.asarray(first, dtype=np.uint8)
        fps = float(self._capture.get(cv2.CAP_PROP_FPS))
        self.fps = fps if 1.0 <= fps <= 1000.0 else 30.0
        self._index = 0
        self._t0 = time.monotonic()

    def read(self) -> Frame | None:
        image: NDArray[np.uint8] | None = self._first
        self._first = None
        if image is None:
            ok, read = self._capture.read()
            if not ok or read is None:
                return None
            image = np.asarray(read, dtype=np.uint8)
        self._index += 1
        index = self._index - 1
        # Tracking runs on the video's own clock, however fast the frames are processed.
        return Frame(image, index, time.time(), self._t0 + index / self.fps,
                     f"{self.path.name}#{index}")

    def close(self) -> None:
        self._capture.release()


class ImageFolderSource:
    """Every image of a folder in sorted file-name order, each an independent frame."""

    live = False

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.name = f"images {self.folder}"
        if not self.folder.is_dir():
            raise SourceError(_("image folder {folder} does not exist or is not a folder: check the path",
                                folder=self.folder))
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise SourceError(_("image folder {folder} holds no images ({join})",
                                folder=self.folder, join=', '.join(sorted(IMAGE_SUFFIXES))))
        self._files: Iterator[Path] = iter(self.files)
        self._index = 0
        self.skipped: list[str] = []

    def read(self) -> Frame | None:
        for path in self._files:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            self._index += 1
            if image is None:
                problem = _("not a readable image (corrupt, truncated or not an image): re-export or remove it")
                log.warning("%s: %s", path.name, problem)
                self.skipped.append(path.name)
                return Frame(np.zeros((0, 0, 3), np.uint8), self._index - 1, time.time(), time.monotonic(), path.name,
                             error=problem)
            return _stamp(np.asarray(image, dtype=np.uint8), self._index - 1, path.name)
        return None

    def close(self) -> None:
        self._files = iter(())


class SyntheticSource:
    """The synthetic table: figures moving, hands passing, webcam effects, with per-frame truth.

    ``realtime`` paces frames at ``fps`` like a camera (the demo); otherwise frames come as fast
    as they render, with timestamps still ``index / fps`` apart (tests, benchmarks).
    """

    def __init__(self, renderer: TableRenderer, choreography: Choreography | None = None, fps: float = 30.0,
                 effects: Effects | None = None, realtime: bool = True, frames: int | None = None,
                 seed: int = 0, trays: tuple[DiceTray, ...] = ()) -> None:
        self.renderer = renderer
        self.trays = trays
        self.choreography = choreography or Choreography(renderer.table.figures)
        self.fps, self.effects, self.live, self.frames = fps, effects or Effects(), realtime, frames
        self.name = "synthetic table"
        self._rng = np.random.default_rng(seed)
        self._index = 0
        self._t0_mono = time.monotonic()

    def read(self) -> Frame | None:
        if self.frames is not None and self._index >= self.frames:
            return None
        t = self._index / self.fps
        if self.live:
            delay = self._t0_mono + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)  # a camera delivers at its frame rate, not faster
        figures, hands = self.choreography.at(t)
        dice: list[DiePose] = []
        for tray in self.trays:
            tray_dice, tray_hands = tray.at(t)
            dice.extend(tray_dice)
            hands = (*hands, *tray_hands)
        rendered = self.renderer.render(figures, hands, self.effects, self._rng, tuple(dice))
        dice_truth = {tray.name: tray.truth(t) for tray in self.trays}
        index = self._index
        self._index += 1
        if self.live:
            return Frame(rendered.image, index, time.time(), time.monotonic(), f"synthetic#{index}", rendered.truth,
                         dice_truth=dice_truth)
        # Tracking runs on the virtual clock (frames exactly 1/fps apart); the wall-clock stamp is
        # real, so that frame age at publish is still measured honestly.
        return Frame(rendered.image, index, time.time(), self._t0_mono + t, f"synthetic#{index}", rendered.truth,
                     dice_truth=dice_truth)

    def close(self) -> None:
        pass
