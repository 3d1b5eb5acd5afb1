"""A prompt's height at any fit, foreseen from its widgets' own sizing rules, without laying it out or rendering a
text: so a new prompt is shown at once at the fit its room needs (or scrolling, when none does), instead of at its
full size and then shrunk a frame at a time. Each such frame is a whole window for the rasteriser, and an engine
message arriving meanwhile waits for it.

The rules foreseen are the ones :meth:`PromptPanel._set_fit` changes and the widgets follow: a text's font
(:func:`readability.readable_sp` of its ``font_base``, at the text scale), its wrapped height (measured by a Kivy
core label laid out, not rendered: ``render()`` without ``real``), a button's height
(:meth:`widgets.BigButton._fit_height`), the gaps of the boxes and grids between them, and a row of buttons'
columns (:func:`fitting_row.columns_for`). A widget of another kind makes the forecast give up (None): the panel
then shrinks a step a frame as before. The forecast only chooses where to start; the panel still checks the
laid-out height against its room.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion_app.ui.fitting_row import FittingRow, columns_for, room_for_text
from companion_app.ui.line_breaks import break_lines, has_japanese
from companion_app.ui.text_measure import lines_height, measurer
from companion_app.ui.widgets import BigButton, JapaneseLines, WrapLabel, button_height, font_px, label_height

# A text's laid-out size: (text, width, font size and every other option of its core label) → (width, height).
_SIZES: dict[tuple[Any, ...], tuple[float, float]] = {}
_MOST_SIZES = 20000

# The core label's options a text's wrapped size depends on besides its text, width and font size (its colour,
# alignment across the line and the like do not change it).
LAYOUT_OPTIONS = ("font_name", "bold", "italic", "line_height", "padding", "strip", "halign", "font_hinting",
                  "font_kerning", "font_features", "font_direction", "base_direction", "text_language",
                  "shorten", "split_str")

Height = Callable[[float], float | None]  # a prompt's height at a fit; None when it cannot be foreseen


def font_size_at(widget: Any, fit: float) -> float:
    """The font size ``widget`` (a text or a button) takes at ``fit`` of its full size."""
    full = getattr(widget, "full_font", None)
    return font_px(float(full if full is not None else widget.font_base) * fit)


def text_size_at(label: JapaneseLines, font_size: float, width: float) -> tuple[float, float]:
    """The size of ``label``'s texture at ``font_size``, wrapped to ``width``, as Kivy lays it out (Japanese lines
    broken as :class:`widgets.JapaneseLines` breaks them)."""
    options = label._label.options
    key = (label.text, width, int(font_size), bool(label.markup),
           *(repr(options.get(name)) for name in LAYOUT_OPTIONS))
    size = _SIZES.get(key)
    if size is not None:
        return size
    core = measurer(label, font_size)
    core._text_size = (width, None)
    text = label.text
    if width and has_japanese(text):
        text = break_lines(text, width * JapaneseLines.FILL, lambda piece: float(core.get_extents(piece)[0]),
                           markup=bool(label.markup))
    core.text = text
    w, h = core.render()
    if len(_SIZES) > _MOST_SIZES:
        _SIZES.clear()
    size = _SIZES[key] = (float(w), float(h))
    return size


def height_at(widget: Any, width: float, fit: float, kept: frozenset[int] = frozenset()) -> float | None:
    """``widget``'s height at ``fit`` when it is ``width`` wide; None for a widget this does not foresee. The
    widgets in ``kept`` (an illegal move's alarm) keep their own size at any fit."""
    own = 1.0 if id(widget) in kept else fit
    if isinstance(widget, BigButton):
        font = font_size_at(widget, own)
        _, text_h = text_size_at(widget, font, width - dp(8)) if widget.text else (0.0, 0.0)
        if widget.most_lines and widget.text:
            text_h = min(text_h, lines_height(widget, int(widget.most_lines), font))  # (cut short to them)
        if widget.min_lines:
            text_h = max(text_h, lines_height(widget, int(widget.min_lines), font))
        return button_height(font, float(widget.line_room), text_h)
    if isinstance(widget, WrapLabel):
        if widget.keeps_height:
            return None  # its height depends on the texts it showed before
        font = font_size_at(widget, own)
        text_h = text_size_at(widget, font, width)[1] if widget.text else 0.0
        if widget.min_lines and widget.text:
            text_h = max(text_h, lines_height(widget, int(widget.min_lines), font))
        return label_height(widget.text, text_h)
    if isinstance(widget, GridLayout):
        return _grid_height(widget, width, own, kept)
    if isinstance(widget, BoxLayout):
        return _box_height(widget, width, own, kept)
    return None


def _scaled(widget: Any, name: str, fit: float) -> list[float]:
    """``widget``'s spacing or padding (as a list) at ``fit``: what :meth:`PromptPanel._set_fit` sets."""
    full = getattr(widget, f"full_{name}", None)
    value = full if full is not None else getattr(widget, name)
    values = [float(v) for v in value] if isinstance(value, list | tuple) else [float(value)]
    return [v * fit for v in values]


def _box_height(box: BoxLayout, width: float, fit: float, kept: frozenset[int]) -> float | None:
    left, top, right, bottom = _scaled(box, "padding", fit)
    spacing = _scaled(box, "spacing", fit)[0]
    children = list(box.children)
    if any(c.size_hint_y is not None for c in children):
        return None  # a child sized by its share of the box: the box's height is not its children's
    inner = width - left - right
    gaps = spacing * max(0, len(children) - 1)
    if box.orientation == "vertical":
        heights = [height_at(c, inner, fit, kept) for c in children]
        if any(h is None for h in heights):
            return None
        return sum(h for h in heights if h is not None) + gaps + top + bottom
    # a row (the camera reading's two buttons): as tall as its tallest, its width shared out evenly
    if any(c.size_hint_x is None for c in children):
        return None
    heights = [height_at(c, (inner - gaps) / max(1, len(children)), fit, kept) for c in children]
    if any(h is None for h in heights):
        return None
    return max([0.0, *(h for h in heights if h is not None)]) + top + bottom


def _grid_height(grid: GridLayout, width: float, fit: float, kept: frozenset[int]) -> float | None:
    left, top, right, bottom = _scaled(grid, "padding", fit)
    spacing_x, spacing_y = (_scaled(grid, "spacing", fit) * 2)[:2]
    children = list(reversed(grid.children))  # in the order they were added: rows fill left to right
    if not children:
        return top + bottom
    if any(c.size_hint_x is None or c.size_hint_y is not None for c in children) or grid.rows:
        return None
    inner = width - left - right
    cols = int(grid.cols or 1)
    if isinstance(grid, FittingRow):
        widest = max([float(grid.min_width), *(_button_text_width(c, fit, kept) for c in children)])
        cols = columns_for(len(children), inner, spacing_x, widest, int(grid.max_cols))
    each = (inner - spacing_x * (cols - 1)) / cols
    rows = math.ceil(len(children) / cols)
    total = top + bottom + spacing_y * (rows - 1)
    for r in range(rows):
        heights = [height_at(c, each, fit, kept) for c in children[r * cols:(r + 1) * cols]]
        if any(h is None for h in heights):
            return None
        total += max(h for h in heights if h is not None)
    return total


def _button_text_width(button: Any, fit: float, kept: frozenset[int]) -> float:
    """The width a row of buttons gives ``button`` so its text stands on one line (:class:`FittingRow`'s)."""
    if not isinstance(button, JapaneseLines) or not button.text:
        return 0.0
    font = font_size_at(button, 1.0 if id(button) in kept else fit)
    return room_for_text(float(measurer(button, font).get_extents(button.text)[0]))
