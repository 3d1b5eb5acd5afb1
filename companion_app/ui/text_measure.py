"""Measuring a label's text as Kivy lays it out, without rendering it: one core label laid out again for every text.

SDL2_ttf opens a font at a whole pixel size (Kivy's sdl2 text provider, the app's, cuts the size to an int), so a text
is measured at the whole size: every size that cuts to it shares the opened font and the measure (opening a font
takes milliseconds).
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel

_MEASURERS: dict[bool, Any] = {}  # one core label laid out again for every text measured (markup or not)

# The options of a core label a line's height depends on.
LINE_OPTIONS = ("font_name", "font_size", "bold", "italic", "line_height", "padding", "font_hinting", "font_direction")
_LINES_HEIGHTS: dict[tuple[Any, ...], float] = {}


def measurer(label: Any, font_size: float) -> Any:
    """A core label with ``label``'s options (a Kivy ``Label``) at ``font_size`` cut to a whole pixel size: it
    measures (``render()`` without ``real``, ``get_extents``), never renders."""
    core = _MEASURERS.get(bool(label.markup))
    if core is None:
        core = _MEASURERS[bool(label.markup)] = (MarkupLabel if label.markup else CoreLabel)()
    core.options = dict(label._label.options)
    core.options["font_size"] = float(int(font_size))
    return core


def lines_height(label: Any, lines: int, font_size: float | None = None) -> float:
    """The height of ``lines`` lines of text in ``label``'s font (at ``font_size``, else its own), as Kivy lays them
    out: what a text wrapped to that many lines takes. Measured once per font and size."""
    core = measurer(label, font_size if font_size is not None else label.font_size)
    key = (lines, *(repr(core.options.get(name)) for name in LINE_OPTIONS))
    height = _LINES_HEIGHTS.get(key)
    if height is None:
        core._text_size = (None, None)
        core.text = "\n".join(["Ág"] * lines)
        height = _LINES_HEIGHTS[key] = float(core.render()[1])
    return height
