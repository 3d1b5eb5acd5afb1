"""The live synthetic table keeps the wall clock's time, as a camera's world does: a frame that could not be
rendered in its time is skipped, and every frame is stamped with the moment it shows."""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np

from vision.sources import SyntheticSource
from vision.synthetic.renderer import RenderedFrame, TableRenderer

FPS = 30.0
SLOW_S = 0.2  # a render six frames long: a loaded machine


class SlowRenderer(TableRenderer):
    """The real renderer, held back ``SLOW_S`` a frame."""

    def render(self, *args: Any, **kwargs: Any) -> RenderedFrame:
        started = time.monotonic()
        frame = super().render(*args, **kwargs)
        while time.monotonic() - started < SLOW_S:  # busy, as a loaded machine is: not a wait for a state
            np.sqrt(np.arange(1000.0))
        return frame


def test_a_slow_live_table_skips_the_frames_it_could_not_render_and_keeps_the_wall_clock(
        renderer: TableRenderer) -> None:
    slow = SlowRenderer(renderer.camera, renderer.table)
    source = SyntheticSource(slow, fps=FPS, realtime=True)
    frames = []
    for _n in range(3):
        before = time.monotonic()
        frame = source.read()
        assert frame is not None
        # Stamped with its due time on the wall clock: at most a frame before it was asked for, never after.
        assert before - 1.0 / FPS <= frame.monotonic <= time.monotonic()
        frames.append(frame)
    steps = [b.index - a.index for a, b in itertools.pairwise(frames)]
    assert all(step >= SLOW_S * FPS for step in steps), steps  # the frames a render took are gone
    assert all(abs((f.monotonic - frames[0].monotonic) * FPS - (f.index - frames[0].index)) < 1e-6 for f in frames)


def test_an_offline_table_renders_every_frame_on_its_own_clock(renderer: TableRenderer) -> None:
    slow = SlowRenderer(renderer.camera, renderer.table)
    source = SyntheticSource(slow, fps=FPS, realtime=False, frames=2)
    first, second = source.read(), source.read()
    assert first is not None and second is not None and source.read() is None
    assert (first.index, second.index) == (0, 1) and abs(second.monotonic - first.monotonic - 1.0 / FPS) < 1e-9
