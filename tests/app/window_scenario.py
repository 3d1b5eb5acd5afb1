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
from kivy.uix.popup import Popup  # noqa: E402

from companion_app.net.agent import AgentEvent, NetworkAgent  # noqa: E402
from companion_app.ui.app import HexaApp  # noqa: E402
from companion_app.ui.widgets import BigButton  # noqa: E402
from tests.app.engine_process import ROOT, EngineProcess, VisionProcess  # noqa: E402

SHOTS = ROOT / "artifacts" / "screenshots"
Wait = Callable[[], bool]
Step = Generator[Wait, None, None]


class Failed(AssertionError):
    pass


class Driver:
    """Runs a generator script on the Kivy clock. The script yields conditions to wait for (a callable whose
    docstring says what it waits for); each is polled once a frame until it holds or ``timeout_s`` passes.
    Never a frame count: a loaded machine draws fewer frames in the same time, so scripts wait on the state they
    check (:meth:`expect`) or on that state being drawn (:meth:`drawn`)."""

    def __init__(self, app: HexaApp, script: Callable[[Driver], Step], timeout_s: float = 30.0) -> None:
        self.app = app
        self.checks: list[str] = []
        self.error: str | None = None
        self.timeout_s = timeout_s
        self._gen = script(self)
        self._wait: Wait | None = None
        self.hand: Any = None  # the synthetic table's hand (a TableControlClient) in scenarios that move tags
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
                        raise Failed(f"timed out after {self.timeout_s:.0f} s waiting for: {self._what}")
                    return
                self._wait = None
            item = next(self._gen)
            if not callable(item):
                raise TypeError(f"a window script yields conditions to wait for, not {item!r}: wait on the state "
                                "the next step needs (Driver.expect, Driver.drawn), never on a frame count")
            self._wait = item
            self._what = getattr(item, "__doc__", None) or getattr(item, "__name__", "a condition")
            self._deadline = time.monotonic() + self.timeout_s
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


def _setup_buttons(app: HexaApp) -> list[str]:
    """The texts of the Setup screen's scenario buttons."""
    return [w.text for w in app.sm.get_screen("setup").ids.scenarios.children if isinstance(w, BigButton)]


def _opened(popup: ModalView) -> bool:
    """A popup in the window with its fade-in finished (before that, taps and screenshots catch it half open)."""
    return popup.parent is not None and popup._anim_alpha == 1.0


