"""The table against the game: figure moves seen by the camera become actions; disagreements become desync.

Only *changes* the camera sees count as the players' intent: a figure put down on another hex than
where it last stood (``A → B``) or taken off the table. An intent answers the pending prompt when
it fits (a legal move for the figure the game asks to move, the removal of the figure the game asks
to remove, or — for a choice about a figure whose options name cells, a step of a move spent point by
point — the one option on the cell it was put down on); an illegal move is reported with the rules'
reason and the legal hexes. A standing disagreement that no hand caused — a tablet undid a move, a
figure was knocked over, the engine restarted — is never turned into an action: it is listed as
desync, "put X back on C3", until the camera sees the table match the game. Pure logic: fused markers
in, a :class:`SyncReport` out.

A figure the prompt is about, seen in the hand (``moving``) over another cell, gets a *provisional*
verdict: what putting it down there would do (played, or refused with the rules' reason). A tablet shows it
as a ghost; only the figure settling there plays it.

Figures are followed one by one, by their tags, so several in one cell (a stack) are each there. For
rule sets that use facing, the tags own the facing: a settled figure first seen, or whose tag was turned
into another board direction (with hysteresis, :class:`engine.table_fusion.FacingHysteresis`), gives a
``face`` action when the game has another facing, once the figure stands where the game has it. A facing
set from a tablet stays until the tag is turned again (the tablet's action drops the table's pending
turn). Rule sets without facing (Fantasy Battle) never get one: their facing stays as the game has it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Choose, Face, Move, Remove
from engine.board.base import Cell
from engine.game import Game
from engine.i18n import gettext_for
from engine.prompts import PromptKind
from engine.scenario import Scenario
from engine.table_fusion import DEFAULT_HYSTERESIS_HEX, CellHysteresis, FacingHysteresis, FusedMarker
from engine.texts import cell_noun, join_list
from engine.wire import TrackState

_ = gettext_for(__name__)

IN_HAND_STATES = (TrackState.MOVING, TrackState.LIFTED)


@dataclass(frozen=True)
class IllegalMove:
    """A figure put on a hex its pending move cannot reach, with the rules' reason and the legal hexes."""

    figure: str
    to: Cell
    reason: str
    legal: tuple[str, ...]

    def to_dict(self, scenario: Scenario) -> dict[str, Any]:
        return {"figure": self.figure, "to": [self.to.q, self.to.r], "to_label": scenario.label(self.to),
                "reason": self.reason, "legal": list(self.legal)}


@dataclass(frozen=True)
class Desync:
    """A figure where the game does not have it: where it must go (``expected`` None = off the table)."""

    figure: str
    expected: Cell | None
    seen: Cell | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        expected = None if self.expected is None else [self.expected.q, self.expected.r]
        seen = None if self.seen is None else [self.seen.q, self.seen.r]
        return {"figure": self.figure, "expected": expected, "seen": seen, "text": self.text}


@dataclass(frozen=True)
class Pending:
    """A figure moved by hand before the game asked for its move; it counts once the game does."""

    figure: str
    seen: Cell
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"figure": self.figure, "seen": [self.seen.q, self.seen.r], "text": self.text}


@dataclass(frozen=True)
class Provisional:
    """The verdict on the cell under a figure still in the hand (a ghost): what putting it down there would do."""

    figure: str
    over: Cell
    legal: bool
    reason: str  # the rules' reason when it would be refused, else ""

    def to_dict(self, scenario: Scenario) -> dict[str, Any]:
        return {"figure": self.figure, "to": [self.over.q, self.over.r], "to_label": scenario.label(self.over),
                "legal": self.legal, "reason": self.reason}


@dataclass(frozen=True)
class SyncReport:
    """What the table means for the game now: at most one action to apply, or the disagreements."""

    action: Action | None
    illegal: IllegalMove | None
    desync: tuple[Desync, ...]
    in_hand: tuple[str, ...]
    pending: tuple[Pending, ...]
    unknown_markers: tuple[int, ...]
    provisional: Provisional | None = None  # the prompted figure, in the hand over a cell it could be put on


