"""The board: draws the session's board and overlays; pinch to zoom, drag to pan, tap, drag a figure, long press.

Geometry is drawn once in map millimetres; panning and zooming only change one matrix, so they stay cheap
on big maps. Groups are rebuilt only when what they show changes: the tiles (into a texture) with the map,
the edges when a door opens or closes, the figures when one moves or changes; overlays on every update.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.graphics.transformation import Matrix
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.widget import Widget

from companion_app.ui import board_drawing as draw
from companion_app.ui import cell_labels
from companion_app.ui.label_memo import LabelMemo
from companion_app.ui.map_layers import MapLayers
from companion_app.ui.readability import min_text_px
from companion_app.ui.text_room import TextRoom, texture_per_font
from companion_app.ui.widgets import text_scale
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import (
    BoardView,
    HexKey,
    TileView,
    lying_tokens,
    map_only_tokens,
    named_cells,
)
from companion_app.viewmodels.overlays import LineMark, SelectionOverlay
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.viewport import Viewport

OverlayText = tuple[str, tuple[float, float], float, palette.RGBA, int]  # text, centre, height, colour, px

TAP_SLOP_DP = 12.0
LONG_PRESS_S = 0.6
LABELS_UP_TO_TILES = 400  # hex labels on small maps only (they are noise on a 30×30 map)
TILE_TEXTURE_MAX_PX = 2048.0  # the tile texture follows the zoom (about one texel per pixel) up to this size
TILE_TEXTURE_RESCALE = 1.6  # re-render it once the zoom has moved this factor away from its scale
TILE_TEXTURE_SETTLE_S = 0.2  # … and the fingers have rested this long
LAYER_MARGIN = 4.0  # the board's texture reaches this many hex sizes past the map (names beside the outer hexes)
RELABEL_BY = 0.03  # the texts are laid out again once the zoom has moved this share away from the one they fit


class BoardWidget(Widget):  # type: ignore[misc]
    """Shows one :class:`GameSession`; reports taps, drags and long presses through callbacks."""

    read_only = BooleanProperty(False)
    rotation = NumericProperty(0.0)
    frames = NumericProperty(0)  # bumped after every redraw of the groups (tests and benchmarks wait on it)
    map_aspect = NumericProperty(0.0)  # the map's height over its width (the screen's layout follows it); 0: none

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.viewport = Viewport()
        self.session: GameSession | None = None
        self.on_hex_tap: Callable[[HexKey | None], None] | None = None
        self.on_hex_drag: Callable[[HexKey | None, HexKey | None], None] | None = None
        self.on_hex_long_press: Callable[[HexKey | None], None] | None = None
        self._tiles_for: int | None = None
        self._marks_for: tuple[Any, ...] = ()
        self._names_shown = False
        self._edges_drawn: tuple[object, ...] | None = None  # what the edge and figure groups show now
        self._figures_drawn: tuple[object, ...] | None = None
        self._label_memo = LabelMemo()  # the tile labels' last layout: only those near a change are laid out again
        self._texture_scale = 0.0
        self._rescale_event = Clock.create_trigger(self._rescale_tiles, TILE_TEXTURE_SETTLE_S)
        self._relabel_event = Clock.create_trigger(self._relabel, TILE_TEXTURE_SETTLE_S)
        self._labels_min_mm = 0.0  # the readable text height the texts were laid out for
        self._overlay_room: TextRoom | None = None  # the room the figures' texts left for the overlays' marks
        self._fitted = False
        self._touches: dict[int, tuple[float, float]] = {}
        self._down: dict[int, tuple[float, float, bool]] = {}
        self._long_press_event: Any = None
        # Drawn in map millimetres into textures (tiles; the whole board over them): each frame shows one quad.
        self._layers = MapLayers(self.canvas)
        self._fbo = self._layers.tiles_fbo
        self.g_tiles, self.g_tile_labels = self._layers.tiles, self._layers.tile_labels
        self.g_under, self.g_edges, self.g_figures, self.g_over = (
            self._layers.under, self._layers.edges, self._layers.figures, self._layers.over)
        self.g_names = self._layers.names  # figures' names and badges, over the overlays
        self._scissor, self._matrix = self._layers.scissor, self._layers.matrix
        self.bind(pos=self._on_geometry, size=self._on_geometry)

    # ---------------------------------------------------------------- view transform

    def _on_geometry(self, *_: Any) -> None:
        wx, wy = self.to_window(self.x, self.y)
        self._scissor.x, self._scissor.y = int(wx), int(wy)
        self._scissor.width, self._scissor.height = max(1, int(self.width)), max(1, int(self.height))
        if self.session is not None and self.session.board is not None and self.width > 1 and self.height > 1:
            self.fit()

    def fit(self) -> None:
        board = self.session.board if self.session else None
        if board is None:
            return
        self.viewport.rotation_deg = self.rotation
        self.viewport.fit(board.bounds_mm(), (self.width, self.height))
        self._fitted = True
        self.update_matrix()
        self._relabel()

    def update_matrix(self) -> None:
        v = self.viewport
        a = math.radians(v.rotation_deg)
        c, s, z = math.cos(a), math.sin(a), v.zoom
        cx, cy = v.centre_mm
        tx, ty = self.x + v.screen_centre[0], self.y + v.screen_centre[1]
        offx = tx + z * (-c * cx - s * cy)
        offy = ty + z * (-s * cx + c * cy)
        m = Matrix()
        m.set(flat=[z * c, z * s, 0, 0, -z * s, z * c, 0, 0, 0, 0, 1, 0, offx, offy, 0, 1])
        self._matrix.matrix = m
        board = self.session.board if self.session else None
        if board is not None and abs(self.min_text_mm() / max(1e-9, self._labels_min_mm) - 1.0) > RELABEL_BY:
            self._relabel_event.cancel()
            self._relabel_event()
        if board is not None and self._texture_scale > 0:
            wanted = self._wanted_texture_scale(board)
            ratio = wanted / self._texture_scale
            if ratio > TILE_TEXTURE_RESCALE or ratio < 1 / TILE_TEXTURE_RESCALE:
                self._rescale_event.cancel()
                self._rescale_event()

    def min_text_mm(self) -> float:
        """The smallest readable text (a text texture's height) in map millimetres at the current zoom."""
        return min_text_px(text_scale()) * texture_per_font() / max(1e-9, self.viewport.zoom)

    def visible_mm(self) -> tuple[float, float, float, float]:
        """The part of the map the widget shows now (map millimetres, y down): every text lies inside it."""
        corners = [self.viewport.to_map(x, y) for x in (0.0, self.width) for y in (0.0, self.height)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)

    def text_room(self, discs: list[tuple[tuple[float, float], float]] | None = None) -> TextRoom:
        """A room for the board's texts at the zoom drawn: inside the visible map, clear of the edges' strokes."""
        room = TextRoom(self.min_text_mm(), discs or [], self.visible_mm())
        board = self.session.board if self.session is not None else None
        for a, b, half in draw.edge_strokes(board.edges if board is not None else [], board.size_mm if board else 0):
            room.add_stroke(a, b, half)
        return room

    def _relabel(self, *_: Any) -> None:
        """Lay the texts out again for the zoom now: each at a readable size, the ones without room left out."""
        if self.session is None or self.session.board is None:
            return
        self._figures_drawn = None
        self._edges_drawn = None
        self._draw_edges(self.session.board)
        self._draw_figures(self.session.board)
        self._draw_overlays(self.session, self.session.board)

    def rotate_board(self, degrees: float) -> None:
        """Turn the board (90° steps from the rotate button, 180° to face the other side)."""
        self.rotation = degrees % 360.0
        self.viewport.rotate_to(self.rotation, (self.width / 2, self.height / 2))
        self.update_matrix()

    def hex_at_window(self, wx: float, wy: float) -> HexKey | None:
        board = self.session.board if self.session else None
        if board is None:
            return None
        x_mm, y_mm = self.viewport.to_map(wx - self.x, wy - self.y)
        return board.hex_at(x_mm, y_mm)

    def window_pos_of(self, key: HexKey) -> tuple[float, float]:
        """Where a hex's centre is on the window (tests use it to tap hexes)."""
        assert self.session is not None and self.session.board is not None
        sx, sy = self.viewport.to_screen(*self.session.board.centre(key))
        return self.x + sx, self.y + sy

    # ---------------------------------------------------------------- drawing

    def show(self, session: GameSession) -> None:
        """Redraw from the session (call when its revision changed)."""
        self.session = session
        board = session.board
        if board is None:
            return
        x0, y0, x1, y1 = board.bounds_mm()
        self.map_aspect = round((y1 - y0) / max(1e-6, x1 - x0), 3)
        if self._tiles_for != id(session.scenario) or not self._fitted or board.marks != self._marks_for:
            new_scenario = self._tiles_for is not None and self._tiles_for != id(session.scenario)
            self._draw_tiles(board)
            if new_scenario:  # another map: show it whole
                self._fitted = False
        self._draw_edges(board)
        self._draw_figures(board)
        self._draw_overlays(session, board)
        if not self._fitted and self.width > 1:
            self.fit()
        self.frames += 1

    def _draw_tiles(self, board: BoardView) -> None:
        g = self.g_tiles
        g.clear()
        size = board.size_mm
        by_fill: dict[palette.RGBA, list[TileView]] = {}
        for t in board.tiles.values():
            by_fill.setdefault(t.fill, []).append(t)
        for fill, tiles in by_fill.items():
            draw.hex_fill(g, tiles, fill, inset=0.95)
        tiles = list(board.tiles.values())
        draw.terrain_patterns(g, [t for t in tiles if t.pattern], size)
        # the map's fixed marks only: the game's tokens move, and are drawn with the figures
        draw.tokens(g, map_only_tokens(board), size, TextRoom(self.min_text_mm()))
        self._tiles_for = id(self.session.scenario) if self.session is not None else None
        self._marks_for = board.marks  # the GM's terrain marks drawn in these tiles
        self._render_tiles_texture(board)

    def _wanted_texture_scale(self, board: BoardView) -> float:
        x0, y0, x1, y1 = board.bounds_mm()
        biggest = max(1.0, x1 - x0, y1 - y0)
        return max(0.05, min(self.viewport.zoom * 1.25, TILE_TEXTURE_MAX_PX / biggest))

    def _rescale_tiles(self, *_: Any) -> None:
        board = self.session.board if self.session else None
        if board is not None:
            self._render_tiles_texture(board)

    def _render_tiles_texture(self, board: BoardView) -> None:
        """Size the textures to the current zoom (sharp, and cheap to sample in software GL) and render them."""
        scale = self._wanted_texture_scale(board)
        self._texture_scale = scale
        self._layers.place(board.bounds_mm(), scale, board.size_mm * LAYER_MARGIN)

    def _draw_edges(self, board: BoardView) -> None:
        shown = (board.size_mm, tuple(board.edges))
        if shown == self._edges_drawn:
            return
        self._edges_drawn = shown
        self.g_edges.clear()
        draw.edges(self.g_edges, board.edges, board.size_mm)
        draw.captions(self.g_edges, [t for t in board.tiles.values() if t.caption], board.size_mm,
                      self.text_room())  # over shading

    def _draw_figures(self, board: BoardView) -> None:
        alive = sorted((f for f in board.figures.values() if f.alive), key=lambda f: f.stack_index)  # tops last
        min_mm = self.min_text_mm()
        lying = lying_tokens(board)
        visible = tuple(round(v, 1) for v in self.visible_mm())
        shown = (board.size_mm, min_mm, visible, tuple(board.edges), tuple(alive),
                 tuple((t.key, t.tokens) for t in lying), tuple(self._prompt_cells(board)))
        if shown == self._figures_drawn:
            return  # an update that moved nobody (a prompt, the log, the camera's report)
        self._figures_drawn = shown
        self._labels_min_mm = min_mm
        self.g_figures.clear()
        self.g_names.clear()
        room = self.text_room([(t.centre, board.size_mm * 0.42) for t in [*lying, *map_only_tokens(board)]])
        draw.tokens(self.g_figures, lying, board.size_mm, TextRoom(min_mm))  # where the game's tokens lie now
        tagged = self._prompt_cells(board)  # ringed and labelled before any name: "at M8" is found at every size
        draw.figures(self.g_figures, alive, board.size_mm, room=room, labels=self.g_names,
                     first=lambda: cell_labels.cell_tags(self.g_names, draw.hexes(board, tagged), board.size_mm, room,
                                                  board.label_band))
        self._overlay_room = room.copy()  # the overlays' marks keep clear of the discs and names, not of hex labels
        tiles = list(board.tiles.values())
        if len(tiles) > LABELS_UP_TO_TILES and not self.g_tile_labels.children:
            return  # no labels to lay out again: the tiles' texture stays as it is
        self.g_tile_labels.clear()
        if len(tiles) <= LABELS_UP_TO_TILES:  # labels drawn clear of the figures and their names
            cell_labels.tile_labels(self.g_tile_labels, tiles, board.size_mm, room,
                                    levelled=any(t.level for t in tiles), hexes=board.label_band, named=tagged,
                                    memo=self._label_memo,
                                    scene=(board.size_mm, min_mm, visible, tuple(board.edges), tuple(tiles)))
        self._fbo.ask_update()

    def _draw_overlays(self, session: GameSession, board: BoardView) -> None:
        under, over = self.g_under, self.g_over
        under.clear()
        over.clear()
        size = board.size_mm
        prompt = session.prompt
        texts: list[OverlayText] = []
        if prompt is not None and prompt.kind == "move" and not self.read_only:
            draw.legal_moves(under, draw.hexes(board, prompt.moves))
            texts += [(str(m.cost), board.centre(m.key), size * 0.4, palette.REACH, 32)
                      for m in prompt.moves.values() if m.cost > 0]
        sel = session.selection if not self.read_only else None
        if sel is not None:
            self._draw_selection(sel, board, texts, outline_reach=session.inspecting_during_move)
            self._caption(session, board)
        if prompt is not None and prompt.kind == "choose" and not self.read_only:
            keys = [o.key for o in prompt.options if o.key is not None]
            draw.choices(over, draw.hexes(board, keys), size)
        if prompt is not None and prompt.overlay is not None and not self.read_only:  # what the prompt asks about
            cells = prompt.overlay.cells
            for c in cells:
                if c.style == "shade":
                    draw.shaded(under, draw.hexes(board, [c.key]), c.level)
            draw.warned(under, draw.hexes(board, [c.key for c in cells if c.style == "warn"]), size)
            draw.outlined(under, draw.hexes(board, [c.key for c in cells if c.style == "outline"]), size)
            self._draw_sight_lines(prompt.overlay.lines, board, texts)
        tv = session.table_view
        ghosts = {g.figure: [board.centre(k) for k in g.moves] for g in tv.ghosts if g.figure in board.figures}
        if ghosts:
            draw.figures(over, [board.figures[f] for f in ghosts], size * 0.8, alpha=0.35, at=ghosts, names=False)
        verdict = tv.provisional
        if verdict is not None and verdict.figure in board.figures:  # the ghost of the figure still in the hand
            faint = palette.REACH if verdict.legal else palette.ILLEGAL
            draw.hex_fill(under, draw.hexes(board, [verdict.cell]), (*faint[:3], 0.3), 0.95)
            draw.figures(over, [board.figures[verdict.figure]], size * 0.8, alpha=0.35,
                         at={verdict.figure: [board.centre(verdict.cell)]}, names=False)
        arrows = draw.MeshBatch(palette.ILLEGAL)
        if tv.illegal is not None and tv.illegal.end is not None:
            # Where the eyes are: the legal cells ringed bold, the cell it stands on filled and ringed twice with an
            # X, the cell the game has it on dashed (put it back there).
            draw.hex_outlines(over, draw.hexes(board, tv.illegal_legal), palette.REACH, size * 0.12, 0.82)
            wrong = draw.hexes(board, [tv.illegal.end])
            draw.hex_fill(under, wrong, (*palette.ILLEGAL[:3], 0.45), 0.95)
            draw.hex_outlines(over, wrong, palette.ILLEGAL, size * 0.12, 0.95)
            draw.hex_outlines(over, wrong, (1, 1, 1, 1), size * 0.05, 0.78)
            if tv.illegal.start is not None:
                draw.hex_outlines(over, draw.hexes(board, [tv.illegal.start]), palette.DESYNC, size * 0.1, 0.9,
                                  dashed=True)
                draw.arrow(arrows, board.centre(tv.illegal.start), board.centre(tv.illegal.end), size * 0.08,
                           size * 0.4)
            texts.append(("X", board.centre(tv.illegal.end), size * 0.8, (1, 1, 1, 1), 48))  # white on its fill
        arrows.emit(over)
        desync = draw.MeshBatch(palette.DESYNC)
        for d in tv.desyncs:
            if d.start is not None and d.end is not None:
                draw.arrow(desync, board.centre(d.start), board.centre(d.end), size * 0.08, size * 0.4)
        desync.emit(over)
        room = (self._overlay_room or self.text_room()).copy()
        for label, centre, height, rgba, px in texts:  # readable, in a hex's middle, never over a disc
            draw.placed_text(over, room, label, centre, height, rgba, px, max_mm=size * 2 * cell_labels.CENTRE_BAND)

    def _prompt_cells(self, board: BoardView) -> list[HexKey]:
        """The cells the prompt names (in its text and its answers) and its figure's cell: each is ringed and
        labelled before any name is placed (:func:`cell_labels.cell_tags`), so a player finds "M8" on a phone
        too, where the board has no room for every hex label."""
        prompt = self.session.prompt if self.session is not None else None
        if prompt is None or self.read_only:
            return []
        keys = named_cells(board, [prompt.text, *(o.label for o in prompt.options)])
        fig = board.figures.get(prompt.figure or "")
        if fig is not None and fig.key is not None and fig.key not in keys:
            keys.append(fig.key)
        return keys

    def _caption(self, session: GameSession, board: BoardView) -> None:
        """Above the shown figure, whose outlined cells they are (while another figure's move is filled in)."""
        caption = session.inspect_caption()[0]
        fig = board.figures.get(session.selection.figure) if session.selection is not None else None
        if caption and fig is not None and fig.centre is not None:
            size = board.size_mm
            draw.chip(self.g_over, caption, (fig.centre[0], fig.centre[1] - size * 0.75), size * 0.42,
                      palette.INSPECT, 32)

    def _draw_selection(self, sel: SelectionOverlay, board: BoardView, texts: list[OverlayText],
                        outline_reach: bool = False) -> None:
        """The rule set's answers about the tapped figure, drawn by style and verdict alone (no rule set known).
        ``outline_reach``: another figure's move is pending and filled in, so this figure's shaded cells are rings."""
        under, over = self.g_under, self.g_over
        size = board.size_mm
        shaded = sel.cells("shade")
        if outline_reach:
            draw.hex_outlines(over, draw.hexes(board, [c.key for c in shaded]), palette.INSPECT, size * 0.09, 0.72)
        for level in sorted({c.level for c in shaded}) if not outline_reach else ():
            keys = [c.key for c in shaded if c.level == level]
            draw.shaded(under, draw.hexes(board, keys), level)
        warned = sel.cells("warn")
        draw.warned(under, draw.hexes(board, [c.key for c in warned]), size)
        outlined = sel.cells("outline")
        draw.outlined(under, draw.hexes(board, [c.key for c in outlined]), size)
        marks = [(c, palette.THREAT, 0.45, 40) for c in warned] + [(c, (1, 1, 1, 0.9), 0.35, 32)
                                                                    for c in (*shaded, *outlined)]
        for c, rgba, height, px in marks:
            if c.label and board.mark_at(c.key) == board.centre(c.key):
                texts.append((c.label, board.centre(c.key), size * height, rgba, px))
        self._chips([(c.key, c.label, rgba) for c, rgba, _, _ in marks if c.label], board)
        fig = board.figures.get(sel.figure)
        if fig is not None and fig.key is not None:
            draw.hex_outlines(over, draw.hexes(board, [fig.key]), (1, 1, 1, 1), size * 0.09, 0.92)
            if fig.name_left is not None and fig.centre is not None:  # one of a zone's figures: ring it too
                ring = draw.MeshBatch((1, 1, 1, 1))
                r = size * draw.DISC_RADIUS * fig.scale * 1.3
                ring.polyline(draw.shape_points("circle", fig.centre, r), size * 0.06, close=True)
                ring.emit(over)
        self._draw_sight_lines(sel.sight_lines, board, texts)

    def _draw_sight_lines(self, lines: Sequence[LineMark], board: BoardView, texts: list[OverlayText]) -> None:
        """Lines of sight by verdict (colour, dash pattern and a mark: OK, X, ?), what blocks each ringed in red, and
        the blocking cells a line only touches ringed dashed in the unclear colour."""
        size = board.size_mm
        sight = {k: draw.MeshBatch(c) for k, c in palette.SIGHT.items()}
        blockers = draw.MeshBatch(palette.SIGHT["blocked"])
        touched: set[HexKey] = set()
        for t in lines:
            if t.start is None or t.end is None:
                continue
            batch = sight.get(t.verdict, sight["clear"])
            a, b = board.centre(t.start), board.centre(t.end)
            draw.sight_line(batch, a, b, size, t.verdict)
            mark = {"clear": "OK", "blocked": "X", "ambiguous": "?"}.get(t.verdict, "?")
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - size * 0.3)
            texts.append((mark, mid, size * 0.4, batch.rgba, 36))
            if t.blocker_hex is not None and t.blocker_hex in board.tiles:
                blockers.polyline(draw.inset_corners(board.tiles[t.blocker_hex], 1.0), size * 0.1, close=True)
            if t.blocker_edge is not None:
                for e in board.edges:
                    if {e.a, e.b} == set(t.blocker_edge):
                        blockers.segment(e.ends[0], e.ends[1], size * 0.22)
            touched.update(t.touched)
        for batch in (*sight.values(), blockers):
            batch.emit(self.g_over)
        if touched:
            draw.hex_outlines(self.g_over, draw.hexes(board, sorted(touched)), palette.SIGHT["ambiguous"], size * 0.12,
                              0.86, dashed=True)

    def _chips(self, marks: list[tuple[HexKey, str, palette.RGBA]], board: BoardView) -> None:
        """Labels of cells that write them apart from their centre (a zone's upper right), one under another when
        several queries label one cell, each on a dark plate."""
        rows: dict[HexKey, list[tuple[str, palette.RGBA]]] = {}
        height = board.size_mm * 0.42
        for key, label, rgba in marks:
            at = board.mark_at(key)
            written = rows.setdefault(key, [])
            if at == board.centre(key) or (label, rgba) in written:  # two queries saying the same: written once
                continue
            n = len(written)
            written.append((label, rgba))
            draw.chip(self.g_over, label, (at[0], at[1] + n * height * 1.1), height, rgba, 32,
                      TextRoom(self.min_text_mm()))

    # ---------------------------------------------------------------- touches

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        if touch.is_mouse_scrolling:
            factor = 1.15 if touch.button == "scrollup" else 1 / 1.15
            self.viewport.zoom_about(factor, touch.x - self.x, touch.y - self.y)
            self.update_matrix()
            return True
        touch.grab(self)
        self._touches[touch.uid] = touch.pos
        self._down[touch.uid] = (touch.x, touch.y, False)
        if len(self._touches) == 1:
            key = self.hex_at_window(*touch.pos)
            self._cancel_long_press()
            self._long_press_event = Clock.schedule_once(lambda _dt: self._long_press(touch.uid, key), LONG_PRESS_S)
        else:
            self._cancel_long_press()
        return True

    def _cancel_long_press(self) -> None:
        if self._long_press_event is not None:
            self._long_press_event.cancel()
            self._long_press_event = None

    def _long_press(self, uid: int, key: HexKey | None) -> None:
        self._long_press_event = None
        if uid in self._down and not self._down[uid][2] and self.on_hex_long_press is not None:
            x, y, _ = self._down[uid]
            self._down[uid] = (x, y, True)  # consumed: the release is not a tap
            self.on_hex_long_press(key)

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        prev = self._touches.get(touch.uid)
        if prev is None:
            return True
        down = self._down.get(touch.uid)
        moved = down is not None and math.hypot(touch.x - down[0], touch.y - down[1]) > dp(TAP_SLOP_DP)
        if moved:
            self._cancel_long_press()
        if len(self._touches) >= 2:
            other = next(p for uid, p in self._touches.items() if uid != touch.uid)
            before = math.hypot(prev[0] - other[0], prev[1] - other[1])
            after = math.hypot(touch.x - other[0], touch.y - other[1])
            if before > 1:
                mx, my = (touch.x + other[0]) / 2 - self.x, (touch.y + other[1]) / 2 - self.y
                self.viewport.zoom_about(after / before, mx, my)
        elif moved and not self._drag_is_figure(touch):
            self.viewport.pan(touch.x - prev[0], touch.y - prev[1])
        self._touches[touch.uid] = touch.pos
        self.update_matrix()
        return True

    def _drag_is_figure(self, touch: Any) -> bool:
        """A drag that starts on a figure moves the figure (when the prompt allows); otherwise it pans."""
        if self.read_only or self.session is None or self.session.board is None:
            return False
        down = self._down.get(touch.uid)
        if down is None:
            return False
        key = self.hex_at_window(down[0], down[1])
        prompt = self.session.prompt
        board = self.session.board
        wanted = prompt.figure if prompt is not None else None  # out of a stack: the figure the prompt moves
        fig = board.pick(key, wanted=(wanted,)) if key else None
        # where the rules have facing, dragging any figure onto a neighbour turns it
        return fig is not None and prompt is not None and ((prompt.kind == "move" and prompt.figure == fig.id)
                                                            or board.uses_facing)

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self._cancel_long_press()
        multi = len(self._touches) > 1
        self._touches.pop(touch.uid, None)
        down = self._down.pop(touch.uid, None)
        if down is None or multi or down[2] or self.read_only:
            return True
        start = self.hex_at_window(down[0], down[1])
        end = self.hex_at_window(*touch.pos)
        if math.hypot(touch.x - down[0], touch.y - down[1]) <= dp(TAP_SLOP_DP):
            if self.on_hex_tap is not None:
                self.on_hex_tap(end)
        elif self._drag_is_figure_from(start) and self.on_hex_drag is not None:
            self.on_hex_drag(start, end)
        return True

    def _drag_is_figure_from(self, key: HexKey | None) -> bool:
        if key is None or self.session is None or self.session.board is None or self.session.prompt is None:
            return False
        p = self.session.prompt
        fig = self.session.board.pick(key, wanted=(p.figure,))
        return fig is not None and ((p.kind == "move" and p.figure == fig.id) or self.session.board.uses_facing)
