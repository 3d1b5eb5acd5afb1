"""Window scenarios: run the real app against a real engine in this process, drive it with simulated touches.

Run one per process (Kivy keeps global state): ``xvfb-run -a python -m tests.app.window_scenario NAME``.
Prints one JSON line ``{"ok": bool, "checks": [...], "error": ...}`` and saves screenshots under
``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.config import Config

Config.set("graphics", "width", os.environ.get("HEXA_TEST_WIDTH", "1280"))
Config.set("graphics", "height", os.environ.get("HEXA_TEST_HEIGHT", "800"))
Config.set("input", "mouse", "mouse,disable_multitouch")

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402

from companion_app.net.agent import NetworkAgent  # noqa: E402
from companion_app.ui.app import HexaApp  # noqa: E402
from companion_app.ui.widgets import BigButton  # noqa: E402
from tests.app.engine_process import ROOT, EngineProcess, VisionProcess  # noqa: E402

SHOTS = ROOT / "artifacts" / "screenshots"
Step = Generator[Callable[[], bool] | float | None, None, None]


class Failed(AssertionError):
    pass


class Driver:
    """Runs a generator script on the Kivy clock: it yields conditions to wait for (or frame counts)."""

    def __init__(self, app: HexaApp, script: Callable[[Driver], Step], timeout_s: float = 20.0) -> None:
        self.app = app
        self.checks: list[str] = []
        self.error: str | None = None
        self.timeout_s = timeout_s
        self._gen = script(self)
        self._wait: Callable[[], bool] | None = None
        self._frames = 0
        self._deadline = 0.0
        self._what = ""

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            raise Failed(what)
        self.checks.append(what)

    def tick(self, _dt: float) -> None:
        try:
            if self._frames > 0:
                self._frames -= 1
                return
            if self._wait is not None:
                if not self._wait():
                    if time.monotonic() > self._deadline:
                        raise Failed(f"timed out waiting for: {self._what}")
                    return
                self._wait = None
            item = next(self._gen)
            if callable(item):
                self._wait = item
                self._what = getattr(item, "__doc__", None) or getattr(item, "__name__", "a condition")
                self._deadline = time.monotonic() + self.timeout_s
            elif isinstance(item, int | float):
                self._frames = int(item)
            else:
                self._frames = 2
        except StopIteration:
            self.app.stop()
        except Exception as exc:  # report any failure as the scenario's result
            self.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
            self.app.stop()

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
        SHOTS.mkdir(parents=True, exist_ok=True)
        made = Window.screenshot(name=str(SHOTS / f"{name}.png"))
        target = SHOTS / f"{name}.png"
        if made and Path(made) != target:
            Path(made).replace(target)
        self.checks.append(f"screenshot {target.name}")
        return target


def _play(app: HexaApp) -> Any:
    return app.sm.get_screen("play")


def turn_script(d: Driver) -> Step:
    """A whole turn: turn-order dice, pick the knight by tapping it twice, its movement die, drag it, end the turn,
    then undo; screenshots of every screen on the way."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with a roll prompt"""
        return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

    yield live
    yield 3
    play = _play(app)
    board = play.ids.board
    panel = play.ids.prompt
    d.check("Live" in app.connection_badge, "connection badge says Live")
    d.check(len(panel.face_buttons) == 2 and len(panel.face_buttons[0]) == 6, "two dice with six face buttons each")
    d.check(all(b.width >= dp(48) and b.height >= dp(48) for row in panel.face_buttons for b in row),
            "face buttons at least 48 dp")
    d.screenshot("play-turn-order")
    d.tap_widget(panel.face_buttons[0][4])  # Adventurers: 5
    yield 2
    d.check(panel.face_buttons[1][0].active and not panel.face_buttons[0][0].active, "focus moved to the second die")
    d.tap_widget(panel.face_buttons[1][2])  # Goblins: 3

    def choose_prompt() -> bool:
        """the choose-a-figure prompt"""
        return s.prompt is not None and s.prompt.kind == "choose"

    yield choose_prompt
    yield 3
    d.check(app.header_text == "Round 1 · Adventurers' turn · Movement", f"header: {app.header_text}")
    ranger = board.window_pos_of((2, 3))
    d.tap(*ranger)

    def ranger_selected() -> bool:
        """the ranger's reach and targets from the engine"""
        return s.selection is not None and s.selection.figure == "ranger" and bool(s.selection.targets)

    yield ranger_selected
    yield 3
    info = play.ids.info.text
    d.check("blocked by the wall at E5|F4" in info, "why not: blocked by the wall at E5|F4")
    d.check("Tap Ranger again to choose" in info, "first tap on a figure shows it")
    d.screenshot("play-selection")
    knight = board.window_pos_of((1, 3))
    d.tap(*knight)
    yield lambda: s.selection is not None and s.selection.figure == "knight" and bool(s.selection.reach)
    d.tap(*knight)

    def roll_knight() -> bool:
        """the knight's movement roll"""
        return s.prompt is not None and s.prompt.kind == "roll" and s.prompt.figure == "knight"

    yield roll_knight
    yield 3
    texts = [w.text for w in panel.walk() if hasattr(w, "text")]
    d.check("  up to 3 hexes: 33%" in texts and "  up to 2 hexes: 67%" in texts, "chances shown before the roll")
    d.check(any("Adventurers rolls 1d6 for the Knight" in t for t in texts), "who rolls what for whom")
    d.screenshot("play-roll")
    d.tap_widget(panel.face_buttons[0][5])  # 6: up to 3 hexes

    def move_prompt() -> bool:
        """the knight's move prompt"""
        return s.prompt is not None and s.prompt.kind == "move"

    yield move_prompt
    yield 3
    d.screenshot("play-move")
    zoom_before = board.viewport.zoom
    a, b = board.window_pos_of((1, 3)), board.window_pos_of((2, 2))
    d.drag(a, b)

    def knight_moved() -> bool:
        """the knight on D4 after the drag"""
        return s.board is not None and s.board.figures["knight"].key == (2, 2)

    yield knight_moved
    d.check(abs(board.viewport.zoom - zoom_before) < 1e-9, "dragging a figure does not pan or zoom")
    yield choose_prompt
    yield 3
    end = panel.option_buttons.get("end")
    d.check(end is not None, "an End the turn button")
    d.tap_widget(end)

    def goblins_turn() -> bool:
        """the goblins' turn"""
        return "Goblins' turn" in app.header_text

    yield goblins_turn
    yield 3
    d.screenshot("play-goblins-turn")
    # Tablet flat between the players: the prompt turns to face the goblins' seat, and its buttons still work.
    app.face_seat = True
    yield 3
    d.check(play.ids.prompt_turn.rotation == 180, "the prompt faces the goblins' seat")
    d.screenshot("play-facing-goblins")
    app.face_seat = False
    yield 3
    n_before = len(s.entries)
    d.tap_widget(play.ids.undo)
    yield lambda: len(s.entries) == n_before - 1
    d.check("Adventurers' turn" in app.header_text, "undo takes the turn back")
    # The labelled history: taking back the second newest step undoes two actions.
    popup = app.open_history()
    yield 3
    steps = [w for w in popup.walk() if isinstance(w, BigButton) and "takes back 2" in w.text]
    d.check(len(steps) == 1 and steps[0].text.startswith(f"Undo {n_before - 2}: "), "history names each step")
    d.screenshot("play-undo-history")
    d.tap_widget(steps[0])
    yield lambda: len(s.entries) == n_before - 3
    d.check(s.prompt is not None and s.prompt.kind == "roll" and s.prompt.figure == "knight",
            "two steps back: the knight's movement roll again")

    def no_popup() -> bool:
        """the history popup gone"""
        return not any(isinstance(w, ModalView) for w in Window.children)

    yield no_popup
    # Pinch to zoom out: two fingers moving towards each other.
    cx, cy = board.to_window(*board.center)
    t1, t2 = UnitTestTouch(cx - 200, cy), UnitTestTouch(cx + 200, cy)
    t1.touch_down()
    t2.touch_down()
    t1.touch_move(cx - 100, cy)
    t2.touch_move(cx + 100, cy)
    t1.touch_up()
    t2.touch_up()
    yield 2
    d.check(board.viewport.zoom < zoom_before * 0.9, "pinch zooms out")
    board.fit()
    board.rotate_board(180)
    yield 3
    d.screenshot("play-rotated")
    board.rotate_board(0)
    board.fit()
    # Long press on the locked door's hex: its rule.
    door = board.window_pos_of((9, -2))  # J3, in front of the locked door J3|K3
    t = UnitTestTouch(*door)
    t.touch_down()
    yield 50
    t.touch_up()
    from kivy.uix.popup import Popup

    popups = [w for w in Window.children if isinstance(w, Popup)]
    d.check(bool(popups) and "Locked Door" in " ".join(getattr(w, "text", "") for w in popups[0].walk()),
            "long press shows the rule of the locked door")
    d.screenshot("play-rules-at-hand")
    popups[0].dismiss()
    yield 3
    for name in ("log", "setup", "camera", "big"):
        app.show_screen(name)
        yield 4
        d.screenshot(name)
    log_text = app.sm.get_screen("log").ids.entries.text
    d.check("roll 5 3" in log_text and "choose knight" in log_text and "move knight" not in log_text,
            "the log lists what is left after the undos")
    app.show_screen("log")
    yield 2
    path = app.export_log()
    d.check(path.exists() and "choose knight" in path.read_text(), "exported game record")


