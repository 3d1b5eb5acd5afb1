"""The legend popup: one row per symbol of the board in play, each swatch drawn by the board's own drawing code."""

from __future__ import annotations

from typing import Any

from kivy.graphics import InstructionGroup, PopMatrix, PushMatrix, Scale, Translate
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion_app.ui import board_drawing as draw
from companion_app.ui.widgets import BigButton, WrapLabel
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import BoardView, EdgeView, FigureView, TileView, figure_letter
from companion_app.viewmodels.legend import LegendEntry
from engine.hexes import Hex, edge
from engine.i18n import gettext_for
from engine.layout import Layout

_ = gettext_for(__name__)

SWATCH_MM = 10.0  # the swatch's hex size in its own millimetres (scaled to the row)
SWATCH_DP = 64


def _tile(layout: Layout, style: str = palette.DEFAULT_TERRAIN_STYLE, tokens: tuple[str, ...] = ()) -> TileView:
    h = Hex(0, 0)
    return TileView(key=(0, 0), label="", terrain=style, level=0, tokens=tokens, centre=layout.hex_to_mm(h),
                    corners=tuple(layout.corners_mm(h)),
                    fill=palette.TERRAIN_FILL.get(style, palette.TERRAIN_FILL["floor"]),
                    pattern=palette.TERRAIN_PATTERN.get(style, ""), style=style)


def _figure(board: BoardView, side_id: str, state: str) -> FigureView:
    side = board.sides.get(side_id)
    sample = next((f for f in board.figures.values() if f.side == side_id), None)
    letter = sample.letter if sample is not None else figure_letter("", side.name if side else "?")
    return FigureView(id="legend", name="", kind="", kind_text="", side=side_id, side_name=side.name if side else "",
                      colour=side.colour if side else palette.FALLBACK_COLOUR, shape=side.shape if side else "circle",
                      letter=letter, key=(0, 0), label="", alive=True, badges=(), centre=(0.0, 0.0),
                      facing_deg=0.0 if state == "facing" else None, stack=2 if state == "stack" else 1,
                      stack_index=1 if state == "stack" else 0)


