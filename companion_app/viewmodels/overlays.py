"""What is drawn over the board: the rule set's answers about a tapped figure (cells, lines, texts — one shape
for every rule set); lifted figures' ghosts; illegal moves and desyncs reported by the engine.

Every overlay carries a text and a style besides its colour, so it reads without colour too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.board_model import BoardView, HexKey, hex_key
from companion_app.viewmodels.words import cell_noun, join_list
from engine.i18n import gettext_for, ngettext_for

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


@dataclass(frozen=True)
class CellMark:
    """A cell a query marks: ``style`` shade | warn | outline (see engine.overlays), a label, a level 0 … 1."""

    key: HexKey
    style: str
    label: str = ""
    level: float = 0.0


@dataclass(frozen=True)
class LineMark:
    """A line from a figure's cell to another with its verdict (clear | blocked | ambiguous) and the text why."""

    verdict: str
    text: str  # one line for the list beside the board, with the reason when refused
    path: tuple[HexKey, ...]
    start: HexKey | None
    end: HexKey | None
    target: str | None = None
    blocker_hex: HexKey | None = None
    blocker_edge: tuple[HexKey, HexKey] | None = None
    touched: tuple[HexKey, ...] = ()  # blocking cells the line only touches on their boundary: ringed, dashed


@dataclass(frozen=True)
class QueryOverlay:
    """One query's answer as the engine sent it (``overlay`` of a ``query`` reply), ready to draw."""

    query: str
    cells: tuple[CellMark, ...] = ()
    lines: tuple[LineMark, ...] = ()
    texts: tuple[str, ...] = ()


def _edge_keys(raw: Any) -> tuple[HexKey, HexKey] | None:
    if isinstance(raw, list) and len(raw) == 2:
        a, b = hex_key(raw[0]), hex_key(raw[1])
        return (a, b) if a and b else None
    return None


def query_overlay(raw: Mapping[str, Any]) -> QueryOverlay:
    """Build from an ``overlay`` dict (tolerant: missing keys mean nothing to draw)."""
    cells = []
    for c in raw.get("cells") or []:
        key = hex_key(c.get("hex"))
        if key is not None:
            level = min(1.0, max(0.0, float(c.get("level", 0.0))))
            cells.append(CellMark(key, str(c.get("style", "outline")), str(c.get("label", "")), level))
    lines = []
    for line in raw.get("lines") or []:
        path = tuple(k for k in (hex_key(p) for p in line.get("path") or []) if k is not None)
        blocker = line.get("blocker")
        blocker = blocker if isinstance(blocker, Mapping) else {}
        target = line.get("target")
        lines.append(LineMark(
            verdict=str(line.get("verdict", "clear")),
            text=str(line.get("text", "")),
            path=path,
            start=path[0] if path else None,
            end=path[-1] if path else None,
            target=None if target is None else str(target),
            blocker_hex=hex_key(blocker.get("hex")),
            blocker_edge=_edge_keys(blocker.get("edge")),
            touched=tuple(k for k in (hex_key(t) for t in line.get("touched") or []) if k is not None),
        ))
    return QueryOverlay(str(raw.get("query", "")), tuple(cells), tuple(lines),
                        tuple(str(t) for t in raw.get("texts") or []))


@dataclass
class SelectionOverlay:
    """A tapped figure (or cell) and the answers of the rule set's queries about it, in the order the rule set
    declares; the answers of ``hidden`` queries are kept but not drawn."""

    figure: str  # "" when a cell was tapped
    order: tuple[str, ...] = ()
    answers: dict[str, QueryOverlay] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    cell: HexKey | None = None  # a tapped cell the answers are about (the rule set's cell queries)
    only: str | None = None  # a skill's shape in hand: only its answer is shown

    def overlays(self) -> list[QueryOverlay]:
        """The answers drawn now."""
        if self.only is not None:
            return [self.answers[self.only]] if self.only in self.answers else []
        known = [self.answers[q] for q in self.order if q in self.answers]
        every = known + [o for q, o in self.answers.items() if q not in self.order]
        return [o for o in every if o.query not in self.hidden]

    def cells(self, style: str) -> list[CellMark]:
        return [c for o in self.overlays() for c in o.cells if c.style == style]

    @property
    def sight_lines(self) -> list[LineMark]:
        return [line for o in self.overlays() for line in o.lines]

    def lines(self) -> list[str]:
        """Plain-words summary for the info strip under the board."""
        return [t for o in self.overlays() for t in (*o.texts, *(line.text for line in o.lines))]


