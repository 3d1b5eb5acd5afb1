"""The screens. Each one reads the session's view models and fills the widgets its .kv file names by id."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.image import Image as CoreImage
from kivy.uix.screenmanager import Screen

from companion_app.ui.board_widget import BoardWidget
from companion_app.ui.cached_layer import CachedBoxLayout
from companion_app.ui.fitting_row import FittingRow  # noqa: F401  (the .kv files' query and shape rows)
from companion_app.ui.prompt_panel import PromptPanel
from companion_app.ui.widgets import BigButton, WrapLabel
from companion_app.viewmodels import palette
from companion_app.viewmodels.camera_model import DiceModeSwitch, camera_report, dice_mode_switch
from companion_app.viewmodels.marker_assignment import unknown_tags
from companion_app.viewmodels.session import GameSession, figure_heading
from companion_app.viewmodels.setup_model import ScenarioChoice, setup_view
from engine.i18n import current_language, gettext_for

_ = gettext_for(__name__)

__all__ = ["BigScreen", "BoardWidget", "CachedBoxLayout", "CameraScreen", "LogScreen", "PlayScreen", "PromptPanel",
           "SetupScreen"]


class PlayScreen(Screen):  # type: ignore[misc]
    """Board, header, tools and the prompt panel."""

    query_buttons: dict[str, BigButton]
    query_labels: list[str]
    shapes_for: tuple[Any, ...] | None = None
    shape_buttons: dict[str, BigButton]

    def refresh(self, session: GameSession, prompt_changed: bool) -> None:
        self.ids.board.show(session)
        self._shapes(session)
        if prompt_changed:
            self.ids.prompt.show(session.prompt)
        self.ids.prompt.show_alarm(session.table_view.alarm, session.why_gm_only("override"))
        self.ids.prompt.show_dice(session.dice_read)
        self._query_toggles(session)
        lines: list[str] = []
        if session.notice:
            lines.append(session.notice)
        if session.why_gm_only("undo"):  # beside Undo and History, greyed on a player's tablet at a table with a GM
            lines.append(session.why_gm_only("undo"))
        said = session.notice
        table = session.table_view.lines(session.board) if session.board is not None else []
        if session.shape is None:
            lines += table
        if session.selection is not None and session.board is not None:
            fig = session.board.figures.get(session.selection.figure)
            if session.shape is not None:  # what is in hand and who is inside first, the table's reports after
                lines.append(_("{text}:", text=session.shape.text(session.board)))
            elif fig is not None:
                head = figure_heading(fig)
                if said and said in lines and said.startswith(head):  # the tap's words name it: said once, here
                    lines.remove(said)
                    lines.append(_("{text}:", text=said))
                else:
                    lines.append(_("{text}:", text=head))
                caption = session.inspect_caption()[1]
                if caption:  # whose cells are whose, while another figure's move is pending
                    lines.append("  " + caption)
                if fig.badges:  # in full: on the board they are cut to fit beside the disc
                    lines.append("  " + " · ".join(b.replace("_", " ") for b in fig.badges))
            lines += ["  " + line for line in session.selection.lines()]
        if session.shape is not None:
            lines += table
        hint = session.tap_hint
        self.ids.info.text = "\n".join(lines) or hint

    def _query_toggles(self, session: GameSession) -> None:
        """One button per query the rule set declares, lit while its answers are drawn (where some start off)."""
        box = self.ids.queries
        wanted = [q.what for q in session.queries] if any(not q.shown for q in session.queries) else []
        buttons = getattr(self, "query_buttons", {})
        labels = [q.label for q in session.queries]  # the engine's words: made again when the language changes
        if list(buttons) != wanted or labels != getattr(self, "query_labels", labels):
            box.clear_widgets()
            buttons = {}
            for q in session.queries if wanted else ():
                button = BigButton(text=q.label, font_base=18)
                button.bind(on_release=lambda _b, what=q.what: App.get_running_app().toggle_query(what))
                box.add_widget(button)
                buttons[q.what] = button
            self.query_buttons = buttons
            box.opacity = 1 if buttons else 0
        self.query_labels = labels
        for what, button in buttons.items():
            button.active = session.query_shown(what)

    def _shapes(self, session: GameSession) -> None:
        """The skill shapes the rule set declares, for the figure shown: one button each, and its size."""
        sel, shape = session.selection, session.shape
        figure = sel.figure if sel is not None and sel.cell is None else None
        wanted = (figure, shape.query.what if shape else None, shape.size if shape else None, id(session.scenario),
                  current_language())
        if wanted == self.shapes_for:
            return
        self.shapes_for = wanted
        row = self.ids.shapes
        row.clear_widgets()
        self.shape_buttons = {}
        if figure is None or not session.shapes:
            return
        app = App.get_running_app()
        for q in session.shapes:
            b = BigButton(text=q.label, font_base=18, active=shape is not None and shape.query.what == q.what)
            b.bind(on_release=lambda _b, w=q.what: app.pick_shape(w))
            row.add_widget(b)
            self.shape_buttons[q.what] = b
        if shape is not None and "size" in shape.query.takes:
            for name, by in (("smaller", -1), ("larger", 1)):
                b = BigButton(text=_("Size −") if by < 0 else _("Size +"), font_base=18)
                b.bind(on_release=lambda _b, n=by: app.grow_shape(n))
                row.add_widget(b)
                self.shape_buttons[name] = b


class BigScreen(Screen):  # type: ignore[misc]
    """Read-only: the board and the current prompt, large, for a TV or a second tablet."""

    def refresh(self, session: GameSession, prompt_changed: bool) -> None:
        self.ids.board.show(session)
        if prompt_changed:
            self.ids.prompt.read_only = True
            self.ids.prompt.show(session.prompt)
        self.ids.prompt.show_alarm(session.table_view.alarm)
        self.ids.prompt.show_dice(session.dice_read)


class LogScreen(Screen):  # type: ignore[misc]
    def refresh(self, session: GameSession, prompt_changed: bool) -> None:
        parts = []
        for e in session.entries:
            parts.append(f"[b]{_esc(e.heading)}[/b]")
            parts += [f"    {_esc(t)}" for t in e.lines]
        self.ids.entries.text = "\n".join(parts) or _("Nothing has happened yet.")


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


class CameraScreen(Screen):  # type: ignore[misc]
    """The live preview with detections drawn, the calibration verdict, drift warnings, unknown markers, and
    where the dice come from (the camera's tray or the tablets), with the switch."""

    _dice: DiceModeSwitch | None = None

    def refresh(self, session: GameSession, prompt_changed: bool) -> None:
        table = session.table or {}
        report = camera_report(session, has_preview=self.ids.preview.texture is not None)
        self.ids.verdict.text = report.verdict
        self.ids.cameras.text = report.links
        self.ids.warnings.text = report.warnings
        self._dice = dice_mode_switch(table)
        self.ids.dice_mode.text = "" if self._dice is None else self._dice.text
        self.ids.dice_switch.text = "" if self._dice is None else self._dice.button
        tags = unknown_tags(session.scenario, session.snapshot, table)
        box = self.ids.assign
        box.clear_widgets()
        self.ids.assign_help.text = (
            _("Tags the game does not know are in view. A figure with a new or reprinted tag: tap the figure it is.")
            if tags else ""
        )
        app = App.get_running_app()
        for tag in tags:
            box.add_widget(WrapLabel(text=tag.title, font_base=18))
            for choice in tag.choices:
                button = BigButton(text=choice.label)
                button.bind(on_release=lambda _b, m=tag.marker, f=choice.figure: app.assign_marker(m, f))
                box.add_widget(button)

    def switch_dice(self) -> None:
        """Where the engine takes the dice from: the camera's tray, or the tablets only (``dice`` command)."""
        if self._dice is not None:
            App.get_running_app().send_dice({"op": "mode", "mode": self._dice.to})

    def show_preview(self, jpeg: bytes) -> None:
        import io

        image = CoreImage(io.BytesIO(jpeg), ext="jpg")
        self.ids.preview.texture = image.texture


class SetupScreen(Screen):  # type: ignore[misc]
    def refresh(self, session: GameSession, prompt_changed: bool) -> None:
        view = setup_view(session.scenario)
        self.ids.scenario_name.text = view.scenario_name
        self.ids.description.text = view.description
        self.ids.sides.text = "\n".join(line.text for line in view.sides)
        self.ids.balance.text = view.warning

    def list_scenarios(self, choices: list[ScenarioChoice], on_pick: Any, why_not: str = "") -> None:
        """The connected engine's scenarios: one button each (a file it cannot read: its error, no button); greyed,
        the reason above them, when this tablet may not start a game (``why_not``: only the GM does here)."""
        box = self.ids.scenarios
        box.clear_widgets()
        if not choices:
            box.add_widget(WrapLabel(text=_("The engine has listed no scenarios yet."), font_base=18))
        elif why_not:
            box.add_widget(WrapLabel(text=why_not, font_base=18, color=palette.DESYNC))
        for choice in choices:
            if not choice.error:
                b = BigButton(text=choice.button_text, disabled=bool(why_not), why_disabled=why_not)
                b.bind(on_release=lambda _b, n=choice.name: on_pick(n))
                box.add_widget(b)
            else:
                box.add_widget(WrapLabel(text=choice.button_text, font_base=18, bold=True))
            if choice.detail:
                box.add_widget(WrapLabel(text=choice.detail, font_base=18))
