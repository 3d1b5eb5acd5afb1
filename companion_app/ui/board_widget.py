"""The board: draws the session's board and overlays; pinch to zoom, drag to pan, tap, drag a figure, long press.

Geometry is drawn once in map millimetres; panning and zooming only change one matrix, so they stay cheap
on big maps. Groups are rebuilt only when what they show changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, MatrixInstruction, PopMatrix, PushMatrix, Rectangle
from kivy.graphics.transformation import Matrix
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.stencilview import StencilView

from companion_app.ui import board_drawing as draw
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import BoardView, HexKey, TileView
from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.viewport import Viewport

TAP_SLOP_DP = 12.0
LONG_PRESS_S = 0.6
LABELS_UP_TO_TILES = 400  # hex labels on small maps only (they are noise on a 30×30 map)


class BoardWidget(StencilView):  # type: ignore[misc]
    """Shows one :class:`GameSession`; reports taps, drags and long presses through callbacks."""

    read_only = BooleanProperty(False)
    rotation = NumericProperty(0.0)
    frames = NumericProperty(0)  # bumped after every redraw of the groups (tests and benchmarks wait on it)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.viewport = Viewport()
        self.session: GameSession | None = None
        self.on_hex_tap: Callable[[HexKey | None], None] | None = None
        self.on_hex_drag: Callable[[HexKey | None, HexKey | None], None] | None = None
        self.on_hex_long_press: Callable[[HexKey | None], None] | None = None
        self._tiles_for: int | None = None
        self._fitted = False
        self._touches: dict[int, tuple[float, float]] = {}
        self._down: dict[int, tuple[float, float, bool]] = {}
        self._long_press_event: Any = None
        with self.canvas:
            Color(*palette.BACKGROUND)
            self._bg = Rectangle(pos=self.pos, size=self.size)
            PushMatrix()
            self._matrix = MatrixInstruction()
            self.g_tiles = InstructionGroup()
            self.g_under = InstructionGroup()
            self.g_edges = InstructionGroup()
            self.g_figures = InstructionGroup()
            self.g_over = InstructionGroup()
            for g in (self.g_tiles, self.g_under, self.g_edges, self.g_figures, self.g_over):
                self.canvas.add(g)
            PopMatrix()
        self.bind(pos=self._on_geometry, size=self._on_geometry)

    # ---------------------------------------------------------------- view transform

    def _on_geometry(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
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
        if self._tiles_for != id(session.scenario) or not self._fitted:
            self._draw_tiles(board)
        self._draw_edges(board)
        self._draw_figures(board)
        self._draw_overlays(session, board)
        if not self._fitted and self.width > 1:
            self.fit()
        self.frames += 1

    def _draw_tiles(self, board: BoardView) -> None:
        g = self.g_tiles
        g.clear()
        size = board.layout.size_mm
        by_fill: dict[palette.RGBA, list[TileView]] = {}
        for t in board.tiles.values():
            by_fill.setdefault(t.fill, []).append(t)
        for fill, tiles in by_fill.items():
            draw.hex_fill(g, tiles, fill, inset=0.97)
        tiles = list(board.tiles.values())
        draw.grid_lines(g, tiles, (0.55, 0.55, 0.55, 1.0))
        draw.terrain_patterns(g, [t for t in tiles if t.pattern], size)
        if len(tiles) <= LABELS_UP_TO_TILES:
            draw.tile_labels(g, tiles, size)
        else:
            for t in tiles:
                for token in t.tokens:
                    draw.token_mark(g, token, t.centre, size)
        self._tiles_for = id(self.session.scenario) if self.session is not None else None

    def _draw_edges(self, board: BoardView) -> None:
        self.g_edges.clear()
        draw.edges(self.g_edges, board.edges, board.layout.size_mm)

    def _draw_figures(self, board: BoardView) -> None:
        g = self.g_figures
        g.clear()
        names = len(board.figures) <= 60
        for f in board.figures.values():
            if f.alive:
                draw.figure(g, f, board.layout.size_mm, names=names)

    def _draw_overlays(self, session: GameSession, board: BoardView) -> None:
        under, over = self.g_under, self.g_over
        under.clear()
        over.clear()
        size = board.layout.size_mm
        prompt = session.prompt
        if prompt is not None and prompt.kind == "move" and not self.read_only:
            draw.hex_fill(under, draw.hexes(board, prompt.moves), palette.shade(palette.REACH, 0.8, 0.35), 0.9)
            for m in prompt.moves.values():
                if m.cost > 0:
                    draw.text(over, str(m.cost), board.centre(m.key), size * 0.4, palette.REACH, 32)
        sel = session.selection if not self.read_only else None
        if sel is not None:
            for r in sel.reach:
                alpha = 0.55 - 0.35 * r.level
                draw.hex_fill(under, draw.hexes(board, [r.key]), (*palette.REACH[:3], alpha), 0.9)
            draw.hex_outlines(under, draw.hexes(board, sel.threatened), palette.THREAT, size * 0.06, 0.8, dashed=True)
            for key in sel.threatened:
                draw.text(over, "!", board.centre(key), size * 0.45, palette.THREAT, 40)
            for r in sel.reach:
                draw.text(over, str(r.cost), board.centre(r.key), size * 0.35, (1, 1, 1, 0.9), 32)
            fig = board.figures.get(sel.figure)
            if fig is not None and fig.key is not None:
                draw.hex_outlines(over, draw.hexes(board, [fig.key]), (1, 1, 1, 1), size * 0.08, 0.92)
            for t in sel.targets:
                if t.start is None or t.end is None:
                    continue
                colour = palette.SIGHT.get(t.sight, palette.SIGHT["clear"])
                dash = palette.SIGHT_DASH.get(t.sight, (0, 0))
                a, b = board.centre(t.start), board.centre(t.end)
                draw.dashed(over, a, b, colour, size * 0.05, (dash[0] * size / 12.0, dash[1] * size / 12.0))
                mark = {"clear": "OK", "blocked": "X", "ambiguous": "?"}.get(t.sight, "?")
                draw.text(over, mark, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - size * 0.3), size * 0.4, colour, 36)
                if t.blocker_hex is not None:
                    draw.hex_outlines(over, draw.hexes(board, [t.blocker_hex]), palette.SIGHT["blocked"], size * 0.1)
                if t.blocker_edge is not None:
                    for e in board.edges:
                        if {e.a, e.b} == set(t.blocker_edge):
                            draw.dashed(over, e.ends[0], e.ends[1], palette.SIGHT["blocked"], size * 0.2, (0, 0))
        if prompt is not None and prompt.kind == "choose" and not self.read_only:
            keys = [o.key for o in prompt.options if o.key is not None]
            draw.hex_outlines(over, draw.hexes(board, keys), (1, 1, 1, 0.95), size * 0.07, 0.86)
        tv = session.table_view
        for ghost in tv.ghosts:
            fig = board.figures.get(ghost.figure)
            if fig is None:
                continue
            for key in ghost.moves:
                draw.figure(over, fig, size * 0.8, alpha=0.35, at=board.centre(key), names=False)
        if tv.illegal is not None and tv.illegal.end is not None:
            draw.hex_outlines(over, draw.hexes(board, tv.illegal_legal), palette.REACH, size * 0.08, 0.85)
            if tv.illegal.start is not None:
                draw.arrow(over, board.centre(tv.illegal.start), board.centre(tv.illegal.end), palette.ILLEGAL,
                           size * 0.08, size * 0.4)
            draw.text(over, "X", board.centre(tv.illegal.end), size * 0.6, palette.ILLEGAL, 40)
        for d in tv.desyncs:
            if d.start is not None and d.end is not None:
                draw.arrow(over, board.centre(d.start), board.centre(d.end), palette.DESYNC, size * 0.08, size * 0.4)

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
        fig = self.session.board.figure_at(key) if key else None
        return fig is not None and prompt is not None and prompt.kind == "move" and prompt.figure == fig.id

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
        fig = self.session.board.figure_at(key)
        p = self.session.prompt
        return fig is not None and p.kind == "move" and p.figure == fig.id
