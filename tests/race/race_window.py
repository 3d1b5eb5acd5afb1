"""Race in the real app against a real engine started with race.toml: roll-off, a run by taps and a drag.

Run in its own process under Xvfb, with Race's folder named in HEXA_RULESETS (the engine process
inherits it): ``xvfb-run -a python -m tests.race.race_window``. Prints one JSON line like the window
scenarios of ``tests.app.window_scenario``, whose driver (``tests.app.window_driver``) it uses: it waits on
state, never on frames.
"""

from __future__ import annotations

import sys
from typing import Any

from tests.app.window_driver import Driver, Step, _play, run_against_engine
from tests.race.conftest import RACE_TOML

A1, D1 = (0, 0), (3, -1)


def roll_off_red_first(d: Driver, panel: Any) -> Step:
    """The roll-off on the prompt panel's two dice: Red 5, Blue 2."""
    yield d.expect(lambda: len(panel.face_buttons) == 2, "two dice for the roll-off")
    yield d.drawn()
    d.tap_widget(panel.face_buttons[0][4])  # Red: 5
    yield d.expect(lambda: panel.face_buttons[1][0].active, "focus on Blue's die")
    yield d.drawn()
    d.tap_widget(panel.face_buttons[1][1])  # Blue: 2


def race_script(d: Driver) -> Step:
    """The board with its exits and walls, the roll-off on two dice, Red's die, Dash picked and dragged to D1."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with Race's roll-off"""
        return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

    yield live
    play = _play(app)
    board, panel = play.ids.board, play.ids.prompt
    view = s.board
    d.check(view is not None and view.kind == "hex", "a hex board")
    assert view is not None
    d.check(sorted(t.label for t in view.tiles.values() if "exit" in t.tokens) == ["M1", "M3", "M5"],
            "the exits drawn on M1, M3 and M5")
    d.check(view.figures["dash"].letter == "D", "runners lettered by their names")
    yield from roll_off_red_first(d, panel)
    header = "Round 1 · Red's turn · Run"
    yield d.expect(lambda: app.header_text == header, f"header: {header}")

    def texts() -> list[str]:
        return [w.text for w in panel.walk() if hasattr(w, "text")]

    yield d.expect(lambda: len(panel.face_buttons) == 1 and any("a runner can reach an exit: 0%" in t for t in texts()),
                   "one die for the run, with its chance before the roll")
    yield d.drawn()
    d.tap_widget(panel.face_buttons[0][2])  # 3
    yield d.expect(lambda: s.prompt is not None and s.prompt.kind == "choose" and "dash" in panel.option_buttons,
                   "which runner runs: Dash and Pip offered")
    yield d.drawn()
    d.tap_widget(panel.option_buttons["dash"])
    yield d.expect(lambda: s.prompt is not None and s.prompt.kind == "move" and s.prompt.figure == "dash",
                   "Dash's run, up to 3 + stride 1")
    yield d.drawn()
    d.screenshot("race-run")
    d.drag(board.window_pos_of(A1), board.window_pos_of(D1))
    yield d.expect(lambda: s.board is not None and s.board.figures["dash"].key == D1, "Dash dragged to D1")
    yield d.expect(lambda: "Blue's turn" in app.header_text, "Blue's turn next")
    yield d.drawn()
    d.screenshot("race-board")


def main() -> int:
    return run_against_engine(str(RACE_TOML), race_script)


if __name__ == "__main__":
    sys.exit(main())
