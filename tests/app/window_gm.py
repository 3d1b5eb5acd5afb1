"""The game master's tablet against a real engine serving Filtwiz's river ambush (run through
``tests.app.window_scenario gm``): become GM with the code the engine printed, mark a hex, run the mass-combat
calculator with the original's example and a distribution the rules refuse, then aim a fan and tap a hex to
see who sees it, as any player does; and at a table with a GM named (``verdict``), a player's tablet sees the GM's
verdict greyed with the reason until it becomes the GM."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.hexes import from_label
from tests.app.gm_examples import MASS_COMBAT_FORM, REFUSED_PC_SHARES, verdict_actions
from tests.app.window_driver import Driver, Step, _play, keep_for_guide, unexplained_disabled

CODE_LINE = re.compile(r"(?:GM code |GMコード)([A-Za-z0-9_-]+)")  # the engine's start-up line, in either language


def gm_code(engine: Any) -> str | None:
    """The GM code the engine printed at start, once it has."""
    found = CODE_LINE.search(engine.log_text())
    return found.group(1) if found else None


def key(label: str) -> tuple[int, int]:
    h = from_label(label)
    return (h.q, h.r)


def live_with_gm_code(d: Driver, code: list[str]) -> Callable[[], bool]:
    """A condition to yield: the app live with the river ambush, and the GM code the engine printed (put in
    ``code``)."""
    app, s, engine = d.app, d.app.session, d.engine

    def live() -> bool:
        """the app live with the river ambush and the engine's GM code printed"""
        found = gm_code(engine)
        if found and not code:
            code.append(found)
        return bool(code) and app.agent.state == "live" and s.board is not None and s.prompt is not None

    return live


