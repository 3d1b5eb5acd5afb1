"""The board as drawn: tiles, walls and doors, tokens and figures, in map millimetres (y down).

Built from the engine's ``scenario`` dict and a game ``snapshot`` dict. The board dict says what to draw,
whatever its kind (hexes, zones, squares…): each cell's outline and where its label goes in millimetres, and
its ``drawing`` how figures, stacks and facings are drawn (:mod:`engine.board.drawing`). Geometry, not rules.

Several figures on one hex (a stack) are drawn as offset discs, the last to arrive on top, with a count; a
tap on a stack picks its figures one after another (:meth:`BoardView.pick`). Where the scenario's rules use
facing, each figure on a hex map carries the map angle of the neighbour it faces, for the wedge on its disc.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion_app.viewmodels import palette
from engine.hexes import DIRECTIONS, Edge, Hex, Orientation, edge, from_label, to_label
from engine.i18n import gettext_for
from engine.layout import Layout, Point
from engine.texts import words_from_wire

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

HexKey = tuple[int, int]

KIND_LETTERS: dict[str, str] = {"fighter": "F", "archer": "A", "wizard": "W"}


def figure_letter(kind: str, name: str) -> str:
    """The letter on a figure's token: its kind's when the rule set gives kinds, else its name's initial."""
    return KIND_LETTERS.get(kind) or (kind or name)[:1].upper() or "?"


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
    label_at: Point = (0.0, 0.0)  # where the label is written, and how tall
    label_mm: float = 0.0
    style: str = palette.DEFAULT_TERRAIN_STYLE  # the terrain kind's draw style (what fill and pattern show)
    mark_at: Point | None = None  # where a query's labels are written (None: the centre)
    pattern_mm: float = 0.0  # the size its terrain pattern is drawn at (0: the board's drawing scale)
    caption: str = ""  # its terrain kind's name written on it (zones: terrain reads in words too)
    caption_at: Point = (0.0, 0.0)


@dataclass(frozen=True)
class EdgeView:
    a: HexKey
    b: HexKey
    label: str
    kind: str  # the edge kind's name: wall | door | locked, or a rule set's own (what the scenario built)
    state: str  # a door's open | closed | locked (what it is now); any other edge: its kind's name
    ends: tuple[Point, Point]
    colour: palette.RGBA
    style: str = palette.DEFAULT_EDGE_STYLE  # the kind's draw style: wall | line | fence | door | locked
    door: bool = False  # it opens in play (drawn by its state)


