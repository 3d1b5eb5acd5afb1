"""The prompt panel: the question, the dice with what each result will mean and the chances before the roll,
large face buttons (focus moves to the next die by itself), "roll for me", choices as big buttons; who decides
when the engine says (a prompt the game master answers is greyed on the other tablets, saying why)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion_app.ui.alarm import AlarmBanner
from companion_app.ui.dice_box import DiceReadBox, SendDice
from companion_app.ui.fit_plan import height_at
from companion_app.ui.fit_steps import Look, next_fit, planned_fit
from companion_app.ui.fitting_row import FittingRow
from companion_app.ui.widgets import FACE_LINE_ROOM, MIN_TOUCH_DP, BigButton, RuleLabel, WrapLabel
from companion_app.viewmodels import palette
from companion_app.viewmodels.dice_model import DiceRead
from companion_app.viewmodels.overlays import IllegalAlarm
from companion_app.viewmodels.prompt_model import DieView, PromptModel
from engine.i18n import gettext_for

_ = gettext_for(__name__)

SendAction = Callable[[dict[str, Any]], None]
SendOverride = Callable[[dict[str, Any]], None]

OPPOSED_PER_ROW = 2  # opposed dice columns side by side; more dice wrap to the next row
# A prompt taller than its room shrinks its texts and buttons together, down to fit_steps.LEAST_FIT (no text goes
# below the readable size, readability.MIN_READ_SP, whatever the factor): on a phone, and on a TV whose panel beside
# the grown board is narrow, a roll with the camera's reading, its odds and both sides' face buttons then shows
# whole, "Roll for me" included, without scrolling. A prompt that does not fit even so scrolls, at its full size.
# A new prompt is shown at once at the fit its height, foreseen from its widgets' rules (fit_plan), needs: no text is
# rendered at a size it will not show at. Where the height cannot be foreseen (a widget of another kind, a panel not
# laid out yet), or the laid-out prompt still does not fit, it shrinks a step (fit_steps.next_fit) a frame. Fitting
# by laying the prompt out at every step before its first frame was measured and kept out, twice: the message's
# frame came that much later (on goblins-treasure 31 → 46 ms p50, 46 → 67 ms p95 in one pair of runs).


class PanelButton(BigButton):
    """An answer button of the prompt: ``on_tap`` is what a tap does (set anew each time the button serves)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_tap: Callable[[], None] | None = None
        self.bind(on_release=self._tapped)

    def _tapped(self, *_: Any) -> None:
        if self.on_tap is not None:
            self.on_tap()


Served = TypeVar("Served", WrapLabel, RuleLabel, PanelButton)
# What a spare widget is set back to before it serves again (what the panel's texts and buttons are made with).
LABEL_LOOK: dict[str, Any] = {"font_base": 18, "bold": False, "color": [1, 1, 1, 1], "halign": "left"}
BUTTON_LOOK: dict[str, Any] = {"font_base": 18, "bold": False, "colour": list(palette.BUTTON), "active": False,
                               "disabled": False, "why_disabled": "", "line_room": 2.4}