def draw_entry(group: InstructionGroup, entry: LegendEntry, board: BoardView) -> None:
    """One legend symbol in map millimetres around (0, 0), as the board draws it."""
    layout = Layout(board.orientation, SWATCH_MM)
    s = SWATCH_MM
    tile = _tile(layout, entry.style if entry.kind == "terrain" else palette.DEFAULT_TERRAIN_STYLE,
                 ("treasure",) if entry.kind == "token" else ())
    draw.hex_fill(group, [tile], tile.fill, inset=0.95)
    draw.terrain_patterns(group, [tile], s)
    if entry.kind == "token":
        draw.tokens(group, [tile], s)
    elif entry.kind == "figure":
        fig = _figure(board, entry.side, entry.state)
        draw.figures(group, [fig], s, names=False)
        if entry.state == "stack":
            draw.stack_count(group, fig, s * draw.STACKED_SCALE)
    elif entry.kind == "edge":
        e = edge(Hex(0, 0), Hex(1, 0))
        colour = palette.EDGE_COLOURS.get(entry.style, palette.WALL)
        door = entry.style in palette.DOOR_EDGE_STYLES
        if door:
            colour = {"open": palette.DOOR_OPEN, "locked": palette.DOOR_LOCKED}.get(entry.state, palette.DOOR_CLOSED)
        ends = layout.edge_mm(e)
        mid = ((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
        shifted = tuple((x - mid[0], y - mid[1]) for x, y in ends)
        draw.edges(group, [EdgeView(a=(0, 0), b=(1, 0), label="", kind=entry.style, state=entry.state or entry.style,
                                    ends=(shifted[0], shifted[1]), colour=colour, style=entry.style, door=door)], s)
    elif entry.kind == "overlay":
        _overlay(group, entry, tile, s)


def _overlay(group: InstructionGroup, entry: LegendEntry, tile: TileView, s: float) -> None:
    if entry.style == "moves":
        draw.legal_moves(group, [tile])
        draw.text(group, "2", (0.0, 0.0), s * 0.6, palette.REACH, 32)
    elif entry.style == "choices":
        draw.choices(group, [tile], s)
    elif entry.style == "shade":
        draw.shaded(group, [tile])
    elif entry.style == "warn":
        draw.warned(group, [tile], s)
    elif entry.style == "outline":
        draw.outlined(group, [tile], s)
    elif entry.style == "sight":
        batch = draw.MeshBatch(palette.SIGHT.get(entry.state, palette.SIGHT["clear"]))
        draw.sight_line(batch, (-s * 0.9, s * 0.3), (s * 0.9, s * 0.3), s, entry.state)
        batch.emit(group)
        mark = {"clear": "OK", "blocked": "X"}.get(entry.state, "?")
        draw.text(group, mark, (0.0, -s * 0.3), s * 0.5, batch.rgba, 36)
    elif entry.style == "touched":
        draw.hex_outlines(group, [tile], palette.SIGHT["ambiguous"], s * 0.12, 0.86, dashed=True)
    elif entry.style in ("illegal", "desync"):
        batch = draw.MeshBatch(palette.ILLEGAL if entry.style == "illegal" else palette.DESYNC)
        draw.arrow(batch, (-s * 0.9, s * 0.5), (s * 0.6, -s * 0.2), s * 0.08, s * 0.4)
        batch.emit(group)
        if entry.style == "illegal":
            draw.text(group, "X", (s * 0.6, -s * 0.2), s * 0.6, palette.ILLEGAL, 40)


class LegendSwatch(Widget):  # type: ignore[misc]
    """A legend row's picture: the symbol drawn by the board's drawing code, scaled to the swatch."""

    def __init__(self, entry: LegendEntry, board: BoardView, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("pos_hint", {"center_y": 0.5})
        kwargs.setdefault("size", (dp(SWATCH_DP) * 1.5, dp(SWATCH_DP)))
        super().__init__(**kwargs)
        self.entry, self.board = entry, board
        self.bind(pos=self._redraw, size=self._redraw)
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        group = InstructionGroup()
        draw_entry(group, self.entry, self.board)
        k = min(self.width / 2.2, self.height / 2.1) / SWATCH_MM
        self.canvas.add(PushMatrix())
        self.canvas.add(Translate(self.center_x, self.center_y))
        self.canvas.add(Scale(k, k, 1.0))
        self.canvas.add(group)
        self.canvas.add(PopMatrix())


def open_legend(entries: list[LegendEntry], board: BoardView | None) -> Popup:
    """The legend popup: a swatch and its words for every symbol (or a word that there is no board yet)."""
    rows = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6), padding=dp(6))
    rows.bind(minimum_height=rows.setter("height"))
    queries = [e for e in entries if e.kind == "query"]
    for entry in entries:
        if entry.kind == "query" or board is None:
            continue
        row = BoxLayout(orientation="horizontal", size_hint_y=None, spacing=dp(10))
        label = WrapLabel(text=entry.text, pos_hint={"center_y": 0.5})
        row.add_widget(LegendSwatch(entry, board))
        row.add_widget(label)
        label.bind(height=lambda lb, h, r=row: setattr(r, "height", max(h, dp(SWATCH_DP))))
        row.height = max(label.height, dp(SWATCH_DP))
        rows.add_widget(row)
    if queries:
        rows.add_widget(WrapLabel(text=_("What a tap on a figure asks the rules (each answer drawn in the styles "
                                         "above):"), bold=True))
        for entry in queries:
            rows.add_widget(WrapLabel(text="  " + entry.text))
    if board is None:
        rows.add_widget(WrapLabel(text=_("No board yet: the legend lists the symbols of the board in play.")))
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(rows)
    box = BoxLayout(orientation="vertical", spacing=dp(6), padding=dp(6))
    box.add_widget(scroll)
    popup = Popup(title=_("Legend: what the board shows"), content=box, size_hint=(0.9, 0.9), title_size=dp(22))
    close = BigButton(text=_("Close"))
    close.bind(on_release=popup.dismiss)
    box.add_widget(close)
    popup.open()
    return popup
