"""The cells' own texts on the board: each hex's or zone's label and level number, laid out clear of the figures
(:class:`~companion_app.ui.text_room.TextRoom`) and again only near what changed (:mod:`label_memo`), and the labels
of the cells a prompt names, ringed and placed before anything else."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

from kivy.graphics import InstructionGroup

from companion_app.ui.board_drawing import hex_outlines, inset_corners, placed_text, plate, text
from companion_app.ui.label_memo import LabelJob, LabelMemo
from companion_app.ui.text_room import GLYPH_SHARE, TextRoom
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import HexKey, TileView

CENTRE_BAND = 0.34  # a hex's middle (± this share of its size) is kept for the overlays' marks (costs, "!")
BAND_ROOM = 0.64  # a hex label or level number has this share of the size above or below that band


def label_height(t: TileView, size_mm: float, room: TextRoom, hexes: bool = True) -> float:
    """The height a tile's label is drawn at (a hex's within the band above its middle); 0 where it has no room."""
    return room.height(t.label_mm or size_mm * 0.26, size_mm * BAND_ROOM if hexes else math.inf) or 0.0


def tile_labels(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float, room: TextRoom,
                levelled: bool = False, hexes: bool = True, named: Iterable[HexKey] = (),
                memo: LabelMemo | None = None, scene: Hashable = None) -> set[HexKey]:
    """Each tile's label (a hex's above its middle, a zone's in its corner); on a map of levels (``levelled``) every
    tile's level as a number too, level 0 included, so no level is told by shade alone. A label that cannot be
    drawn at a readable size clear of the figures (the ``room``) is left out; the ``named`` cells' labels are drawn
    already (:func:`cell_tags`). With a ``memo`` of the last layout (in the same ``scene``), only the labels near
    what changed are laid out again (:mod:`label_memo`). The cells labelled."""
    return (memo or LabelMemo()).lay_out(group, room, label_jobs(tiles, size_mm, levelled, room, hexes, named),
                                         scene, text)


def label_jobs(tiles: Sequence[TileView], size_mm: float, levelled: bool, room: TextRoom, hexes: bool,
               named: Iterable[HexKey]) -> list[LabelJob]:
    """The texts the tiles ask for, in the order they are placed: each tile's label (but the ``named`` cells',
    drawn already), then its level."""
    jobs: list[LabelJob] = []
    skip = set(named)
    for t in tiles:
        h = label_height(t, size_mm, room, hexes)
        if h and t.label and t.key not in skip:
            at = (t.centre[0], t.centre[1] - size_mm * CENTRE_BAND - h / 2) if hexes else t.label_at
            jobs.append(LabelJob(t.key, t.label, at, h, palette.TEXT_DIM, 24, True))
        if t.level or levelled:
            height = room.height(max(size_mm * 0.26, t.label_mm * 0.6), size_mm * BAND_ROOM if hexes else math.inf)
            if height:
                below = t.centre[1] + size_mm * CENTRE_BAND + height / 2
                jobs.append(LabelJob(t.key, f"L{t.level}", (t.centre[0], below), height, palette.TEXT, 24, False))
    return jobs


def cell_tags(group: InstructionGroup, tiles: Sequence[TileView], size_mm: float, room: TextRoom,
              hexes: bool = True) -> None:
    """The labels of cells a prompt names, placed before any name: each cell ringed, its label where labels go
    (:func:`tile_labels`) or, where that has no room (a phone's small hexes), on a dark plate at a readable size
    beside its middle (above, below, then around it)."""
    hex_outlines(group, tiles, palette.NAMED_CELL, size_mm * 0.09, 0.9)
    for t in tiles:
        ring = inset_corners(t, 0.9)
        for i, a in enumerate(ring):
            room.add_stroke(a, ring[(i + 1) % len(ring)], size_mm * 0.045)
    for t in tiles:
        h = label_height(t, size_mm, room, hexes)
        at = (t.centre[0], t.centre[1] - size_mm * CENTRE_BAND - h / 2) if hexes else t.label_at
        if not t.label or (h and placed_text(group, room, t.label, at, h, palette.TEXT, 24)):
            continue
        h = room.height(size_mm * 0.26) or 0.0
        up = size_mm * CENTRE_BAND + h / 2
        ys = [y - t.centre[1] for _, y in inset_corners(t, 0.9)]
        clear = size_mm * 0.05 + h * 1.15 * GLYPH_SHARE / 2  # past the ring's stroke
        out_top, out_bottom = min(ys) - clear, max(ys) + clear
        places = [(0.0, -up), (0.0, up), (0.0, out_top), (0.0, out_bottom), (size_mm * 0.6, out_top),
                  (-size_mm * 0.6, out_top), (size_mm * 0.6, out_bottom), (-size_mm * 0.6, out_bottom)]
        for dx, dy in places:
            fitted = room.fit(t.label, (t.centre[0] + dx, t.centre[1] + dy), h * 1.15, 24)
            if fitted is not None:
                plate(group, fitted[1], fitted[0], t.label, 24)
                text(group, t.label, fitted[1], fitted[0] / 1.15, palette.NAMED_CELL, 24)
                break
