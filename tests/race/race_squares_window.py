"""Race on the square grid in the real app against a real engine serving ``race-squares``: the app draws the
squares from the board dict alone, and a run is dragged from square to square.

Run in its own process under Xvfb, with both example folders named in HEXA_RULESETS (the engine process inherits
it): ``xvfb-run -a python -m tests.race.race_squares_window``. Prints one JSON line (``tests.app.window_driver``).
"""

from __future__ import annotations

import sys

from tests.app.window_driver import Driver, Step, _play, run_against_engine
from tests.race.race_window import roll_off_red_first

A1, B1 = (0, 0), (1, 0)


def squares_script(d: Driver) -> Step:
    """The squares with their exits, the roll-off, Red's die, Dash picked and dragged one square east."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with Race's roll-off"""
        return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

    yield live
    play = _play(app)
    board, panel = play.ids.board, play.ids.prompt
    view = s.board
    assert view is not None
    d.check(view.kind == "squares" and len(view.tiles) == 40 and all(len(t.corners) == 4 for t in view.tiles.values()),
            "40 squares drawn")
    d.check(sorted(t.label for t in view.tiles.values() if "exit" in t.tokens) == ["H1", "H3", "H5"],
            "the exits drawn on H1, H3 and H5")
    yield from roll_off_red_first(d, panel)
    yield d.expect(lambda: len(panel.face_buttons) == 1, "one die for the run")
    yield d.drawn()
    d.tap_widget(panel.face_buttons[0][2])  # 3
    yield d.expect(lambda: s.prompt is not None and s.prompt.kind == "choose" and "dash" in panel.option_buttons,
                   "which runner runs: Dash and Pip offered")
    yield d.drawn()
    d.tap_widget(panel.option_buttons["dash"])
    yield d.expect(lambda: s.prompt is not None and s.prompt.kind == "move" and "squares" in s.prompt.text,
                   "Dash's run, counted in squares")
    yield d.drawn()
    d.drag(board.window_pos_of(A1), board.window_pos_of(B1))
    yield d.expect(lambda: s.board is not None and s.board.figures["dash"].key == B1, "Dash dragged to B1")
    yield d.expect(lambda: "Blue's turn" in app.header_text, "Blue's turn next")
    yield d.drawn()
    d.screenshot("race-squares-board")


def main() -> int:
    return run_against_engine("race-squares", squares_script)


if __name__ == "__main__":
    sys.exit(main())
