"""A prompt panel in a real window, in a scroll view whose height the script sets: what each frame shows.

``python -m tests.app.window_prompt_fit`` prints one JSON line: for a prompt that fits once shrunk (in a room
between its full height and its height at the smallest fit), and for one five rooms tall, the panel's state once it
is fitted (or scrolls), every fit it was given on the way, and the shrunk one's height foreseen a step larger.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from companion_app.kivy_start import prepare_kivy

prepare_kivy()

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from companion_app.ui.fit_plan import height_at  # noqa: E402
from companion_app.ui.fit_steps import LEAST_FIT, PLAN_RESOLUTION  # noqa: E402
from companion_app.ui.prompt_panel import PromptPanel  # noqa: E402
from companion_app.viewmodels.prompt_model import OptionView, PromptModel  # noqa: E402

WAIT_FRAMES = 600  # a state not reached after this many frames is a failure, not a wait


def choose_prompt(options: int) -> PromptModel:
    """A choice with ``options`` answers of a line or two each, as the rule sets' long choices are."""
    return PromptModel(
        kind="choose", side="red", side_name="Red", figure=None, figure_name="",
        text="Choose the manoeuvre your knight makes this turn: each one says what it costs and where it ends.",
        note="", dice=[], chances=[], moves={},
        options=[OptionView(f"o{i}", f"Manoeuvre {i}: a step to the side and a swing, ends facing the tower", None,
                            None) for i in range(options)])


class FitApp(App):  # type: ignore[misc]
    def build(self) -> ScrollView:
        self.scroll = ScrollView(size_hint=(1, None), height=Window.height)
        self.panel = PromptPanel()
        self.scroll.add_widget(self.panel)
        return self.scroll


def script(app: FitApp, out: dict[str, Any]) -> Iterator[bool]:
    """Steps run once a frame, each after a frame was shown; a step yields False while it waits."""
    panel, scroll = app.panel, app.scroll
    fits_set: list[float] = []
    original = PromptPanel._set_fit

    def spy(self: PromptPanel, fit: float) -> None:
        fits_set.append(round(fit, 3))
        original(self, fit)

    PromptPanel._set_fit = spy  # type: ignore[method-assign]
    # The prompt's full height, in a room that holds it whole.
    panel.show(choose_prompt(6))
    while not (panel.fits() and panel.fit == 1.0 and panel.minimum_height > 100):
        yield False
    full = panel.minimum_height
    out["full_height"] = round(full)
    panel._set_fit(LEAST_FIT)  # its height at the smallest fit (no text below the readable size: more than a share)
    while not (panel._laid_out() and panel.minimum_height < full):
        yield False
    least = panel.minimum_height
    out["least_height"] = round(least)
    # A room between the two: shrunk until it fits.
    room = round((full + least) / 2)
    scroll.height = room
    while scroll.height != room:
        yield False
    fits_set.clear()
    panel.show(choose_prompt(6))
    while not (panel.fits() and panel._laid_out()):
        yield False
    out["shrinkable"] = {"room": scroll.height, "height": round(panel.minimum_height), "fit": round(panel.fit, 3),
                         "fits": panel.fits(), "fits_set": list(fits_set),
                         # its height foreseen a resolution's step larger: it would not fit (the largest that does)
                         "larger_height": height_at(panel, float(panel.width), min(1.0, panel.fit + PLAN_RESOLUTION))}
    # Less room (a row of buttons below grew): fitted again at once, with one fit.
    smaller = round((room + least) / 2)
    fits_set.clear()
    scroll.height = smaller
    while not (scroll.height == smaller and panel.fits() and panel._laid_out()):
        yield False
    out["smaller_room"] = {"room": scroll.height, "height": round(panel.minimum_height), "fit": round(panel.fit, 3),
                           "fits_set": list(fits_set), "before": out["shrinkable"]["fit"]}
    # Five rooms tall: it scrolls at its full size, never shown or rendered shrunk.
    scroll.height = round(full / 5)
    while scroll.height != round(full / 5):
        yield False
    fits_set.clear()
    panel.show(choose_prompt(6))
    while not panel._scrolls:
        yield False
    yield True  # a frame more: nothing shrinks it after
    out["hopeless"] = {"room": scroll.height, "height": round(panel.minimum_height), "fit": round(panel.fit, 3),
                       "scrolls": panel._scrolls, "fits_set": list(fits_set)}


def run_script(script: Callable[[FitApp, dict[str, Any]], Iterator[bool]]) -> int:
    """Run ``script`` in a :class:`FitApp` window, a step after each frame shown; print what it found as JSON."""
    app = FitApp()
    out: dict[str, Any] = {"ok": False, "checks": [], "error": "the script did not end"}
    steps: Iterator[bool] | None = None
    frames = [0]

    def on_flip(*_: Any) -> None:
        nonlocal steps
        frames[0] += 1
        if steps is None:
            steps = script(app, out)
        try:
            next(steps)
        except StopIteration:
            out.update(ok=True, error="")
            app.stop()
            return
        if frames[0] > WAIT_FRAMES:
            out["error"] = f"no end after {WAIT_FRAMES} frames: {out}"
            app.stop()
            return
        Window.canvas.ask_update()  # the next frame: each step looks at one frame

    Window.bind(on_flip=on_flip)
    Clock.schedule_once(lambda *_: Window.canvas.ask_update(), 0)
    app.run()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(run_script(script))