def gm_script(d: Driver) -> Step:
    app = d.app
    s = app.session
    code: list[str] = []
    live = live_with_gm_code(d, code)

    yield live
    yield d.drawn()
    d.check(not app.is_gm and not s.gm.is_gm, "a tablet is not the GM until the engine says so")
    app.show_screen("setup")
    yield d.drawn()
    setup = app.sm.get_screen("setup")
    setup.ids.gm_code.text = "not-the-code"
    d.tap_widget(setup.ids.become_gm)
    yield d.expect(lambda: "did not take that GM code" in s.notice and not app.is_gm, "a wrong code is refused")
    setup.ids.gm_code.text = code[0]
    d.tap_widget(setup.ids.become_gm)
    yield d.expect(lambda: app.is_gm and app.current_screen == "gm", "the right code makes this tablet the GM")
    yield d.drawn()
    for name in ("setup", "gm"):  # greyed now: the code field and Become GM, which say why
        missing = unexplained_disabled(app.sm.get_screen(name))
        d.check(missing == [], f"every greyed control on {name} as GM says why: {missing}")
    yield d.drawn()
    gm = app.sm.get_screen("gm")
    board = gm.ids.board
    d.tap_widget(gm.mode_buttons["terrain"])
    yield d.expect(lambda: "kind:blocking" in gm.buttons, "the declared terrain kinds to mark with")
    yield d.drawn()
    d.tap_widget(gm.buttons["kind:blocking"])
    yield d.expect(lambda: s.gm_desk.terrain == "blocking", "blocking in hand")
    yield d.drawn()
    e4 = key("E4")
    d.tap(*board.window_pos_of(e4))
    yield d.expect(lambda: s.board is not None and s.board.marks == ((e4, "blocking"),)
                   and s.board.tiles[e4].style == "solid", "E4 marked blocking and drawn as a blocking hex")
    yield d.drawn()
    d.screenshot("gm-terrain")

    d.tap_widget(gm.mode_buttons["calculate"])
    yield d.expect(lambda: "calc:mass_combat" in gm.buttons, "the declared calculators")
    yield d.drawn()
    d.tap_widget(gm.buttons["calc:mass_combat"])
    yield d.expect(lambda: "run" in gm.buttons and "pcs" in gm.inputs, "the mass-combat form from its fields")
    yield d.drawn()
    for name, text in MASS_COMBAT_FORM.items():
        gm.inputs[name].text = text
    gm.ids.tools_scroll.scroll_to(gm.buttons["run"], animate=False)
    yield d.drawn()
    d.tap_widget(gm.buttons["run"])
    yield d.expect(lambda: "to enemies: 196" in s.gm_desk.shown and "enemy armour: 4" in s.gm_desk.shown,
                   "the original's example: 200 against armour 4 is 196")
    yield d.drawn()
    gm.ids.tools_scroll.scroll_y = 0
    yield d.drawn()
    d.screenshot("gm-mass-combat")
    gm.inputs["pc_shares"].text = REFUSED_PC_SHARES
    gm.ids.tools_scroll.scroll_to(gm.buttons["run"], animate=False)
    yield d.drawn()
    d.tap_widget(gm.buttons["run"])
    yield d.expect(lambda: any("rose would go to -10 HP" in line for line in s.gm_desk.shown)
                   and s.gm_desk.shown[0].startswith("Refused by the rules"),
                   "a distribution taking a PC below 0 is refused, saying which rule")
    yield d.drawn()
    gm.ids.tools_scroll.scroll_y = 0
    yield d.drawn()
    d.screenshot("gm-mass-combat-refused")

    app.show_screen("play")
    yield d.drawn()
    play = _play(app)
    pboard = play.ids.board
    d.tap(*pboard.window_pos_of(key("B3")))  # Nue
    yield d.expect(lambda: s.selection is not None and s.selection.figure == "nue" and "fan" in play.shape_buttons,
                   "a tapped character offers the skill shapes")
    yield d.drawn()
    d.tap_widget(play.shape_buttons["fan"])
    yield d.expect(lambda: s.shape is not None and "larger" in play.shape_buttons, "the fan in hand, with its size")
    yield d.drawn()
    d.tap_widget(play.shape_buttons["larger"])
    yield d.expect(lambda: s.shape is not None and s.shape.size == 2, "size 2")
    yield d.drawn()
    d.tap_widget(play.shape_buttons["larger"])
    yield d.expect(lambda: s.shape is not None and s.shape.size == 3, "size 3")
    d.tap(*pboard.window_pos_of(key("D3")))

    def fan_shown() -> bool:
        """the fan of range 3 towards D3 with who is inside"""
        sel = s.selection
        fan = sel.answers.get("fan") if sel is not None else None
        return (fan is not None and s.shape is not None and s.shape.cell == key("D3") and len(fan.cells) == 7
                and fan.texts[0].startswith("fan of range 3") and any("(friend)" in t for t in fan.texts))

    yield d.expect(fan_shown, "the fan's covered hexes and who is inside, friend or foe")
    yield d.drawn()
    d.screenshot("play-fan")
    d.tap_widget(play.shape_buttons["fan"])  # put it down: taps select again
    yield d.expect(lambda: s.shape is None, "the fan put down")
    yield d.drawn()
    d.tap(*pboard.window_pos_of(key("C5")))  # Villetta: her fan of range 7 across the river
    yield d.expect(lambda: s.selection is not None and s.selection.figure == "villetta" and s.shape is None,
                   "another character shown: nothing in hand")
    yield d.drawn()
    d.tap_widget(play.shape_buttons["fan"])
    yield d.expect(lambda: s.shape is not None and "larger" in play.shape_buttons, "Villetta's fan in hand")
    for size in range(2, 8):
        yield d.drawn()
        d.tap_widget(play.shape_buttons["larger"])
        yield d.expect(lambda n=size: s.shape is not None and s.shape.size == n, f"size {size}")
    d.tap(*pboard.window_pos_of(key("G5")))

    def foes_hit() -> bool:
        """the fan towards G5: foes inside hit (marked !), one spared out of sight"""
        sel = s.selection
        fan = sel.answers.get("fan") if sel is not None else None
        return (fan is not None and s.shape is not None and s.shape.cell == key("G5")
                and sum(1 for t in fan.texts if "(foe): hit" in t) >= 2 and any("spared" in t for t in fan.texts)
                and any(c.style == "warn" and c.label == "!" for c in fan.cells))

    yield d.expect(foes_hit, "foes inside the fan are hit and marked, one out of sight is spared, saying why")
    yield d.drawn()
    keep_for_guide(d.screenshot("filtwiz-fan"), "filtwiz-fan.png")  # the guide's picture, when asked to
    d.tap_widget(play.shape_buttons["fan"])  # put it down
    yield d.expect(lambda: s.shape is None, "the fan put down")
    yield d.drawn()
    e6 = key("E6")
    d.tap(*pboard.window_pos_of(e6))

    def seen() -> bool:
        """who sees E6, a line from every character"""
        sel = s.selection
        shown = sel.answers.get("seen_by") if sel is not None else None
        return sel is not None and sel.cell == e6 and shown is not None and len(shown.lines) == 9

    yield d.expect(seen, "a tap on an empty hex shows who sees it")
    yield d.drawn()
    d.screenshot("play-seen-by")


