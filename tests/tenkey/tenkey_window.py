"""Tenkey in the real app against a real engine serving tenkey-skirmish: the zone board, a tapped character's
moves and ranges (a blocked route with its reason), an area preview and a line preview.

Run in its own process under Xvfb: ``xvfb-run -a python -m tests.tenkey.tenkey_window``. Prints one JSON line like
the window scenarios of ``tests.app.window_scenario``, whose driver (``tests.app.window_driver``) it uses: it waits
on state, never on frames.
"""

from __future__ import annotations

import sys
from typing import Any

from companion_app.ui.readability import min_text_px
from engine.i18n import current_language, language_from_environment, set_language
from tests.app.window_driver import (
    Driver,
    Step,
    TableStandIn,
    Window,
    _play,
    dp,
    keep_for_guide,
    run_against_engine,
)

SCENARIO = "tenkey-skirmish"
PORTRAIT = (800, 1280)


def check_query_row(d: Driver, play: Any, where: str) -> None:
    """Every query button's text on one line inside its button, at the readable size or larger."""
    least = min_text_px(d.app.text_scale) * 0.995
    cramped = [(b.text, round(b.font_size), tuple(b.texture_size), tuple(b.size))
               for b in play.query_buttons.values()
               if b.font_size < least or b.texture_size[0] > b.width - dp(8) + 1
               or b.texture_size[1] > b.font_size * 1.6]  # taller than one line: wrapped
    d.check(bool(play.query_buttons) and not cramped,
            f"{where}: every query button's text on one line at {least:.0f} px or more (cramped: {cramped})")


def turned_portrait(d: Driver) -> Step:
    """The window turned to a portrait tablet's size, laid out again and drawn."""
    Window.size = PORTRAIT
    play = _play(d.app)
    yield d.expect(lambda: tuple(Window.size) == PORTRAIT and play.ids.board.width > play.ids.board.height * 0.9,
                   "the window turned portrait")
    yield d.drawn()
    yield d.drawn()  # the query row's columns are fitted a frame after its width changes


def query_rows_script(d: Driver) -> Step:
    """The query buttons in this run's language, landscape then portrait: each text on one line at a readable size."""
    app = d.app
    s = app.session
    TableStandIn(app.agent, {})
    yield lambda: app.agent.state == "live" and s.board is not None and s.board.kind == "zones" and bool(s.queries)
    play = _play(app)
    yield d.drawn()
    lang = current_language()
    check_query_row(d, play, f"{lang} {Window.width}x{Window.height}")
    d.screenshot(f"tenkey-{lang}-board")
    yield from turned_portrait(d)
    check_query_row(d, play, f"{lang} {Window.width}x{Window.height}")
    d.screenshot(f"tenkey-{lang}-portrait")

def tenkey_script(d: Driver) -> Step:
    """The mat with every character, Brother Odo's moves then his range (a shot blocked by the pillar in 5), Ilse's
    range with her area preview (the guide's picture), then her line preview."""
    app = d.app
    s = app.session

    def live() -> bool:
        """the app live with the initiative choice on the zone board"""
        return app.agent.state == "live" and s.prompt is not None and s.board is not None and s.board.kind == "zones"

    TableStandIn(app.agent, {})  # no camera runs: an empty table, not the engine's note that no anchor is seen
    yield live
    play = _play(app)
    board, info = play.ids.board, play.ids.info
    view = s.board
    assert view is not None
    zone = {t.label: k for k, t in view.tiles.items()}
    d.check(view.tiles[zone["5"]].caption == "obstacle" and view.tiles[zone["5"]].pattern != "",
            "the obstacle zone drawn with a pattern and its name")
    in_two = [f for f in view.figures.values() if f.key == zone["2"]]
    d.check(len(in_two) == 2 and len({f.centre for f in in_two}) == 2 and all(f.name_left for f in in_two),
            "both characters in 2 drawn apart, each named")
    d.check(list(play.query_buttons) == [q.what for q in s.queries], "a button for each of the rule set's queries")
    yield d.drawn()
    check_query_row(d, play, "landscape")
    d.screenshot("tenkey-board")

    def answered(figure: str) -> bool:
        sel = s.selection
        return sel is not None and sel.figure == figure and set(sel.answers) == {q.what for q in s.queries}

    for _ in range(3):  # zone 2 holds Garrick and Brother Odo: a tap picks one, the next tap the other
        d.tap(*board.window_pos_of(zone["2"]))
        yield d.expect(lambda: s.selection is not None, "a tap on zone 2 selects a character")
        if s.selection is not None and s.selection.figure == "odo":
            break
    yield d.expect(lambda: answered("odo"), "every query answered about Brother Odo")
    sel = s.selection
    assert sel is not None
    d.check([o.query for o in sel.overlays()] == ["reachable"], "only his moves drawn at first")
    d.check({c.label for c in sel.cells("shade")} >= {"3 m", "10 m"}, "his moves with their costs: 3 m, 10 m")
    yield d.drawn()
    d.screenshot("tenkey-moves")
    d.tap_widget(play.query_buttons["reachable"])
    d.tap_widget(play.query_buttons["targets"])
    yield d.expect(lambda: [o.query for o in sel.overlays()] == ["targets"], "the Range button shows his range")
    blocked = "Chief Varg in 8: 20 m, blocked: an obstacle or an enemy in 5 lies on a cheapest route"
    yield d.expect(lambda: blocked in info.text, "a blocked route with its reason")
    d.check(any(line.verdict == "blocked" and line.target == "varg" and line.blocker_hex == zone["5"]
                for line in sel.sight_lines), "the line to Varg drawn blocked, the pillar's zone outlined")
    d.check(play.query_buttons["targets"].active and not play.query_buttons["reachable"].active,
            "the buttons lit as drawn")
    yield d.drawn()
    d.screenshot("tenkey-range")
    d.tap(*board.window_pos_of(zone["3"]))
    yield d.expect(lambda: answered("ilse"), "every query answered about Ilse")
    d.tap_widget(play.query_buttons["area"])
    sel = s.selection
    assert sel is not None
    yield d.expect(lambda: [o.query for o in sel.overlays()] == ["targets", "area"], "her range and her area")
    yield d.expect(lambda: "radius 5 m at 6: 5 and 6" in info.text, "the area preview names its zones")
    d.check({s.board.label(c.key) for c in sel.cells("shade") if c.label == "area"} == {"5", "6"},  # type: ignore[union-attr]
            "the area shaded on 5 and 6")
    yield d.drawn()
    keep_for_guide(d.screenshot("tenkey-area"), "tenkey-tablet.png")  # the guide's picture, when asked to
    d.tap_widget(play.query_buttons["targets"])
    d.tap_widget(play.query_buttons["area"])
    d.tap_widget(play.query_buttons["line"])
    yield d.expect(lambda: [o.query for o in sel.overlays()] == ["line"], "her line preview alone")
    yield d.expect(lambda: "through Spearman Bram: 3, 6 and 9 (Spearman Bram, Hedge Witch Maud)" in info.text,
                   "the line through Bram catches Bram and Maud")
    yield d.drawn()
    d.screenshot("tenkey-line")
    yield from turned_portrait(d)
    check_query_row(d, play, "portrait")
    d.screenshot("tenkey-portrait")


def main(name: str) -> int:
    set_language(language_from_environment())  # as 'hexa app' does (HEXA_LANG)
    return run_against_engine(SCENARIO, query_rows_script if name == "query-rows" else tenkey_script)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "play"))
