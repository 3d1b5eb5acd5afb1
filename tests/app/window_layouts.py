"""Every screen at one window size (the size comes from the environment, as the driver reads it): a screenshot of
each with its colour-blind simulations, and the smallest text a player must read measured on the live widgets and
on the board's drawn labels."""

from __future__ import annotations

import os
from typing import Any

from fontTools.ttLib import TTFont
from kivy.graphics import Rectangle
from kivy.uix.label import Label

from companion_app.ui.readability import min_text_px
from companion_app.ui.text_room import texture_per_font
from engine.fonts import japanese_font
from engine.i18n import current_language
from tests.app.colour_blindness import simulate_file
from tests.app.gm_examples import MASS_COMBAT_FORM
from tests.app.window_driver import Driver, ModalView, Step, Window, _opened, _play, _setup_buttons, keep_for_guide
from tests.app.window_gm import gm_code

GM_SCENARIO = "filtwiz-river-ambush"  # a rule set whose GM has every tool: terrain marks, rulings, calculators


def _shown(w: Any) -> bool:
    """A widget a player sees: it and every parent opaque, with a size, inside the window."""
    node = w
    while node is not None and node is not Window:
        if getattr(node, "opacity", 1) <= 0 or node.width <= 1 or node.height <= 1:
            return False
        node = node.parent
    x, y = w.to_window(*w.center)
    return 0 <= x <= Window.width and 0 <= y <= Window.height


def widget_texts(d: Driver) -> list[tuple[float, float, str]]:
    """(font size px, rendered texture height px, text) of every label and button in the window a player sees."""
    out = []
    for root in Window.children:
        for w in root.walk():
            if isinstance(w, Label) and w.text.strip() and _shown(w) and w.texture_size[1] > 0:
                out.append((float(w.font_size), float(w.texture_size[1]), w.text[:40]))
    return out


def board_texts(board: Any) -> list[tuple[float, str]]:
    """The font size on screen (px) of every text the board draws: each text quad's height at the zoom shown,
    over the font's line height."""
    per_font = texture_per_font()
    out = []
    for group in (board.g_tile_labels, board.g_edges, board.g_figures, board.g_over, board.g_names):
        for ins in group.children:
            if isinstance(ins, Rectangle) and ins.texture is not None:
                out.append((ins.size[1] * board.viewport.zoom / per_font, f"{ins.size[1]:.1f} mm"))
    return out


def _check_sizes(d: Driver, where: str, board: Any = None) -> None:
    least = min_text_px(d.app.text_scale) * 0.995
    small = [t for t in widget_texts(d) if t[0] < least or t[1] < least]
    d.check(not small, f"{where}: every text at least {least:.0f} px (smaller: {small[:3]})")
    if board is not None:
        drawn = board_texts(board)
        tiny = [t for t in drawn if t[0] < least]
        d.check(bool(drawn) and not tiny, f"{where}: the board's {len(drawn)} texts at least {least:.0f} px "
                f"(smaller: {tiny[:3]})")


def _shown_labels() -> list[Any]:
    return [w for root in Window.children for w in root.walk()
            if isinstance(w, Label) and w.text.strip() and _shown(w) and w.texture_size[1] > 0]


def _check_drawn(d: Driver, where: str) -> None:
    """No empty boxes and no clipped text: every character a label shows has a glyph in the font every label uses
    (the Japanese one), and every label's text fits inside the label."""
    glyphs = set(TTFont(str(japanese_font()), lazy=True).getBestCmap())
    labels = _shown_labels()
    fonts = {str(w._label.options.get("font_name_r", "")) for w in labels}
    d.check(fonts == {str(japanese_font())}, f"{where}: every label drawn with the Japanese font ({fonts})")
    missing = sorted({c for w in labels for c in w.text if not c.isspace() and ord(c) not in glyphs})
    d.check(not missing, f"{where}: a glyph for every character shown (none for: {missing[:10]})")
    clipped = [(w.text[:30], tuple(w.texture_size), tuple(w.size)) for w in labels
               if w.texture_size[0] > w.width + 2 or w.texture_size[1] > w.height + 2]
    d.check(not clipped, f"{where}: every text inside its label (clipped: {clipped[:3]})")