def portrait_script(d: Driver) -> Step:
    """Portrait layout: the board above the prompt, nothing cut off; larger text scale."""
    app = d.app
    yield lambda: app.agent.state == "live" and app.session.prompt is not None
    app.set_text_scale(1.4)
    yield 5
    panel = _play(app).ids.prompt
    for buttons in panel.face_buttons:
        for b in buttons:
            d.check(b.height >= dp(48) and b.width >= dp(48), "face buttons at least 48 dp")
    d.screenshot("play-portrait")


def overlays_script(d: Driver) -> Step:
    """What the camera side reports, drawn: a lifted figure's ghosts, an illegal move with its legal hexes, a desync
    arrow (the table report is given to the session directly: no camera runs in this test)."""
    app = d.app
    yield lambda: app.agent.state == "live" and app.session.board is not None
    app.session.set_table({
        "cameras": [{"id": "cam0", "status": "ok", "last_seen_age_s": 0.1},
                    {"id": "camera-1", "status": "waiting", "last_seen_age_s": None, "refused": True}],
        "lifted": [{"figure": "knight", "moves": [{"hex": [0, 3]}, {"hex": [2, 2]}, {"hex": [1, 2]}]}],
        "desync": [{"figure": "chief", "expected": [10, -2], "seen": [9, -1], "text": ""}],
        "illegal": {"figure": "mage", "to": [6, 0], "reason": "blocked by the wall at E5|F4", "legal": ["D4", "E5"]},
        "unknown_markers": [42], "duplicates": [], "registration": {"ok": True, "text": "4 anchors, 1.2 mm"},
    })
    yield 4
    info = _play(app).ids.info.text
    d.check("Put Goblin Chief back on K4" in info, "desync says which figure goes where")
    d.check("Illegal: Mage to " in info and "blocked by the wall at E5|F4. Legal: D4, E5" in info,
            "illegal move: reason, legal")
    d.screenshot("play-table-overlays")
    app.show_screen("camera")
    yield 4
    camera = app.sm.get_screen("camera").ids
    d.check("Unknown markers" in camera.warnings.text, "camera screen lists unknown markers")
    d.check(camera.warnings.text.startswith("A camera with an unknown key was refused")
            and "Camera camera-1: waiting, refused" in camera.cameras.text, "camera screen says a camera was refused")
    d.screenshot("camera-report")


