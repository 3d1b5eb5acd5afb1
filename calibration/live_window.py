"""The guided calibration window: webcam frames through :class:`LiveSession`, drawn with OpenCV.

Everything shown (instructions, progress bar, coverage picture, detected corners) is drawn by
:func:`draw_overlay`, a pure function; this module's loop only reads frames, passes keys on and
shows the result.
"""

from __future__ import annotations

import logging
import os
import sys

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.calibration_file import CalibrationQuality
from calibration.live import LiveSession, LiveStatus, Stage
from calibration.quality import verdict_text
from calibration.solver import CalibrationError
from calibration.sources import open_camera
from calibration.window_text import draw_lines, wrap_text
from engine.i18n import gettext_for, ngettext_for

_n = ngettext_for(__name__)

_ = gettext_for(__name__)

log = logging.getLogger(__name__)

WINDOW = "hexa calibrate"
KEY_QUIT = (ord("q"), 27)


def display_available() -> bool:
    """Whether a window can be opened (an X11/Wayland display on Linux; assumed elsewhere)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def draw_overlay(frame: NDArray[np.uint8], status: LiveStatus, coverage: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The frame with corners, a text panel, a progress bar and the coverage picture drawn on it."""
    out = np.asarray(frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    h, w = out.shape[:2]
    if status.view is not None:
        for x, y in status.view.corners_px:
            cv2.circle(out, (round(x), round(y)), 4, (0, 220, 0), 2)
    lines = [*status.instructions, status.message]
    line_h = max(18, h // 32)
    panel_h = line_h * (len(lines) + 1) + 24
    panel = out[:panel_h].astype(np.float32) * 0.35
    out[:panel_h] = panel.astype(np.uint8)
    draw_lines(out, [(text, (0, 255, 255) if i == len(lines) - 1 else (255, 255, 255)) for i, text in enumerate(lines)],
               (12, line_h // 4), max(12, round(line_h * 0.8)), line_h)
    bar_y = panel_h - 18
    bar_w = w // 2
    cv2.rectangle(out, (12, bar_y), (12 + bar_w, bar_y + 10), (200, 200, 200), 1)
    cv2.rectangle(out, (12, bar_y), (12 + round(bar_w * status.progress), bar_y + 10), (0, 200, 0), -1)
    ch, cw = coverage.shape[:2]
    if ch < h and cw < w:
        out[h - ch - 10:h - 10, w - cw - 10:w - 10] = coverage
    return out


TEXT_PX = 18
_VERDICT_COLOURS = {"good": (0, 200, 0), "usable": (0, 200, 230), "redo": (0, 0, 230)}


def verdict_picture(quality: CalibrationQuality, coverage: NDArray[np.uint8], size: tuple[int, int] = (960, 540)
                    ) -> NDArray[np.uint8]:
    """The closing screen: verdict in its colour, the figures, the advice and the coverage picture."""
    w, h = size
    out = np.full((h, w, 3), 30, np.uint8)
    colour = _VERDICT_COLOURS.get(quality.verdict, (255, 255, 255))
    draw_lines(out, [(verdict_text(quality.verdict).upper(), colour)], (24, 14), 56, 60)
    lines = [_("reprojection error {reprojection_px:.2f} px", reprojection_px=quality.reprojection_px),
             _("position error {table_error_mm:.2f} mm on the table ({table_error_hex:.3f} hex)",
               table_error_mm=quality.table_error_mm, table_error_hex=quality.table_error_hex),
             _n("{n} view", "{n} views", quality.views), ""]
    for advice in quality.advice:
        lines.extend(wrap_text(advice, TEXT_PX, w - 48))
    lines.append(_("Press any key to close."))
    shown = [(text, (235, 235, 235)) for i, text in enumerate(lines) if 96 + 24 * (i + 1) <= h - 10]
    draw_lines(out, shown, (24, 96), TEXT_PX, 24)
    ch, cw = coverage.shape[:2]
    if ch + 20 < h and cw + 20 < w:
        out[10:10 + ch, w - cw - 10:w - 10] = coverage
    return out


def show_verdict(quality: CalibrationQuality, coverage: NDArray[np.uint8], timeout_s: float = 60.0) -> None:
    """Show :func:`verdict_picture` until a key is pressed (or ``timeout_s``); no-op without a display."""
    if not display_available():
        return
    try:
        cv2.imshow(WINDOW, verdict_picture(quality, coverage))
        cv2.waitKey(int(timeout_s * 1000))
        cv2.destroyWindow(WINDOW)
    except cv2.error as exc:
        log.warning("cannot show the verdict window: %s", exc.err)


def run_live(session: LiveSession, camera_index: int, width: int | None = None, height: int | None = None) -> bool:
    """Run the window until the table view is taken (True) or the user quits (False).

    Raises :class:`CalibrationError` when there is no display or no camera.
    """
    if not display_available():
        raise CalibrationError(_("no display to show the calibration window: run this on the machine's desktop, or "
                                 "record pictures (or a video) of the sheet and use --images DIR or --video FILE."))
    capture = open_camera(camera_index, width, height)
    try:
        cv2.namedWindow(WINDOW, cv2.WINDOW_NORMAL)
    except cv2.error as exc:
        capture.release()
        raise CalibrationError(_("the calibration window cannot be opened ({err}); use --images DIR or --video FILE "
                                 "instead.", err=exc.err)) from None
    failures = 0
    try:
        while session.stage is not Stage.DONE:
            ok, frame = capture.read()
            if not ok:
                failures += 1
                if failures > 30:
                    raise CalibrationError(_("camera {camera_index} stopped delivering pictures; check the cable and "
                                             "that no other program uses it.", camera_index=camera_index))
                continue
            failures = 0
            image = np.asarray(frame, dtype=np.uint8)
            status = session.feed(image)
            key = cv2.waitKey(1) & 0xFF
            if key in KEY_QUIT:
                return False
            if key != 0xFF:
                status = session.key(chr(key).lower())
            cv2.imshow(WINDOW, draw_overlay(image, status, session.coverage_image()))
        return True
    finally:
        capture.release()
        cv2.destroyWindow(WINDOW)