@dataclass(frozen=True)
class Ghost:
    figure: str
    moves: tuple[HexKey, ...]


@dataclass(frozen=True)
class ProvisionalVerdict:
    """The engine's verdict on the cell under a figure still in the hand, shown faintly until it is put down."""

    figure: str
    cell: HexKey
    legal: bool
    text: str


@dataclass(frozen=True)
class Arrow:
    figure: str
    start: HexKey | None
    end: HexKey | None
    text: str


@dataclass(frozen=True)
class IllegalAlarm:
    """An illegal move on the table as the prompt area shows it, large, until the table is put right or the players
    accept where the figure stands (``override``: the fields of the engine's ``override`` command)."""

    figure: str
    headline: str  # "Mage may not stop on F4"
    reason: str  # the rules' reason, as the engine sent it
    fix: str  # "Put it back on D3, or on a legal hex: D4, E5"
    override: dict[str, Any] | None  # {"figure": …, "to": [q, r]}; None when the cell is not known
    override_label: str


@dataclass
class TableOverlay:
    """What the camera side reports: lifted figures, an illegal move, desyncs, unknown markers."""

    ghosts: list[Ghost] = field(default_factory=list)
    illegal: Arrow | None = None
    illegal_legal: tuple[HexKey, ...] = ()
    desyncs: list[Arrow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cameras: list[str] = field(default_factory=list)
    alarm: IllegalAlarm | None = None
    provisional: ProvisionalVerdict | None = None

    def lines(self, board: BoardView) -> list[str]:
        """The info strip's lines; the illegal move is not among them: the prompt area shows it (:attr:`alarm`)."""
        out = []
        for g in self.ghosts:
            name, n = board.figure_name(g.figure), len(g.moves)
            out.append(_("{name} is lifted: {n} legal {cells} shown as ghosts", name=name, n=n,
                         cells=cell_noun(board.kind, n)))
        if self.provisional is not None:
            out.append(self.provisional.text)
        shown = self.alarm.figure if self.alarm is not None else None
        out += [d.text for d in self.desyncs if d.figure != shown]
        out += self.warnings
        return out


def _hex_or_label(value: Any, board: BoardView) -> HexKey | None:
    """A cell given as [q, r] or as a label of the board ("E4", "7")."""
    if isinstance(value, str):
        return board.cell_of(value)
    return hex_key(value)


def table_overlay(table: Mapping[str, Any] | None, board: BoardView) -> TableOverlay:
    """Build from a ``table`` message body (tolerant: missing keys mean nothing to show)."""
    if not table:
        return TableOverlay()
    ghosts = []
    for row in table.get("lifted") or []:
        moves = tuple(k for k in (hex_key(m) for m in row.get("moves") or []) if k is not None)
        ghosts.append(Ghost(str(row.get("figure")), moves))
    illegal = None
    alarm = None
    legal: tuple[HexKey, ...] = ()
    raw = table.get("illegal")
    if isinstance(raw, Mapping):
        fid = str(raw.get("figure"))
        fig = board.figures.get(fid)
        to = _hex_or_label(raw.get("to"), board)
        legal = tuple(k for k in (_hex_or_label(m, board) for m in raw.get("legal") or []) if k is not None)
        where = board.label(to) if to else "?"
        legal_text = join_list(board.label(k) for k in legal[:12]) or _("none")
        illegal = Arrow(
            fid,
            fig.key if fig else None,
            to,
            _("Illegal: {name} to {cell}: {reason}. Legal: {cells}", name=board.figure_name(fid), cell=where,
              reason=raw.get("reason", ""), cells=legal_text),
        )
        alarm = illegal_alarm(raw, illegal, legal, board)
    desyncs = []
    for row in table.get("desync") or []:
        fid = str(row.get("figure"))
        exp, seen = hex_key(row.get("expected")), hex_key(row.get("seen"))
        text = str(row.get("text") or "")
        if not text:
            text = _("Put {name} back on {cell}", name=board.figure_name(fid), cell=board.label(exp) if exp else "?")
        desyncs.append(Arrow(fid, seen, exp, text))
    warnings = [str(row.get("text") or "") for row in table.get("pending") or [] if row.get("text")]
    unknown = table.get("unknown_markers") or []
    if unknown:
        ids = join_list(str(m) for m in unknown)
        warnings.append(_("Unknown markers on the table: {markers} (assign them on the Camera screen)", markers=ids))
    dups = table.get("duplicates") or []
    if dups:
        twice = join_list(str(m) for m in dups)
        warnings.append(_("Markers seen twice: {markers} (one tag per figure)", markers=twice))
    cams = [
        f"{c.get('id')}: {c.get('status')}" if isinstance(c, Mapping) else str(c) for c in table.get("cameras") or []
    ]
    for c in table.get("cameras") or []:  # a camera that runs but cannot read its dice tray
        if isinstance(c, Mapping) and c.get("problem"):
            warnings.append(_("Camera {id}: {problem}", id=c.get("id"), problem=c["problem"]))
    registration = table.get("registration") or {}
    if isinstance(registration, Mapping) and registration.get("ok") is False and registration.get("text"):
        warnings.append(_("Registration: {text}", text=registration["text"]))
    return TableOverlay(ghosts, illegal, legal, desyncs, warnings, cams, alarm, provisional_verdict(table, board))


def provisional_verdict(table: Mapping[str, Any], board: BoardView) -> ProvisionalVerdict | None:
    """The engine's ``provisional`` report: the figure in the hand over a cell, and what putting it there would do."""
    raw = table.get("provisional")
    if not isinstance(raw, Mapping):
        return None
    cell = hex_key(raw.get("to"))
    if cell is None:
        return None
    fid = str(raw.get("figure"))
    name, where = board.figure_name(fid), board.label(cell)
    if raw.get("legal"):
        text = _("{name} over {cell}: put it down to play the move", name=name, cell=where)
    elif raw.get("reason"):
        text = _("{name} over {cell}: that would be refused ({reason})", name=name, cell=where, reason=raw["reason"])
    else:
        text = _("{name} over {cell}: not one of the choices", name=name, cell=where)
    return ProvisionalVerdict(fid, cell, bool(raw.get("legal")), text)


def illegal_alarm(raw: Mapping[str, Any], arrow: Arrow, legal: tuple[HexKey, ...], board: BoardView) -> IllegalAlarm:
    """The engine's ``illegal`` report in the words the prompt area shows: what, why, how to put it right."""
    name = board.figure_name(arrow.figure)
    where = str(raw.get("to_label") or (board.label(arrow.end) if arrow.end else "?"))
    cells = cell_noun(board.kind, len(legal))
    listed = join_list(board.label(k) for k in legal[:12]) + (" …" if len(legal) > 12 else "")
    back = (_("Put it back on {cell}", cell=board.label(arrow.start)) if arrow.start is not None
            else _("Put it back"))
    if not legal:
        fix = _("{back}: it has no legal {cell}.", back=back, cell=cell_noun(board.kind))
    elif len(legal) == 1:
        fix = _("{back}, or on the legal {cell} (outlined): {listed}.", back=back, cell=cells, listed=listed)
    else:
        fix = _("{back}, or on one of the legal {cells} (outlined): {listed}.", back=back, cells=cells, listed=listed)
    override = None if arrow.end is None else {"figure": arrow.figure, "to": [arrow.end[0], arrow.end[1]]}
    return IllegalAlarm(arrow.figure, _("{name} may not stop on {cell}", name=name, cell=where),
                        str(raw.get("reason", "")), fix, override,
                        _("Players agree: accept {name} on {cell} (override)", name=name, cell=where))
