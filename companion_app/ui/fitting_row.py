"""A row of buttons that wraps into a grid: as many columns as let every button's text stand on one line at its
readable size, with the rows as even as the count allows (six buttons too wide for one row make two of three)."""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.gridlayout import GridLayout

TEXT_MARGIN_DP = 8  # what a BigButton keeps free beside its text (its text_size is its width less this)
FILL = 0.98  # the share of a line a wrapping label fills (JapaneseLines.FILL)


def room_for_text(extent: float) -> float:
    """The width a button needs for a text ``extent`` px long to stand on one line."""
    return extent / FILL + float(dp(TEXT_MARGIN_DP + 2))


def columns_for(count: int, room: float, spacing: float, widest: float, most: int = 0) -> int:
    """How many columns of ``count`` buttons fit ``room`` px with ``spacing`` between them, each at least
    ``widest`` px wide (and no more than ``most``, when given); then fewer if that leaves the rows as many but more
    even."""
    if count <= 0:
        return 1
    cols = min(count, most) if most > 0 else count
    while cols > 1 and (room - spacing * (cols - 1)) / cols < widest:
        cols -= 1
    rows = math.ceil(count / cols)
    return math.ceil(count / rows)


class FittingRow(GridLayout):  # type: ignore[misc]
    """Buttons side by side while their texts fit on one line each, else in a grid of even rows; as tall as its
    rows (nothing when empty)."""

    max_cols = NumericProperty(0)  # at most this many columns (0: as many as fit)
    min_width = NumericProperty(0)  # no button narrower than this (a touch target), text or not

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("cols", 1)
        super().__init__(**kwargs)
        # before the frame that shows the buttons, once they took their new text and font (timeout -1: as Kivy lays
        # out its own layouts), so a new row of buttons is drawn at its columns in its first frame
        self._fit = Clock.create_trigger(self._fit_now, -1)
        self._watched: dict[int, Any] = {}  # the buttons whose text and size are watched, by id
        self.bind(width=self._fit, children=self._watch, minimum_height=self.setter("height"))
        self.height = self.minimum_height  # nothing while empty (a widget starts 100 px high)

    def _watch(self, *_: Any) -> None:
        """Watch each button's text and size (the language, the text size setting) from when it joins the row to
        when it leaves: the buttons come one at a time (a roll's ten faces), so only the new ones are bound."""
        now = {id(child): child for child in self.children}
        for key in [key for key in self._watched if key not in now]:
            self._watched.pop(key).unbind(text=self._fit, font_size=self._fit)
        for key, child in now.items():
            if key not in self._watched:
                child.bind(text=self._fit, font_size=self._fit)
                self._watched[key] = child
        self._fit()

    def _text_width(self, child: Any) -> float:
        label = getattr(child, "_label", None)
        if label is None or not getattr(child, "text", ""):
            return 0.0
        return room_for_text(float(label.get_extents(child.text)[0]))

    def _fit_now(self, *_: Any) -> None:
        if self.width <= 1:
            return
        room = self.width - self.padding[0] - self.padding[2]
        widest = max([self.min_width, *(self._text_width(c) for c in self.children)])
        self.cols = columns_for(len(self.children), room, self.spacing[0], widest, int(self.max_cols))
