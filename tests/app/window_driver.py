"""The window tests' driver: simulated touches on the real app, waiting on state (never on frames or sleeps).

Imported before anything else of Kivy: it chooses Kivy's providers and logging as the app does and sets the window
size from the environment, so the scenario modules take Kivy's names from here.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion_app.kivy_start import prepare_kivy

prepare_kivy()  # the providers and the quiet logging of 'hexa app'

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", os.environ.get("HEXA_TEST_WIDTH", "1280"))
Config.set("graphics", "height", os.environ.get("HEXA_TEST_HEIGHT", "800"))
Config.set("input", "mouse", "mouse,disable_multitouch")

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402
from kivy.uix.popup import Popup  # noqa: E402

from companion_app.net.agent import AgentEvent, NetworkAgent  # noqa: E402
from companion_app.ui.app import HexaApp  # noqa: E402
from companion_app.ui.widgets import BigButton  # noqa: E402
from tests.app.engine_process import ROOT, EngineProcess  # noqa: E402

__all__ = ["GUIDES_VARIABLE", "AgentEvent", "BigButton", "Clock", "Driver", "Failed", "HexaApp", "ModalView",
           "NetworkAgent", "Popup", "Step", "TableStandIn", "UnitTestTouch", "Wait", "Window", "dp", "keep_for_guide",
           "run_against_engine"]

SHOTS = ROOT / "artifacts" / "screenshots"
GUIDES_VARIABLE = "HEXA_UPDATE_GUIDE_PICTURES"  # set to 1: the window scenarios write the guides' pictures anew
GUIDE_IMAGES = ROOT / "docs" / "images"


def keep_for_guide(shot: Path, picture: str) -> None:
    """Copy the screenshot ``shot`` to the guide's ``docs/images/picture`` when asked to (``GUIDES_VARIABLE``), so an
    ordinary test run leaves the tracked pictures as they are."""
    if os.environ.get(GUIDES_VARIABLE) == "1":
        (GUIDE_IMAGES / picture).write_bytes(shot.read_bytes())
Wait = Callable[[], bool]
Step = Generator[Wait, None, None]


class Failed(AssertionError):
    pass


class Driver:
    """Runs a generator script on the Kivy clock. The script yields conditions to wait for (a callable whose
    docstring says what it waits for); each is polled once a frame until it holds or ``timeout_s`` passes.
    Never a frame count: a loaded machine draws fewer frames in the same time, so scripts wait on the state they
    check (:meth:`expect`) or on that state being drawn (:meth:`drawn`). The first wait also takes in the start of
    the engine process and of the window (``start_timeout_s``): a loaded machine stretches a new Python process's
    imports far more than one step of a game."""

    def __init__(self, app: HexaApp, script: Callable[[Driver], Step], timeout_s: float = 30.0,
                 start_timeout_s: float = 120.0) -> None:
        self.app = app
        self.checks: list[str] = []
        self.error: str | None = None
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self._waits = 0
        self._gen = script(self)
        self._wait: Wait | None = None
        self.hand: Any = None  # the synthetic table's hand (a TableControlClient) in scenarios that move tags
        self.engine: Any = None  # the engine process the app talks to (its console log: the GM code)
        self._deadline = 0.0
        self._what = ""

    def check(self, ok: bool, what: str) -> None:
        """A check of something already settled (waited for before); :meth:`expect` waits for it instead."""
        if not ok:
            raise Failed(what)
        self.checks.append(what)

    def expect(self, condition: Wait, what: str) -> Wait:
        """A condition to yield: wait until it holds, then count it as the check ``what``."""

        def waiter() -> bool:
            if not condition():
                return False
            self.checks.append(what)
            return True

        waiter.__doc__ = what
        return waiter

    def drawn(self) -> Wait:
        """A condition to yield: the screen shown has taken the session's newest state and the window has drawn
        it (after it, taps land on laid-out widgets and screenshots show that state)."""
        app = self.app
        seen_at: list[int] = []

        def on_screen() -> bool:
            """the newest state drawn on the screen"""
            caught_up = (app._shown_revision == app.session.revision and app.sm.current == app.current_screen
                         and app.sm.current_screen.name == app.current_screen)
            if not caught_up:
                seen_at.clear()
                return False
            if not seen_at:
                seen_at.append(Clock.frames_displayed)
                return False
            # A frame has been through layout and drawing since, and nothing is left to draw.
            return Clock.frames_displayed > seen_at[0] and not Window.canvas.needs_redraw

        return on_screen

    def tick(self, _dt: float) -> None:
        try:
            if self._wait is not None:
                if not self._wait():
                    if time.monotonic() > self._deadline:
                        raise Failed(f"timed out after {self._bound():.0f} s waiting for: {self._what}")
                    return
                self._wait = None
            item = next(self._gen)
            if not callable(item):
                raise TypeError(f"a window script yields conditions to wait for, not {item!r}: wait on the state "
                                "the next step needs (Driver.expect, Driver.drawn), never on a frame count")
            self._wait = item
            self._what = str(getattr(item, "__doc__", None) or getattr(item, "__name__", "a condition"))
            self._waits += 1
            self._deadline = time.monotonic() + self._bound()
        except StopIteration:
            self.app.stop()
        except Exception as exc:  # report any failure as the scenario's result
            self.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
            self.app.stop()

    def _bound(self) -> float:
        """How long the current wait may take: the first one also waits for the engine and the window to start."""
        return self.start_timeout_s if self._waits == 1 else self.timeout_s

    # ---------------------------------------------------------------- helpers for scripts

    def tap(self, x: float, y: float) -> None:
        t = UnitTestTouch(x, y)
        t.touch_down()
        t.touch_up()

    def tap_widget(self, widget: Any) -> None:
        x, y = widget.to_window(*widget.center)
        self.tap(x, y)

    def drag(self, a: tuple[float, float], b: tuple[float, float], steps: int = 6) -> None:
        t = UnitTestTouch(*a)
        t.touch_down()
        for i in range(1, steps + 1):
            t.touch_move(a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
        t.touch_up()

    def screenshot(self, name: str) -> Path:
        self.boards_drawn_as_whole(name)
        SHOTS.mkdir(parents=True, exist_ok=True)
        made = Window.screenshot(name=str(SHOTS / f"{name}.png"))
        target = SHOTS / f"{name}.png"
        if made and Path(made) != target:
            Path(made).replace(target)
        self.checks.append(f"screenshot {target.name}")
        return target


    def boards_drawn_as_whole(self, name: str) -> None:
        """Every board on the screen shown: its texture, rendered again only where something changed (see
        ``partial_render``), holds exactly the texels a whole render gives. Counts the renders made in parts."""
        from companion_app.ui.board_widget import BoardWidget

        for board in [w for w in self.app.sm.current_screen.walk() if isinstance(w, BoardWidget)]:
            layers = board._layers
            if layers.fbo.size[0] < 2:
                continue  # no map shown yet
            before = layers.fbo.pixels
            parts = layers.partial.partial_renders + layers.tiles_partial.partial_renders
            layers.tiles_partial.whole()
            layers.partial.whole()
            layers.fbo.draw()
            after = layers.fbo.pixels
            if before != after:
                w, h = (int(v) for v in layers.fbo.size)
                a = np.frombuffer(before, np.uint8).reshape(h, w, 4)
                b = np.frombuffer(after, np.uint8).reshape(h, w, 4)
                ys, xs = np.nonzero((a != b).any(axis=-1))
                SHOTS.mkdir(parents=True, exist_ok=True)
                for tag, texels in (("parts", a), ("whole", b)):
                    cv2.imwrite(str(SHOTS / f"{name}-board-{tag}.png"), cv2.cvtColor(texels[::-1], cv2.COLOR_RGBA2BGRA))
                raise Failed(f"{name}: the board's texture drawn in parts differs from a whole render in {len(xs)} "
                             f"texels, x {xs.min()}–{xs.max()}, y {ys.min()}–{ys.max()} (both saved beside the "
                             "screenshots)")
            self.checks.append(f"{name}: the board drawn in parts ({parts} renders) is as drawn whole")


def unexplained_disabled(root: Any) -> list[str]:
    """The greyed controls under ``root`` (shown: not hidden, not inside a greyed parent) whose reason is not on the
    screen: each must name why in ``why_disabled``, and its own text or a shown label beside it must say it."""
    def shown(w: Any) -> bool:
        return bool(w.opacity > 0 and w.width > 0 and w.height > 0)

    texts = [str(w.text) for w in root.walk() if isinstance(getattr(w, "text", None), str) and shown(w)]
    out = []
    for w in root.walk():
        if not w.disabled or not shown(w) or (w.parent is not None and w.parent.disabled):
            continue
        why = str(getattr(w, "why_disabled", "") or "")
        if not why or not any(why in t for t in texts):
            out.append(f"{type(w).__name__} {getattr(w, 'text', '')!r} (why: {why!r})")
    return out


def _play(app: HexaApp) -> Any:
    return app.sm.get_screen("play")


def _setup_buttons(app: HexaApp) -> list[str]:
    """The texts of the Setup screen's scenario buttons."""
    return [w.text for w in app.sm.get_screen("setup").ids.scenarios.children if isinstance(w, BigButton)]


