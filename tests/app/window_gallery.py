"""Every bundled scenario at one window size and language (from the environment, as the driver reads them): a
screenshot of each game's first prompt, and the board's texts measured on what the board really drew.

The measures read the board's canvas, not the layout's own bookkeeping: each text quad of the names, badges, hex
labels and captions, in window pixels (its glyphs' height, not its line padding), must lie inside the board widget
and apart from every other such text, every wall, fence, line and door, and every figure's facing mark. Each cell
the prompt's text names must be labelled on the board. No shown label may start a line with closing punctuation
or a small kana, and every figure of a zone board is named in full."""

from __future__ import annotations

import math
import os
import re
import sys
from typing import Any

# isort: off
from tests.app.window_driver import (  # first: it sets Kivy up
    Driver,
    ModalView,
    Step,
    Window,
    _opened,
    _play,
    run_against_engine,
)
# isort: on
from kivy.graphics import Rectangle
from kivy.metrics import sp
from kivy.uix.label import Label

from companion_app.ui import board_drawing as draw
from companion_app.ui.line_breaks import NO_LINE_START
from companion_app.ui.readability import readable_sp
from companion_app.ui.text_room import GLYPH_SHARE
from companion_app.ui.textures import text_texture
from engine.i18n import current_language, language_from_environment, set_language
from engine.scenario import bundled_scenarios

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in window pixels
FIRST = "goblins-treasure"  # the engine starts with it; the others are started as new games
TEXT_PX = (24, 28, 32)  # the font sizes the board renders its texts at


def _quads(board: Any, groups: tuple[Any, ...]) -> list[tuple[Any, Box]]:
    """Every text quad of ``groups``: its texture and the box of its glyphs in window pixels."""
    out = []
    for group in groups:
        for ins in group.children:
            if not isinstance(ins, Rectangle) or ins.texture is None:
                continue
            (x, y), (w, h) = ins.pos, ins.size
            pad = h * (1 - GLYPH_SHARE) / 2
            corners = [board.viewport.to_screen(px, -py) for px, py in ((x, y + pad), (x + w, y + h - pad))]
            xs = [board.x + c[0] for c in corners]
            ys = [board.y + c[1] for c in corners]
            out.append((ins.texture, (min(xs), min(ys), max(xs), max(ys))))
    return out


def _overlap(a: Box, b: Box, slack: float = 0.5) -> bool:
    return a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]


def _segment_hits(p: tuple[float, float], q: tuple[float, float], half: float, box: Box) -> bool:
    """Whether a stroke from ``p`` to ``q`` of half-width ``half`` touches ``box`` (sampled along the stroke)."""
    n = max(2, int(math.hypot(q[0] - p[0], q[1] - p[1]) / max(1.0, half)) + 1)
    for i in range(n + 1):
        x, y = p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n
        cx, cy = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        if math.hypot(x - cx, y - cy) < half - 0.5:
            return True
    return False