@dataclass(frozen=True)
class FigureView:
    id: str
    name: str
    kind: str
    kind_text: str  # the kind as the table's language names it (the engine's label), else its id
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
    facing_deg: float | None = None  # map angle (y down) of the neighbour it faces; None: no facing drawn
    level: int = 0  # the height it stands at (its hex's level unless the state says otherwise)
    stack: int = 1  # figures on its hex, itself included
    stack_index: int = 0  # 0 at the bottom of the stack (first to arrive), stack - 1 on top
    scale: float = 1.0  # its disc's size against a lone figure's
    name_left: float | None = None  # set: drawn at a place of its own, its name from there on its right
    name_width: float = 0.0  # … in at most this width (mm)
    area: tuple[float, float, float, float] | None = None  # set: its name and badges stay inside this box (its zone)


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
    kind: str = "hex"  # the board kind's name: what texts call its cells, never how it is drawn
    label_band: bool = True  # labels kept in a band above a cell's centre (clear of its figure), else at label_at
    stacks: str = "offset"  # a stack's figures: "offset" discs, or "spread" one under another in the cell
    facing_steps: tuple[HexKey, ...] = ()  # by facing, the step to the neighbour faced (none: no facings)
    hex_labels: bool = False  # a cell off the board is labelled as a hex ('E4')
    _index: dict[HexKey, list[HexKey]] | None = field(default=None, repr=False, compare=False)
    uses_facing: bool = False  # the rules give figures a facing (the scenario dict says)
    map_tiles: dict[HexKey, TileView] = field(default_factory=dict)  # the scenario's own tiles, before any mark
    marks: tuple[tuple[HexKey, str], ...] = ()  # the GM's terrain marks in play (``state.marks``), drawn in tiles

    @property
    def size_mm(self) -> float:
        """The drawing scale: a hex's outer radius; a zone board draws figures and marks as on 50 mm hexes."""
        return self.layout.size_mm

    def bounds_mm(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) over every tile corner."""
        xs = [x for t in self.tiles.values() for x, _ in t.corners]
        ys = [y for t in self.tiles.values() for _, y in t.corners]
        if not xs:
            return (0.0, 0.0, 1.0, 1.0)
        return (min(xs), min(ys), max(xs), max(ys))

    def hex_at(self, x_mm: float, y_mm: float) -> HexKey | None:
        """The map cell under a point in map millimetres (inside its outline), or None off the map."""
        step = max(self.size_mm, 1e-6)
        if self._index is None:  # the cells by the squares of the drawing scale their outlines touch
            index: dict[HexKey, list[HexKey]] = {}
            for k, t in self.tiles.items():
                xs, ys = [p[0] for p in t.corners], [p[1] for p in t.corners]
                for i in range(math.floor(min(xs) / step), math.floor(max(xs) / step) + 1):
                    for j in range(math.floor(min(ys) / step), math.floor(max(ys) / step) + 1):
                        index.setdefault((i, j), []).append(k)
            self._index = index
        near = self._index.get((math.floor(x_mm / step), math.floor(y_mm / step)), [])
        return next((k for k in near if _inside(self.tiles[k].corners, x_mm, y_mm)), None)

    def figures_at(self, key: HexKey) -> list[FigureView]:
        """The figures in play on a cell, top of the stack (last to arrive) first."""
        here = [f for f in self.figures.values() if f.alive and f.key == key]
        return sorted(here, key=lambda f: -f.stack_index)

    def figure_at(self, key: HexKey) -> FigureView | None:
        """The figure on top of the cell's stack (the only one, where there is no stack)."""
        here = self.figures_at(key)
        return here[0] if here else None

    def pick(self, key: HexKey, current: str | None = None, wanted: Sequence[str | None] = ()) -> FigureView | None:
        """The figure a touch on a cell means: the first of ``wanted`` there (the one the prompt asks for, the one
        selected), else the one after ``current`` in the stack (tap again for the next), else the top one."""
        here = self.figures_at(key)
        ids = [f.id for f in here]
        for fid in wanted:
            if fid in ids:
                return here[ids.index(fid)]
        if current in ids and len(here) > 1:
            return here[(ids.index(current) + 1) % len(here)]
        return here[0] if here else None

    def face_action(self, figure: str, toward: HexKey) -> dict[str, Any] | None:
        """The action turning a figure to face a neighbouring hex, or None (no facing here, or not a neighbour)."""
        f = self.figures.get(figure)
        if not self.uses_facing or not self.facing_steps or f is None or f.key is None:
            return None
        step = (toward[0] - f.key[0], toward[1] - f.key[1])
        if step not in self.facing_steps:
            return None
        return {"kind": "face", "figure": figure, "direction": self.facing_steps.index(step)}

    def centre(self, key: HexKey) -> Point:
        tile = self.tiles.get(key)
        return tile.centre if tile is not None else self.layout.hex_to_mm(Hex(*key))

    def mark_at(self, key: HexKey) -> Point:
        """Where a query's label on the cell is written: a hex's centre, a zone's upper right (clear of figures)."""
        tile = self.tiles.get(key)
        return tile.mark_at if tile is not None and tile.mark_at is not None else self.centre(key)

    def label(self, key: HexKey) -> str:
        """The cell's label as the engine sent it; a cell off the board by the board's own rule."""
        tile = self.tiles.get(key)
        if tile is not None:
            return tile.label
        return to_label(Hex(*key), self.orientation) if self.hex_labels else f"({key[0]},{key[1]})"

    def cell_of(self, label: str) -> HexKey | None:
        """The cell a label names: a tile's label, or on a hex map any hex label ("E4"); None when none."""
        text = label.strip()
        for key, tile in self.tiles.items():
            if tile.label == text:
                return key
        if not self.hex_labels:
            return None
        try:
            h = from_label(text, self.orientation)
        except ValueError:
            return None
        return (h.q, h.r)

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