def _opened(popup: ModalView) -> bool:
    """A popup in the window with its fade-in finished (before that, taps and screenshots catch it half open)."""
    return popup.parent is not None and popup._anim_alpha == 1.0


class TableStandIn:
    """Stands in for the camera side: the app gets ``report`` as the engine's table report, and the engine's own
    reports (an empty table: no camera runs) are held back, so they cannot replace it while the screens are checked.

    The engine sends a table report at least every second; without this the checks race that report.
    """

    def __init__(self, agent: NetworkAgent, report: dict[str, Any]) -> None:
        self.agent, self.report = agent, report
        self.held_back = 0  # engine table reports kept from the app
        self._poll = agent.poll
        self._delivered = False
        agent.poll = self.poll  # type: ignore[method-assign]

    def poll(self, limit: int = 200) -> list[AgentEvent]:
        events = []
        for ev in self._poll(limit):
            if ev.kind == "table":
                self.held_back += 1
            else:
                events.append(ev)
        if not self._delivered:
            self._delivered = True
            events.append(AgentEvent("table", {"table": self.report}))
        return events


def run_against_engine(scenario: str, script: Callable[[Driver], Step]) -> int:
    """Run the app against a real engine serving ``scenario`` with ``script`` driving it; print the one JSON line a
    window test reads (with the end of the engine's log when the script failed) and return the exit code."""
    engine = EngineProcess(scenario=scenario)
    app = HexaApp(NetworkAgent(engine.pub, engine.commands, None))
    driver = Driver(app, script)
    Clock.schedule_interval(driver.tick, 0)
    try:
        app.run()
    finally:
        engine.stop()
    ok = driver.error is None
    print(json.dumps({"ok": ok, "checks": driver.checks, "error": driver.error,
                      "engine_log": None if ok else engine.log_text()[-2000:]}))
    return 0 if ok else 1