@dataclass(frozen=True)
class FigureView:
    """The camera's view of one figure: the hex it last stood on and the way it faced (both kept while in the
    hand) and its state."""

    settled_hex: Cell | None
    state: str  # a TrackState: settled | moving | lifted | lost
    facing: int | None = None

    @property
    def on_table(self) -> bool:
        return self.state == TrackState.SETTLED


class TableSync:
    """Follows the fused markers and answers the game's prompts from what the hands did."""

    def __init__(self, scenario: Scenario, margin_hex: float = DEFAULT_HYSTERESIS_HEX,
                 anchor_ids: Iterable[int] = ()) -> None:
        self.scenario = scenario
        self.hexes = CellHysteresis(scenario.board, margin_hex)
        self.facings = FacingHysteresis(scenario.board)
        self.turns: dict[str, int] = {}  # figure → the direction its tag was turned to, not yet in the game
        self.anchor_ids = frozenset(scenario.anchor_points_mm()) | frozenset(anchor_ids)
        self.views: dict[str, FigureView] = {}
        self.over: dict[str, Cell] = {}  # figures in view but moving (in a hand): the cell under the tag now
        self._verdicts: dict[tuple[str, Cell, int], Provisional] = {}  # (figure, cell, history length) → verdict
        self.intents: dict[str, Move | Remove] = {}
        self.unknown_markers: tuple[int, ...] = ()
        self.observed = False
        self.markers: dict[str, int] = {f.id: f.marker_id for f in scenario.figures}  # figure → its tag
        counts = Counter(f.name for f in scenario.figures)
        self._names = {f.id: f.name if counts[f.name] == 1 else f"{f.name} ({f.id})" for f in scenario.figures}

    def renamed(self, scenario: Scenario) -> None:
        """The same scenario read again in another language: names follow, what the table showed stays."""
        self.scenario = scenario
        counts = Counter(f.name for f in scenario.figures)
        self._names = {f.id: f.name if counts[f.name] == 1 else f"{f.name} ({f.id})" for f in scenario.figures}

    def name(self, figure: str) -> str:
        return self._names.get(figure, figure)

    def figure_of(self, marker: int) -> str | None:
        """The figure carrying a tag, or None (an anchor or an unknown tag)."""
        return next((f for f, m in self.markers.items() if m == marker), None)

    def assign(self, marker: int, figure: str) -> int | None:
        """Tie a tag to a figure (a replacement tag, a misprint); returns the figure's former tag.

        The figure's former tag becomes unknown; a tag that belonged to another figure is taken from it,
        and that figure is then without a tag until assigned again.
        """
        if figure not in self.markers:
            raise ValueError(_("there is no figure {figure!r}; figures: {known}", figure=figure,
                               known=join_list(sorted(self.markers))))
        if marker in self.anchor_ids:
            raise ValueError(_("tag {marker} is a board anchor; figures need another tag", marker=marker))
        former = self.markers[figure]
        holder = self.figure_of(marker)
        if holder is not None and holder != figure:
            self.markers[holder] = -1
        self.markers[figure] = marker
        self.views.pop(figure, None)
        self.hexes.forget(former)
        self.facings.forget(former)
        return former

    def cell_of(self, marker: FusedMarker) -> Cell:
        """The cell a visible marker stands on (the board places it, with hysteresis)."""
        return self.hexes.locate(marker.marker, marker.x_mm, marker.y_mm)

    def facing_of(self, marker: FusedMarker, cell: Cell) -> int | None:
        """The board direction a visible marker's figure faces on ``cell`` (with hysteresis), None if unknown."""
        return self.facings.locate(marker.marker, cell, marker.angle_deg)

    # -- following the camera --------------------------------------------------------------------
    def observe(self, markers: Mapping[int, FusedMarker], game: Game) -> None:
        """Take one fused view of the table; record the hands' intents from what changed."""
        self.observed = True
        figure_markers = set(self.markers.values())
        self.unknown_markers = tuple(sorted(m for m in markers if m not in figure_markers | self.anchor_ids))
        prompt = game.prompt
        for spec in self.scenario.figures:
            seen = markers.get(self.markers[spec.id])
            before = self.views.get(spec.id)
            if seen is None or not seen.visible:
                self.over.pop(spec.id, None)
                state = TrackState.LOST if seen is None else seen.state
                if seen is None or state == TrackState.LOST:
                    self.hexes.forget(self.markers[spec.id])
                    self.facings.forget(self.markers[spec.id])
                if before is not None and before.on_table and state != TrackState.MOVING:
                    self._taken_off(spec.id, game)
                self.views[spec.id] = FigureView(before.settled_hex if before else None, state,
                                                 before.facing if before else None)
                continue
            if seen.state != TrackState.SETTLED:
                self.views[spec.id] = FigureView(before.settled_hex if before else None, seen.state,
                                                 before.facing if before else None)
                self.over[spec.id] = self.cell_of(seen)
                continue
            self.over.pop(spec.id, None)
            at = self.cell_of(seen)
            facing = self.facing_of(seen, at)
            self.views[spec.id] = FigureView(at, TrackState.SETTLED, facing)
            if game.rules.uses_facing and facing is not None and (before is None or facing != before.facing):
                self.turns[spec.id] = facing  # the tag shows the facing: first seen, or turned since
            if before is None or before.settled_hex is None:
                continue  # first sight: how the table is, not something a hand just did
            intent = self.intents.get(spec.id)
            if at != before.settled_hex or isinstance(intent, Remove):
                self._put_down(spec.id, at, game, prompt.figure)

    def _taken_off(self, figure: str, game: Game) -> None:
        prompt = game.prompt
        if prompt.kind in (PromptKind.MOVE, PromptKind.CHOOSE) and prompt.figure == figure:
            return  # in the hand on its way to another hex
        self.intents[figure] = Remove(figure)

    def _put_down(self, figure: str, at: Cell, game: Game, asked: str | None) -> None:
        self.intents.pop(figure, None)
        fig = game.state.figures.get(figure)
        if fig is None or at == fig.hex:
            return  # back where the game has it
        if asked == figure:  # its move, or the roll or choice just before it
            self.intents[figure] = Move(figure, at)

    def forget_intents(self, figure: str | None = None) -> None:
        """Drop what the hands did (all, or one figure's) after the game changed from a tablet."""
        if figure is None:
            self.intents.clear()
            self.turns.clear()
        else:
            self.intents.pop(figure, None)
            self.turns.pop(figure, None)

    # -- the game's side ---------------------------------------------------------------------------
    def step(self, game: Game) -> SyncReport:
        """The action the table gives to the pending prompt (taken from the intents), or the disagreements."""
        prompt = game.prompt
        illegal: IllegalMove | None = None
        figure = prompt.figure
        intent = self.intents.get(figure) if figure is not None else None
        if figure is not None and prompt.kind is PromptKind.MOVE and isinstance(intent, Move):
            current = game.state.figures[figure].hex
            if intent.to == current:
                self.intents.pop(figure)
            elif intent.to in prompt.moves:
                self.intents.pop(figure)
                return SyncReport(intent, None, (), (), (), self.unknown_markers)
            else:
                illegal = self._illegal(game, figure, intent.to)
        elif figure is not None and prompt.kind is PromptKind.CHOOSE and isinstance(intent, Move):
            # A choice about a figure whose options are cells (a step of a move): putting the figure down on the
            # cell of exactly one option chooses it; a cell offered twice (two ways there) is left to the tablet.
            fitting = [o for o in prompt.options if o.hex == intent.to and o.figure in (None, figure)]
            if game.state.figures[figure].hex == intent.to:
                self.intents.pop(figure)
            elif len(fitting) == 1:
                self.intents.pop(figure)
                return SyncReport(Choose(fitting[0].id), None, (), (), (), self.unknown_markers)
        elif figure is not None and prompt.kind is PromptKind.REMOVE and isinstance(intent, Remove):
            self.intents.pop(figure)
            return SyncReport(intent, None, (), (), (), self.unknown_markers)
        turn = self._turn(game)
        if turn is not None:
            return SyncReport(turn, None, (), (), (), self.unknown_markers)
        if not self.observed:
            return SyncReport(None, illegal, (), (), (), self.unknown_markers)
        desync, in_hand, pending = self._compare(game, illegal)
        return SyncReport(None, illegal, desync, in_hand, pending, self.unknown_markers, self._provisional(game))

    def _provisional(self, game: Game) -> Provisional | None:
        """The prompted figure held over a cell other than its own: would putting it down there be played?

        Judged as the put-down would be (a legal move, or the one cell option of a choice), so that a tablet can show
        the verdict as a ghost before the hand lets go; the figure settling there confirms it."""
        prompt = game.prompt
        figure = prompt.figure
        if figure is None or figure not in self.over or prompt.kind not in (PromptKind.MOVE, PromptKind.CHOOSE):
            return None
        over = self.over[figure]
        fig = game.state.figures.get(figure)
        if fig is None or over == fig.hex:
            return None
        key = (figure, over, len(game.history))
        if key not in self._verdicts:
            if prompt.kind is PromptKind.MOVE:
                legal = over in prompt.moves
                reason = "" if legal else game.rules.why_not(game.state, figure, over)
            else:
                fitting = [o for o in prompt.options if o.hex == over and o.figure in (None, figure)]
                if not any(o.hex is not None for o in prompt.options):
                    return None  # a choice that names no cells: putting the figure down answers nothing
                legal, reason = len(fitting) == 1, ""
            if len(self._verdicts) > 256:
                self._verdicts.clear()
            self._verdicts[key] = Provisional(figure, over, legal, reason)
        return self._verdicts[key]

    def _turn(self, game: Game) -> Face | None:
        """A figure turned on the table, standing where the game has it, as a ``face`` action (once)."""
        if not game.rules.uses_facing or game.over:
            return None
        for figure, direction in list(self.turns.items()):
            fig = game.state.figures.get(figure)
            view = self.views.get(figure)
            if fig is None or not fig.alive or not fig.on_table or direction == fig.facing:
                self.turns.pop(figure)
            elif view is not None and view.on_table and view.settled_hex == fig.hex:
                self.turns.pop(figure)
                return Face(figure, direction)
        return None

    def _illegal(self, game: Game, figure: str, to: Cell) -> IllegalMove:
        moves = game.prompt.moves
        legal = tuple(self.scenario.label(h) for h in sorted(moves, key=lambda h: (moves[h].cost, h)))
        return IllegalMove(figure, to, game.rules.why_not(game.state, figure, to), legal)

    def _compare(self, game: Game, illegal: IllegalMove | None
                 ) -> tuple[tuple[Desync, ...], tuple[str, ...], tuple[Pending, ...]]:
        desync: list[Desync] = []
        in_hand: list[str] = []
        pending: list[Pending] = []
        for spec in self.scenario.figures:
            fig = game.state.figures[spec.id]
            expected = fig.hex if fig.on_table else None
            view = self.views.get(spec.id)
            if view is not None and view.state in IN_HAND_STATES:
                if fig.on_table:
                    in_hand.append(spec.id)
                continue
            seen = view.settled_hex if view is not None and view.on_table else None
            if seen == expected or (not fig.alive and seen is None):
                continue
            name = self.name(spec.id)
            intent = self.intents.get(spec.id)
            if illegal is not None and illegal.figure == spec.id and seen == illegal.to:
                where = self.scenario.label(illegal.to)
                cell = cell_noun(self.scenario.board.kind, 1)
                back = self.scenario.label(expected) if expected is not None else _("its {cell}", cell=cell)
                text = _("{name} may not stop on {where} ({reason}); put it back on {back} or on a legal {cell}",
                         name=name, where=where, reason=illegal.reason, back=back, cell=cell)
            elif isinstance(intent, Move) and seen is not None and intent.to == seen:
                pending.append(Pending(spec.id, seen, _("{name} was moved to {cell}; it counts when the game asks for "
                                                        "its move", name=name, cell=self.scenario.label(seen))))
                continue
            elif expected is None:
                text = _("take {name} off the table (it stands on {cell})", name=name,
                         cell=self.scenario.label(seen) if seen else "?")
            elif seen is None:
                text = _("put {name} on {cell}: the camera does not see it", name=name,
                         cell=self.scenario.label(expected))
            else:
                text = _("put {name} back on {cell} (it stands on {seen})", name=name,
                         cell=self.scenario.label(expected), seen=self.scenario.label(seen))
            desync.append(Desync(spec.id, expected, seen, text))
        return tuple(desync), tuple(in_hand), tuple(pending)