def turn_script(d: Driver) -> Step:
    """A whole turn: turn-order dice, pick the knight by tapping it twice, its movement die, drag it, end the turn,
    then undo; screenshots of every screen on the way."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with a roll prompt"""
        return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

    yield live
    play = _play(app)
    board = play.ids.board
    panel = play.ids.prompt
    yield d.expect(lambda: "Live" in app.connection_badge, "connection badge says Live")
    yield d.expect(lambda: len(panel.face_buttons) == 2 and len(panel.face_buttons[0]) == 6,
                   "two dice with six face buttons each")
    yield d.drawn()
    yield d.expect(lambda: all(b.width >= dp(48) and b.height >= dp(48) for row in panel.face_buttons for b in row),
                   "face buttons at least 48 dp")
    d.screenshot("play-turn-order")
    d.tap_widget(panel.face_buttons[0][4])  # Adventurers: 5
    yield d.expect(lambda: panel.face_buttons[1][0].active and not panel.face_buttons[0][0].active,
                   "focus moved to the second die")
    yield d.drawn()
    d.tap_widget(panel.face_buttons[1][2])  # Goblins: 3

    def choose_prompt() -> bool:
        """the choose-a-figure prompt"""
        return s.prompt is not None and s.prompt.kind == "choose"

    yield choose_prompt
    header = "Round 1 · Adventurers' turn · Movement"
    yield d.expect(lambda: app.header_text == header, f"header: {header}")
    yield d.drawn()
    d.tap(*board.window_pos_of((2, 3)))  # the ranger

    def ranger_selected() -> bool:
        """the ranger's reach, targets and threats from the engine (every query the rule set declares)"""
        return (s.selection is not None and s.selection.figure == "ranger" and bool(s.selection.sight_lines)
                and set(s.selection.answers) == {q.what for q in s.queries})

    yield ranger_selected
    yield d.expect(lambda: "blocked by the wall at E5|F4" in play.ids.info.text,
                   "why not: blocked by the wall at E5|F4")
    yield d.expect(lambda: "Tap Ranger again to choose" in play.ids.info.text, "first tap on a figure shows it")
    yield d.drawn()
    d.screenshot("play-selection")
    knight = board.window_pos_of((1, 3))
    d.tap(*knight)

    def knight_selected() -> bool:
        """the knight's reach from the engine"""
        return s.selection is not None and s.selection.figure == "knight" and bool(s.selection.cells("shade"))

    yield knight_selected
    d.tap(*knight)

    def roll_knight() -> bool:
        """the knight's movement roll"""
        return s.prompt is not None and s.prompt.kind == "roll" and s.prompt.figure == "knight"

    yield roll_knight

    def texts() -> list[str]:
        return [w.text for w in panel.walk() if hasattr(w, "text")]

    yield d.expect(lambda: "  up to 3 hexes: 33%" in texts() and "  up to 2 hexes: 67%" in texts(),
                   "chances shown before the roll")
    yield d.expect(lambda: any("Adventurers roll 1d6 for the Knight" in t for t in texts()), "who rolls what for whom")
    yield d.drawn()
    d.screenshot("play-roll")
    d.tap_widget(panel.face_buttons[0][5])  # 6: up to 3 hexes

    def move_prompt() -> bool:
        """the knight's move prompt"""
        return s.prompt is not None and s.prompt.kind == "move"

    yield move_prompt
    yield d.drawn()
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
    yield d.expect(lambda: panel.option_buttons.get("end") is not None, "an End the turn button")
    yield d.drawn()
    d.tap_widget(panel.option_buttons["end"])

    def goblins_turn() -> bool:
        """the goblins' turn"""
        return "Goblins' turn" in app.header_text

    yield goblins_turn
    yield d.drawn()
    d.screenshot("play-goblins-turn")
    # Tablet flat between the players: the prompt turns to face the goblins' seat, and its buttons still work.
    app.face_seat = True
    yield d.expect(lambda: play.ids.prompt_turn.rotation == 180, "the prompt faces the goblins' seat")
    yield d.drawn()
    d.screenshot("play-facing-goblins")
    app.face_seat = False
    yield d.expect(lambda: play.ids.prompt_turn.rotation == 0, "the prompt faces the first seat again")
    yield d.drawn()
    n_before = len(s.entries)
    d.tap_widget(play.ids.undo)

    def one_undone() -> bool:
        """the engine taking back one action"""
        return len(s.entries) == n_before - 1

    yield one_undone
    yield d.expect(lambda: "Adventurers' turn" in app.header_text, "undo takes the turn back")
    yield d.drawn()
    # The labelled history: taking back the second newest step undoes two actions.
    popup = app.open_history()

    def history_open() -> bool:
        """the undo history popup open"""
        return _opened(popup)

    yield history_open
    yield d.drawn()
    steps = [w for w in popup.walk() if isinstance(w, BigButton) and "takes back 2" in w.text]
    d.check(len(steps) == 1 and steps[0].text.startswith(f"Undo {n_before - 2}: "), "history names each step")
    d.screenshot("play-undo-history")
    d.tap_widget(steps[0])

    def three_undone() -> bool:
        """the engine taking back two more actions"""
        return len(s.entries) == n_before - 3

    yield three_undone
    yield d.expect(lambda: s.prompt is not None and s.prompt.kind == "roll" and s.prompt.figure == "knight",
                   "two steps back: the knight's movement roll again")

    def no_popup() -> bool:
        """no popup left in the window"""
        return not any(isinstance(w, ModalView) for w in Window.children)

    yield no_popup
    yield d.drawn()
    # Pinch to zoom out: two fingers moving towards each other.
    cx, cy = board.to_window(*board.center)
    t1, t2 = UnitTestTouch(cx - 200, cy), UnitTestTouch(cx + 200, cy)
    t1.touch_down()
    t2.touch_down()
    t1.touch_move(cx - 100, cy)
    t2.touch_move(cx + 100, cy)
    t1.touch_up()
    t2.touch_up()
    yield d.expect(lambda: board.viewport.zoom < zoom_before * 0.9, "pinch zooms out")
    board.fit()
    board.rotate_board(180)
    yield d.drawn()
    d.screenshot("play-rotated")
    board.rotate_board(0)
    board.fit()
    yield d.drawn()
    # Long press on the locked door's hex: its rule. The finger stays down until the rule shows.
    door = board.window_pos_of((9, -2))  # J3, in front of the locked door J3|K3
    t = UnitTestTouch(*door)
    t.touch_down()

    def rule_shown() -> bool:
        """the rule popup of a long press, open"""
        return any(isinstance(w, Popup) and _opened(w) for w in Window.children)

    yield rule_shown
    t.touch_up()
    popups = [w for w in Window.children if isinstance(w, Popup)]
    d.check(len(popups) == 1 and "Locked Door" in " ".join(getattr(w, "text", "") for w in popups[0].walk()),
            "long press shows the rule of the locked door")
    yield d.drawn()
    d.screenshot("play-rules-at-hand")
    popups[0].dismiss()
    yield no_popup
    for name in ("log", "setup", "camera", "big"):
        app.show_screen(name)
        if name == "setup":
            yield d.expect(lambda: "Tutorial Skirmish (Hexa-System Fantasy Battle)" in _setup_buttons(app)
                           and len(_setup_buttons(app)) == 4, "setup lists the engine's scenarios")
        yield d.drawn()
        d.screenshot(name)
    log_text = app.sm.get_screen("log").ids.entries.text
    d.check("roll 5 3" in log_text and "choose knight" in log_text and "move knight" not in log_text,
            "the log lists what is left after the undos")
    app.show_screen("log")
    yield d.drawn()
    path = app.export_log()
    d.check(path.exists() and "choose knight" in path.read_text(), "exported game record")


