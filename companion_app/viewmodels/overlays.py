"""What is drawn over the board: a tapped figure's reach, targets and threats; lifted figures' ghosts;
illegal moves and desyncs reported by the engine; the hexes a prompt lets the players tap.

Every overlay carries a text and a style besides its colour, so it reads without colour too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.board_model import BoardView, HexKey, hex_key
from engine.hexes import from_label


@dataclass(frozen=True)
class ReachHex:
    key: HexKey
    cost: int
    level: float  # 0 (nearest) … 1 (farthest): the shading


@dataclass(frozen=True)
class SightLine:
    target: str
    target_name: str
    action: str
    range: int
    sight: str  # clear | blocked | ambiguous
    allowed: bool
    text: str  # one line for the list beside the board, with the reason when refused
    path: tuple[HexKey, ...]
    start: HexKey | None
    end: HexKey | None
    blocker_hex: HexKey | None = None
    blocker_edge: tuple[HexKey, HexKey] | None = None


@dataclass
class SelectionOverlay:
    """A tapped figure: where it may go (by distance), whom it may target, what enemies threaten."""

    figure: str
    reach: list[ReachHex] = field(default_factory=list)
    targets: list[SightLine] = field(default_factory=list)
    threatened: set[HexKey] = field(default_factory=set)

    def lines(self) -> list[str]:
        """Plain-words summary for the info strip under the board."""
        out = []
        if self.reach:
            far = max(r.cost for r in self.reach)
            out.append(f"{len(self.reach)} hexes in reach (up to {far} away)")
        out += [t.text for t in self.targets]
        if self.threatened:
            out.append(f"{len(self.threatened)} hexes next to enemies (a move stops there)")
        return out


def reach_overlay(reach: Sequence[Mapping[str, Any]]) -> list[ReachHex]:
    """Reach rows ``{hex, cost, ...}`` → shaded hexes, nearest brightest."""
    rows = [(hex_key(r.get("hex")), int(r.get("cost", 0))) for r in reach]
    keyed = [(k, c) for k, c in rows if k is not None and c > 0]
    far = max((c for _, c in keyed), default=1)
    return [ReachHex(k, c, (c - 1) / max(1, far - 1) if far > 1 else 0.0) for k, c in keyed]


def _sight_text(t: Mapping[str, Any], name: str) -> str:
    verb = {"shoot": "shoot", "cast": "cast at"}.get(str(t.get("action")), str(t.get("action", "target")))
    head = f"{verb} {name}: range {t.get('range')}"
    sight = str(t.get("sight"))
    if t.get("allowed"):
        if sight == "ambiguous":
            return f"{head}, line of sight unclear: roll-off, the shooter must roll higher (a tie fails)"
        return f"{head}, clear line of sight"
    return f"{head}, not allowed: {t.get('reason') or sight}"


def targets_overlay(targets: Sequence[Mapping[str, Any]], board: BoardView) -> list[SightLine]:
    out = []
    for t in targets:
        path = tuple(k for k in (hex_key(p) for p in t.get("path", [])) if k is not None)
        blocker = t.get("blocker") or {}
        b_edge = blocker.get("edge") if isinstance(blocker, Mapping) else None
        edge_keys = None
        if isinstance(b_edge, list) and len(b_edge) == 2:
            a, b = hex_key(b_edge[0]), hex_key(b_edge[1])
            edge_keys = (a, b) if a and b else None
        name = board.figure_name(str(t.get("target")))
        out.append(
            SightLine(
                target=str(t.get("target")),
                target_name=name,
                action=str(t.get("action", "")),
                range=int(t.get("range", 0)),
                sight=str(t.get("sight", "clear")),
                allowed=bool(t.get("allowed")),
                text=_sight_text(t, name),
                path=path,
                start=path[0] if path else None,
                end=path[-1] if path else None,
                blocker_hex=hex_key(blocker) if isinstance(blocker, Mapping) else None,
                blocker_edge=edge_keys,
            )
        )
    return out


def threatened_for(snapshot: Mapping[str, Any] | None, side: str) -> set[HexKey]:
    """Hexes where a figure of ``side`` would be in contact with an enemy (from the snapshot)."""
    rows = ((snapshot or {}).get("threatened") or {}).get(side, [])
    return {k for k in (hex_key(r) for r in rows) if k is not None}


@dataclass(frozen=True)
class Ghost:
    figure: str
    moves: tuple[HexKey, ...]


@dataclass(frozen=True)
class Arrow:
    figure: str
    start: HexKey | None
    end: HexKey | None
    text: str


@dataclass
class TableOverlay:
    """What the camera side reports: lifted figures, an illegal move, desyncs, unknown markers."""

    ghosts: list[Ghost] = field(default_factory=list)
    illegal: Arrow | None = None
    illegal_legal: tuple[HexKey, ...] = ()
    desyncs: list[Arrow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cameras: list[str] = field(default_factory=list)

    def lines(self, board: BoardView) -> list[str]:
        out = []
        for g in self.ghosts:
            out.append(f"{board.figure_name(g.figure)} is lifted: {len(g.moves)} legal hexes shown as ghosts")
        if self.illegal is not None:
            out.append(self.illegal.text)
        out += [d.text for d in self.desyncs]
        out += self.warnings
        return out


def _hex_or_label(value: Any, board: BoardView) -> HexKey | None:
    """A hex given as [q, r] or as a label like "E4"."""
    if isinstance(value, str):
        try:
            h = from_label(value, board.orientation)
        except ValueError:
            return None
        return (h.q, h.r)
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
    legal: tuple[HexKey, ...] = ()
    raw = table.get("illegal")
    if isinstance(raw, Mapping):
        fid = str(raw.get("figure"))
        fig = board.figures.get(fid)
        to = _hex_or_label(raw.get("to"), board)
        legal = tuple(k for k in (_hex_or_label(m, board) for m in raw.get("legal") or []) if k is not None)
        where = board.label(to) if to else "?"
        legal_text = ", ".join(board.label(k) for k in legal[:12]) or "none"
        illegal = Arrow(
            fid,
            fig.key if fig else None,
            to,
            f"Illegal: {board.figure_name(fid)} to {where}: {raw.get('reason', '')}. Legal: {legal_text}",
        )
    desyncs = []
    for row in table.get("desync") or []:
        fid = str(row.get("figure"))
        exp, seen = hex_key(row.get("expected")), hex_key(row.get("seen"))
        text = str(row.get("text") or "")
        if not text:
            text = f"Put {board.figure_name(fid)} back on {board.label(exp) if exp else '?'}"
        desyncs.append(Arrow(fid, seen, exp, text))
    warnings = [str(row.get("text") or "") for row in table.get("pending") or [] if row.get("text")]
    unknown = table.get("unknown_markers") or []
    if unknown:
        ids = ", ".join(str(m) for m in unknown)
        warnings.append(f"Unknown markers on the table: {ids} (assign them on the Camera screen)")
    dups = table.get("duplicates") or []
    if dups:
        warnings.append(f"Markers seen twice: {', '.join(str(m) for m in dups)} (one tag per figure)")
    cams = [
        f"{c.get('id')}: {c.get('status')}" if isinstance(c, Mapping) else str(c) for c in table.get("cameras") or []
    ]
    registration = table.get("registration") or {}
    if isinstance(registration, Mapping) and registration.get("ok") is False and registration.get("text"):
        warnings.append(f"Registration: {registration['text']}")
    return TableOverlay(ghosts, illegal, legal, desyncs, warnings, cams)