def camera_script(d: Driver) -> Step:
    """The Camera screen with a real camera service on the synthetic table: the live preview and the link."""
    app = d.app
    yield lambda: app.agent.state == "live" and app.session.board is not None
    app.show_screen("camera")
    screen = app.sm.get_screen("camera")

    def preview() -> bool:
        """a preview JPEG from the camera service"""
        return screen.ids.preview.texture is not None

    yield preview

    def camera_link() -> bool:
        """the engine reporting the camera link"""
        screen.refresh(app.session, False)
        return "Camera " in screen.ids.cameras.text

    yield camera_link
    yield 4
    tex = screen.ids.preview.texture
    d.check(tex.width >= 160 and tex.height >= 120, f"preview {tex.width}x{tex.height}")
    d.screenshot("camera-live")


def zones_script(d: Driver) -> Step:
    """A zone board (the keypad mat of a test rule set) drawn from its scenario message: zones, labels, figures."""
    from engine.game import Game
    from engine.scenario import load_scenario_text
    from engine.snapshot import game_snapshot, scenario_to_dict
    from tests.engine.zone_rules import KEYPAD

    app = d.app
    yield lambda: app.agent.state == "live" and app.session.board is not None
    game = Game(load_scenario_text(KEYPAD))
    app.session.set_scenario(scenario_to_dict(game.scenario))
    app.session.set_snapshot(game_snapshot(game))
    app.refresh()
    board = _play(app).ids.board

    def zones_shown() -> bool:
        """the board widget showing the zone board"""
        return board.session is not None and board.session.board is not None and board.session.board.kind == "zones"

    yield zones_shown
    yield 5
    view = app.session.board
    five = next(k for k, t in view.tiles.items() if t.label == "5")
    d.check(board.hex_at_window(*board.window_pos_of(five)) == five, "a tap on zone 5 lands on zone 5")
    d.screenshot("play-zone-board")


SCRIPTS: dict[str, Callable[[Driver], Step]] = {
    "zones": zones_script,
    "camera": camera_script,
    "turn": turn_script,
    "portrait": portrait_script,
    "overlays": overlays_script,
}


def main(name: str) -> int:
    script = SCRIPTS[name]
    vision = VisionProcess() if name == "camera" else None
    engine = EngineProcess(extra=["--vision", f"{vision.pub},{vision.snapshot}"] if vision else None)
    app = HexaApp(NetworkAgent(engine.pub, engine.commands, vision.pub if vision else None))
    driver = Driver(app, script)
    Clock.schedule_interval(driver.tick, 0)
    try:
        app.run()
    finally:
        engine.stop()
        if vision is not None:
            vision.stop()
    ok = driver.error is None
    print(json.dumps({"ok": ok, "checks": driver.checks, "error": driver.error,
                      "engine_log": None if ok else engine.log_text()[-2000:]}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "turn"))
