"""Small shared widgets: big dark buttons, wrapping labels, a label that explains rule terms on long press."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion_app.ui.readability import readable_sp
from companion_app.viewmodels import palette

MIN_TOUCH_DP = 48


def text_scale() -> float:
    app = App.get_running_app()
    return float(getattr(app, "text_scale", 1.0)) if app is not None else 1.0


class BigButton(Button):  # type: ignore[misc]
    """A dark-theme button at least 48 dp high whose text follows the global text scale."""

    font_base = NumericProperty(18)
    active = BooleanProperty(False)
    colour = ListProperty(list(palette.BUTTON))
    why_disabled = StringProperty("")  # while disabled: why, in words its own text or a label beside it shows

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.background_normal = ""
        self.background_down = ""
        self.background_disabled_normal = ""  # a waiting die stays readable, only dimmer
        self.disabled_color = (0.62, 0.62, 0.66, 1.0)
        self.halign = "center"
        self.valign = "middle"
        self.bind(size=self._wrap, active=self._recolour, colour=self._recolour, font_base=self._rescale)
        app = App.get_running_app()
        if app is not None and hasattr(app, "text_scale"):
            app.bind(text_scale=self._rescale)
        self._rescale()
        self._recolour()

    def _rescale(self, *_: Any) -> None:
        self.font_size = sp(readable_sp(self.font_base)) * text_scale()
        self.height = max(dp(MIN_TOUCH_DP), self.font_size * 2.4)

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width - dp(8), None)

    def _recolour(self, *_: Any) -> None:
        self.background_color = palette.BUTTON_ACTIVE if self.active else tuple(self.colour)


class WrapLabel(Label):  # type: ignore[misc]
    """A label that wraps to its width and grows to its text; font follows the global text scale."""

    font_base = NumericProperty(18)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.halign = kwargs.get("halign", "left")
        self.valign = "top"
        self.bind(width=self._wrap, texture_size=self._grow, text=self._grow, font_base=self._rescale)
        app = App.get_running_app()
        if app is not None and hasattr(app, "text_scale"):
            app.bind(text_scale=self._rescale)
        self._rescale()
        self._grow()

    def _rescale(self, *_: Any) -> None:
        self.font_size = sp(readable_sp(self.font_base)) * text_scale()

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)

    def _grow(self, *_: Any) -> None:
        self.height = self.texture_size[1] + dp(4) if self.text else 0


class RuleLabel(WrapLabel):
    """Long-press it to read the rules of the terms its text mentions (rules at hand)."""

    LONG_PRESS_S = 0.6

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._event: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and not touch.is_mouse_scrolling:
            self._event = Clock.schedule_once(lambda _dt: self._explain(), self.LONG_PRESS_S)
            touch.ud["rule_label"] = self
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        return bool(super().on_touch_up(touch))

    def _explain(self) -> None:
        self._event = None
        app = App.get_running_app()
        if app is not None and hasattr(app, "explain_terms"):
            app.explain_terms(self.text)