def _inside_triangle(pt: tuple[float, float], tri: list[tuple[float, float]]) -> bool:
    def side(a: tuple[float, float], b: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (pt[1] - a[1]) - (b[1] - a[1]) * (pt[0] - a[0])

    s = [side(tri[i], tri[(i + 1) % 3]) for i in range(3)]
    return all(v >= 0 for v in s) or all(v <= 0 for v in s)


def _triangle_hits(tri: list[tuple[float, float]], box: Box) -> bool:
    shrunk = (box[0] + 0.5, box[1] + 0.5, box[2] - 0.5, box[3] - 0.5)
    if any(_inside_triangle(c, tri) for c in ((shrunk[0], shrunk[1]), (shrunk[2], shrunk[1]),
                                              (shrunk[0], shrunk[3]), (shrunk[2], shrunk[3]))):
        return True
    return any(_segment_hits(tri[i], tri[(i + 1) % 3], 0.6, shrunk) for i in range(3))


def label_problems(board: Any) -> list[str]:
    """What is wrong with the board's names, badges, hex labels and captions as drawn (empty: nothing)."""
    b = board.session.board
    v = board.viewport

    def win(p: tuple[float, float]) -> tuple[float, float]:
        sx, sy = v.to_screen(*p)
        return board.x + sx, board.y + sy

    texts = _quads(board, (board.g_names, board.g_tile_labels, board.g_edges))
    problems = []
    edge = (board.x, board.y, board.right, board.top)
    for _tex, box in texts:
        if box[0] < edge[0] - 0.5 or box[1] < edge[1] - 0.5 or box[2] > edge[2] + 0.5 or box[3] > edge[3] + 0.5:
            problems.append(f"a text outside the board at {tuple(round(c) for c in box)}")
    for i, (_a, box_a) in enumerate(texts):
        for _b, box_b in texts[i + 1:]:
            if _overlap(box_a, box_b):
                problems.append(f"two texts overlap at {tuple(round(c) for c in box_a)}")
    for e in b.edges:
        half = b.size_mm * max(draw.EDGE_WIDTH.get(e.style, draw.EDGE_WIDTH["wall"]), 0.16 if e.door else 0) / 2
        p, q = win(e.ends[0]), win(e.ends[1])
        for _t, box in texts:
            if _segment_hits(p, q, half * v.zoom, box):
                problems.append(f"a text on the edge {e.a}|{e.b} at {tuple(round(c) for c in box)}")
    for f in b.figures.values():
        if not f.alive or f.facing_deg is None or f.centre is None:
            continue
        stacked = f.stack >= 2 and f.name_left is None
        r = b.size_mm * draw.DISC_RADIUS * (draw.STACKED_SCALE if stacked else 1.0) * f.scale
        tri = [win(p) for p in draw.facing_wedge(f.centre, r, f.facing_deg)]
        for _t, box in texts:
            if _triangle_hits(tri, box):
                problems.append(f"a text on {f.name}'s facing mark at {tuple(round(c) for c in box)}")
    return problems


def drawn_texts(board: Any) -> set[Any]:
    """The textures of every text the board drew (a text is found by the texture it renders to)."""
    groups = (board.g_tile_labels, board.g_edges, board.g_figures, board.g_over, board.g_names)
    return {id(ins.texture) for g in groups for ins in g.children if isinstance(ins, Rectangle) and ins.texture}


def is_drawn(board: Any, text: str) -> bool:
    drawn = drawn_texts(board)
    return any(id(text_texture(text, px)) in drawn for px in TEXT_PX)


def named_cells(board: Any, text: str) -> list[str]:
    """The cell labels of the board a text names (as whole words)."""
    labels = {t.label for t in board.session.board.tiles.values() if t.label}
    return sorted(label for label in labels
                  if re.search(rf"(?<![0-9A-Za-z]){re.escape(label)}(?![0-9A-Za-z])", text))


def bad_line_starts(counted: list[int] | None = None) -> list[str]:
    """The shown labels' lines (as Kivy laid them out) that start with a character no line may start with
    (``counted`` gets the number of lines read)."""
    out = []
    for root in Window.children:
        for w in root.walk():
            if not isinstance(w, Label) or not w.text.strip() or w.opacity <= 0 or w.width <= 1:
                continue
            lines = getattr(w._label, "_cached_lines", None) or []
            texts = ["".join(word.text for word in line.words) for line in lines]
            if len(texts) < 2:
                texts = w._label.text.split("\n") if isinstance(w._label.text, str) else []
            if counted is not None:
                counted.append(len(texts))
            for line in texts[1:]:
                line = re.sub(r"\[[^\]]*\]", "", line).lstrip()
                if line and line[0] in NO_LINE_START:
                    out.append(line[:20])
    return out


TV_TEXT = 1.3  # a TV's prompt text at least this much larger than a tablet's
TV_MAP = (0.6, 0.85)  # a TV's map at least this share of the window's width, or of its height


def tv_problems(board: Any) -> list[str]:
    """On a TV: the prompt's title larger than on a tablet, and the map using the screen along its limiting side."""
    out = []
    title = _play(_app()).ids.prompt.title
    full = getattr(title, "full_font", None) or title.font_base  # its size before the prompt fitted its room
    tablet = float(sp(readable_sp(full))) * _app().text_scale
    if title.font_size < tablet * TV_TEXT:
        out.append(f"the prompt's title at {title.font_size:.0f} px, a tablet's {tablet:.0f} px")
    x0, y0, x1, y1 = board.session.board.bounds_mm()
    corners = [board.viewport.to_screen(x, y) for x in (x0, x1) for y in (y0, y1)]
    w = max(c[0] for c in corners) - min(c[0] for c in corners)
    h = max(c[1] for c in corners) - min(c[1] for c in corners)
    if w < TV_MAP[0] * Window.width and h < TV_MAP[1] * Window.height:
        out.append(f"the map drawn {w:.0f}×{h:.0f} px on a {Window.width}×{Window.height} window")
    return out


def _app() -> Any:
    from kivy.app import App

    return App.get_running_app()


def gallery_script(d: Driver) -> Step:
    """Each bundled scenario's first prompt on the play screen: screenshot and measures."""
    app = d.app
    s = app.session
    lang = current_language()
    tag = f"{lang}-{Window.width}x{Window.height}"
    failures: list[str] = []
    order = [FIRST, *sorted(set(bundled_scenarios()) - {FIRST})]
    for sid in order:
        if sid != FIRST:
            app.new_game(sid)

        def shown(wanted: str = sid) -> bool:
            return (app.agent.state == "live" and s.board is not None and s.prompt is not None
                    and (s.scenario or {}).get("id") == wanted)

        yield d.expect(shown, f"{sid} shown")
        yield d.drawn()
        board = _play(app).ids.board
        where = f"{sid} {tag}"
        failures += [f"{where}: {p}" for p in label_problems(board)[:4]]
        prompt = s.prompt
        assert prompt is not None
        for label in named_cells(board, prompt.text):
            if not is_drawn(board, label):
                failures.append(f"{where}: the prompt names {label}, not labelled on the board")
        if s.board is not None and s.board.kind == "zones":
            cut = [f.name for f in s.board.figures.values() if f.alive and not is_drawn(board, f.name)]
            if cut:
                failures.append(f"{where}: names not drawn in full: {cut}")
        if Window.width >= 1600:
            failures += [f"{where}: {p}" for p in tv_problems(board)]
        counted: list[int] = []
        starts = bad_line_starts(counted)
        if starts:
            failures.append(f"{where}: lines starting with closing punctuation: {starts[:3]}")
        d.screenshot(f"gallery-{tag}-{sid}")
        popup = app.open_legend()  # the legend's help lines too

        def legend_open(shown: Any = popup) -> bool:
            return _opened(shown)

        yield d.expect(legend_open, f"{sid}: the legend open")
        yield d.drawn()
        starts = bad_line_starts(counted)
        if starts:
            failures.append(f"{where}: legend lines starting with closing punctuation: {starts[:3]}")
            d.screenshot(f"gallery-{tag}-{sid}-legend")
        d.checks.append(f"{where}: {sum(counted)} lines of {len(counted)} labels read for their line starts")
        popup.dismiss()
        yield d.expect(lambda: not any(isinstance(w, ModalView) for w in Window.children), f"{sid}: legend closed")
    d.check(not failures, f"every scenario's board texts laid out at {tag} ({'; '.join(failures[:12])})")
    if Window.width >= 1600:
        d.checks.append("the board and the texts grow on a TV")


def main() -> int:
    set_language(language_from_environment())
    return run_against_engine(FIRST, gallery_script)


if __name__ == "__main__":
    os.environ.setdefault("HEXA_LANG", "en")
    sys.exit(main())
