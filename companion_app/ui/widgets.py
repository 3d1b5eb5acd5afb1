"""Small shared widgets: big dark buttons, wrapping labels, a label that explains rule terms on long press."""

from __future__ import annotations

from typing import Any, ClassVar

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.utils import get_hex_from_color

from companion_app.ui.line_breaks import break_lines, has_japanese
from companion_app.ui.readability import readable_sp
from companion_app.ui.screen_layout import viewing_scale
from companion_app.ui.text_measure import lines_height
from companion_app.viewmodels import palette

MIN_TOUCH_DP = 48
FACE_LINE_ROOM = 1.8  # a die's face button: its height over its digit's size (BigButton.line_room; a finger's at least)


def text_scale() -> float:
    """The scale of every text: the table's text-size setting times the screen's viewing scale (a TV's larger)."""
    app = App.get_running_app()
    chosen = float(getattr(app, "text_scale", 1.0)) if app is not None else 1.0
    return chosen * viewing_scale(*Window.size)


def font_px(base: float) -> float:
    """The font size in pixels of a text whose own size is ``base`` sp: never below the readable size, at the text
    scale."""
    return float(sp(readable_sp(base))) * text_scale()


def button_height(font_size: float, line_room: float, text_height: float) -> float:
    """A :class:`BigButton`'s height: a finger's at least, and as high as its text (a long answer on three lines is
    not cut)."""
    return max(float(dp(MIN_TOUCH_DP)), font_size * line_room, text_height + font_size)


def label_height(text: str, text_height: float) -> float:
    """A :class:`WrapLabel`'s height: its text's, and a little room; nothing without a text."""
    return text_height + float(dp(4)) if text else 0.0


def follow_text_scale(widget: Any) -> None:
    """Rescale ``widget`` (its ``_rescale``) whenever the text-size setting or the window's size changes."""
    app = App.get_running_app()
    if app is not None and hasattr(app, "text_scale"):
        app.bind(text_scale=widget._rescale)
    Window.bind(size=widget._rescale)


class JapaneseLines(Label):  # type: ignore[misc]
    """A wrapping label's lines broken as Japanese breaks them (:mod:`line_breaks`), where its text has Japanese:
    Kivy alone breaks only at spaces and cuts words anywhere. The text itself stays as it was given."""

    FILL = 0.98  # the share of the width a line is filled to (the measure sums its pieces' widths)
    _widths: ClassVar[dict[tuple[Any, ...], float]] = {}  # one cache for every label

    def _measure(self, piece: str) -> float:
        key = (self.font_name, self.font_size, self.bold, piece)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) > 20000:
                self._widths.clear()
            width = self._widths[key] = float(self._label.get_extents(piece)[0])
        return width

    def texture_update(self, *largs: Any) -> None:
        width = self.text_size[0] if self.text_size else None
        if not width or not has_japanese(self.text):
            super().texture_update(*largs)
            return
        shown = break_lines(self.text, width * self.FILL, self._measure, markup=self.markup)
        if not self.markup:
            self._label.text = shown
            super().texture_update(*largs)
            return
        # Kivy's own texture_update for a markup label, on the text with its lines broken
        self.texture = None
        colour = self.disabled_color if self.disabled else self.color
        self._label.text = f"[color={get_hex_from_color(colour)}]{shown}[/color]"
        self._label.refresh()
        if self._label.texture:
            self._label.texture.bind()
        self.refs, self.anchors = self._label.refs, self._label.anchors
        if self._label.texture is not None:
            self.texture = self._label.texture
            self.texture_size = list(self.texture.size)
        self.is_shortened = self._label.is_shortened


class BigButton(JapaneseLines, Button):  # type: ignore[misc]
    """A dark-theme button at least 48 dp high whose text follows the global text scale."""

    font_base = NumericProperty(18)
    active = BooleanProperty(False)
    colour = ListProperty(list(palette.BUTTON))
    why_disabled = StringProperty("")  # while disabled: why, in words its own text or a label beside it shows
    line_room = NumericProperty(2.4)  # its height over its font size: a one-digit face button needs less than a word
    min_lines = NumericProperty(0)  # the lines of text it is high enough for, whatever its text (a row that stays put)
    most_lines = NumericProperty(0)  # the lines its text takes at most: a longer one is cut short with "…" (0: any)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.background_normal = ""
        self.background_down = ""
        self.background_disabled_normal = ""  # a waiting die stays readable, only dimmer
        self.disabled_color = (0.62, 0.62, 0.66, 1.0)
        self.halign = "center"
        self.valign = "middle"
        self.bind(size=self._wrap, active=self._recolour, colour=self._recolour, font_base=self._rescale,
                  texture_size=self._fit_height, line_room=self._fit_height, min_lines=self._fit_height,
                  most_lines=self._trigger_texture)
        follow_text_scale(self)
        self._rescale()
        self._recolour()

    def _rescale(self, *_: Any) -> None:
        self.font_size = font_px(self.font_base)
        self._fit_height()

    def texture_update(self, *largs: Any) -> None:
        super().texture_update(*largs)
        width = self.text_size[0] if self.text_size else None
        if not self.most_lines or self.markup or not width or not self.text:
            return
        most = lines_height(self, int(self.most_lines)) + 0.5
        if self.texture_size[1] <= most:
            return
        text = self.text

        def shown(length: int) -> str:
            cut = text[:length].rstrip() + "…"
            return break_lines(cut, width * self.FILL, self._measure) if has_japanese(cut) else cut

        def fits(length: int) -> bool:
            self._label.text = shown(length)
            return float(self._label.render()[1]) <= most  # laid out, not rendered

        shortest, longest = 0, len(text) - 1  # the longest start of the text that fits, with its "…"
        while shortest < longest:
            middle = (shortest + longest + 1) // 2
            shortest, longest = (middle, longest) if fits(middle) else (shortest, middle - 1)
        self._label.text = shown(shortest)
        Label.texture_update(self)

    def _fit_height(self, *_: Any) -> None:
        text_height = float(self.texture_size[1])
        if self.min_lines:
            text_height = max(text_height, lines_height(self, int(self.min_lines)))
        self.height = button_height(self.font_size, self.line_room, text_height)

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width - dp(8), None)

    def _recolour(self, *_: Any) -> None:
        self.background_color = palette.BUTTON_ACTIVE if self.active else tuple(self.colour)


class WrapLabel(JapaneseLines):
    """A label that wraps to its width and grows to its text; font follows the global text scale."""

    font_base = NumericProperty(18)
    min_lines = NumericProperty(0)  # the lines it is high enough for while it has a text (a panel that stays put)
    keeps_height = BooleanProperty(False)  # once taller for a text, as tall for the next (at the same width and font)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.halign = kwargs.get("halign", "left")
        self.valign = "top"
        self._kept: tuple[tuple[float, float], float] = ((0.0, 0.0), 0.0)  # (width, font size), the height kept
        self.bind(width=self._wrap, texture_size=self._grow, text=self._grow, font_base=self._rescale,
                  min_lines=self._grow)
        follow_text_scale(self)
        self._rescale()
        self._grow()

    def _rescale(self, *_: Any) -> None:
        self.font_size = font_px(self.font_base)

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)

    def _grow(self, *_: Any) -> None:
        text_height = float(self.texture_size[1])
        if self.min_lines and self.text:
            text_height = max(text_height, lines_height(self, int(self.min_lines)))
        if self.keeps_height and self.text:
            at = (float(self.width), float(self.font_size))
            text_height = max(text_height, self._kept[1]) if self._kept[0] == at else text_height
            self._kept = (at, text_height)
        self.height = label_height(self.text, text_height)


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
