"""Window scenarios: run the real app against a real engine in this process, drive it with simulated touches.

Run one per process (Kivy keeps global state): ``xvfb-run -a python -m tests.app.window_scenario NAME``.
Prints one JSON line ``{"ok": bool, "checks": [...], "error": ...}`` and saves screenshots under
``artifacts/screenshots/``.
"""


from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.i18n import language_from_environment, set_language
from engine.scenario import bundled_scenarios
from tests.app.engine_process import EngineProcess, VisionProcess
from tests.app.window_driver import (  # the driver first: it configures Kivy before the app is imported
    AgentEvent,
    BigButton,
    Clock,
    Driver,
    HexaApp,
    ModalView,
    NetworkAgent,
    Popup,
    Step,
    TableStandIn,
    UnitTestTouch,
    Window,
    _opened,
    _play,
    _setup_buttons,
    dp,
    unexplained_disabled,
)
from tests.app.window_gm import GM_TABLET, PLAYER_TABLET, gm_script, verdict_script
from tests.app.window_language import language_script
from tests.app.window_layouts import layouts_script
from tests.app.window_stacks import stack_choose_script, stacks_script


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
    # The screens and the map, once drawn, are kept out of the cycle collector's walks (a full walk over them held
    # an update back by 100 ms and more).
    yield d.expect(lambda: gc.get_freeze_count() > 10_000, "the tablet's built objects frozen out of the collector")
    yield d.expect(lambda: len(panel.face_buttons) == 2 and len(panel.face_buttons[0]) == 6,
                   "two dice with six face buttons each")
    yield d.drawn()
    yield d.expect(lambda: all(b.width >= dp(48) and b.height >= dp(48) for row in panel.face_buttons for b in row),
                   "face buttons at least 48 dp")
    d.screenshot("play-turn-order")
    d.check(unexplained_disabled(play) == [], f"every greyed control says why: {unexplained_disabled(play)}")
    d.check(not any(b.disabled for row in panel.face_buttons for b in row), "both sides' dice take a face")
    d.tap_widget(panel.face_buttons[1][2])  # Goblins first: 3
    yield d.expect(lambda: panel.face_buttons[0][0].active and not panel.face_buttons[1][0].active
                   and s.prompt is not None and s.prompt.entered == [None, 3], "the second side entered first")
    yield d.drawn()
    d.tap_widget(panel.face_buttons[0][4])  # then the Adventurers: 5

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
    # Another figure shown during the move: its reach outlined and captioned, the knight's move still filled in.
    d.tap(*board.window_pos_of((1, 4)))  # the dwarf

    def dwarf_shown() -> bool:
        """the dwarf's reach from the engine during the knight's move"""
        return s.selection is not None and s.selection.figure == "dwarf" and bool(s.selection.cells("shade"))

    yield dwarf_shown
    info = play.ids.info
    yield d.expect(lambda: "Outlined: Dwarf's moves" in info.text and "Filled: Knight's legal moves" in info.text,
                   "whose overlay is whose, in words")
    d.check(info.text.count("Dwarf (Adventurers") == 1, f"the shown figure named once: {info.text!r}")
    d.check(s.inspecting_during_move and s.inspect_caption()[0] == "Dwarf's moves: outlined",
            "the board's caption names the shown figure")
    yield d.drawn()
    d.screenshot("play-inspect-during-move")
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
                           and len(_setup_buttons(app)) == len(bundled_scenarios()),
                           "setup lists the engine's scenarios (the bundled ones)")
        yield d.drawn()
        d.screenshot(name)
        missing = unexplained_disabled(app.sm.get_screen(name))
        d.check(missing == [], f"every greyed control on {name} says why: {missing}")
    log_text = app.sm.get_screen("log").ids.entries.text
    d.check("Adventurers rolled 5; Goblins rolled 3" in log_text and "Chose “move Knight" in log_text
            and "Knight moves to" not in log_text and "choose knight" not in log_text,
            f"the log lists what is left after the undos, as sentences: {log_text[:400]!r}")
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
    # Idle, the clock sleeps between frames (Kivy's interrupt clock never does while an interval shorter than a
    # frame is scheduled; the app runs the free clock, kivy_start.CLOCK): some 60–80 ticks a second, little CPU.
    started: list[float] = []

    def idle_second() -> bool:
        """a second of the app idle, its clock's ticks and the UI thread's CPU counted"""
        if not started:
            started.extend((time.monotonic(), float(Clock.frames), time.thread_time()))
        return time.monotonic() - started[0] >= 1.0

    yield idle_second
    wall, ticks, cpu = (time.monotonic() - started[0], Clock.frames - started[1], time.thread_time() - started[2])
    d.check(ticks / wall <= 120, f"idle: {ticks / wall:.0f} clock ticks a second, at most 120 (a spinning clock "
                                 "makes thousands)")
    d.check(cpu / wall <= 0.5, f"idle: the UI thread busy {cpu / wall:.0%} of the time, at most half")