class PromptPanel(BoxLayout):  # type: ignore[misc]
    """Rebuilt from a :class:`PromptModel` whenever the prompt changes; face taps update it in place."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", dp(6))
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.model: PromptModel | None = None
        self.send_action: SendAction | None = None
        self.read_only = False
        self.face_buttons: list[list[BigButton]] = []
        # The texts and buttons of earlier prompts, kept to serve again: building one costs a millisecond or two, and
        # a roll of several d10 needs dozens, which held a new prompt back by 100 ms and more.
        self._spares: dict[type, list[Any]] = {}
        self.option_buttons: dict[str, BigButton] = {}
        self.roll_for_me: BigButton | None = None
        self.why_not_here = ""  # why this tablet cannot answer the prompt shown (its answers greyed)
        self.title = RuleLabel(text="", font_base=22, bold=True)
        self.send_override: SendOverride | None = None
        self.alarm: AlarmBanner | None = None  # an illegal move on the table, above the prompt until it is put right
        self.send_dice: SendDice | None = None
        self.dice_box: DiceReadBox | None = None  # the dice the camera read for a roll prompt, under its title
        self.chances: list[WrapLabel] = []  # a roll's chances before the roll: gone while the camera's reading shows
        self._columns: GridLayout | None = None  # a roll's dice (the chances stand above them)
        self.fit = 1.0  # the factor on every text and button of the prompt that makes it fit its room (LEAST_FIT)
        self._fitted_room = 0.0  # the room it was last fitted to
        self._scrolls = False  # it did not fit even at LEAST_FIT: shown at its full size, scrolling
        self._refit = Clock.create_trigger(self._fit_now)
        # A new prompt and a change of room in one frame (a row of buttons below came with it; a resize sets the
        # width and the height one after the other) are planned once, after the layouts, before the frame.
        self._fit_soon = Clock.create_trigger(self._fit_before_frame, -1)
        self._afresh = False  # the next plan starts the fit again (the prompt's content changed)
        # The prompt's heights foreseen at fits this frame, at a width: a room that changes again as the layouts
        # around it settle is planned again from them (its content has not changed: its heights have not).
        self._heights: dict[float, float | None] = {}
        self._heights_for: tuple[int, float, frozenset[int]] | None = None
        # Its width, and its look at full size (1.0, height) at that width: its heights do not depend on the room.
        self._full_look: tuple[float, Look] | None = None
        self._last_look: tuple[float, Look] | None = None  # its width, and its look at the step before
        self.bind(minimum_height=self._refit, parent=self._watch_room)

    # -- fitting the room ----------------------------------------------------------------------------
    def room(self) -> float:
        """The height the prompt has without scrolling (its scroll view's), 0 when it is not in one."""
        return float(self.parent.height) if isinstance(self.parent, ScrollView) else 0.0

    def fits(self) -> bool:
        """Whether the whole prompt shows in its room, without scrolling."""
        room = self.room()
        return room <= 1 or self.minimum_height <= room + 0.5

    def _watch_room(self, *_: Any) -> None:
        if isinstance(self.parent, ScrollView):
            self.parent.bind(height=self._room_changed, width=self._room_changed)  # a turned window: both

    def _room_changed(self, *_: Any) -> None:
        self._fit_soon()

    def _fit_afresh(self) -> None:
        """The prompt at the fit its foreseen height needs in its room (scrolling at its full size when it cannot
        fit), else at its full size, then shrunk a step a frame while it does not fit; before the next frame."""
        self._afresh = True
        self._heights_for = None  # new content: new heights
        self._fit_soon()

    def _fit_before_frame(self, *_: Any) -> None:
        """New content: fitted afresh (:meth:`_fit_afresh`). Other room (a turned or resized window, a row of
        buttons below come or gone): fitted at once where its height is foreseen. Else, more room: fitted afresh
        from the full size, unless it is being shrunk and still too tall (a larger size would not fit either:
        shrunk on); less: shrunk on from where it is."""
        room = self.room()
        plan = self._plan()
        shrinking = self.fit < 1.0 and not self._scrolls and not self.fits()
        if self._afresh or plan is not None or (room > self._fitted_room and not shrinking):
            self._start_fit(plan)
        elif not self._scrolls:
            self._refit()
        self._afresh = False
        self._fitted_room = room

    def _start_fit(self, plan: tuple[float, bool] | None) -> None:
        """Fitting started again from ``plan`` (:meth:`_plan`'s), or from the full size without one."""
        self._full_look = self._last_look = None
        fit, self._scrolls = plan or (1.0, False)
        self._set_fit(fit)

    def _plan(self) -> tuple[float, bool] | None:
        """The fit :func:`fit_steps.planned_fit` finds for the prompt's foreseen height, and whether it scrolls; None
        while the panel has no room or width yet, or holds a widget whose height is not foreseen."""
        room = self.room()
        if room <= 1:
            return None
        width = float(self.width) if self.size_hint_x is None else float(self.parent.width) * float(self.size_hint_x)
        if width <= 1:
            return None
        kept = frozenset(id(w) for w in self.alarm.walk(restrict=True)) if self.alarm is not None else frozenset()
        if self._heights_for != (Clock.frames, width, kept):
            self._heights_for, self._heights = (Clock.frames, width, kept), {}

        def height(fit: float) -> float | None:
            if fit not in self._heights:
                self._heights[fit] = height_at(self, width, fit, kept)
            return self._heights[fit]

        return planned_fit(height, room)

    def _laid_out(self) -> bool:
        """Whether every text, row and box of the prompt has taken its size: no texture, layout or row of buttons
        waiting to be made again (a row of face buttons finds its columns a frame after it is filled, and until
        then stands as one tall column: judged then, the prompt would shrink for nothing)."""
        for w in self.walk(restrict=True):
            for pending in (getattr(w, "_trigger_texture", None), getattr(w, "_trigger_layout", None),
                            w._fit if isinstance(w, FittingRow) else None):
                if pending is not None and pending.is_triggered:
                    return False
        return True

    def _fit_now(self, *_: Any) -> None:
        """Shrink the prompt towards its room (once a frame, as its texts take their new sizes) until it fits or
        is found never to fit (then it scrolls at its full size)."""
        room = self.room()
        if room <= 1 or self.fits() or self._scrolls or self._fit_soon.is_triggered:
            return  # (a plan before the next frame fits it)
        if not self._laid_out():
            self._refit()  # judged once everything has its size, the next frame
            return
        now = (self.fit, float(self.minimum_height))
        width = float(self.width)
        full = last = None
        if self._full_look is not None and self._full_look[0] == width and self.fit < 1.0:
            full = self._full_look[1]
        if self._last_look is not None and self._last_look[0] == width and self._last_look[1][0] > self.fit:
            last = self._last_look[1]
        if self.fit == 1.0:
            self._full_look = (width, now)
        self._last_look = (width, now)
        fit = next_fit(now, room, full, last)
        if fit is None:  # too long even at LEAST_FIT: smaller texts would only be harder to read, and still scroll
            self._scrolls = True
            self._set_fit(1.0)
            return
        self._set_fit(fit)

    def _set_fit(self, fit: float) -> None:
        """Every text and button of the prompt (the camera's reading too) at ``fit`` of its own size; an illegal
        move's alarm above it keeps its size, larger than anything near it (it must be seen first)."""
        self.fit = fit
        alarm = {id(w) for w in self.alarm.walk(restrict=True)} if self.alarm is not None else set()
        for w in self.walk(restrict=True):
            if id(w) in alarm:
                continue
            if isinstance(w, WrapLabel | BigButton):
                if getattr(w, "full_font", None) is None:
                    w.full_font = float(w.font_base)  # its size before any fitting
                w.font_base = w.full_font * fit
            elif isinstance(w, BoxLayout | GridLayout):  # the room between them shrinks with them
                if getattr(w, "full_spacing", None) is None:
                    w.full_spacing = list(w.spacing) if isinstance(w, GridLayout) else float(w.spacing)
                    w.full_padding = list(w.padding)
                full = w.full_spacing
                w.spacing = [v * fit for v in full] if isinstance(full, list) else full * fit
                w.padding = [v * fit for v in w.full_padding]
        self._refit()

    def show_alarm(self, alarm: IllegalAlarm | None, why_no_override: str = "") -> None:
        """Show the table's illegal move at the top of the panel (or take it away); the same one again stays. Its
        override is greyed with ``why_no_override`` when this tablet may not place figures (only the GM, here)."""
        if self.alarm is not None and (self.alarm.alarm, self.alarm.why_no_override) == (alarm, why_no_override):
            return
        if self.alarm is None and alarm is None:
            return
        if self.alarm is not None:
            self.remove_widget(self.alarm)
            self.alarm = None
        if alarm is not None:
            self.alarm = AlarmBanner(alarm, None if self.read_only else self.send_override, why_no_override)
            self.add_widget(self.alarm, index=len(self.children))  # first, above the prompt
        self._fit_afresh()

    def show_dice(self, read: DiceRead | None) -> None:
        """Show what the camera read in the tray under the prompt's title (or take it away); the same reading again
        only counts its countdown on."""
        box = self.dice_box
        if box is not None and read is not None and box.read.key == read.key:
            box.update(read)
            return
        if box is None and read is None:
            return  # nothing shown, nothing to show: the prompt stays as it is fitted
        if box is not None:
            box.stop()
            if box.parent is not None:
                box.parent.remove_widget(box)
            self.dice_box = None
        if read is not None and self.model is not None and self.title.parent is self:
            self.dice_box = DiceReadBox(read, None if self.read_only or self.why_not_here else self.send_dice)
            self.add_widget(self.dice_box, index=self.children.index(self.title))  # just under the title
        self._show_chances(self.dice_box is None)
        self._fit_afresh()

    def _show_chances(self, shown: bool) -> None:
        """The chances before the roll, shown until the camera has read dice of the roll (they are past then, and
        the reading takes their room); back when the reading is gone ("that's wrong": the dice are thrown again)."""
        for w in self.chances:
            if w.parent is not None and not shown:
                self.remove_widget(w)
            elif w.parent is None and shown and self._columns is not None and self._columns.parent is self:
                self.add_widget(w, index=self.children.index(self._columns) + 1)

    def _take(self, kind: type[Served], text: str, **look: Any) -> Served:
        """A ``kind`` showing ``text`` with ``look`` (the rest as it is made): a spare one, or a new one."""
        spares = self._spares.get(kind)
        widget = spares.pop() if spares else kind()
        for name, value in {**(BUTTON_LOOK if kind is PanelButton else LABEL_LOOK), **look}.items():
            setattr(widget, name, value)
        widget.full_font = float(widget.font_base)
        widget.font_base *= self.fit
        widget.text = text
        return widget

    def _button(self, text: str, on_tap: Callable[[], None], **look: Any) -> PanelButton:
        """A button that answers the prompt: greyed, saying why, where this tablet may not answer it."""
        b = self._take(PanelButton, text, **look)
        b.on_tap = on_tap
        b.disabled = bool(self.why_not_here)
        b.why_disabled = self.why_not_here
        return b

    def _keep_spares(self) -> None:
        """Take the shown prompt's texts and buttons out of the panel (the illegal-move banner's excepted), to
        serve the next prompt."""
        banner = {id(w) for box in (self.alarm, self.dice_box) if box is not None for w in box.walk()}
        kept = [w for w in self.walk(restrict=True) if type(w) in (WrapLabel, RuleLabel, PanelButton)
                and id(w) not in banner]
        for w in kept:
            if isinstance(w, RuleLabel) and w._event is not None:  # a long press under way on the old prompt
                w._event.cancel()
                w._event = None
            if isinstance(w, PanelButton):
                w.on_tap = None
            if w.parent is not None:
                w.parent.remove_widget(w)
            self._spares.setdefault(type(w), []).append(w)

    def show(self, model: PromptModel | None) -> None:
        self.fit = 1.0
        self._build(model)
        self._fit_afresh()

    def _build(self, model: PromptModel | None) -> None:
        self._keep_spares()
        self.clear_widgets()
        if self.alarm is not None:
            self.add_widget(self.alarm)
        if self.dice_box is not None:  # gone with the prompt it was for; the screen shows the new one's
            self.dice_box.stop()
            self.dice_box = None
        self.model = model
        self.face_buttons = []
        self.chances = []
        self.option_buttons = {}
        self.roll_for_me = None
        if model is None:
            self.add_widget(self._take(WrapLabel, _("Waiting for the engine…"), font_base=22))
            return
        self.title = self._take(RuleLabel, model.text, font_base=34 if self.read_only else 26, bold=True)
        self.add_widget(self.title)
        if model.note:
            self.add_widget(self._take(RuleLabel, model.note, font_base=22, color=palette.DESYNC))
        self.why_not_here = "" if self.read_only else model.why_not_here
        if self.why_not_here:  # the greyed answers' reason, shown above them (it says who decides)
            self.add_widget(self._take(WrapLabel, self.why_not_here, font_base=20, color=palette.DESYNC))
        elif model.decider_text:  # the engine's words for who decides: the GM, or the table without one
            self.add_widget(self._take(RuleLabel, model.decider_text, font_base=20, color=palette.TEXT_DIM))
        if model.kind == "roll":
            self._dice(model)
        elif model.kind == "choose" and not self.read_only:
            for o in model.options:
                b = self._button(o.label, partial(self._answer, o.id), font_base=22)
                self.option_buttons[o.id] = b
                self.add_widget(b)
        elif model.kind == "move":
            self.add_widget(self._take(WrapLabel, model.move_hint, font_base=18))
        elif model.kind == "remove" and not self.read_only:
            b = self._button(_("{figure} is off the table", figure=model.figure_name),
                             lambda: self._send(model.remove()), font_base=20)
            self.option_buttons["remove"] = b
            self.add_widget(b)

    def _answer(self, option_id: str) -> None:
        self._send(self._choose(option_id))

    def _choose(self, option_id: str) -> dict[str, Any]:
        assert self.model is not None
        return self.model.choose(option_id)

    def _dice(self, model: PromptModel) -> None:
        if model.chances:
            self.chances = [self._take(WrapLabel, _("Chances before the roll:"), font_base=18, color=palette.TEXT_DIM)]
            self.chances += [self._take(WrapLabel, "  " + line, font_base=24, bold=True) for line in model.chances]
            for w in self.chances:
                self.add_widget(w)
        # Opposed dice side by side, at most two to a row: more would squeeze the face buttons past reading.
        columns = GridLayout(cols=min(len(model.dice), OPPOSED_PER_ROW) if model.opposed else 1, spacing=dp(20),
                             size_hint_y=None)
        columns.bind(minimum_height=columns.setter("height"))
        for die in model.dice:
            columns.add_widget(self._die_column(model, die))
        self.add_widget(columns)
        self._columns = columns
        if not self.read_only:
            self.roll_for_me = self._button(_("Roll for me (virtual roll, logged as such)"),
                                            lambda: self._send(model.virtual_roll()), font_base=18)
            self.add_widget(self.roll_for_me)
        self._mark_focus()

    def _die_column(self, model: PromptModel, die: DieView) -> BoxLayout:
        col = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None)
        col.bind(minimum_height=col.setter("height"))
        if model.opposed:  # columns side by side: each titled by what it is for, then who rolls it
            col.add_widget(self._take(WrapLabel, die.column_title, font_base=22, bold=True))
            if die.column_roller:
                col.add_widget(self._take(WrapLabel, die.column_roller, font_base=18, color=palette.TEXT_DIM))
        else:
            col.add_widget(self._take(WrapLabel, die.heading, font_base=22, bold=True))
        for line in die.outcomes:
            col.add_widget(self._take(WrapLabel, line, font_base=22))
        buttons: list[BigButton] = []
        if not self.read_only:
            # A d6's faces on one row where each button keeps its finger's width, opposed dice sharing the width
            # included (the row wraps into even rows where not: 3 and 3); a d10's in rows of five at most, so "10"
            # stands on one line.
            per_row = 6 if die.sides <= 6 else 5
            grid = FittingRow(max_cols=per_row, min_width=dp(MIN_TOUCH_DP), spacing=dp(6))
            for face in range(1, die.sides + 1):
                b = self._face_button(die.index, face, font_base=36 if die.sides < 10 else 28)  # "10" on one line
                buttons.append(b)
                grid.add_widget(b)
            col.add_widget(grid)
        self.face_buttons.append(buttons)
        return col

    def _face_button(self, die_index: int, face: int, font_base: int) -> PanelButton:
        """A face button for ``face`` of die ``die_index``, at least 64 dp high."""
        b = self._button(str(face), lambda: self.enter(die_index, face), font_base=font_base, bold=True,
                         line_room=FACE_LINE_ROOM)
        b.height = max(b.height, dp(64))
        return b

    def enter(self, die_index: int, value: int) -> None:
        """A face button: any die takes it, in any order (the next one to enter is lit); the roll is sent once every
        die is in."""
        model = self.model
        if model is None or model.focus is None:
            return
        action = model.enter_face(value, die_index)
        for face, b in enumerate(self.face_buttons[die_index], start=1):
            b.colour = list(palette.DOOR_OPEN if face == value else palette.BUTTON)
        self._mark_focus()
        if action is not None:
            self._send(action)

    def _mark_focus(self) -> None:
        model = self.model
        if model is None:
            return
        for i, buttons in enumerate(self.face_buttons):
            for b in buttons:
                b.active = model.focus == i  # lit: the die to enter next; the others take a face too

    def _send(self, action: dict[str, Any]) -> None:
        if self.send_action is not None:
            self.send_action(action)
