"""The app's whole picture of the game, rebuilt from engine messages; what a tap on the board means.

Plain Python and single-threaded: the UI thread feeds it the messages the network agent delivered.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.board_model import BoardView, FigureView, HexKey, build_board
from companion_app.viewmodels.dice_model import DiceRead, dice_read
from companion_app.viewmodels.glossary import Glossary, glossary_of
from companion_app.viewmodels.gm_model import GmAccess, GmDesk, GmTools
from companion_app.viewmodels.header_model import HeaderView, header_view
from companion_app.viewmodels.log_model import LogEntry, log_entries, undo_steps
from companion_app.viewmodels.overlays import SelectionOverlay, TableOverlay, query_overlay, table_overlay
from companion_app.viewmodels.prompt_model import OptionView, PromptModel
from companion_app.viewmodels.shape_model import ShapeAim, ShapeQuery
from companion_app.viewmodels.words import cell_noun, join_list, join_words, possessive
from engine.i18n import N_, gettext_for, ngettext_for

log = logging.getLogger(__name__)
_ = gettext_for(__name__)
_n = ngettext_for(__name__)

# What the engine sends, in words, for a notice about one that cannot be shown.
MESSAGE_WORDS: dict[str, str] = {"scenario": N_("scenario"), "snapshot": N_("snapshot"),
                                 "table": N_("table report")}


@dataclass(frozen=True)
class QueryAsk:
    """One query the rule set declares, as a tap on a figure asks it: ``what`` and the field it takes."""

    what: str
    label: str
    about: str  # figure | side | cell
    shown: bool = True  # drawn as soon as a figure is tapped (else when the player turns it on)
    takes: tuple[str, ...] = ()  # what else it may be given: a chosen "cell", a "size"
    help: str = ""


@dataclass(frozen=True)
class TapResult:
    """What a tap on a hex asks for: send an action, query a figure, pick among choices, or clear the selection."""

    kind: str  # action | select | pick | clear | refused | aim | cell
    action: dict[str, Any] | None = None
    figure: str | None = None
    text: str = ""
    options: tuple[OptionView, ...] = ()  # pick: the prompt's choices on the tapped hex (a stack's figures)
    cell: HexKey | None = None  # aim, cell: the tapped cell


class GameSession:
    """Holds the last scenario, game snapshot and table report; builds every view from them."""

    def __init__(self) -> None:
        self.scenario: dict[str, Any] | None = None
        self.snapshot: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.board: BoardView | None = None
        self.prompt: PromptModel | None = None
        self.entries: list[LogEntry] = []
        self.selection: SelectionOverlay | None = None
        self.glossary = Glossary()
        self.queries: tuple[QueryAsk, ...] = ()
        self.hidden_queries: set[str] = set()  # the queries not drawn now (the player turns them on and off)
        self.gm = GmAccess()  # whether this tablet is the game master
        self.gm_tools = GmTools()  # what the rule set lets its GM do
        self.gm_desk = GmDesk(self.gm_tools)
        self.shape: ShapeAim | None = None  # a skill's shape in hand for the figure shown
        self.table_view: TableOverlay = TableOverlay()
        self.dice_read: DiceRead | None = None  # the dice the camera read in the tray for the prompt shown
        self.notice = ""  # the last refusal or error, in words
        self.revision = 0  # bumped on every change the screens must show
        self._prompt_raw: Any = None
        self._board_scenario: dict[str, Any] | None = None

    # ---------------------------------------------------------------- incoming

    def set_scenario(self, scenario: Mapping[str, Any]) -> bool:
        return self._take("scenario", dict(scenario))

    def set_snapshot(self, snapshot: Mapping[str, Any]) -> bool:
        return self._take("snapshot", dict(snapshot))

    def set_table(self, table: Mapping[str, Any] | None) -> bool:
        return self._take("table", dict(table) if table else None)

    def _take(self, what: str, value: dict[str, Any] | None) -> bool:
        """Show a new scenario, snapshot or table; one this app cannot read is refused (the view stays as it
        was) and the notice says what to do."""
        before = (self.scenario, self.snapshot, self.table, self.board, self.prompt, self._prompt_raw,
                  self._board_scenario, self.entries, self.table_view, self.selection, self.glossary, self.queries)
        setattr(self, what, value)
        try:
            if what == "table":
                if self.board is not None:
                    self.table_view = table_overlay(self.table, self.board)
                self.revision += 1
            else:
                self._rebuild()
            self._read_dice()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            (self.scenario, self.snapshot, self.table, self.board, self.prompt, self._prompt_raw,
             self._board_scenario, self.entries, self.table_view, self.selection, self.glossary,
             self.queries) = before
            log.warning("cannot show the engine's %s: %r", what, exc)
            error = f"{type(exc).__name__}: {exc}"
            self.set_notice(_(
                "The engine sent a {what} this app cannot show ({error}). Run the same release of the app and the "
                "engine.", what=_(MESSAGE_WORDS.get(what, what)), error=error))
            return False
        return True

    def _read_dice(self) -> None:
        """The tray's reading for the prompt shown; the same reading again keeps the faces tapped so far."""
        history = None if self.snapshot is None else len(self.snapshot.get("history") or [])
        read = dice_read(self.table, self.prompt, history, time.monotonic())
        if read is not None and self.dice_read is not None and read.key == self.dice_read.key:
            read.tapped = self.dice_read.tapped
        self.dice_read = read

    def relanguage(self) -> None:
        """Make the views again in the language now: the app's own words at once (the engine's follow when it
        sends the game again in the table's language)."""
        self._prompt_raw = object()  # a new prompt model, its words made again
        self._rebuild()
        self.revision += 1

    def gm_changed(self) -> None:
        """The engine took this tablet as the GM (or no longer): the prompt's answers open to it (or grey)."""
        if self.prompt is not None:
            self.prompt.gm_here = self.gm.is_gm
        self.revision += 1

    def set_notice(self, text: str) -> None:
        self.notice = text
        self.revision += 1

    def why_gm_only(self, cmd: str) -> str:
        """Why this tablet may not send ``cmd`` (its control greyed with it): the engine's reason when the table
        leaves the command to the game master (the scenario's ``gm_only``) and this tablet is not the GM; empty
        when it may."""
        if self.gm.is_gm or self.scenario is None:
            return ""
        return str((self.scenario.get("gm_only") or {}).get(cmd, ""))

    def why_no_undo(self, big_screen: bool = False) -> str:
        """Why Undo and the history are greyed; empty when this tablet may take the last action back."""
        if big_screen:
            return _("read-only big screen")
        return self.why_gm_only("undo") or ("" if undo_steps(self.entries, 1) else _("nothing to undo yet"))

    def _rebuild(self) -> None:
        if self.scenario is None:
            return
        scenario_changed = self.board is None or self._board_scenario is not self.scenario
        self._board_scenario = self.scenario
        self.board = build_board(self.scenario, self.snapshot, None if scenario_changed else self.board)
        if scenario_changed:
            self.glossary = glossary_of(self.scenario)
            self.queries = tuple(QueryAsk(str(q["name"]), str(q.get("label", q["name"])), str(q.get("about", "figure")),
                                          bool(q.get("shown", True)), tuple(str(t) for t in q.get("takes") or []),
                                          str(q.get("help", "")))
                                 for q in self.scenario.get("queries") or [])
            self.hidden_queries = {q.what for q in self.queries if not q.shown}
            self.gm_tools = GmTools.of(self.scenario)
            self.gm_desk = GmDesk(self.gm_tools)
            self.shape = None
        if self.snapshot is not None:
            raw = self.snapshot.get("prompt")
            # The same question again (an update about something else): keep the model, and the faces entered so far.
            if self.prompt is None or raw != self._prompt_raw or scenario_changed:
                self.prompt = PromptModel.from_snapshot(self.snapshot, self.board, self.gm.is_gm)
                self._prompt_raw = raw
            self.entries = log_entries(self.snapshot.get("history") or [])
        self.table_view = table_overlay(self.table, self.board)
        if self.selection is not None:
            fig = self.board.figures.get(self.selection.figure)
            if self.selection.cell is None and (fig is None or not fig.alive):
                self.selection = None
                self.shape = None
            else:  # the same game sent again (a resync): keep the figure shown, asked in the rule set's order
                self.selection.order = tuple(q.what for q in self.queries)
        self.revision += 1

    # ---------------------------------------------------------------- views

    @property
    def header(self) -> HeaderView:
        return header_view(self.scenario, self.snapshot, self.board)

    @property
    def cell_word(self) -> str:
        """What the board's cells are called: "hex" on a hex map, "zone" on a zone board."""
        return cell_noun(self.board.kind if self.board is not None else "", 1)

    @property
    def tap_hint(self) -> str:
        """What tapping a figure shows, from the rule set's query labels ("its moves, targets and threats")."""
        labels = [q.label.lower() for q in self.queries]
        if not labels:
            return _("Tap a figure to see where it stands.")
        return _("Tap a figure to see its {queries}.", queries=join_words(labels))

    def asks_for(self, figure: str) -> list[tuple[QueryAsk, str]]:
        """The queries a tap on ``figure`` sends, each with what it is about (the figure, or its side)."""
        fig = self.board.figures.get(figure) if self.board is not None else None
        if fig is None:
            return []
        return [(q, fig.id if q.about == "figure" else fig.side) for q in self.queries
                if q.about in ("figure", "side") and not q.takes]

    @property
    def shapes(self) -> tuple[ShapeQuery, ...]:
        """The queries about a figure that take a chosen cell or a size: the skill shapes a player may pick."""
        return tuple(ShapeQuery(q.what, q.label, q.takes, q.help)
                     for q in self.queries if q.about == "figure" and q.takes)

    @property
    def cell_asks(self) -> tuple[QueryAsk, ...]:
        """The queries a tap on a cell asks (``about: "cell"``: who sees it)."""
        return tuple(q for q in self.queries if q.about == "cell")

    def pick_shape(self, what: str) -> ShapeAim | None:
        """Take the shape ``what`` in hand for the figure shown (the same again: put it down); None: no figure."""
        if self.selection is None or self.selection.cell is not None:
            return None
        query = next((q for q in self.shapes if q.what == what), None)
        if query is None:
            known = ", ".join(q.what for q in self.shapes)
            raise ValueError(f"no skill shape {what!r}; the rule set declares: {known}")
        if self.shape is not None and self.shape.query.what == what and self.shape.figure == self.selection.figure:
            self.put_shape_down()
            return None
        if self.shape is not None:
            self.selection.answers.pop(self.shape.query.what, None)
        self.shape = ShapeAim(self.selection.figure, query)
        self.selection.only = what  # the shape alone on the board while it is in hand
        self.revision += 1
        return self.shape

    def put_shape_down(self) -> None:
        if self.shape is not None and self.selection is not None:
            self.selection.answers.pop(self.shape.query.what, None)
            self.selection.only = None
        self.shape = None
        self.revision += 1

    def select_cell(self, key: HexKey) -> SelectionOverlay:
        """Show a tapped cell; the answers to the rule set's cell queries follow (:meth:`answer_cell`)."""
        self.shape = None
        self.selection = SelectionOverlay("", tuple(q.what for q in self.cell_asks), cell=key)
        self.revision += 1
        return self.selection

    def answer_cell(self, key: HexKey, overlay: Mapping[str, Any]) -> None:
        if self.selection is None or self.selection.cell != key:
            return
        shown = query_overlay(overlay)
        self.selection.answers[shown.query] = shown
        self.revision += 1

    def select(self, figure: str) -> SelectionOverlay | None:
        """Show a figure as tapped; the answers to the rule set's queries about it follow (:meth:`answer`).
        Tapped again, it keeps the answers it has until the new ones arrive."""
        if self.board is None or figure not in self.board.figures:
            self.selection = None
        elif self.selection is None or self.selection.figure != figure:
            self.selection = SelectionOverlay(figure, tuple(q.what for q in self.queries), hidden=self.hidden_queries)
            self.shape = None  # a new selection: nothing in hand
        self.revision += 1
        return self.selection

    @property
    def inspecting_during_move(self) -> bool:
        """Another figure is shown while a move is pending: its reach is outlined, the pending move's cells filled."""
        sel, prompt = self.selection, self.prompt
        return (sel is not None and sel.cell is None and bool(sel.figure) and prompt is not None
                and prompt.kind == "move" and prompt.figure != sel.figure)

    def inspect_caption(self) -> tuple[str, str]:
        """Whose overlay is whose while another figure is shown during a move: a short caption for the board beside
        the shown figure and a line for the info strip; empty when only one figure's cells are on the board."""
        board, sel, prompt = self.board, self.selection, self.prompt
        if not self.inspecting_during_move or board is None or sel is None or prompt is None:
            return "", ""
        labels = {q.what: q.label.lower() for q in self.queries}
        what = [labels.get(o.query, o.query) for o in sel.overlays() if any(c.style == "shade" for c in o.cells)]
        if not what:
            return "", ""
        name = board.figure_name(sel.figure)
        listed = join_words(what)
        return (_("{possessive} {queries}: outlined", possessive=possessive(name), queries=listed),
                _("Outlined: {possessive} {queries}. Filled: {moving} legal moves (the move to make now).",
                  possessive=possessive(name), queries=listed, moving=possessive(prompt.figure_name)))

    def query_shown(self, what: str) -> bool:
        return what not in self.hidden_queries

    def toggle_query(self, what: str) -> None:
        """Draw a query's answers, or stop drawing them (for every figure tapped after, too)."""
        if what in self.hidden_queries:
            self.hidden_queries.discard(what)
        else:
            self.hidden_queries.add(what)
        if self.selection is not None:
            self.selection.hidden = self.hidden_queries
        self.revision += 1

    def answer(self, figure: str, overlay: Mapping[str, Any]) -> None:
        """A query's answer about ``figure`` (the reply's ``overlay``); dropped when another figure is shown now."""
        if self.selection is None or self.selection.figure != figure:
            return
        shown = query_overlay(overlay)
        self.selection.answers[shown.query] = shown
        self.revision += 1

    def clear_selection(self) -> None:
        self.selection = None
        self.shape = None
        self.revision += 1

    # ---------------------------------------------------------------- touches

    def tap(self, key: HexKey | None) -> TapResult:
        """A tap on a hex: answer the prompt if the hex is one of its choices (several there, a stack's figures:
        ``pick`` them from a list), else select what stands there."""
        board, prompt = self.board, self.prompt
        if board is None or key is None:
            return TapResult("clear")
        if self.shape is not None and self.shape.wants_cell and key in board.tiles:  # aiming the shape in hand
            self.shape.cell = key
            return TapResult("aim", text=self.shape.text(board), cell=key)
        if prompt is not None and not prompt.why_not_here:  # the GM's to answer: a tap only shows what is there
            here = prompt.options_at(key, board)
            if len(here) > 1 and prompt.kind == "choose":  # a stack of choices: the player picks one from a list
                return TapResult("pick", options=tuple(here),
                                 text=_n("{n} choice on {cell}: pick one", "{n} choices on {cell}: pick one",
                                         len(here), cell=board.label(key)))
            option = here[0] if here else None
            if option is not None and prompt.kind == "choose":
                shown = self.selection.figure if self.selection is not None else None
                if option.figure is None or shown == option.figure:
                    return TapResult("action", prompt.choose(option.id), text=option.label)
                # First tap on a figure shows it; a second tap on it makes the choice.
                name = board.figure_name(option.figure)
                again = _("Tap {name} again to choose: {option}", name=name, option=option.label)
                return TapResult("select", figure=option.figure, text=again)
            if prompt.kind == "move" and key in prompt.moves:
                return TapResult("action", prompt.move_to(key, board), text=_("move to {cell}", cell=board.label(key)))
        fig = board.pick(key, self.selection.figure if self.selection is not None else None)  # a stack: the next
        if fig is not None:
            head = figure_heading(fig)
            if fig.stack > 1:
                head = _("{head}; {index} of a stack of {n}, tap again for the next: {figures}", head=head,
                         index=fig.stack_index + 1, n=fig.stack, figures=stack_list(board, key))
            return TapResult("select", figure=fig.id, text=head)
        if self.cell_asks and key in board.tiles:
            asked = join_list(q.label.lower() for q in self.cell_asks)
            return TapResult("cell", text=_("{cell}: {queries}", cell=board.label(key), queries=asked), cell=key)
        return TapResult("clear")

    def drag(self, start: HexKey | None, end: HexKey | None) -> TapResult:
        """Moving a figure by dragging it on the board (for when the camera is off)."""
        board, prompt = self.board, self.prompt
        if board is None or prompt is None or start is None or end is None:
            return TapResult("clear")
        fig = board.pick(start, wanted=(prompt.figure, self.selection.figure if self.selection is not None else None))
        if fig is None:
            return TapResult("clear")
        if prompt.kind == "move" and prompt.figure == fig.id:
            try:
                return TapResult("action", prompt.move_to(end, board), text=_("move to {cell}", cell=board.label(end)))
            except ValueError as exc:
                return TapResult("refused", text=str(exc))
        if prompt.kind == "choose":
            option = next((o for o in prompt.options if o.figure == fig.id), None)
            if option is not None:
                try:
                    return TapResult("action", prompt.choose(option.id), text=option.label)
                except ValueError as exc:  # the GM's to answer: the model says why
                    return TapResult("refused", text=str(exc))
        turn = board.face_action(fig.id, end)  # dragged onto a neighbour: turned to face it, where rules have facing
        if turn is not None:
            return TapResult("action", turn, text=_("turn {name} to face {cell}", name=fig.name, cell=board.label(end)))
        who = board.side_name(prompt.side)
        if not who:
            return TapResult("refused", text=_("{name} cannot move now: the engine must first: {prompt}", name=fig.name,
                                               prompt=prompt.text))
        return TapResult("refused", text=_("{name} cannot move now: {side} must first: {prompt}", name=fig.name,
                                           side=who, prompt=prompt.text))


def figure_heading(fig: FigureView) -> str:
    """A shown figure in one line, the same wherever it is named: "Knight (Adventurers, fighter) on B4"."""
    about = join_list(part for part in (fig.side_name, fig.kind_text) if part)
    if about:
        return _("{name} ({about}) on {cell}", name=fig.name, about=about, cell=fig.label)
    return _("{name} on {cell}", name=fig.name, cell=fig.label)


def stack_list(board: BoardView, key: HexKey) -> str:
    """The figures of a stack, top first, each with its first badge (its state where the rules give one)."""
    return join_list(_("{name} ({badge})", name=f.name, badge=f.badges[0]) if f.badges else f.name
                     for f in board.figures_at(key))
