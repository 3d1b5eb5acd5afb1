"""The board as drawn: tiles, walls and doors, tokens and figures, in map millimetres (y down).

Built from the engine's ``scenario`` dict and a game ``snapshot`` dict; hex geometry comes from the
engine's layout helpers (geometry, not rules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels import palette
from engine.hexes import Edge, Hex, Orientation, edge, to_label
from engine.layout import Layout, Point

HexKey = tuple[int, int]

KIND_LETTERS: dict[str, str] = {"fighter": "F", "archer": "A", "wizard": "W"}


def hex_key(value: Any) -> HexKey | None:
    """Accept ``[q, r]``, ``(q, r)`` or ``{"hex": [q, r]}``; anything else is None."""
    if isinstance(value, Mapping):
        value = value.get("hex")
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        q, r = value
        if isinstance(q, int) and isinstance(r, int) and not isinstance(q, bool) and not isinstance(r, bool):
            return (q, r)
    return None


@dataclass(frozen=True)
class TileView:
    key: HexKey
    label: str
    terrain: str
    level: int
    tokens: tuple[str, ...]
    centre: Point
    corners: tuple[Point, ...]
    fill: palette.RGBA
    pattern: str


@dataclass(frozen=True)
class EdgeView:
    a: HexKey
    b: HexKey
    label: str
    kind: str  # wall | door | locked (what the scenario built)
    state: str  # wall | open | closed | locked (what it is now)
    ends: tuple[Point, Point]
    colour: palette.RGBA


@dataclass(frozen=True)
class FigureView:
    id: str
    name: str
    kind: str
    side: str
    side_name: str
    colour: palette.RGBA
    shape: str
    letter: str
    key: HexKey | None
    label: str
    alive: bool
    badges: tuple[str, ...]
    centre: Point | None


@dataclass(frozen=True)
class SideView:
    id: str
    name: str
    colour: palette.RGBA
    shape: str
    index: int


@dataclass
class BoardView:
    """Everything static or state-driven on the board; overlays are separate (see overlays.py)."""

    layout: Layout
    orientation: Orientation
    tiles: dict[HexKey, TileView]
    edges: list[EdgeView]
    figures: dict[str, FigureView] = field(default_factory=dict)
    sides: dict[str, SideView] = field(default_factory=dict)
    tokens: dict[str, HexKey | None] = field(default_factory=dict)

    def bounds_mm(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) over every tile corner."""
        xs = [x for t in self.tiles.values() for x, _ in t.corners]
        ys = [y for t in self.tiles.values() for _, y in t.corners]
        if not xs:
            return (0.0, 0.0, 1.0, 1.0)
        return (min(xs), min(ys), max(xs), max(ys))

    def hex_at(self, x_mm: float, y_mm: float) -> HexKey | None:
        """The map hex under a point in map millimetres, or None off the map."""
        h = self.layout.mm_to_hex(x_mm, y_mm)
        key = (h.q, h.r)
        return key if key in self.tiles else None

    def figure_at(self, key: HexKey) -> FigureView | None:
        for f in self.figures.values():
            if f.alive and f.key == key:
                return f
        return None

    def centre(self, key: HexKey) -> Point:
        return self.layout.hex_to_mm(Hex(*key))

    def label(self, key: HexKey) -> str:
        tile = self.tiles.get(key)
        return tile.label if tile else to_label(Hex(*key), self.orientation)

    def figure_name(self, figure_id: str | None) -> str:
        if figure_id is None:
            return ""
        f = self.figures.get(figure_id)
        return f.name if f else figure_id

    def side_name(self, side_id: str | None) -> str:
        if side_id is None:
            return ""
        s = self.sides.get(side_id)
        return s.name if s else side_id


def _edge_colour(state: str) -> palette.RGBA:
    return {
        "wall": palette.WALL,
        "open": palette.DOOR_OPEN,
        "closed": palette.DOOR_CLOSED,
        "locked": palette.DOOR_LOCKED,
    }.get(state, palette.WALL)


def _door_states(state: Mapping[str, Any] | None) -> dict[Edge, str]:
    doors: dict[Edge, str] = {}
    for row in (state or {}).get("doors", []):
        if isinstance(row, list) and len(row) == 5:
            aq, ar, bq, br, status = row
            doors[edge(Hex(aq, ar), Hex(bq, br))] = str(status)
    return doors


