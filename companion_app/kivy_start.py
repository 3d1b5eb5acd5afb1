"""Kivy's providers and logging, chosen before Kivy is first imported, so a normal start prints a few lines.

Left to itself Kivy logs some thirty INFO lines on every start, a traceback for the kernel multitouch library
(libmtdev) it tries on every Linux, and a CRITICAL for the X cut-buffer tools (xclip, xsel) when they are not
installed. The app reads touches through SDL2 and needs no X cut buffer (middle-click paste), so those two are
known to be harmless and dropped; everything else Kivy says shows from WARNING up. ``hexa app --verbose`` or
``HEXA_DEBUG=1`` leave Kivy's own logging as it is (every INFO line, its log file), to see what goes wrong.
"""

from __future__ import annotations

import logging
import os
import sys

DEBUG_VARIABLE = "HEXA_DEBUG"
# Benchmarks only: a file the app writes the wall-clock time (``time.time()``) to when its first flipped frame shows
# the board (bench/demo_start.py times ``hexa demo`` from its start to the board on screen with it).
FIRST_BOARD_FRAME_VARIABLE = "HEXA_FIRST_BOARD_FRAME_FILE"

# The providers the app uses on the desktop and on Android alike (set only where the environment sets none).
PROVIDERS = {
    "KIVY_WINDOW": "sdl2",
    "KIVY_TEXT": "sdl2",
    "KIVY_IMAGE": "sdl2",  # the camera preview's JPEGs; no Pillow, which the APK does not carry
}
# No multisampled window: Kivy asks for 2 samples by default, which software GL (Mesa's llvmpipe) makes 4 and pays
# for on every pixel of every frame (about 15 ms of CPU per 1280×800 frame, most of a frame's cost). The app draws
# nothing that needs it: the board and the panels are textures rendered into Fbos, which are never multisampled.
GRAPHICS = {"KCFG_GRAPHICS_MULTISAMPLES": "0"}
# Kivy's "free" clock: it runs its events a frame at a time and sleeps between frames like the default one (60 fps
# at most), but a "free" event (``Clock.create_trigger_free``), which any thread may schedule, wakes it at once. The
# network agent triggers the pump that way on every engine message, so an update is applied and drawn when it
# arrives, not at the next tick (up to 16.7 ms later); without it the app had to run unthrottled for that, spinning
# on the UI thread and holding the interpreter lock the agent's thread needs to take the message in. (Kivy's
# "interrupt" clock wakes for every event instead, and never sleeps while an interval shorter than a frame, the
# pump's, is scheduled.)
CLOCK = {"KIVY_CLOCK": "free_all"}
ANDROID_CLIPBOARD, DESKTOP_CLIPBOARD = "android", "sdl2"  # not xclip/xsel/gtk3/klipper: each is a program to find

# Messages Kivy logs on a machine that lacks what the app never uses: (logger message prefix, why it is harmless).
HARMLESS = (
    ("Input: MTDev is not supported", "the kernel multitouch library; touches come through SDL2"),
    ("Cutbuffer: Unable to find any valuable Cutbuffer provider", "X's middle-click cut buffer (xclip/xsel)"),
)


class HarmlessKivyNoise(logging.Filter):
    """Drops the records of :data:`HARMLESS`; every other record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        return not any(message.startswith(prefix) for prefix, _ in HARMLESS)


def on_android() -> bool:
    """Whether this runs inside an Android app (python-for-android sets ANDROID_ARGUMENT), without importing Kivy."""
    return "ANDROID_ARGUMENT" in os.environ


def wants_full_logging(verbose: bool) -> bool:
    return verbose or os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def prepare_kivy(verbose: bool = False) -> bool:
    """Choose Kivy's providers, window and logging; call before anything imports Kivy. True when start-up stays quiet.

    Calling it again (or after Kivy is imported) changes nothing."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # the app's options are its own, not Kivy's
    for name, value in (PROVIDERS | GRAPHICS | CLOCK).items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("KIVY_CLIPBOARD", ANDROID_CLIPBOARD if on_android() else DESKTOP_CLIPBOARD)
    if wants_full_logging(verbose):
        return False
    if "kivy" in sys.modules:
        return os.environ.get("KIVY_LOG_MODE") == "PYTHON"
    # Kivy hands its records to Python's logging and leaves stderr alone; one handler shows warnings and worse.
    if os.environ.setdefault("KIVY_LOG_MODE", "PYTHON") != "PYTHON":
        return False  # the environment chose Kivy's own handlers
    root = logging.getLogger()
    if not any(isinstance(f, HarmlessKivyNoise) for h in root.handlers for f in h.filters):
        root.addHandler(quiet_handler(logging.WARNING, "[%(levelname)s] %(name)s: %(message)s"))
    return True


def quiet_handler(level: int, form: str) -> logging.Handler:
    """A stderr handler from ``level`` up that drops :data:`HARMLESS`: what a program that may open the app's
    window (``hexa demo``) gives to ``logging.basicConfig``, so Kivy's INFO lines and known-harmless tracebacks
    do not pass through a handler of its own."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter(form))
    handler.addFilter(HarmlessKivyNoise())
    return handler