# What the camera side reports in the overlays scenario (no camera runs there: the test stands in for it).
CAMERA_REPORT: dict[str, Any] = {
    "cameras": [{"id": "cam0", "status": "ok", "last_seen_age_s": 0.1},
                {"id": "camera-1", "status": "waiting", "last_seen_age_s": None, "refused": True}],
    "lifted": [{"figure": "knight", "moves": [{"hex": [0, 3]}, {"hex": [2, 2]}, {"hex": [1, 2]}]}],
    "desync": [{"figure": "chief", "expected": [10, -2], "seen": [9, -1], "text": ""}],
    "illegal": {"figure": "mage", "to": [6, 0], "reason": "blocked by the wall at E5|F4", "legal": ["D4", "E5"]},
    "unknown_markers": [42], "duplicates": [], "registration": {"ok": True, "text": "4 anchors, 1.2 mm"},
    "provisional": {"figure": "knight", "to": [2, 2], "to_label": "C3", "legal": True, "reason": ""},
}


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
    panel = _play(app).ids.prompt
    yield d.expect(lambda: "Put Goblin Chief back on K4" in info.text, "desync says which figure goes where")
    yield d.expect(lambda: "Knight over" in info.text and "put it down to play the move" in info.text,
                   "the ghost verdict of the figure still in the hand")
    yield d.expect(lambda: panel.alarm is not None and panel.children[-1] is panel.alarm,
                   "the illegal move heads the prompt area")
    alarm = panel.alarm
    d.check(alarm.headline.text == "ILLEGAL MOVE: Mage may not stop on G4" and alarm.reason.text ==
            "blocked by the wall at E5|F4" and "on one of the legal hexes (outlined): D4, E5" in alarm.fix.text,
            "illegal move: what, the reason, the legal hexes")
    d.check(alarm.headline.font_size >= 1.5 * info.font_size and alarm.reason.font_size > info.font_size,
            "the illegal move in larger text than the info strip")
    d.check("Mage" not in info.text, "the illegal move said once, not in the info strip too")
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

    # The players agree to the move: the override beside the alarm has the engine put the Mage where it stands.
    app.show_screen("play")
    yield d.drawn()
    assert alarm.override is not None
    d.tap_widget(alarm.override)

    def mage_on_g4() -> bool:
        """the engine's snapshot with the Mage on G4"""
        board = app.session.board
        return board is not None and board.figures["mage"].key == (6, 0)

    yield mage_on_g4
    d.check(True, "the override puts the Mage where the table has it")


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


SCRIPTS: dict[str, Callable[[Driver], Step]] = {
    "stacks": stacks_script,
    "stack-choose": stack_choose_script,
    "zones": zones_script,
    "camera": camera_script,
    "turn": turn_script,
    "portrait": portrait_script,
    "overlays": overlays_script,
    "gm": gm_script,
    "gm-verdict": verdict_script,
    "layouts": layouts_script,
    "language": language_script,
}


def main(name: str) -> int:
    set_language(language_from_environment())  # as 'hexa app' does (HEXA_LANG): the app's texts in that language
    script = SCRIPTS[name]
    scenario = "goblins-treasure"
    if name in ("stacks", "stack-choose"):  # the Skirmish test rule set; on the synthetic table, moved by its hand
        from engine.rules import FOLDERS_VARIABLE
        from tests.rulesets import SKIRMISH_FOLDER, SKIRMISH_PICKS, SKIRMISH_SCENARIO

        os.environ[FOLDERS_VARIABLE] = str(SKIRMISH_FOLDER)  # both services load it
        scenario = str(SKIRMISH_SCENARIO if name == "stacks" else SKIRMISH_PICKS)
    if name in ("gm", "gm-verdict"):
        scenario = "filtwiz-river-ambush"
    vision = VisionProcess(scenario, control=name == "stacks") if name in ("camera", "stacks") else None
    extra = ["--vision", f"{vision.pub},{vision.snapshot}"] if vision else []
    keys_dir = tempfile.TemporaryDirectory(prefix="hexa-app-keys-") if name == "gm-verdict" else None
    keys = None
    if keys_dir is not None:  # a table with a GM named by its key; this app is another tablet
        from engine.service.keys import main as make_keys
        from engine.service.security import load_client_keys

        folder = Path(keys_dir.name) / "keys"
        make_keys(["--dir", str(folder), "--client", GM_TABLET, "--client", PLAYER_TABLET])
        extra += ["--keys", str(folder), "--gm", GM_TABLET]
        keys = load_client_keys(folder, PLAYER_TABLET)
    engine = EngineProcess(scenario, extra=extra)
    app = HexaApp(NetworkAgent(engine.pub, engine.commands, vision.pub if vision else None, keys=keys))
    driver = Driver(app, script)
    driver.engine = engine
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
        if keys_dir is not None:
            keys_dir.cleanup()
    ok = driver.error is None
    print(json.dumps({"ok": ok, "checks": driver.checks, "error": driver.error,
                      "engine_log": None if ok else engine.log_text()[-2000:]}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "turn"))
