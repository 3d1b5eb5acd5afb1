"""Maps drawn as ASCII art, staggered the way hexes sit.

Flat-top maps (odd-q offsets): each map row takes two text lines. Even columns (A, C, E, …) stand on
the first line, four characters apart; odd columns (B, D, …) on the second, two characters further
right, because odd columns sit half a hex lower::

    .   .   #   .
      .   o   .   .
    T   .   .   X

Pointy-top maps (odd-r offsets): one text line per row, symbols four characters apart, odd rows
indented by two characters.

Symbols every map knows (:data:`CORE_SYMBOLS`): ``.`` floor, ``#`` blocking (solid wall hex), ``o`` low
obstacle, ``~`` water, ``-`` no tile. A rule set adds its own (Fantasy Battle: ``T`` treasure, ``P``
prisoner, ``X`` exit); drawings made without a rule set know those too (:data:`DEFAULT_SYMBOLS`). Any
other letter or digit is a floor hex carrying a *mark* that the caller may use (tests place figures
with them).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.board import CORE_EDGE_KINDS, CORE_KINDS, CellInfo, EdgeKindSpec, Terrain, TerrainKind
from engine.board.hex.board import HexBoard
from engine.board.symbols import DEFAULT_SYMBOLS, NO_TILE, TERRAIN_SYMBOLS, TOKEN_SYMBOLS, Symbols
from engine.errors import MapError
from engine.hexes import Edge, Hex, Orientation, column_letters, from_offset, to_offset
from engine.i18n import N_, gettext_for
from engine.texts import join_list

_ = gettext_for(__name__)

@dataclass(frozen=True)
class DrawnMap:
    """What a drawing holds: the tiles, and the hexes of every other symbol (marks)."""

    tiles: dict[Hex, CellInfo]
    marks: dict[str, list[Hex]]

    def only(self, mark: str) -> Hex:
        """The one hex carrying ``mark`` (error if none or several)."""
        found = self.marks.get(mark, [])
        if len(found) != 1:
            raise MapError(_("expected exactly one {mark!r} on the map, found {n}", mark=mark, n=len(found)))
        return found[0]


def _grid_cells(text: str, orientation: Orientation) -> list[tuple[int, int, str, int, int]]:
    """(col, row, symbol, line_no, char_no) for every symbol of the drawing (1-based positions)."""
    lines = textwrap.dedent(text.strip("\n")).splitlines()
    cells = []
    for j, line in enumerate(lines):
        for i, ch in enumerate(line.rstrip()):
            if ch.isspace():
                continue
            where = _("line {line}, character {char}", line=j + 1, char=i + 1)
            if orientation is Orientation.FLAT:
                if i % 2 or (i // 2) % 2 != j % 2:
                    raise MapError(
                        _("map symbol {ch!r} at {where} is off the hex grid: in flat-top maps even columns (A, C, …) "
                          "stand on the first line of each row, 4 characters apart, and odd columns (B, D, …) on the "
                          "next line, 2 characters further right", ch=ch, where=where),
                        j + 1,
                    )
                cells.append((i // 2, j // 2, ch, j + 1, i + 1))
            else:
                shift = 2 * (j % 2)
                if (i - shift) % 4:
                    raise MapError(
                        _("map symbol {ch!r} at {where} is off the hex grid: in pointy-top maps symbols stand 4 "
                          "characters apart and odd rows are indented by 2 characters", ch=ch, where=where),
                        j + 1,
                    )
                cells.append(((i - shift) // 4, j, ch, j + 1, i + 1))
    return cells


def _symbol_list(symbols: Symbols) -> str:
    names: dict[str, str] = {Terrain.FLOOR: N_("floor"), Terrain.BLOCKING: N_("blocking"),
                             Terrain.LOW_OBSTACLE: N_("low obstacle"), Terrain.WATER: N_("water")}
    return join_list(f"{ch} {token or (_(names[terrain]) if terrain in names else terrain)}"
                     for ch, (terrain, token) in symbols.items())


def _check_rows(cells: list[tuple[int, int, str, int, int]], orientation: Orientation) -> None:
    """Refuse a line that starts late or stops short: a missing symbol would silently be "no tile"."""
    spans: dict[int, list[tuple[int, int, int]]] = {}
    lines: dict[int, list[int]] = {}
    for col, _row, _ch, line_no, _char in cells:
        lines.setdefault(line_no, []).append(col)
    for line_no, cols in lines.items():
        kind = line_no % 2 if orientation is Orientation.FLAT else 0
        spans.setdefault(kind, []).append((line_no, min(cols), max(cols)))
    for rows in spans.values():
        first = min(lo for _, lo, _ in rows)
        last = max(hi for _, _, hi in rows)
        for line_no, lo, hi in rows:
            if lo != first or hi != last:
                raise MapError(
                    _("line {line} of the drawing starts later than the other rows; draw '-' where there is no tile",
                      line=line_no) if lo != first else
                    _("line {line} of the drawing stops earlier than the other rows; draw '-' where there is no tile",
                      line=line_no),
                    line_no,
                )


def parse_map(text: str, orientation: Orientation = Orientation.FLAT, symbols: Symbols | None = None,
              strict: bool = False) -> DrawnMap:
    """Read a staggered drawing into tiles and marks (``strict``: letters are not marks, rows are full)."""
    symbols = DEFAULT_SYMBOLS if symbols is None else symbols
    tiles: dict[Hex, CellInfo] = {}
    marks: dict[str, list[Hex]] = {}
    cells = _grid_cells(text, orientation)
    for col, row, ch, line_no, char_no in cells:
        h = from_offset(col, row, orientation)
        if ch == NO_TILE:
            continue
        if ch in symbols:
            terrain, token = symbols[ch]
            tiles[h] = CellInfo(terrain, tokens=(token,) if token else ())
        elif ch.isalnum() and not strict:
            tiles[h] = CellInfo(Terrain.FLOOR)
            marks.setdefault(ch, []).append(h)
        else:
            raise MapError(
                _("unknown map symbol {ch!r} at line {line}, character {char}: use {symbols}, - no tile", ch=ch,
                  line=line_no, char=char_no, symbols=_symbol_list(symbols)) if strict else
                _("unknown map symbol {ch!r} at line {line}, character {char}: use {symbols}, - no tile, or a "
                  "letter/digit mark", ch=ch, line=line_no, char=char_no, symbols=_symbol_list(symbols)),
                line_no,
            )
    if not tiles:
        raise MapError(_("the map drawing has no tiles"))
    if strict:
        _check_rows(cells, orientation)
    return DrawnMap(tiles=tiles, marks=marks)


def parse_levels(text: str, orientation: Orientation = Orientation.FLAT) -> dict[Hex, int]:
    """Read a level layer: a digit per hex, drawn like the map (``-`` or ``.`` for level 0)."""
    levels: dict[Hex, int] = {}
    for col, row, ch, line_no, char_no in _grid_cells(text, orientation):
        if ch in "-.":
            continue
        if not ch.isdigit():
            raise MapError(
                _("level map symbol {ch!r} at line {line}, character {char} is not a digit 0–9", ch=ch, line=line_no,
                  char=char_no), line_no
            )
        levels[from_offset(col, row, orientation)] = int(ch)
    return levels


def _symbol(info: CellInfo, symbols: Symbols) -> str:
    """The symbol drawing a tile: its token's, else its terrain's (the given symbols draw a rule set's own)."""
    for ch, (terrain, token) in symbols.items():
        if token is not None and token in info.tokens and terrain == info.terrain:
            return ch
    for ch, name in TOKEN_SYMBOLS.items():
        if name in info.tokens:
            return ch
    for ch, terrain in TERRAIN_SYMBOLS.items():
        if terrain == info.terrain:
            return ch
    for ch, (terrain, token) in symbols.items():
        if terrain == info.terrain and token is None:
            return ch
    return "?"


EDGE_SYMBOLS = {"wall": "=", "closed": "+", "locked": "*", "open": "'"}
# A rule set's own edge kinds are drawn by their draw style (engine.board.edges.EDGE_STYLES).
EDGE_STYLE_SYMBOLS = {"wall": "=", "line": ":", "fence": "^"}
EDGE_LEGEND = N_("Edges: = wall, + door, * locked door, ' open door")


def edge_marks(board: HexBoard, doors: Mapping[Edge, str] | None = None) -> dict[Edge, str]:
    """A symbol for every edge of the board by its kind: a door's by its state in play (``doors``), any other's
    by its draw style."""
    doors = doors or {}
    marks: dict[Edge, str] = {}
    for e, name in board.edges.items():
        spec = board.edge_kinds[name]
        if spec.door:
            default = "locked" if spec.style == "locked" else "closed"
            marks[e] = EDGE_SYMBOLS.get(doors.get(e, default), EDGE_SYMBOLS["closed"])
        else:
            marks[e] = EDGE_STYLE_SYMBOLS.get(spec.style, EDGE_SYMBOLS["wall"])
    return marks


def edge_legend(board: HexBoard, word: Callable[[str], str] | None = None) -> str:
    """The edge symbols' legend: the shared doors' and walls', and each other kind the board holds.

    ``word`` names a rule set's own kinds in the table's language (``RuleSet.word``).
    """
    parts = [_(EDGE_LEGEND)]
    for name in sorted({n for n in board.edges.values() if n not in CORE_EDGE_KINDS}):
        spec = board.edge_kinds[name]
        if not spec.door:
            named = word(name) if word is not None else name
            parts.append(f"{EDGE_STYLE_SYMBOLS.get(spec.style, EDGE_SYMBOLS['wall'])} {named.replace('_', ' ')}")
    return join_list(parts)


def render_map(
    board: HexBoard,
    marks: Mapping[Hex, str] | None = None,
    *,
    headers: bool = False,
    edges: Mapping[Edge, str] | None = None,
    symbols: Symbols | None = None,
) -> str:
    """Draw a board in the staggered format (``marks`` override symbols, e.g. figures).

    ``edges`` puts a symbol in the gap between two neighbouring hexes (walls and doors, see
    :func:`edge_marks`). ``symbols`` draws a rule set's own terrain kinds (``?`` where none fits). Without
    headers and edges the output parses back into the same tiles; with headers, column letters and row numbers
    are added for people.
    """
    marks = marks or {}
    flat = board.orientation is Orientation.FLAT
    offsets = {to_offset(h, board.orientation): h for h in board.tiles}
    cols = [c for c, _ in offsets]
    rows = [r for _, r in offsets]
    cmin, cmax, rmin, rmax = min(cols), max(cols), min(rows), max(rows)
    cmin -= cmin % 2  # keep column parity so the stagger stays right
    rmin -= rmin % 2
    margin = "    " if headers else ""

    def place(col: int, row: int) -> tuple[int, int]:
        """(text line, character) of a hex in the body of the drawing."""
        if flat:
            return 2 * (row - rmin) + (col - cmin) % 2, 2 * (col - cmin)
        return row - rmin, 4 * (col - cmin) + 2 * ((row - rmin) % 2)

    height = 2 * (rmax - rmin + 1) if flat else rmax - rmin + 1
    width = 2 * (cmax - cmin) + 3 if flat else 4 * (cmax - cmin) + 5
    grid = [[" "] * width for _ in range(height)]
    for r in range(rmin, rmax + 1):
        for c in range(cmin, cmax + 1):
            line, x = place(c, r)
            h = offsets.get((c, r))
            grid[line][x] = NO_TILE if h is None else marks.get(h, _symbol(board.tiles[h], symbols or {}))[:1]
    for e, symbol in (edges or {}).items():
        (la, xa), (lb, xb) = (place(*to_offset(h, board.orientation)) for h in (e.a, e.b))
        if la == lb:  # side by side on one line (pointy-top east-west)
            line, x = la, (xa + xb) // 2
        elif xa == xb:  # one above the other (flat-top north-south): the line between them
            line, x = (la + lb) // 2, xa
        else:  # diagonal: beside the upper hex, towards the lower one
            (lu, xu), (_lo, xl) = sorted(((la, xa), (lb, xb)))
            line, x = lu, xu + (1 if xl > xu else -1)
        if 0 <= line < height and 0 <= x < width and grid[line][x] == " ":
            grid[line][x] = symbol[:1]

    out: list[str] = []
    if headers:
        if flat:
            for parity in (0, 1):
                letters = [" "] * width
                for c in range(cmin + parity, cmax + 1, 2):
                    name = column_letters(c) if c >= 0 else "?"
                    pos = 2 * (c - cmin)
                    letters[pos : pos + len(name)] = list(name)
                out.append(margin + "".join(letters).rstrip())
        else:
            out.append(margin + "   ".join(column_letters(c) if c >= 0 else "?" for c in range(cmin, cmax + 1)))
    for i, chars in enumerate(grid):
        first_of_row = i % 2 == 0 if flat else True
        row_number = rmin + (i // 2 if flat else i) + 1
        prefix = f"{row_number:>3} " if headers and first_of_row else margin
        out.append((prefix + "".join(chars)).rstrip())
    return "\n".join(out)


def board_from_drawing(
    text: str,
    *,
    orientation: Orientation = Orientation.FLAT,
    edges: Mapping[Edge, str] | None = None,
    levels: Mapping[Hex, int] | None = None,
    symbols: Symbols | None = None,
    strict: bool = False,
    kinds: Mapping[str, TerrainKind] | None = None,
    edge_kinds: Mapping[str, EdgeKindSpec] | None = None,
) -> tuple[HexBoard, dict[str, list[Hex]]]:
    """Build a :class:`HexBoard` from a drawing; returns it with the drawing's marks.

    ``kinds``: the terrain kinds the board knows (the shared ones when None); every symbol must draw one.
    ``edge_kinds``: the edge kinds it knows (the shared ones when None); every edge must be of one.
    """
    drawn = parse_map(text, orientation, symbols, strict)
    tiles = dict(drawn.tiles)
    for h, level in (levels or {}).items():
        if h in tiles:
            info = tiles[h]
            tiles[h] = CellInfo(info.terrain, level, info.tokens)
    known = dict(kinds) if kinds is not None else dict(CORE_KINDS)
    unknown = sorted({info.terrain for info in tiles.values()} - set(known))
    if unknown:
        raise ValueError(f"the drawing holds terrain {', '.join(map(repr, unknown))} that no terrain kind declares")
    board = HexBoard(tiles=tiles, edges=dict(edges or {}), orientation=orientation, kinds=known,
                     edge_kinds=dict(edge_kinds) if edge_kinds is not None else dict(CORE_EDGE_KINDS))
    return board, drawn.marks