WORD_CHARACTERS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def names_as_word(text: str, label: str) -> bool:
    """Whether ``text`` holds ``label`` as a whole word: no letter or digit (ASCII) right before or after it.

    Plain substring search: a pattern per label and text overflowed the ``re`` module's cache on a big map and
    compiled every pattern again on every update (10 ms of the tablet's UI thread per update on a 30×30 map)."""
    start = text.find(label)
    while start >= 0:
        end = start + len(label)
        if (start == 0 or text[start - 1] not in WORD_CHARACTERS) and (
                end == len(text) or text[end] not in WORD_CHARACTERS):
            return True
        start = text.find(label, start + 1)
    return False


_WORD = re.compile("[0-9A-Za-z]+")  # a maximal run of WORD_CHARACTERS


def named_cells(view: BoardView, texts: Sequence[str]) -> list[HexKey]:
    """The cells whose labels the texts name, each as a whole word ("at M8", not the "8" of "M8" or "1d8").

    A label of letters and digits alone is named exactly when it is one of the texts' runs of letters and digits: a
    set lookup per cell, not a search of every text for every cell (which cost the tower's tablet 1.5 ms an
    update). Other labels are searched for."""
    words = {w for t in texts for w in _WORD.findall(t)}
    return [key for key, tile in view.tiles.items() if tile.label and (
        tile.label in words if _WORD.fullmatch(tile.label) else any(names_as_word(t, tile.label) for t in texts))]