def portrait_script(d: Driver) -> Step:
    """Portrait layout: the board above the prompt, nothing cut off; larger text scale."""
    app = d.app

    def live() -> bool:
        """the app live with a prompt"""
        return app.agent.state == "live" and app.session.prompt is not None

    yield live
    app.set_text_scale(1.4)
    yield d.drawn()
    panel = _play(app).ids.prompt
    yield d.expect(lambda: bool(panel.face_buttons) and all(b.height >= dp(48) and b.width >= dp(48)
                                                             for buttons in panel.face_buttons for b in buttons),
                   "face buttons at least 48 dp")
    d.screenshot("play-portrait")


# What the camera side reports in the overlays scenario (no camera runs there: the test stands in for it).
CAMERA_REPORT: dict[str, Any] = {
    "cameras": [{"id": "cam0", "status": "ok", "last_seen_age_s": 0.1},
                {"id": "camera-1", "status": "waiting", "last_seen_age_s": None, "refused": True}],
    "lifted": [{"figure": "knight", "moves": [{"hex": [0, 3]}, {"hex": [2, 2]}, {"hex": [1, 2]}]}],
    "desync": [{"figure": "chief", "expected": [10, -2], "seen": [9, -1], "text": ""}],
    "illegal": {"figure": "mage", "to": [6, 0], "reason": "blocked by the wall at E5|F4", "legal": ["D4", "E5"]},
    "unknown_markers": [42], "duplicates": [], "registration": {"ok": True, "text": "4 anchors, 1.2 mm"},
}


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


