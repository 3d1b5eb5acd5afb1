"""The illegal-move alarm at the top of the prompt area: what is wrong in large white text on a strong plate, the
rules' reason, how to put it right, and the players' override beside it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion_app.ui.widgets import BigButton, WrapLabel
from companion_app.viewmodels import palette
from companion_app.viewmodels.overlays import IllegalAlarm
from engine.i18n import gettext_for

_ = gettext_for(__name__)

PLATE: palette.RGBA = (0.42, 0.0, 0.18, 1.0)  # dark magenta: white text on it is well past 7:1
WHITE: palette.RGBA = (1.0, 1.0, 1.0, 1.0)

Override = Callable[[dict[str, Any]], None]


class AlarmBanner(BoxLayout):  # type: ignore[misc]
    """One illegal move, shown until the engine stops reporting it."""

    def __init__(self, alarm: IllegalAlarm, on_override: Override | None, why_no_override: str = "",
                 **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", dp(4))
        kwargs.setdefault("padding", dp(10))
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.alarm = alarm
        self.why_no_override = why_no_override  # the override greyed: why (only the GM places figures here)
        self.bind(minimum_height=self.setter("height"))
        with self.canvas.before:
            Color(*PLATE)
            self._plate = Rectangle(pos=self.pos, size=self.size)
            Color(*palette.ILLEGAL)
            self._border = Line(rectangle=(*self.pos, *self.size), width=dp(3))
        self.bind(pos=self._redraw, size=self._redraw)
        self.headline = WrapLabel(text=_("ILLEGAL MOVE: {what}", what=alarm.headline), font_base=30, bold=True,
                                  color=WHITE)
        self.reason = WrapLabel(text=alarm.reason, font_base=24, color=WHITE)
        self.fix = WrapLabel(text=alarm.fix, font_base=22, bold=True, color=palette.DESYNC)
        for label in (self.headline, self.reason, self.fix):
            self.add_widget(label)
        self.override: BigButton | None = None
        if on_override is not None and alarm.override is not None:
            fields = alarm.override
            self.override = BigButton(text=alarm.override_label, font_base=20, colour=list(palette.BUTTON),
                                      disabled=bool(why_no_override), why_disabled=why_no_override)
            self.override.bind(on_release=lambda _b: on_override(fields))
            self.add_widget(self.override)
            if why_no_override:
                self.add_widget(WrapLabel(text=why_no_override, font_base=20, color=palette.DESYNC))

    def _redraw(self, *_: Any) -> None:
        self._plate.pos, self._plate.size = self.pos, self.size
        self._border.rectangle = (*self.pos, *self.size)