def _inside(corners: tuple[Point, ...], x: float, y: float) -> bool:
    """Whether the point is inside the outline (even-odd rule; a point on a top or left side counts as inside)."""
    inside = False
    n = len(corners)
    for i in range(n):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % n]
        if (ay <= y) != (by <= y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _door_colour(state: str) -> palette.RGBA:
    return {
        "open": palette.DOOR_OPEN,
        "closed": palette.DOOR_CLOSED,
        "locked": palette.DOOR_LOCKED,
    }.get(state, palette.DOOR_CLOSED)


def _edge_style(row: Mapping[str, Any]) -> str:
    """The edge's draw style as the engine sent it (its kind's); the shared kinds' own when it sent none, and a
    wall for a style this app does not know."""
    kind = str(row["kind"])
    style = str(row.get("style", kind if kind in ("wall", *palette.DOOR_EDGE_STYLES) else palette.DEFAULT_EDGE_STYLE))
    if style not in palette.EDGE_COLOURS and style not in palette.DOOR_EDGE_STYLES:
        log.info("edge style %r is not one this app draws; drawn as a wall", style)
        return palette.DEFAULT_EDGE_STYLE
    return style


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

    ``tiles_from``: a board built from the same scenario before; its map tiles are reused (they never change in
    play; the GM's terrain marks in the snapshot's state are drawn over them).
    """
    board = scenario["board"]
    words = board.get("cell_words")
    if isinstance(words, Mapping):  # what the cells are called, in the table's language (engine.texts.cells)
        english = words.get("english") or ("cell", "cells")
        words_from_wire(str(board.get("kind", "")), str(words.get("one", "")), str(words.get("many", "")),
                        (str(english[0]), str(english[1])))
    drawing = board.get("drawing") or _hex_drawing(board)
    orientation = Orientation(board.get("orientation", Orientation.FLAT.value))
    layout = Layout(orientation, float(drawing["scale_mm"]))
    tiles = tiles_from.map_tiles if tiles_from is not None else _tiles(board, layout, orientation)
    view = _with_state(scenario, snapshot, layout, orientation, tiles, str(board.get("kind", "")), drawing)
    view.map_tiles = tiles
    view.marks = _marks((snapshot or {}).get("state"), tiles)
    if view.marks:
        view.tiles = _marked(tiles, view.marks, board)
    return view


def _marks(state: Mapping[str, Any] | None, tiles: Mapping[HexKey, TileView]) -> tuple[tuple[HexKey, str], ...]:
    """The terrain marks in play (``[[q, r, terrain]]``) on cells of this board, in the order given."""
    out = []
    for row in (state or {}).get("marks") or []:
        key = (int(row[0]), int(row[1]))
        if key in tiles:
            out.append((key, str(row[2])))
    return tuple(out)


def _marked(tiles: dict[HexKey, TileView], marks: tuple[tuple[HexKey, str], ...],
            board: Mapping[str, Any]) -> dict[HexKey, TileView]:
    """The tiles with the GM's marks: each marked cell drawn by its new kind's style, like the map's terrain."""
    if not marks:
        return tiles
    styles = {str(k["name"]): str(k.get("style", palette.DEFAULT_TERRAIN_STYLE))
              for k in board.get("terrain_kinds") or []}
    out = dict(tiles)
    for key, terrain in marks:
        style = _style({"style": styles.get(terrain, palette.DEFAULT_TERRAIN_STYLE)})
        t = tiles[key]
        fill = palette.TERRAIN_FILL[style]
        if t.level:
            fill = palette.shade(fill, 1.0 + 0.18 * t.level)
        out[key] = replace(t, terrain=terrain, style=style, fill=fill, pattern=palette.TERRAIN_PATTERN[style])
    return out


def _style(tile: Mapping[str, Any]) -> str:
    """The tile's draw style as the engine sent it (its terrain kind's), floor for one this app does not know."""
    style = str(tile.get("style", palette.DEFAULT_TERRAIN_STYLE))
    if style not in palette.TERRAIN_FILL:
        log.info("terrain style %r is not one this app draws; drawn as floor", style)
        return palette.DEFAULT_TERRAIN_STYLE
    return style


def _hex_drawing(board: Mapping[str, Any]) -> dict[str, Any]:
    """The drawing of a board dict that gives none (an older engine's hex map): hexes of its size."""
    return {"scale_mm": float(board["hex_size_mm"]), "stacks": "offset", "label_band": True,
            "facing_steps": [[d.q, d.r] for d in DIRECTIONS], "hex_labels": True}


def _point(value: Any) -> Point:
    return (float(value[0]), float(value[1]))


def _tiles(board: Mapping[str, Any], layout: Layout, orientation: Orientation) -> dict[HexKey, TileView]:
    """The cells as the board draws them: each its outline and label place from the dict (an older engine's hex
    map: from the hex layout), its terrain's fill and pattern, and its terrain named where it is not floor and the
    board gives the caption a place."""
    tiles: dict[HexKey, TileView] = {}
    # a kind's name as the engine labels it in the table's language (older engines: its id)
    names = {str(k.get("name")): str(k.get("label") or "") for k in board.get("terrain_kinds") or []}
    for t in board["tiles"]:
        key = (int(t["hex"][0]), int(t["hex"][1]))
        h = Hex(*key)
        terrain = str(t.get("terrain", "floor"))
        style = _style(t)
        level = int(t.get("level", 0))
        fill = palette.TERRAIN_FILL[style]
        if level:
            fill = palette.shade(fill, 1.0 + 0.18 * level)
        if "corners_mm" in t:
            centre = _point(t["centre_mm"])
            corners = tuple(_point(p) for p in t["corners_mm"])
            label_at, label_mm = _point(t["label_at_mm"]), float(t["label_mm"])
        else:
            centre, corners = layout.hex_to_mm(h), tuple(layout.corners_mm(h))
            label_at, label_mm = (centre[0], centre[1] - layout.size_mm * 0.62), layout.size_mm * 0.26
        captioned = "caption_at_mm" in t and style != palette.DEFAULT_TERRAIN_STYLE
        tiles[key] = TileView(
            key=key,
            label=str(t.get("label") or to_label(h, orientation)),
            terrain=terrain,
            level=level,
            tokens=tuple(t.get("tokens", ())),
            centre=centre,
            corners=corners,
            fill=fill,
            pattern=palette.TERRAIN_PATTERN[style],
            style=style,
            label_at=label_at,
            label_mm=label_mm,
            mark_at=_point(t["mark_at_mm"]) if "mark_at_mm" in t else None,
            pattern_mm=float(t.get("pattern_mm", 0.0)),
            caption=(names.get(terrain) or terrain.replace("_", " ")) if captioned else "",
            caption_at=_point(t["caption_at_mm"]) if "caption_at_mm" in t else (0.0, 0.0),
        )
    return tiles


def _with_state(
    scenario: Mapping[str, Any],
    snapshot: Mapping[str, Any] | None,
    layout: Layout,
    orientation: Orientation,
    tiles: dict[HexKey, TileView],
    kind: str,
    drawing: Mapping[str, Any],
) -> BoardView:
    board = scenario["board"]
    state = (snapshot or {}).get("state")
    doors = _door_states(state)
    edges: list[EdgeView] = []
    for e in board["edges"]:
        a, b = Hex(*e["a"]), Hex(*e["b"])
        built = str(e["kind"])  # the edge's kind, not the board's
        style = _edge_style(e)
        door = style in palette.DOOR_EDGE_STYLES
        if door:
            now = doors.get(edge(a, b), "locked" if style == "locked" else "closed")
            colour = _door_colour(now)
        else:
            now, colour = built, palette.EDGE_COLOURS[style]
        edges.append(
            EdgeView(
                a=(a.q, a.r),
                b=(b.q, b.r),
                label=str(e.get("label", "")),
                kind=built,
                state=now,
                ends=((_point(e["ends_mm"][0]), _point(e["ends_mm"][1])) if "ends_mm" in e
                      else layout.edge_mm(edge(a, b))),
                colour=colour,
                style=style,
                door=door,
            )
        )
    sides = {
        s["id"]: SideView(s["id"], s["name"], palette.side_colour(s.get("colour", "")), palette.side_shape(i), i)
        for i, s in enumerate(scenario.get("sides", []))
    }
    view = BoardView(layout=layout, orientation=orientation, tiles=tiles, edges=edges, sides=sides, kind=kind,
                     uses_facing=bool(scenario.get("uses_facing", False)),
                     label_band=bool(drawing.get("label_band", True)), stacks=str(drawing.get("stacks", "offset")),
                     facing_steps=tuple((int(s[0]), int(s[1])) for s in drawing.get("facing_steps") or ()),
                     hex_labels=bool(drawing.get("hex_labels", False)))
    view.figures = _figures(scenario, state, view)
    spread = view.stacks == "spread"
    view.figures = _stacked(view.figures, view.size_mm, offset=not spread)
    if spread:
        view.figures = _spread(view.figures, view.tiles, view.size_mm)
    if state is not None:
        view.tokens = {str(k): hex_key(v) for k, v in state.get("tokens", {}).items()}
    else:
        view.tokens = {tok: key for key, tile in tiles.items() for tok in tile.tokens}
    return view


def lying_tokens(view: BoardView) -> list[TileView]:
    """The tiles with the tokens of the game lying on them now (``view.tokens``: treasure carried off, a weapon
    thrown, an object pushed), each tile holding only those; drawn over the tiles, under the figures."""
    here: dict[HexKey, list[str]] = {}
    for token, key in sorted(view.tokens.items()):
        if key is not None and key in view.tiles:
            here.setdefault(key, []).append(token)
    return [replace(view.tiles[k], tokens=tuple(names)) for k, names in here.items()]


def map_only_tokens(view: BoardView) -> list[TileView]:
    """The tiles with the map's own marks that are no token of the game (an exit): they never move."""
    out = []
    for t in view.tiles.values():
        fixed = tuple(tok for tok in t.tokens if tok not in view.tokens)
        if fixed:
            out.append(replace(t, tokens=fixed))
    return out


ROSTER_TOP, ROSTER_BOTTOM = 0.27, 0.86  # a zone's figures are listed between these shares of its height
DISC_RADIUS = 0.58  # a lone figure's disc radius, as a share of the drawing scale (board_drawing draws it)


def _spread(figures: dict[str, FigureView], tiles: Mapping[HexKey, TileView],
            size_mm: float) -> dict[str, FigureView]:
    """Figures sharing a zone listed one under another, in the order they arrived: each its own disc and its name
    beside it, below the zone's number and above its terrain, so every one is seen, named and can be tapped."""
    by_cell: dict[HexKey, list[FigureView]] = {}
    for f in figures.values():
        if f.alive and f.key is not None and f.centre is not None and f.key in tiles:
            by_cell.setdefault(f.key, []).append(f)
    out = dict(figures)
    for key, here in by_cell.items():
        corners = tiles[key].corners
        x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
        x1, y1 = max(p[0] for p in corners), max(p[1] for p in corners)
        if len(here) < 2:
            out[here[0].id] = replace(here[0], area=(x0, y0, x1, y1))
            continue
        side = min(x1 - x0, y1 - y0)
        row = min(side * (ROSTER_BOTTOM - ROSTER_TOP) / len(here), side * 0.3)
        radius = row * 0.42
        top = y0 + side * ROSTER_TOP + (side * (ROSTER_BOTTOM - ROSTER_TOP) - row * len(here)) / 2
        for i, f in enumerate(sorted(here, key=lambda f: f.stack_index)):
            cx, cy = x0 + side * 0.06 + radius, top + row * (i + 0.5)
            left = cx + radius * 1.3
            out[f.id] = replace(f, centre=(cx, cy), scale=radius / (DISC_RADIUS * size_mm), name_left=left,
                                name_width=x1 - side * 0.03 - left, area=(x0, y0, x1, y1))
    return out


STACK_STEP = 0.5  # each figure of a stack drawn this share of a hex's radius up and right of the one below


def _stacked(figures: dict[str, FigureView], size_mm: float, offset: bool = True) -> dict[str, FigureView]:
    """Each figure's place in its cell's stack (by arrival) and the count; on a hex map (``offset``) a stack's
    figures are drawn as offset discs around the hex's centre, the last to arrive on top."""
    by_cell: dict[HexKey, list[FigureView]] = {}
    for f in figures.values():
        if f.alive and f.key is not None and f.centre is not None:
            by_cell.setdefault(f.key, []).append(f)
    out = dict(figures)
    for here in by_cell.values():
        n = len(here)
        for i, f in enumerate(sorted(here, key=lambda f: f.stack_index)):
            assert f.centre is not None
            k = (i - (n - 1) / 2.0) * STACK_STEP * size_mm if offset else 0.0
            out[f.id] = replace(f, centre=(f.centre[0] + k, f.centre[1] - k), stack=n, stack_index=i)
    return out


def _facing_deg(view: BoardView, key: HexKey, facing: Any) -> float | None:
    steps = view.facing_steps
    if not isinstance(facing, int) or isinstance(facing, bool) or not 0 <= facing < len(steps):
        return None
    step = steps[facing]
    (ax, ay), (bx, by) = view.centre(key), view.centre((key[0] + step[0], key[1] + step[1]))
    return math.degrees(math.atan2(by - ay, bx - ax))


def _figures(scenario: Mapping[str, Any], state: Mapping[str, Any] | None, view: BoardView) -> dict[str, FigureView]:
    live = (state or {}).get("figures", {})
    uses_facing = bool(scenario.get("uses_facing", False))
    # the rule set's ids (kinds, abilities, items) as the table's language names them
    words = {str(k): str(v) for k, v in (scenario.get("words") or {}).items()}
    out: dict[str, FigureView] = {}
    arrived: dict[str, tuple[int, int]] = {}
    for i, f in enumerate(scenario.get("figures", [])):
        arrived[str(f["id"])] = (int(live.get(str(f["id"]), {}).get("arrived", 0) or 0), i)
    for f in scenario.get("figures", []):
        fid = str(f["id"])
        now = live.get(fid, {})
        key = hex_key(now.get("hex")) if state is not None else hex_key(f.get("start"))
        alive = bool(now.get("alive", True))
        side = view.sides.get(str(f["side"]))
        carrying = tuple(now.get("carrying", ()))
        badges = [str(b) for b in now.get("badges", ()) if alive]  # the rule set's own (a unit state)
        badges += [_("carries {item}", item=words.get(str(c), str(c))) for c in carrying]
        badges += [words.get(str(a), str(a)) for a in f.get("abilities", ())]
        if not alive:
            badges.insert(0, _("down"))
        tile_level = view.tiles[key].level if key is not None and key in view.tiles else 0
        level = now.get("level")
        level = level if isinstance(level, int) and not isinstance(level, bool) else tile_level
        if level != tile_level:
            badges.append(f"L{level}")
        kind = str(f.get("kind", ""))
        out[fid] = FigureView(
            id=fid,
            name=str(f.get("name", fid)),
            kind=kind,
            kind_text=words.get(kind, kind),
            side=str(f["side"]),
            side_name=side.name if side else str(f["side"]),
            colour=side.colour if side else palette.FALLBACK_COLOUR,
            shape=side.shape if side else "circle",
            letter=figure_letter(kind, str(f.get("name", fid))),
            key=key,
            label=view.label(key) if key else _("off the table"),
            alive=alive,
            badges=tuple(badges),
            centre=view.centre(key) if key else None,
            facing_deg=_facing_deg(view, key, now.get("facing")) if uses_facing and key and alive else None,
            level=level,
            stack_index=sorted(arrived.values()).index(arrived[fid]),  # arrival rank; made per stack below
        )
    return out
