"""Window scenario: the dice the camera reads, on the tablet. A real engine (``--dice camera``) hears a camera
publisher in this process that sends the tray's ``dice`` messages, as the camera service does every frame.

``xvfb-run -a python -m tests.app.window_dice [en|ja]``: prints one JSON line (``window_run`` reads it) and saves
the screenshots ``dice-read[-ja][-WxH].png`` and ``dice-question[-ja][-WxH].png`` (the size named unless 1280x800).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from engine.i18n import set_language
from engine.wire import DieDoubt, DieKind, DieSeen, TraySeen
from tests.app.engine_process import EngineProcess
from tests.app.window_driver import (
    BigButton,
    Clock,
    Driver,
    HexaApp,
    NetworkAgent,
    Step,
    Window,
    _play,
    keep_for_guide,
)
from vision.publisher import VisionPublisher

ANY_PORT = "tcp://127.0.0.1:*"
# The camera service's words (in its own language) for a tray it cannot read.
PROBLEM = {"en": "the dice tray could not be read in 40 frames (ValueError: no paper colour): type the faces on the "
                 "tablet until it reads again, and please report this with the camera's log",
           "ja": "ダイストレイを40フレーム読み取れませんでした（ValueError: no paper colour）。読み取れるようになるまで"
                 "タブレットで出目を入力し、カメラのログを添えてこの問題を報告してください"}


class Tray:
    """The camera side: publishes the tray it holds now, every frame."""

    def __init__(self) -> None:
        self.publisher = VisionPublisher(ANY_PORT, ANY_PORT, camera_id="tray-camera")
        self.now: TraySeen | None = None
        self.frame = 0
        self.problem = ""  # what its heartbeat tells the players (a tray that cannot be read)

    def throw(self, roll: int, *faces: int, doubt: DieDoubt | None = None) -> None:
        """Dice settled in the tray (``doubt`` on the last one)."""
        dice = tuple(DieSeen(i + 1, DieKind.D6, face, 0.4 if doubt and i == len(faces) - 1 else 0.98, 40.0 + 40 * i,
                             60.0, True, doubt if i == len(faces) - 1 else None) for i, face in enumerate(faces))
        self.now = TraySeen("tray", roll, True, dice)

    def tick(self, _dt: float) -> None:
        self.frame += 1
        trays = () if self.now is None else (self.now,)
        self.publisher.publish_dice(self.frame, time.time(), trays)
        if self.frame % 4 == 0:
            self.publisher.publish_heartbeat("ok", 20.0, "", self.problem)
        self.publisher.serve_snapshots(0)


def _button(root: Any, text: str) -> BigButton | None:
    return next((w for w in root.walk() if isinstance(w, BigButton) and w.text == text), None)


def _window_box(w: Any) -> tuple[float, float, float, float]:
    corners = [w.to_window(x, y) for x in (w.x, w.right) for y in (w.y, w.top)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def fit_problems(panel: Any) -> list[str]:
    """What keeps the prompt from showing whole in its scroll view: its height over the room, and every button
    not wholly inside the room (cut by its edge, or scrolled out of it). Empty: it shows whole, nothing to scroll."""
    scroll = panel.parent
    out = []
    if panel.height > scroll.height + 0.5:
        out.append(f"the prompt {panel.height:.0f} px high in {scroll.height:.0f} px: it scrolls")
    room = _window_box(scroll)
    for w in panel.walk(restrict=True):
        if isinstance(w, BigButton) and w.opacity > 0 and w.width > 1:
            box = _window_box(w)
            if box[0] < room[0] - 0.5 or box[1] < room[1] - 0.5 or box[2] > room[2] + 0.5 or box[3] > room[3] + 0.5:
                out.append(f"the button {w.text[:24]!r} cut at {tuple(round(v) for v in box)}")
    return out


def dice_script(tray: Tray, lang: str) -> Any:
    size = f"{Window.width}x{Window.height}"
    suffix = ("" if lang == "en" else f"-{lang}") + ("" if size == "1280x800" else f"-{size}")
    wrong_text = "That's wrong" if lang == "en" else "読み違い"
    take_text = "Take it now" if lang == "en" else "今すぐ確定"

    def script(d: Driver) -> Step:
        app = d.app
        s = app.session
        panel = _play(app).ids.prompt

        def rolling() -> bool:
            """the app live with the turn-order roll (Adventurers 1d6, then Goblins 1d6)"""
            return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

        yield rolling
        tray.problem = PROBLEM[lang]
        info = _play(app).ids.info
        yield d.expect(lambda: PROBLEM[lang] in info.text, "a tray that cannot be read: said on the board's strip")
        yield d.drawn()
        d.screenshot(f"dice-problem{suffix}")
        tray.problem = ""
        yield d.expect(lambda: PROBLEM[lang] not in info.text, "and gone once it reads again")
        tray.throw(1, 5)
        yield d.expect(lambda: s.dice_read is not None and s.dice_read.values == (5, None),
                       "the first throw read, the second awaited")
        tray.throw(2, 3)
        yield d.expect(lambda: panel.dice_box is not None and panel.dice_box.read.proposal
                       and panel.dice_box.read.values == (5, 3), "the proposal shown under the prompt's title")
        box = panel.dice_box
        d.check(box.headline.text == ("Read by the camera: 5 3" if lang == "en" else "カメラの読み取り: 5 3"),
                "the faces read, large")
        d.check(box.wrong is not None and box.wrong.text == wrong_text, "a one-tap \"that's wrong\"")
        d.check(box.take is not None and box.take.text == take_text, "take it now")
        left = box.read.left_s(time.monotonic())
        d.check(left is not None and 0 < left <= 600, "the countdown runs")
        d.check(any(str(n) in box.countdown.text for n in range(1, 601)), "the countdown in seconds")
        d.check(panel.children.index(box) == panel.children.index(panel.title) - 1, "just under the prompt's title")
        d.check(bool(panel.face_buttons) and all(panel.face_buttons), "typing the faces stays available")
        d.check(bool(panel.chances) and all(w.parent is None for w in panel.chances),
                "the chances before the roll give way to the reading")
        yield from _whole(d, panel, f"the read roll shows whole at {size}")
        d.check(panel.roll_for_me is not None and panel.roll_for_me.text.strip() != "", "roll for me offered")
        yield d.drawn()
        shot = d.screenshot(f"dice-read{suffix}")
        if suffix == "":
            keep_for_guide(shot, "dice-read.png")  # the README's picture, when asked to
        d.tap_widget(box.wrong)
        yield d.expect(lambda: panel.dice_box is None and s.dice_read is None, "that's wrong: the reading is gone")
        d.check(bool(panel.chances) and all(w in panel.children for w in panel.chances),
                "the chances before the roll back for the new throw")
        tray.throw(3, 4, doubt=DieDoubt.COCKED)
        yield d.expect(lambda: panel.dice_box is not None and panel.dice_box.read.question, "a cocked die: a question")
        box = panel.dice_box
        d.check(box.read.missing[0].index == 0 and len(box.face_buttons[0]) == 6, "face buttons for the doubtful die")
        d.check("cocked" in box.headline.text if lang == "en" else "傾いて" in box.headline.text,
                "the question says why")
        yield from _whole(d, panel, f"the camera's question shows whole at {size}")
        yield d.drawn()
        d.screenshot(f"dice-question{suffix}")
        d.tap_widget(box.face_buttons[0][3])  # 4
        yield d.expect(lambda: s.dice_read is not None and s.dice_read.state == "partial"
                       and s.dice_read.values == (4, None), "the tapped face taken; the Goblins' throw awaited")
        tray.throw(4, 2)
        yield d.expect(lambda: panel.dice_box is not None and panel.dice_box.read.values == (4, 2)
                       and panel.dice_box.take is not None, "the whole roll proposed")
        d.tap_widget(panel.dice_box.take)
        yield d.expect(lambda: bool(s.entries) and s.entries[0].source == "camera+tablet", "the roll played")
        d.check("camera" in s.entries[0].heading or "カメラ" in s.entries[0].heading, "the log says the camera read it")
        yield from dice_mode_switched(d, lang, suffix)

    return script


DICE_MODE_WORDS = {  # the Camera screen's line and button, by where the engine takes the dice from
    "en": {"camera": ("read by the camera", "Enter the dice on the tablet only"),
           "tablet": ("entered on the tablet", "Let the camera read the dice")},
    "ja": {"camera": ("カメラが読みます", "ダイスはタブレットだけで入力する"),
           "tablet": ("タブレットで入力します", "ダイスをカメラに読ませる")},
}


def dice_mode_switched(d: Driver, lang: str, suffix: str) -> Step:
    """The Camera screen says where the dice come from; its button switches the engine to the tablets and back."""
    app = d.app
    app.show_screen("camera")
    screen = app.sm.get_screen("camera")

    def taking_from(mode: str) -> Callable[[], bool]:
        return lambda: (app.session.table or {}).get("dice_mode") == mode

    def shown(mode: str) -> Callable[[], bool]:
        line, button = DICE_MODE_WORDS[lang][mode]
        return lambda: (taking_from(mode)() and line in screen.ids.dice_mode.text
                        and screen.ids.dice_switch.text == button)

    for mode, other in (("camera", "tablet"), ("tablet", "camera")):
        yield d.expect(shown(mode), f"the Camera screen: dice {mode}, and the button to the other way")
        yield d.drawn()
        d.screenshot(f"dice-mode-{mode}{suffix}")
        d.tap_widget(screen.ids.dice_switch)
        yield d.expect(taking_from(other), f"the engine takes the dice from the {other} now")


def _whole(d: Driver, panel: Any, what: str) -> Step:
    """Wait until the prompt shows whole in its room (it fits itself to it as its texts take their sizes)."""
    yield d.expect(lambda: not fit_problems(panel), f"{what}: nothing to scroll, no button cut")
    d.checks.append(f"{what}: {panel.height:.0f} px in {panel.parent.height:.0f} px")


def main(lang: str) -> int:
    set_language(lang)
    tray = Tray()
    engine = EngineProcess("goblins-treasure", extra=[
        "--vision", f"{tray.publisher.endpoint},{tray.publisher.snapshot_endpoint}", "--dice", "camera",
        "--dice-countdown", "600", "--lang", lang])
    app = HexaApp(NetworkAgent(engine.pub, engine.commands, None))
    driver = Driver(app, dice_script(tray, lang))
    Clock.schedule_interval(tray.tick, 0.05)
    Clock.schedule_interval(driver.tick, 0)
    try:
        app.run()
    finally:
        engine.stop()
        tray.publisher.close()
    ok = driver.error is None
    print(json.dumps({"ok": ok, "checks": driver.checks, "error": driver.error,
                      "engine_log": None if ok else engine.log_text()[-2000:]}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "en"))
