"""The dice the camera read, at the top of a roll prompt: "Read by the camera: 5 3" with its countdown and a
one-tap "That's wrong", or the camera's question with face buttons for each die it could not read."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion_app.ui.fitting_row import FittingRow
from companion_app.ui.widgets import FACE_LINE_ROOM, MIN_TOUCH_DP, BigButton, WrapLabel
from companion_app.viewmodels import palette
from companion_app.viewmodels.dice_model import DiceRead
from engine.i18n import gettext_for

_ = gettext_for(__name__)

PLATE: palette.RGBA = (0.05, 0.20, 0.30, 1.0)  # dark teal: the camera speaking, apart from the prompt and the alarm
QUESTION_PLATE: palette.RGBA = (0.30, 0.20, 0.02, 1.0)  # dark amber: the camera asks
WHITE: palette.RGBA = (1.0, 1.0, 1.0, 1.0)
TICK_S = 0.25  # how often the countdown's text is made again

SendDice = Callable[[dict[str, Any]], None]


class DiceReadBox(BoxLayout):  # type: ignore[misc]
    """One reading of the tray; ``send`` None on a read-only screen (no buttons)."""

    def __init__(self, read: DiceRead, send: SendDice | None, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", dp(6))
        kwargs.setdefault("padding", dp(10))
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.read, self.send = read, send
        self.bind(minimum_height=self.setter("height"))
        with self.canvas.before:
            Color(*(QUESTION_PLATE if read.question else PLATE))
            self._plate = Rectangle(pos=self.pos, size=self.size)
            Color(*(palette.DESYNC if read.question else palette.REACH))
            self._border = Line(rectangle=(*self.pos, *self.size), width=dp(2))
        self.bind(pos=self._redraw, size=self._redraw)
        self.headline = WrapLabel(text=read.heading, font_base=30 if read.proposal else 24, bold=True, color=WHITE)
        self.add_widget(self.headline)
        self.countdown = WrapLabel(text=read.countdown_text(time.monotonic()), font_base=20, color=WHITE)
        if read.proposal:
            self.add_widget(self.countdown)
        if read.detail:
            self.add_widget(WrapLabel(text=read.detail, font_base=20, color=palette.TEXT_DIM))
        self.wrong: BigButton | None = None
        self.take: BigButton | None = None
        self.face_buttons: dict[int, list[BigButton]] = {}
        if send is not None and read.proposal:
            row = BoxLayout(spacing=dp(8), size_hint_y=None)
            self.wrong = BigButton(text=_("That's wrong"), font_base=22, bold=True, colour=list(palette.DOOR_LOCKED))
            self.wrong.bind(on_release=lambda _b: send(read.wrong()))
            self.take = BigButton(text=_("Take it now"), font_base=20, colour=list(palette.BUTTON))
            self.take.bind(on_release=lambda _b: send(read.take()))
            for b in (self.wrong, self.take):  # as tall as the taller (the prompt's fit shrinks both)
                b.bind(height=lambda *_a, r=row: setattr(r, "height", max(c.height for c in r.children)))
                row.add_widget(b)
            row.height = max(self.wrong.height, self.take.height)
            self.add_widget(row)
        if send is not None and read.question:
            for die in read.missing:
                self.add_widget(WrapLabel(text=_("{die}: tap its face", die=die.heading), font_base=20, color=WHITE))
                grid = FittingRow(max_cols=6 if die.sides <= 6 else 5, min_width=dp(MIN_TOUCH_DP), spacing=dp(6))
                buttons = []
                for face in range(1, die.sides + 1):
                    # as high as its digit asks (BigButton), a finger's height at least: on a short panel the prompt
                    # shrinks them with its texts (PromptPanel's fitting)
                    b = BigButton(text=str(face), font_base=30, bold=True, colour=list(palette.BUTTON),
                                  line_room=FACE_LINE_ROOM)
                    b.bind(on_release=partial(self._tap, die.index, face))
                    buttons.append(b)
                    grid.add_widget(b)
                self.face_buttons[die.index] = buttons
                self.add_widget(grid)
        self._ticking = Clock.schedule_interval(self._tick, TICK_S) if read.proposal else None

    def _tap(self, index: int, face: int, *_: Any) -> None:
        command = self.read.tap(index, face)
        for value, b in enumerate(self.face_buttons[index], start=1):
            b.colour = list(palette.DOOR_OPEN if value == face else palette.BUTTON)
        if command is not None and self.send is not None:
            self.send(command)

    def _tick(self, *_: Any) -> None:
        self.countdown.text = self.read.countdown_text(time.monotonic())

    def update(self, read: DiceRead) -> None:
        """The same reading again (a newer countdown): only its figures change."""
        self.read.remaining_s, self.read.received_at = read.remaining_s, read.received_at
        self._tick()

    def stop(self) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None

    def _redraw(self, *_: Any) -> None:
        self._plate.pos, self._plate.size = self.pos, self.size
        self._border.rectangle = (*self.pos, *self.size)
