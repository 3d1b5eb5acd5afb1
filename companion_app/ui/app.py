"""The Kivy app: screens, the network agent's events pumped on the UI clock, commands sent back.

Desktop and Android alike: no desktop-only APIs; files go under ``user_data_dir``.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget

from companion_app.kivy_start import FIRST_BOARD_FRAME_VARIABLE
from companion_app.net.agent import AgentEvent, NetworkAgent
from companion_app.ui import screens
from companion_app.ui.collector import freeze_soon
from companion_app.ui.fonts import use_japanese_font
from companion_app.ui.gm_screen import GmScreen
from companion_app.ui.legend import open_legend
from companion_app.ui.widgets import BigButton, WrapLabel
from companion_app.viewmodels import palette
from companion_app.viewmodels.header_model import connection_text
from companion_app.viewmodels.legend import legend_entries
from companion_app.viewmodels.log_model import export_text, undo_steps
from companion_app.viewmodels.prompt_model import OptionView
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.setup_model import ScenarioChoice, scenario_choices
from engine.i18n import LANGUAGES, check_language, current_language, gettext_for, ngettext_for, set_language

log = logging.getLogger(__name__)
_ = gettext_for(__name__)
_n = ngettext_for(__name__)

KV_FILES = ("common.kv", "play.kv", "log.kv", "camera.kv", "setup.kv", "bigscreen.kv", "gm.kv")
STATE_RGBA = {
    "live": (0.45, 0.9, 0.45, 1.0),
    "syncing": (0.95, 0.85, 0.3, 1.0),
    "connecting": (0.95, 0.85, 0.3, 1.0),
    "stale": (1.0, 0.45, 0.3, 1.0),
    "stopped": (0.7, 0.7, 0.7, 1.0),
}


class HexaApp(App):  # type: ignore[misc]
    """One tablet beside the board (or, with ``big_screen``, a read-only view for everyone)."""

    title = "Hexa Table Companion"
    text_scale = NumericProperty(1.0)
    current_screen = StringProperty("play")
    connection_badge = StringProperty("Offline")
    connection_rgba = ListProperty(list(STATE_RGBA["stopped"]))
    header_text = StringProperty("Waiting for the engine…")
    undo_label = StringProperty("Undo")
    history_label = StringProperty("History…")
    undo_why = StringProperty("")  # why undo and the history are greyed, shown on their buttons
    undo_gm_why = StringProperty("")  # why undo is greyed when the engine leaves it to the GM (shown beside it)
    language_why = StringProperty("")  # why the table's language switch is greyed (only the GM changes it here)
    new_game_why = StringProperty("")  # why the scenarios' buttons are greyed (only the GM starts games here)
    can_undo = BooleanProperty(False)
    face_seat = BooleanProperty(False)
    prompt_rotation = NumericProperty(0)
    engine_address = StringProperty("127.0.0.1")
    is_gm = BooleanProperty(False)  # the engine takes this tablet as the game master: the GM screen is offered
    language = StringProperty("en")  # the table's language: the .kv texts are looked up again when it changes

    def __init__(self, agent: NetworkAgent, big_screen: bool = False, text_scale: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.agent = agent
        self.session = GameSession()
        self.big_screen = big_screen
        self.text_scale = text_scale
        self.engine_address = agent.pub_endpoint.split("//")[-1].rsplit(":", 1)[0]
        self.language = current_language()
        self.connection_badge = _("Offline")
        self.header_text = _("Waiting for the engine…")
        self.undo_label = _("Undo")
        self.history_label = _("History…")
        self._scenario_choices: list[ScenarioChoice] = []
        self._shown_revision = -1
        self._shown_prompt: Any = None
        self.last_message_at = 0.0  # monotonic time of the last engine message applied (benchmarks)
        self.last_refresh_at = 0.0
        self.bind(face_seat=lambda *_: self._turn_prompt())

    # ---------------------------------------------------------------- building

    def build(self) -> ScreenManager:
        use_japanese_font()  # before any text is drawn: every label in either language
        Window.allow_screensaver = False  # keep the screen awake during a game
        Window.clearcolor = palette.BACKGROUND
        kv_dir = Path(__file__).parent / "kv"
        for name in KV_FILES:
            Builder.load_file(str(kv_dir / name))
        sm = ScreenManager(transition=NoTransition())
        for cls in (screens.PlayScreen, screens.LogScreen, screens.CameraScreen, screens.SetupScreen,
                    screens.BigScreen, GmScreen):
            sm.add_widget(cls())
        play = sm.get_screen("play")
        board = play.ids.board
        board.on_hex_tap = self.on_hex_tap
        board.on_hex_drag = self.on_hex_drag
        board.on_hex_long_press = self.on_hex_long_press
        gm_board = sm.get_screen("gm").ids.board
        gm_board.on_hex_tap = self.on_gm_tap
        gm_board.on_hex_long_press = self.on_hex_long_press
        play.ids.prompt.send_action = self.send_action
        play.ids.prompt.send_override = self.override
        play.ids.prompt.send_dice = self.send_dice
        self.sm = sm
        sm.current = "big" if self.big_screen else "play"
        self.current_screen = sm.current
        Clock.schedule_interval(self.pump, 0)  # every frame: the UI's own changes (a tap)
        # An engine message wakes the clock from its sleep between frames (a "free" trigger: see kivy_start.CLOCK).
        # Under another clock (Kivy imported before kivy_start chose, by a program that embeds the app) there are no
        # free triggers: the message is then taken at the next tick.
        wake = getattr(Clock, "create_trigger_free", Clock.create_trigger)
        self.agent.on_event = wake(self.pump)
        self.agent.start()
        freeze_soon()  # the screens built: out of the collector's walks
        if os.environ.get(FIRST_BOARD_FRAME_VARIABLE):
            Window.bind(on_flip=self._note_first_board_frame)
        return sm

    def _note_first_board_frame(self, *_args: Any) -> None:
        """Write when the first frame showing the board was flipped (:data:`FIRST_BOARD_FRAME_VARIABLE`), once."""
        if self.session.board is None or self._shown_revision != self.session.revision:
            return
        Window.unbind(on_flip=self._note_first_board_frame)
        Path(os.environ[FIRST_BOARD_FRAME_VARIABLE]).write_text(f"{time.time():.6f}\n", encoding="utf-8")

    def on_stop(self) -> None:
        self.agent.stop()

    def ask_scenarios(self) -> None:
        """Ask the engine which scenarios it can start; the Setup screen lists its answer."""
        self.agent.request("scenarios", self._got_scenarios)

    def _got_scenarios(self, reply: dict[str, Any]) -> None:
        self._scenario_choices = scenario_choices(reply)
        self._list_scenarios()
        if not reply.get("ok"):
            self.session.set_notice(_("The engine did not list its scenarios: {error}", error=reply.get("error")))

    def _list_scenarios(self) -> None:
        """The Setup screen's scenario buttons, greyed with the reason where only the GM starts games."""
        self.sm.get_screen("setup").list_scenarios(self._scenario_choices, self.new_game, self.new_game_why)

    def show_screen(self, name: str) -> None:
        self.sm.current = name
        self.current_screen = name
        self._shown_revision = -1  # refresh the newly shown screen
        self._shown_prompt = None

    # ---------------------------------------------------------------- events from the agent

    def pump(self, _dt: float = 0.0) -> None:
        events = self.agent.poll()
        for ev in events:
            try:
                self.handle(ev)
            except Exception as exc:  # one bad message or callback must never take the tablet down
                log.exception("could not handle a %s event", ev.kind)
                error = f"{type(exc).__name__}: {exc}"
                self.session.set_notice(_("Could not show the engine's {what} ({error}).", what=ev.kind, error=error))
        if self.session.revision != self._shown_revision:
            self.refresh()

    def handle(self, ev: AgentEvent) -> None:
        d = ev.data
        if ev.kind == "state":
            state = str(d.get("state"))
            self.connection_badge = connection_text(state, str(d.get("detail", "")))
            self.connection_rgba = list(STATE_RGBA.get(state, STATE_RGBA["stopped"]))
            hint = _("No word from the engine at {endpoint}: is 'hexa engine' running there? Start it, or change the "
                     "address on the Setup screen.", endpoint=self.agent.router_endpoint)
            if state == "stale":
                self.session.set_notice(hint)
            elif state == "live" and self.session.notice == hint:
                self.session.set_notice("")
            if state == "live":
                self.ask_scenarios()
        elif ev.kind == "scenario":
            spoken = d["scenario"].get("language")
            if spoken in LANGUAGES and spoken != self.language:  # the table's language: the app follows the engine
                self.use_language(str(spoken))
            self.session.set_scenario(d["scenario"])
            freeze_soon()  # the new map's views and drawing, once drawn
            if "gm" in d:  # a snapshot's answer: whether the engine names this tablet the GM by its key
                self.session.gm.by_key = bool(d["gm"])
                self._gm_changed()
        elif ev.kind == "snapshot":
            self.session.set_snapshot(d["snapshot"])
            self.last_message_at = time.perf_counter()
            sel = self.session.selection
            if sel is not None and sel.cell is not None:  # who sees it changed with the game: ask again
                self.select_cell(sel.cell)
            elif sel is not None:  # its reach and targets changed with the game: ask again
                self.select_figure(sel.figure)
        elif ev.kind == "table":
            self.session.set_table(d["table"])
        elif ev.kind == "reply":
            callback = d.get("callback")
            reply = d.get("reply") or {}
            if callback is not None:
                callback(reply)
            elif not reply.get("ok", False):
                self.session.set_notice(_("The engine refused: {error}", error=reply.get("error")))
        elif ev.kind == "preview":
            self.sm.get_screen("camera").show_preview(d["jpeg"])

    def refresh(self) -> None:
        s = self.session
        prompt_changed = s.prompt is not self._shown_prompt
        self.header_text = s.header.text if s.board is not None else _("Waiting for the engine…")
        steps = undo_steps(s.entries, 1)
        self.undo_why = s.why_no_undo(self.big_screen)  # a player's tablet when only the GM takes back: the reason
        self.can_undo = not self.undo_why
        undo_label = _("Undo: {action}", action=steps[0].words) if steps else _("Undo")
        if len(undo_label) > 30:
            undo_label = undo_label[:29] + "…"
        self.undo_gm_why = s.why_gm_only("undo")  # the engine's reason, too long for the buttons: shown beside them
        if self.undo_why:  # a greyed button says why
            undo_label = _("Undo: the GM's") if self.undo_gm_why else _("Undo: {action}", action=self.undo_why)
        self.undo_label = undo_label  # set once: every change lays the button's text out and draws the panel again
        self.history_label = ((_("History: the GM's") if self.undo_gm_why else _("History: {why}", why=self.undo_why))
                              if self.undo_why else _("History…"))
        self.language_why = s.why_gm_only("language")
        if s.why_gm_only("new_game") != self.new_game_why:
            self.new_game_why = s.why_gm_only("new_game")
            self._list_scenarios()
        self._turn_prompt()
        screen = self.sm.current_screen
        screen.refresh(s, prompt_changed)
        self._shown_prompt = s.prompt
        self._shown_revision = s.revision
        self.last_refresh_at = time.perf_counter()

    def _turn_prompt(self) -> None:
        p = self.session.prompt
        self.prompt_rotation = 180 if self.face_seat and p is not None and p.seat_angle == 180 else 0

    # ---------------------------------------------------------------- commands

    def send_action(self, action: dict[str, Any]) -> None:
        """Answer the prompt; a GM by code says so (the engine takes a prompt the GM answers only from the GM)."""
        self.agent.request("action", self._after_command, action=action, **self.session.gm.fields())

    def _after_command(self, reply: dict[str, Any]) -> None:
        if reply.get("ok"):
            self.session.set_notice("")
        else:
            self.session.set_notice(_("Not accepted: {error}", error=reply.get("error")))
            self._shown_prompt = None  # redraw the prompt so the faces can be entered again
            if self.session.prompt is not None:
                self.session.prompt.clear_entry()

    def send_dice(self, fields: dict[str, Any]) -> None:
        """The tray's reading: "that's wrong", take it now, the faces tapped for the dice the camera could not
        read, or where the dice come from (``dice`` command)."""
        self.agent.request("dice", self._after_command, **fields, **self.session.gm.fields())

    def override(self, fields: dict[str, Any]) -> None:
        """The players accept where the table has a figure (``override``: its ``figure`` and ``to``)."""
        self.agent.request("override", self._after_command, **fields)

    def assign_marker(self, marker: int, figure: str) -> None:
        """Tell the engine that a tag it does not know stands on this figure's base."""
        self.agent.request("assign_marker", self._after_command, marker=marker, figure=figure)

    def undo(self, steps: int = 1) -> None:
        for _step in range(max(1, steps)):
            self.agent.request("undo", self._after_command)

    def new_game(self, scenario: str) -> None:
        self.agent.request("new_game", self._after_command, scenario=scenario)
        self.show_screen("play")

    def connect(self, address: str) -> None:
        host = address.strip() or "127.0.0.1"
        self.engine_address = host
        pub_port = self.agent.pub_endpoint.rsplit(":", 1)[1]
        router_port = self.agent.router_endpoint.rsplit(":", 1)[1]
        self.agent.stop()
        self.agent = NetworkAgent(f"tcp://{host}:{pub_port}", f"tcp://{host}:{router_port}",
                                  self.agent.vision_endpoint, keys=self.agent.keys)
        self.agent.start()

    def switch_language(self, lang: str) -> None:
        """The Setup screen's language switch: the app's own texts at once, the engine's (prompts, history,
        glossary) once it has switched the table's language and sent the game again; the game goes on."""
        code = check_language(lang)
        self.use_language(code)
        self.agent.request("language", self._after_language, lang=code)

    def _after_language(self, reply: dict[str, Any]) -> None:
        if not reply.get("ok"):
            self.session.set_notice(_("The engine kept its language ({error}): its prompts and history read as "
                                      "before.", error=reply.get("error")))

    def use_language(self, code: str) -> None:
        """Show the app's own texts in ``code`` from now on: every screen is made again in it."""
        set_language(code)
        self.language = code
        self.connection_badge = connection_text(self.agent.state, self.agent.detail)
        self.session.relanguage()
        self._shown_revision = -1
        self._shown_prompt = None
        if getattr(self, "sm", None) is not None and self.agent.state == "live":
            self.ask_scenarios()  # the Setup screen's list in the engine's words

    def set_text_scale(self, value: float) -> None:
        self.text_scale = max(0.7, min(2.5, round(value, 2)))
        self._shown_revision = -1
        self._shown_prompt = None

    def export_log(self) -> Path:
        """Write the game record under the app's data folder; the Log screen shows where."""
        s = self.session
        folder = Path(self.user_data_dir) / "records"
        folder.mkdir(parents=True, exist_ok=True)
        sid = (s.scenario or {}).get("id", "game")
        path = folder / f"{sid}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
        path.write_text(export_text(s.scenario, s.entries), encoding="utf-8")
        self.sm.get_screen("log").ids.export_result.text = _n(
            "Saved {n} action to {path}", "Saved {n} actions to {path}", len(s.entries), path=path)
        return path

    # ---------------------------------------------------------------- board touches

    def on_hex_tap(self, key: Any) -> None:
        result = self.session.tap(key)
        if result.kind == "action" and result.action is not None:
            self.send_action(result.action)
        elif result.kind == "select" and result.figure is not None:
            self.session.set_notice(result.text)
            self.select_figure(result.figure)
        elif result.kind == "pick":
            self.session.set_notice(result.text)
            self.open_choices(result.text, result.options)
        elif result.kind == "aim":
            self.session.set_notice("")  # the info strip says what is in hand and where
            self.ask_shape()
        elif result.kind == "cell" and result.cell is not None:
            self.session.set_notice(result.text)
            self.select_cell(result.cell)
        else:
            self.session.clear_selection()

    def on_hex_drag(self, start: Any, end: Any) -> None:
        result = self.session.drag(start, end)
        if result.kind == "action" and result.action is not None:
            self.send_action(result.action)
        elif result.kind == "refused":
            self.session.set_notice(result.text)

    def on_hex_long_press(self, key: Any) -> None:
        board = self.session.board
        if board is None or key is None:
            return
        term = self.session.glossary.term_at(board, key)
        if term:
            self.explain_terms(term)
        else:  # nothing of the rules here: what the board's symbols mean
            self.open_legend()

    def open_legend(self) -> Popup:
        """The legend of the board in play: every symbol it draws, each with its swatch."""
        s = self.session
        return open_legend(legend_entries(s.scenario, s.board, s.queries), s.board)

    def toggle_query(self, what: str) -> None:
        """A query's button: draw its answers about the tapped figure, or stop drawing them."""
        self.session.toggle_query(what)

    def select_figure(self, figure: str) -> None:
        """Show the figure at once and ask the engine every query its rule set declares about it; each answer is
        drawn as it arrives."""

        def got(label: str) -> Any:
            def on_reply(reply: dict[str, Any]) -> None:
                if not reply.get("ok"):
                    self.session.set_notice(_("No {query} for this figure: {error}", query=label.lower(),
                                              error=reply.get("error")))
                elif isinstance(reply.get("overlay"), dict):
                    self.session.answer(figure, reply["overlay"])
            return on_reply

        self.session.select(figure)
        for query, subject in self.session.asks_for(figure):
            self.agent.request("query", got(query.label), what=query.what, **{query.about: subject})
        self.ask_shape()

    def select_cell(self, key: Any) -> None:
        """Show a tapped cell and ask the rule set's cell queries about it (who sees it)."""

        def on_reply(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):
                self.session.set_notice(_("No answer about this cell: {error}", error=reply.get("error")))
            elif isinstance(reply.get("overlay"), dict):
                self.session.answer_cell(key, reply["overlay"])

        self.session.select_cell(key)
        for query in self.session.cell_asks:
            self.agent.request("query", on_reply, what=query.what, cell=list(key))

    # ---------------------------------------------------------------- skill shapes

    def pick_shape(self, what: str) -> None:
        self.session.pick_shape(what)
        self.ask_shape()

    def grow_shape(self, by: int) -> None:
        if self.session.shape is not None:
            self.session.shape.grow(by)
            self.session.revision += 1
            self.ask_shape()

    def ask_shape(self) -> None:
        """Ask the shape in hand with its cell and size; the answer shows the covered cells and who is inside."""
        shape = self.session.shape
        if shape is None:
            return
        figure = shape.figure

        def on_reply(reply: dict[str, Any]) -> None:
            if not reply.get("ok"):
                self.session.set_notice(_("No {shape} here: {error}", shape=shape.query.label.lower(),
                                          error=reply.get("error")))
            elif isinstance(reply.get("overlay"), dict):
                self.session.answer(figure, reply["overlay"])

        self.agent.request("query", on_reply, **shape.fields())

    # ---------------------------------------------------------------- the game master

    def _gm_changed(self) -> None:
        self.is_gm = self.session.gm.is_gm
        self.session.gm_changed()
        self._shown_prompt = None  # drawn again: a prompt the GM answers opens to the GM, greys for the others

    def become_gm(self, code: str) -> None:
        """Give the engine the GM code: a snapshot asked with it says whether the engine takes it."""
        code = code.strip()
        if not code:
            self.session.set_notice(_("Enter the GM code the engine printed at start"))
            return

        def on_reply(reply: dict[str, Any]) -> None:
            took = self.session.gm.took(code, reply)
            self._gm_changed()
            self.session.set_notice(_("This tablet is the game master: the GM screen is open") if took
                                    else self.session.gm.refused)
            if took:
                self.show_screen("gm")

        self.agent.request("snapshot", on_reply, gm_code=code)

    def send_gm(self, fields: dict[str, Any], done: Any = None) -> None:
        """One ``gm`` command, with the GM code when this tablet is GM by one."""

        def on_reply(reply: dict[str, Any]) -> None:
            if done is not None:
                done(reply)
            elif reply.get("ok"):
                self.session.set_notice("")
            else:
                self.session.set_notice(_("Not accepted: {error}", error=reply.get("error")))

        self.agent.request("gm", on_reply, **fields, **self.session.gm.fields())

    def use_gm_tool(self, mode: str) -> None:
        self.session.gm_desk.use(mode)
        self.session.revision += 1

    def pick_gm_terrain(self, kind: str) -> None:
        self.session.gm_desk.terrain = kind
        self.session.revision += 1

    def set_gm_subject(self, text: str) -> None:
        self.session.gm_desk.subject = text
        self.session.revision += 1

    def on_gm_tap(self, key: Any) -> None:
        board = self.session.board
        if board is None:
            return
        step = self.session.gm_desk.tap(key, board)
        self.session.set_notice(step.text)
        if step.kind == "send":
            self.send_gm(step.fields)

    def gm_take_out(self) -> None:
        step = self.session.gm_desk.take_out()
        self.session.set_notice(step.text)
        if step.kind == "send":
            self.send_gm(step.fields)

    def give_ruling(self, kind: str, subject: str, value: str | None) -> None:
        if not subject.strip():
            self.session.set_notice(_("Name the ruling's subject first (type it, or tap figures or cells)"))
            return
        self.send_gm(self.session.gm_tools.ruling(kind, subject, value))

    def open_calculator(self, name: str) -> None:
        desk = self.session.gm_desk
        desk.calculator, desk.shown = name, ()
        self.session.revision += 1

    def run_calculator(self, name: str, values: dict[str, str | bool]) -> None:
        desk = self.session.gm_desk
        try:
            fields = self.session.gm_tools.calculate(name, values)
        except ValueError as exc:
            desk.shown = (_("Cannot send it: {error}", error=exc),)
            self.session.revision += 1
            return

        def done(reply: dict[str, Any]) -> None:
            desk.calculated(reply)
            self.session.revision += 1

        self.send_gm(fields, done)

    def _undo_and_close(self, steps: int, popup: Popup) -> None:
        self.undo(steps)
        popup.dismiss()

    # ---------------------------------------------------------------- popups

    def explain_terms(self, text: str) -> Popup | None:
        glossary = self.session.glossary
        terms = glossary.terms_in(text) or ([text] if glossary.lookup(text) else [])
        if not terms:
            return None
        box = BoxLayout(orientation="vertical", spacing=dp(8), padding=dp(8))
        for term in terms:
            box.add_widget(WrapLabel(text=f"[b]{term.title()}[/b]\n{glossary.lookup(term)}", markup=True, font_base=20))
        box.add_widget(Widget())  # the text at the top, the button at the bottom
        close = BigButton(text=_("Close"))
        box.add_widget(close)
        popup = Popup(title=_("Rules at hand"), content=box, size_hint=(0.8, 0.7))
        close.bind(on_release=popup.dismiss)
        popup.open()
        return popup

    def open_choices(self, title: str, options: tuple[OptionView, ...]) -> Popup:
        """The prompt's choices on one hex (a stack's figures), one button each; a button sends its choice."""
        box = BoxLayout(orientation="vertical", spacing=dp(6), padding=dp(8))
        popup = Popup(title=title, content=box, size_hint=(0.7, 0.6))
        for option in options:
            b = BigButton(text=option.label)
            b.bind(on_release=lambda _b, o=option: self._choose_and_close(o, popup))
            box.add_widget(b)
        box.add_widget(Widget())
        cancel = BigButton(text=_("Cancel"))
        cancel.bind(on_release=popup.dismiss)
        box.add_widget(cancel)
        popup.open()
        return popup

    def _choose_and_close(self, option: OptionView, popup: Popup) -> None:
        popup.dismiss()
        prompt = self.session.prompt
        if prompt is not None and any(o.id == option.id for o in prompt.options):
            self.send_action(prompt.choose(option.id))
        else:
            self.session.set_notice(_("The question changed: {option} is no longer a choice", option=option.label))

    def open_history(self) -> Popup:
        """The labelled undo history: taking back step k undoes the k newest actions."""
        box = BoxLayout(orientation="vertical", spacing=dp(6), padding=dp(8))
        popup = Popup(title=_("Undo history (newest first)"), content=box, size_hint=(0.85, 0.85))
        for k, entry in enumerate(undo_steps(self.session.entries), start=1):
            b = BigButton(text=_("{undo}  (takes back {n})", undo=entry.undo_label, n=k))
            b.bind(on_release=lambda _b, n=k: self._undo_and_close(n, popup))
            box.add_widget(b)
        box.add_widget(Widget())
        close = BigButton(text=_("Close"))
        close.bind(on_release=popup.dismiss)
        box.add_widget(close)
        popup.open()
        return popup