def overlays_script(d: Driver) -> Step:
    """What the camera side reports, drawn: a lifted figure's ghosts, an illegal move with its legal hexes, a desync
    arrow, unknown markers on the Camera screen (the report comes from the test in place of the engine's)."""
    app = d.app

    def live() -> bool:
        """the app live with the engine's board"""
        return app.agent.state == "live" and app.session.board is not None

    yield live
    stand_in = TableStandIn(app.agent, CAMERA_REPORT)
    info = _play(app).ids.info
    yield d.expect(lambda: "Put Goblin Chief back on K4" in info.text, "desync says which figure goes where")
    illegal = "blocked by the wall at E5|F4. Legal: D4, E5"
    yield d.expect(lambda: "Illegal: Mage to " in info.text and illegal in info.text, "illegal move: reason, legal")
    yield d.drawn()
    d.screenshot("play-table-overlays")
    app.show_screen("camera")
    warnings = app.sm.get_screen("camera").ids.warnings
    yield d.expect(lambda: "Unknown markers" in warnings.text, "camera screen lists unknown markers")
    cameras = app.sm.get_screen("camera").ids.cameras
    yield d.expect(lambda: warnings.text.startswith("A camera with an unknown key was refused")
                   and "Camera camera-1: waiting, refused" in cameras.text, "camera screen says a camera was refused")
    yield d.drawn()
    d.screenshot("camera-report")

    # The race this scenario once lost: the engine's next table report arrives; the report under test stays.
    def engine_report_held_back() -> bool:
        """an engine table report held back by the stand-in"""
        return stand_in.held_back > 0

    yield engine_report_held_back
    yield d.drawn()
    d.check(app.session.table == CAMERA_REPORT and "Unknown markers" in warnings.text,
            "the report under test stays on screen after the engine's next table report")


def camera_script(d: Driver) -> Step:
    """The Camera screen with a real camera service on the synthetic table: the live preview and the link."""
    app = d.app

    def live() -> bool:
        """the app live with the engine's board"""
        return app.agent.state == "live" and app.session.board is not None

    yield live
    app.show_screen("camera")
    screen = app.sm.get_screen("camera")

    def preview() -> bool:
        """a preview JPEG from the camera service"""
        return screen.ids.preview.texture is not None

    yield preview
    # The engine reports the camera link in its table reports (at least every second); the screen shows the newest.
    yield d.expect(lambda: "Camera " in screen.ids.cameras.text, "the engine reporting the camera link")
    yield d.drawn()
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
    # The engine plays another scenario: hold back its game messages, so a resync cannot replace the zone board.
    engine_poll = app.agent.poll

    def poll(limit: int = 200) -> list[AgentEvent]:
        return [ev for ev in engine_poll(limit) if ev.kind not in ("scenario", "snapshot", "state", "events")]

    app.agent.poll = poll  # type: ignore[method-assign]
    app.session.set_scenario(scenario_to_dict(game.scenario))
    app.session.set_snapshot(game_snapshot(game))
    app.refresh()
    board = _play(app).ids.board

    def zones_shown() -> bool:
        """the board widget showing the zone board"""
        return board.session is not None and board.session.board is not None and board.session.board.kind == "zones"

    yield zones_shown
    yield d.drawn()
    view = app.session.board
    five = next(k for k, t in view.tiles.items() if t.label == "5")
    d.check(board.hex_at_window(*board.window_pos_of(five)) == five, "a tap on zone 5 lands on zone 5")
    panel = _play(app).ids.prompt
    hint = "Tap a shaded zone or drag the Ash there (2 zones)."
    yield d.expect(lambda: any(getattr(w, "text", "") == hint for w in panel.walk()), "the prompt speaks of zones")
    d.check(app.header_text == "allies' turn", "the header names the side the prompt addresses")
    d.screenshot("play-zone-board")