def build_board(
    scenario: Mapping[str, Any], snapshot: Mapping[str, Any] | None = None, tiles_from: BoardView | None = None
) -> BoardView:
    """The board view for a scenario dict, with figures, doors and tokens from a game snapshot.

    ``tiles_from``: a board built from the same scenario before; its tiles are reused (they never change in play).
    """
    board = scenario["board"]
    orientation = Orientation(board["orientation"])
    layout = Layout(orientation, float(board["hex_size_mm"]))
    tiles: dict[HexKey, TileView] = tiles_from.tiles if tiles_from is not None else _tiles(board, layout, orientation)
    return _with_state(scenario, snapshot, layout, orientation, tiles)


def _tiles(board: Mapping[str, Any], layout: Layout, orientation: Orientation) -> dict[HexKey, TileView]:
    tiles: dict[HexKey, TileView] = {}
    for t in board["tiles"]:
        key = (int(t["hex"][0]), int(t["hex"][1]))
        h = Hex(*key)
        terrain = str(t["terrain"])
        level = int(t.get("level", 0))
        fill = palette.TERRAIN_FILL.get(terrain, palette.TERRAIN_FILL["floor"])
        if level:
            fill = palette.shade(fill, 1.0 + 0.18 * level)
        tiles[key] = TileView(
            key=key,
            label=str(t.get("label") or to_label(h, orientation)),
            terrain=terrain,
            level=level,
            tokens=tuple(t.get("tokens", ())),
            centre=layout.hex_to_mm(h),
            corners=tuple(layout.corners_mm(h)),
            fill=fill,
            pattern=palette.TERRAIN_PATTERN.get(terrain, ""),
        )
    return tiles


def _with_state(
    scenario: Mapping[str, Any],
    snapshot: Mapping[str, Any] | None,
    layout: Layout,
    orientation: Orientation,
    tiles: dict[HexKey, TileView],
) -> BoardView:
    board = scenario["board"]
    state = (snapshot or {}).get("state")
    doors = _door_states(state)
    edges: list[EdgeView] = []
    for e in board["edges"]:
        a, b = Hex(*e["a"]), Hex(*e["b"])
        kind = str(e["kind"])
        now = "wall" if kind == "wall" else doors.get(edge(a, b), "locked" if kind == "locked" else "closed")
        edges.append(
            EdgeView(
                a=(a.q, a.r),
                b=(b.q, b.r),
                label=str(e.get("label", "")),
                kind=kind,
                state=now,
                ends=layout.edge_mm(edge(a, b)),
                colour=_edge_colour(now),
            )
        )
    sides = {
        s["id"]: SideView(s["id"], s["name"], palette.side_colour(s.get("colour", "")), palette.side_shape(i), i)
        for i, s in enumerate(scenario.get("sides", []))
    }
    view = BoardView(layout=layout, orientation=orientation, tiles=tiles, edges=edges, sides=sides)
    view.figures = _figures(scenario, state, view)
    if state is not None:
        view.tokens = {str(k): hex_key(v) for k, v in state.get("tokens", {}).items()}
    else:
        view.tokens = {tok: key for key, tile in tiles.items() for tok in tile.tokens}
    return view


def _figures(scenario: Mapping[str, Any], state: Mapping[str, Any] | None, view: BoardView) -> dict[str, FigureView]:
    live = (state or {}).get("figures", {})
    out: dict[str, FigureView] = {}
    for f in scenario.get("figures", []):
        fid = str(f["id"])
        now = live.get(fid, {})
        key = hex_key(now.get("hex")) if state is not None else hex_key(f.get("start"))
        alive = bool(now.get("alive", True))
        side = view.sides.get(str(f["side"]))
        carrying = tuple(now.get("carrying", ()))
        badges = [f"carries {c}" for c in carrying]
        badges += [str(a) for a in f.get("abilities", ())]
        if not alive:
            badges.insert(0, "down")
        kind = str(f.get("kind", ""))
        out[fid] = FigureView(
            id=fid,
            name=str(f.get("name", fid)),
            kind=kind,
            side=str(f["side"]),
            side_name=side.name if side else str(f["side"]),
            colour=side.colour if side else palette.FALLBACK_COLOUR,
            shape=side.shape if side else "circle",
            letter=KIND_LETTERS.get(kind, kind[:1].upper() or "?"),
            key=key,
            label=view.label(key) if key else "off the table",
            alive=alive,
            badges=tuple(badges),
            centre=view.centre(key) if key else None,
        )
    return out