def layouts_script(d: Driver) -> Step:
    """Play (a roll, a selection), the legend, Log, Camera, Setup and the big screen at this window's size."""
    app = d.app
    s = app.session
    lang = current_language()
    tag = f"{Window.width}x{Window.height}"
    name_tag = tag if lang == "en" else f"{lang}-{tag}"  # the Japanese run's screenshots beside the English ones
    shots = []

    def live() -> bool:
        """the app live with a roll prompt"""
        return app.agent.state == "live" and s.prompt is not None and s.prompt.kind == "roll"

    yield live
    play = _play(app)
    board = play.ids.board
    if os.environ.get("HEXA_TEST_BIG") == "1":  # the big-screen view for everyone (a TV)
        app.show_screen("big")
        yield d.drawn()
        big = app.sm.get_screen("big").ids.board
        _check_sizes(d, f"big {tag}", big)
        _check_drawn(d, f"big {tag}")
        shots.append(d.screenshot(f"layout-{name_tag}-big"))
    else:
        yield d.drawn()
        _check_sizes(d, f"play {tag}", board)
        _check_drawn(d, f"play {tag}")
        shots.append(d.screenshot(f"layout-{name_tag}-play-roll"))
        d.tap(*board.window_pos_of((2, 3)))  # the ranger: its reach, targets and threats

        def selected() -> bool:
            """the ranger's answers from the engine"""
            return s.selection is not None and set(s.selection.answers) == {q.what for q in s.queries}

        yield selected
        yield d.drawn()
        _check_sizes(d, f"play selection {tag}", board)
        _check_drawn(d, f"play selection {tag}")
        shots.append(d.screenshot(f"layout-{name_tag}-play-selection"))
        if tag == "1280x800":  # the README's pictures, when asked to
            keep_for_guide(shots[-1], "app-play.png" if lang == "en" else f"app-play-{lang}.png")
        popup = app.open_legend()

        def legend_open() -> bool:
            """the legend open"""
            return _opened(popup)

        yield legend_open
        yield d.drawn()
        texts = " ".join(w.text for w in popup.walk() if isinstance(w, Label))
        sides = [side.name for side in s.board.sides.values()]
        words = ("Wall", "Door, open", "Threatened", "Line of sight") if lang == "en" else ("（開）", "脅威", "射線")
        d.check(all(word in texts for word in (*sides, *words)),
                f"the legend names the sides, the edge kinds and the overlays ({texts[:600]})")
        _check_sizes(d, f"legend {tag}")
        _check_drawn(d, f"legend {tag}")
        shots.append(d.screenshot(f"layout-{name_tag}-legend"))
        popup.dismiss()
        yield d.expect(lambda: not any(isinstance(w, ModalView) for w in Window.children), "the legend closed")
        for name in ("log", "camera", "setup", "big"):
            app.show_screen(name)
            if name == "setup":
                yield d.expect(lambda: bool(_setup_buttons(app)), "setup lists the engine's scenarios")
            yield d.drawn()
            _check_sizes(d, f"{name} {tag}", app.sm.get_screen("big").ids.board if name == "big" else None)
            _check_drawn(d, f"{name} {tag}")
            shots.append(d.screenshot(f"layout-{name_tag}-{name}"))
        app.show_screen("play")
        yield d.drawn()
        yield from _gm_layouts(d, tag, name_tag, shots)
    for shot in shots if lang == "en" else ():  # colour is the same in either language
        for made in simulate_file(shot):
            d.checks.append(f"screenshot {made.name}")


def _gm_layouts(d: Driver, tag: str, name_tag: str, shots: list[Any]) -> Step:
    """The GM screen: a new game of a rule set with every GM tool, this tablet made GM with the engine's code, and
    each tool's panel measured and screenshot (the calculator's form at its top and, filled in and run, its end)."""
    app = d.app
    s = app.session
    app.new_game(GM_SCENARIO)
    yield d.expect(lambda: s.board is not None and "nue" in s.board.figures and s.prompt is not None
                   and gm_code(d.engine) is not None, "a new game of the river ambush")
    app.show_screen("setup")
    yield d.drawn()
    setup = app.sm.get_screen("setup")
    setup.ids.gm_code.text = str(gm_code(d.engine))
    d.tap_widget(setup.ids.become_gm)
    yield d.expect(lambda: app.is_gm and app.current_screen == "gm", "the GM code makes this tablet the GM")
    gm = app.sm.get_screen("gm")

    def measured(name: str) -> Step:
        yield d.drawn()
        _check_sizes(d, f"gm {name} {tag}", gm.ids.board)
        _check_drawn(d, f"gm {name} {tag}")
        shots.append(d.screenshot(f"layout-{name_tag}-gm-{name}"))

    for mode, shown in (("terrain", "kind:blocking"), ("ruling", "clear-subject"), ("calculate", "calc:mass_combat")):
        yield d.drawn()
        d.tap_widget(gm.mode_buttons[mode])
        yield d.expect(lambda what=shown: what in gm.buttons, f"the GM's {mode} tools")
        yield from measured(mode)
    d.tap_widget(gm.buttons["calc:mass_combat"])
    yield d.expect(lambda: "run" in gm.buttons and "pcs" in gm.inputs, "the mass-combat form")
    yield from measured("form")
    for name, text in MASS_COMBAT_FORM.items():
        gm.inputs[name].text = text
    gm.ids.tools_scroll.scroll_to(gm.buttons["run"], animate=False)
    yield d.drawn()
    d.tap_widget(gm.buttons["run"])
    yield d.expect(lambda: any("196" in line for line in s.gm_desk.shown), "the mass-combat result")
    yield d.drawn()
    gm.ids.tools_scroll.scroll_y = 0
    yield from measured("result")
