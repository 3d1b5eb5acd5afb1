"""Filtwiz's sight ruling in the real app against a real engine: the archer's attack on the bandit runs along the
side two rocks share, so the engine asks the GM to rule on the line, and the tablet draws the line with the two
rocks it only touches ringed; the table (no GM named here) rules it blocked.

Run in its own process under Xvfb: ``xvfb-run -a python -m tests.filtwiz.filtwiz_window``. Prints one JSON line like
the window scenarios of ``tests.app.window_scenario``, whose driver it uses: it waits on state, never on frames.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from engine.hexes import from_label
from engine.i18n import language_from_environment, set_language
from tests.app.window_driver import Driver, Step, TableStandIn, _play, keep_for_guide, run_against_engine

from .scenarios import ARCHER_AND_BANDIT as FIGURES
from .scenarios import HEAD

# The archer in A1, the bandit in B2: the line between them runs along the side the rocks B1 and A2 share.
DRAWING = """
.   .   .   .
  #   .   .
#   .   .   .
  .   .   .
.   .   .   .
  .   .   .
"""



def key(label: str) -> tuple[int, int]:
    h = from_label(label)
    return (h.q, h.r)


def sight_script(d: Driver) -> Step:
    app = d.app
    s = app.session

    def history() -> int:
        return len((s.snapshot or {}).get("history") or [])

    TableStandIn(app.agent, {})  # no camera runs: an empty table
    yield lambda: app.agent.state == "live" and s.board is not None and s.prompt is not None
    app.send_action({"kind": "roll", "values": [6, 1]})  # the roll-off: the explorers first
    yield d.expect(lambda: s.prompt is not None and s.prompt.kind == "move", "the archer's move asked")
    app.send_action({"kind": "move", "figure": "archer", "to": list(key("A1"))})
    yield d.expect(lambda: s.prompt is not None and any(o.id == "target:bandit" for o in s.prompt.options),
                   "the archer may attack the bandit")
    app.send_action({"kind": "choose", "option": "target:bandit"})

    def ruling_asked() -> bool:
        """the GM's sight ruling asked, with the line and the hexes it touches"""
        p = s.prompt
        return (p is not None and p.overlay is not None and len(p.overlay.lines) == 1
                and set(p.overlay.lines[0].touched) == {key("B1"), key("A2")})

    yield d.expect(ruling_asked, "the sight ruling asked, drawing the line and the two rocks it only touches")
    play = _play(app)
    panel = play.ids.prompt
    yield d.expect(lambda: set(panel.option_buttons) == {"clear", "blocked"}, "clear or blocked offered")
    d.check(s.prompt is not None and s.prompt.decider == "table" and "only touches" in s.prompt.text
            and "A2" in s.prompt.text and "B1" in s.prompt.text,
            "no GM named: the table rules, told which hexes the line touches")
    yield d.drawn()
    keep_for_guide(d.screenshot("filtwiz-sight-ruling"), "filtwiz-sight-ruling.png")  # the guide's, when asked
    before = history()
    d.tap_widget(panel.option_buttons["blocked"])
    yield d.expect(lambda: history() == before + 1 and ((s.snapshot or {}).get("state") or {}).get("rulings")
                   == {"sight:A1:B2": "blocked"}, "the line ruled blocked")
    yield d.expect(lambda: s.prompt is not None and s.prompt.overlay is None, "nothing left to rule on")
    yield d.drawn()
    d.screenshot("filtwiz-sight-ruled")


def main() -> int:
    set_language(language_from_environment())
    with tempfile.TemporaryDirectory(prefix="filtwiz-window-") as folder:
        path = Path(folder) / "sight-ruling.toml"
        path.write_text(HEAD.format(drawing=DRAWING.strip("\n")) + FIGURES, encoding="utf-8")
        return run_against_engine(str(path), sight_script)


if __name__ == "__main__":
    sys.exit(main())
