"""The game master's screen: the board to tap and the tools the rule set declares (terrain marks, moving any
figure, taking one out, rulings, calculators). Only a tablet the engine takes as GM is shown it."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from companion_app.ui.readability import readable_sp
from companion_app.ui.widgets import MIN_TOUCH_DP, BigButton, WrapLabel, text_scale
from companion_app.viewmodels.calc_form import CalculatorView
from companion_app.viewmodels.gm_model import MODE_LABELS, GmDesk
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.words import join_list
from engine.i18n import current_language, gettext_for

_ = gettext_for(__name__)


class GmScreen(Screen):  # type: ignore[misc]
    """Board on one side, the tool in hand on the other; the tools panel is rebuilt only when the tool changes, so
    what the GM has typed into a form stays."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._built_for: tuple[Any, ...] | None = None
        self.mode_buttons: dict[str, BigButton] = {}
        self.inputs: dict[str, TextInput | ToggleButton] = {}  # the open calculator's fields by name
        self.buttons: dict[str, BigButton] = {}  # the panel's buttons by what they do ("kind:blocking", "run")
        self.result: WrapLabel | None = None
        self.status: WrapLabel | None = None

    def refresh(self, session: GameSession, prompt_changed: bool) -> None:
        self.ids.board.show(session)
        desk = session.gm_desk
        wanted = (id(desk), desk.mode, desk.calculator, desk.terrain, session.gm.is_gm, current_language())
        if wanted != self._built_for:
            self._build(session, desk)
            self._built_for = wanted
        if self.status is not None:
            self.status.text = self._status(session, desk)
        if self.result is not None:
            self.result.text = "\n".join(desk.shown)
        subject = self.inputs.get("subject")
        if isinstance(subject, TextInput) and subject.text != desk.subject:
            subject.text = desk.subject
        self.ids.note.text = session.notice

    # ---------------------------------------------------------------- building

    def _build(self, session: GameSession, desk: GmDesk) -> None:
        app = App.get_running_app()
        modes, tools = self.ids.modes, self.ids.tools
        modes.clear_widgets()
        tools.clear_widgets()
        self.mode_buttons, self.inputs, self.buttons = {}, {}, {}
        self.result = self.status = None
        if not session.gm.is_gm:
            tools.add_widget(WrapLabel(text=_("This tablet is not the game master. Enter the GM code on the Setup "
                                              "screen."), font_base=18))
            return
        for mode in desk.tools.modes:
            b = BigButton(text=_(MODE_LABELS[mode]), font_base=18, active=mode == desk.mode)
            b.bind(on_release=lambda _b, m=mode: app.use_gm_tool(m))
            modes.add_widget(b)
            self.mode_buttons[mode] = b
        self.status = WrapLabel(font_base=18)
        tools.add_widget(self.status)
        getattr(self, f"_build_{desk.mode}")(session, desk, app)

    def _button(self, name: str, text: str, on: Any, **kw: Any) -> BigButton:
        b = BigButton(text=text, font_base=18, **kw)
        b.bind(on_release=lambda _b: on())
        self.ids.tools.add_widget(b)
        self.buttons[name] = b
        return b

    def _build_terrain(self, session: GameSession, desk: GmDesk, app: Any) -> None:
        for kind in desk.tools.terrain:
            self._button(f"kind:{kind.name}", _("{name}: {help}", name=kind.name, help=kind.help),
                         lambda k=kind.name: app.pick_gm_terrain(k), active=desk.terrain == kind.name)

    def _build_place(self, session: GameSession, desk: GmDesk, app: Any) -> None:
        self.ids.tools.add_widget(WrapLabel(text=_("Tap a figure, then the cell it goes to."), font_base=18))

    def _build_out(self, session: GameSession, desk: GmDesk, app: Any) -> None:
        self.ids.tools.add_widget(WrapLabel(text=_("Tap a figure, then confirm."), font_base=18))
        self._button("out", _("Take it out of play"), app.gm_take_out)

    def _build_ruling(self, session: GameSession, desk: GmDesk, app: Any) -> None:
        tools = self.ids.tools
        subject = self._input("subject", desk.subject, multiline=False)
        subject.bind(text=lambda _w, t: setattr(desk, "subject", t))
        self._button("clear-subject", _("Clear the subject"), lambda: app.set_gm_subject(""))
        for r in desk.tools.rulings:
            tools.add_widget(WrapLabel(text=_("[b]{name}[/b] ({subject}): {help}", name=r.name, subject=r.subject,
                                              help=r.help), markup=True, font_base=18))
            for value in r.values:
                self._button(f"ruling:{r.name}:{value}", _("{name}: {value}", name=r.name, value=value),
                             lambda k=r.name, v=value: app.give_ruling(k, desk.subject, v))
            self._button(f"ruling:{r.name}:withdraw", _("withdraw {name}", name=r.name),
                         lambda k=r.name: app.give_ruling(k, desk.subject, None))

    def _build_calculate(self, session: GameSession, desk: GmDesk, app: Any) -> None:
        for c in desk.tools.calculators:
            self._button(f"calc:{c.name}", c.label, lambda n=c.name: app.open_calculator(n),
                         active=desk.calculator == c.name)
        if desk.calculator is not None:
            self._form(desk.tools.calculator(desk.calculator), app)

    def _form(self, calc: CalculatorView, app: Any) -> None:
        tools = self.ids.tools
        tools.add_widget(WrapLabel(text=_("[b]{name}[/b]: {help}", name=calc.label, help=calc.help), markup=True,
                                   font_base=18))
        for f in calc.fields:
            said = (_("{name}: {help} — {hint}", name=f.name, help=f.help, hint=f.hint) if f.required
                    else _("{name} (optional): {help} — {hint}", name=f.name, help=f.help, hint=f.hint))
            tools.add_widget(WrapLabel(text=said, font_base=18))
            if f.kind == "bool":
                size = sp(readable_sp(18)) * text_scale()  # readable as every other button's text
                toggle = ToggleButton(text=f.name, font_size=size, size_hint_y=None,
                                      height=max(dp(MIN_TOUCH_DP), size * 2.4))
                tools.add_widget(toggle)
                self.inputs[f.name] = toggle
            else:
                self.inputs[f.name] = self._input(f.name, "", multiline=f.kind == "objects")
        self._button("run", _("Run {calculator}", calculator=calc.label),
                     lambda: app.run_calculator(calc.name, self.form_values()))
        self.result = WrapLabel(font_base=18)
        tools.add_widget(self.result)

    def _input(self, name: str, text: str, multiline: bool) -> TextInput:
        size = sp(18) * text_scale()
        box = TextInput(text=text, multiline=multiline, font_size=size, size_hint_y=None,
                        height=size * (7.5 if multiline else 2.4), background_color=(0.18, 0.18, 0.2, 1),
                        foreground_color=(1, 1, 1, 1))
        self.ids.tools.add_widget(box)
        self.inputs[name] = box
        return box

    def form_values(self) -> dict[str, str | bool]:
        return {name: (w.state == "down" if isinstance(w, ToggleButton) else w.text) for name, w in self.inputs.items()}

    @staticmethod
    def _status(session: GameSession, desk: GmDesk) -> str:
        board = session.board
        if desk.mode == "terrain":
            marks = join_list(f"{board.label(k)} {t}" for k, t in board.marks) if board is not None else ""
            kind = (_("Tap cells to mark them {terrain}.", terrain=desk.terrain) if desk.terrain
                    else _("Pick a kind, then tap cells."))
            return _("{hint} Marked now: {marks}", hint=kind, marks=marks or _("none"))
        if desk.mode in ("place", "out"):
            name = board.figure_name(desk.figure) if board is not None and desk.figure else _("none")
            return _("Figure picked: {name}", name=name)
        if desk.mode == "ruling":
            rulings = ((session.snapshot or {}).get("state") or {}).get("rulings") or {}
            given = join_list(f"{k} = {v}" for k, v in rulings.items()) or _("none")
            return _("Tap figures or cells to name the subject. Rulings now: {rulings}", rulings=given)
        return _("Fill in a calculator's fields and run it; the engine answers.")