def stacks_script(d: Driver) -> Step:
    """Camera → engine → tablet on the synthetic table (the Skirmish test rule set): a hand sets the squire onto
    the knight's hex and turns the knight; the board shows the stack with its count and the knight's facing wedge;
    taps on the stack pick its figures in turn."""
    from engine.hexes import from_label
    from engine.scenario import load_scenario
    from tests.rulesets import SKIRMISH_SCENARIO

    app = d.app
    s = app.session
    hand = d.hand
    assert hand is not None

    def figures() -> dict[str, Any]:
        snapshot = s.snapshot or {}
        state = snapshot.get("state") or {}
        found: dict[str, Any] = state.get("figures") or {}
        return found

    def upright() -> bool:
        """every figure facing up the table, as the camera sees the upright tags"""
        return app.agent.state == "live" and len(figures()) == 3 and all(f["facing"] == 2 for f in figures().values())

    yield upright
    b2 = from_label("B2")
    key = (b2.q, b2.r)
    x, y = load_scenario(str(SKIRMISH_SCENARIO)).layout.hex_to_mm(b2)
    hand.place(1, x - 20.0, y, 0.0)
    hand.place(2, x + 20.0, y, 0.0)

    def stacked() -> bool:
        """the squire on the knight's hex, drawn as a stack of two"""
        board = s.board
        return board is not None and [f.id for f in board.figures_at(key)] == ["squire", "knight"]

    yield stacked
    hand.place(1, x - 20.0, y, 240.0)  # the knight's tag turned: it looks down-left (direction 4)

    def turned() -> bool:
        """the knight facing direction 4 on the board"""
        board = s.board
        return board is not None and board.figures["knight"].facing_deg is not None and abs(
            board.figures["knight"].facing_deg - 150.0) < 1e-6

    yield turned
    play = _play(app)
    board_widget = play.ids.board
    board_widget.fit()
    yield d.drawn()
    d.check(s.board is not None and s.board.figures["squire"].stack == 2, "the stack counts two figures")
    d.screenshot("play-stack-facing")
    # The knight's move: a tap on its own hex leaves it there. Then the bandit's move (B2 is not among its hexes):
    # taps on B2 pick the stack's figures one after another.
    yield d.expect(lambda: s.prompt is not None and s.prompt.figure == "knight", "the knight's move")
    d.tap(*board_widget.window_pos_of(key))
    yield d.expect(lambda: s.prompt is not None and s.prompt.figure == "bandit", "the bandit's move")
    yield d.drawn()
    d.tap(*board_widget.window_pos_of(key))
    yield d.expect(lambda: s.selection is not None and s.selection.figure == "squire", "a tap picks the top figure")
    yield d.expect(lambda: "2 of a stack of 2" in play.ids.info.text, "the info line says which of the stack")
    yield d.drawn()
    d.tap(*board_widget.window_pos_of(key))
    yield d.expect(lambda: s.selection is not None and s.selection.figure == "knight", "a second tap picks the next")
    yield d.drawn()
    d.screenshot("play-stack-pick")
    # The tablet overrides the tag: the selected knight dragged onto A2 turns to face it (direction 3).
    a2 = from_label("A2")
    d.drag(board_widget.window_pos_of(key), board_widget.window_pos_of((a2.q, a2.r)))

    def faces_a2() -> bool:
        """the knight facing A2 (direction 3) after the drag"""
        board = s.board
        angle = board.figures["knight"].facing_deg if board is not None else None
        return angle is not None and abs(angle + 150.0) < 1e-6

    yield faces_a2
    yield d.expect(lambda: s.prompt is not None and s.prompt.figure == "bandit", "turning is not a move")
    yield d.drawn()
    d.screenshot("play-stack-turned")


