"""The demo in a real window with ``--dice camera``: services started as ``hexa demo --dice camera`` starts them, the
table stood in for as the window demo does (``window_table``: the hand and the dice roller), and the app.

Run in its own process under Xvfb: ``xvfb-run -a python -m tests.demo.window_demo_dice``. Waits until the tablet
shows the dice the camera read for the first roll (the synthetic dice thrown in the tray by the demo, read by the
camera service, proposed by the engine with its countdown), then until the camera's preview shows the tray. Prints
one JSON line ``{"ok", "checks", "error"}`` and saves ``demo-dice.png`` and ``demo-dice-camera.png``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")

# isort: off
from tests.app.window_driver import Clock, Driver, HexaApp, NetworkAgent, Step, _play  # first: it sets Kivy up
# isort: on
from companion_app.demo.cli import window_table
from companion_app.demo.launcher import DemoServices, port_of
from tests.demo.window_demo import camera_preview

SCENARIO = "goblins-treasure"
COUNTDOWN_S = 600  # the reading stays proposed while the test looks at it (the player's "take it now" ends it)


def dice_demo_script(d: Driver) -> Step:
    app = d.app
    s = app.session
    panel = _play(app).ids.prompt

    def roll_prompt() -> bool:
        """the app live with the turn-order roll"""
        return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

    yield roll_prompt

    def read_by_camera() -> bool:
        """the tablet showing the dice the camera read in the synthetic tray, every die read, with its countdown"""
        box = panel.dice_box
        return box is not None and box.read.proposal and all(v is not None for v in box.read.values)

    yield read_by_camera
    box = panel.dice_box
    values = box.read.values
    d.check(all(1 <= int(v) <= 6 for v in values), f"the camera read the thrown d6: {values}")
    d.check(" ".join(map(str, values)) in box.headline.text, "the faces read, on the tablet")
    d.check(any(ch.isdigit() for ch in box.countdown.text), "its countdown shown")
    d.check(box.wrong is not None, "a one-tap \"that's wrong\"")
    yield d.drawn()
    d.screenshot("demo-dice")
    yield from camera_preview(d, "demo-dice-camera")  # the dice resting in the tray
    app.show_screen("play")
    yield d.drawn()
    d.tap_widget(panel.dice_box.take)

    def taken() -> bool:
        """the roll taken from the camera's reading"""
        return bool(s.entries) and "camera" in (s.entries[0].source or "")

    yield d.expect(taken, "the roll read by the camera played")


def main() -> int:
    checks: list[str] = []
    error: Any = None
    with DemoServices(SCENARIO, dice="camera", dice_countdown_s=COUNTDOWN_S,
                      say=lambda line: print(line, file=sys.stderr)) as services:
        ep = services.endpoints
        with window_table(ep, SCENARIO, "camera"):
            agent = NetworkAgent(f"tcp://127.0.0.1:{port_of(ep.engine_pub)}", f"tcp://127.0.0.1:{port_of(ep.hand)}",
                                 ep.vision_pub)
            app = HexaApp(agent)
            driver = Driver(app, dice_demo_script, timeout_s=90.0)
            Clock.schedule_interval(driver.tick, 0)
            app.run()
            checks, error = driver.checks, driver.error
    ok = error is None
    print(json.dumps({"ok": ok, "checks": checks, "error": error}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
