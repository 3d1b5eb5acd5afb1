"""Widgets that keep the play panel steady from move to move, in a real window: what each frame shows.

``python -m tests.app.window_steady_panel`` prints one JSON line: a button that takes two lines whatever its text
(an undo's last action, cut short with "…" in English and in Japanese), and a header that keeps the height a longer
text gave it, until its width changes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from companion_app.kivy_start import prepare_kivy

prepare_kivy()

from kivy.core.window import Window  # noqa: E402

from companion_app.ui.widgets import BigButton, WrapLabel, lines_height  # noqa: E402
from tests.app.window_prompt_fit import FitApp, run_script  # noqa: E402

LONG = "Undo: Sir Brand climbs the ruined tower's stair to its top floor and looks out"
LONG_JA = "元に戻す: ブランド卿が廃墟の塔の階段を最上階まで登り、遠くの森と川と城壁を見渡して弓を構える"


def script(app: FitApp, out: dict[str, Any]) -> Iterator[bool]:
    button = BigButton(text="Undo", font_base=18, min_lines=2, most_lines=2, size_hint_x=None, width=150)
    header = WrapLabel(text="Round 2 · Red's turn", font_base=22, keeps_height=True, size_hint_x=None)
    header.width = 300  # (wraps at its width once laid out: a width set after it was made)
    for w in (button, header):
        Window.add_widget(w)
    yield True
    seen: dict[str, Any] = {"two_lines": lines_height(button, 2)}
    for name, text in (("short", "Undo"), ("long", LONG), ("long_ja", LONG_JA), ("short_again", "Undo")):
        button.text = text
        yield True
        yield True
        seen[name] = {"height": button.height, "text_height": button.texture_size[1], "shown": button._label.text}
    out["button"] = seen
    heights: dict[str, float] = {}
    header.text = "Round 2 · Sir Brand of the Ruined Tower's turn · Movement and shooting"
    yield True
    yield True
    heights["long"] = header.height
    header.text = "Round 3 · Red's turn"
    yield True
    yield True
    heights["short_after"] = header.height
    header.width = 900  # another width (a turned window): the height kept before does not hold
    yield True
    yield True
    heights["short_wide"] = header.height
    out["header"] = heights


if __name__ == "__main__":
    sys.exit(run_script(script))