def stack_choose_script(d: Driver) -> Step:
    """Skirmish with picks, from the tablet alone: the squire joins the knight on B2; red's next pick names both,
    so a tap on B2 lists them and a button of the list chooses the lower one of the stack."""
    from engine.hexes import from_label

    app = d.app
    s = app.session

    def picks(*figures: str) -> Wait:
        def asked() -> bool:
            return (app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "choose"
                    and sorted(o.figure or "" for o in s.prompt.options) == sorted(figures))
        return d.expect(asked, f"red or blue picks among {', '.join(figures)}")

    def moves(figure: str) -> Wait:
        return d.expect(lambda: s.prompt is not None and s.prompt.kind == "move" and s.prompt.figure == figure,
                        f"the {figure}'s move")

    b2, e3 = from_label("B2"), from_label("E3")
    for figure, to, left in (("squire", b2, ("squire", "knight")), ("knight", b2, ("knight",)),
                             ("bandit", e3, ("bandit",))):
        yield picks(*left)
        app.send_action({"kind": "choose", "option": figure})
        yield moves(figure)
        app.send_action({"kind": "move", "figure": figure, "to": [to.q, to.r]})
    yield picks("squire", "knight")
    play = _play(app)
    board = play.ids.board
    board.fit()
    yield d.drawn()
    d.tap(*board.window_pos_of((b2.q, b2.r)))

    def listed() -> list[str]:
        popups = [w for w in Window.children if isinstance(w, Popup) and _opened(w)]
        return [w.text for w in popups[0].walk() if isinstance(w, BigButton)] if len(popups) == 1 else []

    yield d.expect(lambda: listed() == ["move Squire (B2)", "move Knight (B2)", "Cancel"],
                   "a tap on the stack lists both figures, top first")
    d.check(s.notice == "2 choices on B2: pick one", "the notice says the hex holds two choices")
    yield d.drawn()
    d.screenshot("play-stack-choose")
    popup = next(w for w in Window.children if isinstance(w, Popup))
    knight = next(w for w in popup.walk() if isinstance(w, BigButton) and w.text == "move Knight (B2)")
    d.tap_widget(knight)
    yield moves("knight")
    yield d.expect(lambda: not any(isinstance(w, Popup) for w in Window.children), "the list closes")


SCRIPTS: dict[str, Callable[[Driver], Step]] = {
    "stacks": stacks_script,
    "stack-choose": stack_choose_script,
    "zones": zones_script,
    "camera": camera_script,
    "turn": turn_script,
    "portrait": portrait_script,
    "overlays": overlays_script,
}


def main(name: str) -> int:
    script = SCRIPTS[name]
    scenario = "goblins-treasure"
    if name in ("stacks", "stack-choose"):  # the Skirmish test rule set; on the synthetic table, moved by its hand
        from engine.rules import FOLDERS_VARIABLE
        from tests.rulesets import SKIRMISH_FOLDER, SKIRMISH_PICKS, SKIRMISH_SCENARIO

        os.environ[FOLDERS_VARIABLE] = str(SKIRMISH_FOLDER)  # both services load it
        scenario = str(SKIRMISH_SCENARIO if name == "stacks" else SKIRMISH_PICKS)
    vision = VisionProcess(scenario, control=name == "stacks") if name in ("camera", "stacks") else None
    engine = EngineProcess(scenario, extra=["--vision", f"{vision.pub},{vision.snapshot}"] if vision else None)
    app = HexaApp(NetworkAgent(engine.pub, engine.commands, vision.pub if vision else None))
    driver = Driver(app, script)
    if vision is not None and vision.control is not None:
        from vision.synthetic.control import TableControlClient

        driver.hand = TableControlClient(vision.control, timeout_s=30.0)
    Clock.schedule_interval(driver.tick, 0)
    try:
        app.run()
    finally:
        if driver.hand is not None:
            driver.hand.close()
        engine.stop()
        if vision is not None:
            vision.stop()
    ok = driver.error is None
    print(json.dumps({"ok": ok, "checks": driver.checks, "error": driver.error,
                      "engine_log": None if ok else engine.log_text()[-2000:]}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "turn"))
