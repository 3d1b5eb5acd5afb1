"""Keep the long-lived part of the tablet out of Python's cycle collector's walks.

A full collection walks every object the collector tracks; with the app's widgets, canvases and a game's views that
is hundreds of thousands, and one such walk held a new game state back by 100 ms and more (the app bench's tail on
Laramie's station: 135–175 ms where the rest took under 50). ``gc.freeze`` moves everything alive now into a
generation no collection walks; the objects are still freed by their reference counts when they go, only cycles
among them are left alone. The app freezes once its screens are built and again after a new map is drawn.
"""

from __future__ import annotations

import gc

from kivy.clock import Clock


def freeze_now() -> None:
    gc.collect()  # what is garbage already goes first: frozen, it would stay
    gc.freeze()


DRAWN_S = 0.5  # what was just built (a new map's tiles and views, the screens' widgets) is drawn by then


def freeze_soon() -> None:
    """Freeze a moment from now, once what was just built has been drawn and its scratch objects dropped."""
    Clock.schedule_once(lambda _dt: freeze_now(), DRAWN_S)