GM_TABLET = "gm-tablet"  # the tablet the engine names GM (--gm); the app here holds another tablet's key
PLAYER_TABLET = "player"


def verdict_script(d: Driver) -> Step:
    """At a table whose engine names a GM tablet, a player's tablet plays up to the GM's verdict: its answers are
    greyed saying why, the engine refuses the answer sent anyway, and the same tablet answers once it is the GM."""
    app = d.app
    s = app.session
    code: list[str] = []
    live = live_with_gm_code(d, code)

    def played() -> int:
        return len((s.snapshot or {}).get("history") or [])

    yield live
    yield d.drawn()
    d.check(not app.is_gm and s.prompt is not None and s.prompt.decider == "players",
            "a player's tablet answers the players' prompts")
    for n, action in enumerate(verdict_actions(), start=1):
        app.send_action(action)
        yield d.expect(lambda n=n: played() == n, f"the players' answer {n} taken from a tablet that is not the GM")
    yield d.expect(lambda: s.prompt is not None and s.prompt.decider == "gm", "the GM's verdict asked")
    yield d.drawn()
    play = _play(app)
    panel = play.ids.prompt
    buttons = list(panel.option_buttons.values())
    d.check(len(buttons) == 4 and all(b.disabled for b in buttons), "the four verdicts greyed on a player's tablet")
    d.check(all(b.why_disabled.startswith("Only the game master answers this") for b in buttons),
            "each greyed verdict says who answers it")
    missing = unexplained_disabled(play)
    d.check(missing == [], f"every greyed control on play says why: {missing}")
    take_back = (s.scenario or {}).get("gm_only", {}).get("undo", "")
    d.check(take_back.startswith("only the GM may") and play.ids.undo.disabled
            and play.ids.undo.why_disabled == take_back and take_back in play.ids.info.text,
            "Undo greyed on a player's tablet with the engine's reason: only the GM takes back")
    d.screenshot("gm-verdict-greyed")
    app.send_action({"kind": "choose", "option": "miss"})  # sent anyway: the engine has the last word
    yield d.expect(lambda: "the game master decides this" in s.notice and f"'{GM_TABLET}'" in s.notice,
                   "the engine refuses a player's verdict, naming the GM's tablet and how to become GM")
    app.show_screen("setup")
    yield d.drawn()
    setup = app.sm.get_screen("setup")
    missing = unexplained_disabled(setup)
    d.check(setup.ids.lang_ja.disabled and setup.ids.lang_ja.why_disabled.startswith("only the GM may")
            and missing == [], f"the language switch greyed with the engine's reason on setup: {missing}")
    setup.ids.gm_code.text = code[0]
    d.tap_widget(setup.ids.become_gm)
    yield d.expect(lambda: app.is_gm, "the GM code makes this tablet the GM")
    yield d.expect(lambda: not setup.ids.lang_ja.disabled, "the language switch opens on the GM's tablet")
    app.show_screen("play")
    yield d.drawn()
    yield d.expect(lambda: len(panel.option_buttons) == 4
                   and not any(b.disabled for b in panel.option_buttons.values()),
                   "the verdicts open on the GM's tablet")
    yield d.drawn()
    d.screenshot("gm-verdict-open")
    before = played()
    d.tap_widget(panel.option_buttons["miss"])
    yield d.expect(lambda: played() == before + 1 and (s.snapshot or {})["history"][-1]["action"] == {
        "kind": "choose", "option": "miss"}, "the GM's verdict taken")
