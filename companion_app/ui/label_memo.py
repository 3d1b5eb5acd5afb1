"""The tile labels laid out again only where something near them changed.

A small map's hex labels (and levels) are laid out clear of the figures, their names and marks
(:class:`~companion_app.ui.text_room.TextRoom`) whenever a figure moves. A label's outcome (placed, and where, or
dropped) depends only on what lies in the box it was tried in: the labels before it, the discs, names, walls and
marks there. So a label tried in the same place as at the last layout, whose box meets nothing that changed since
(nothing added, moved or gone there, and no earlier label that came out otherwise), comes out as it did: it is
claimed again without being checked, and its drawing (the same Kivy instructions) is put back, which the partial
render then finds unchanged. Everything is laid out afresh when the board, the zoom or the visible area change.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from kivy.graphics import BindTexture, InstructionGroup

from companion_app.ui.text_room import Box, Pt, TextRoom
from companion_app.viewmodels import palette
from companion_app.viewmodels.board_model import HexKey


@dataclass(frozen=True)
class LabelJob:
    """A text a tile asks for: its cell, what it says, where (its centre), how tall, and whether it is the cell's
    own label (the cells labelled are counted) or another text (a level)."""

    key: HexKey
    text: str
    centre: Pt
    height_mm: float
    rgba: palette.RGBA
    font_px: int
    names_cell: bool


@dataclass
class _LaidOut:
    job: LabelJob
    box: Box | None  # where it went (None: dropped)
    reach: Box | None  # where it was tried (None: dropped for its size alone, whatever the room holds)
    drawn: list[Any] = field(default_factory=list)  # its Kivy instructions


def _meet(a: Box, b: Box) -> bool:
    """Whether two boxes overlap or touch (a change touching a label's box is a change near it)."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


class _Boxes:
    """Boxes filed by the cells of a grid they touch, to ask which meet a box without checking them all."""

    def __init__(self, cell: float) -> None:
        self._cell = cell
        self._by_cell: dict[tuple[int, int], list[Box]] = {}

    def _cells(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self._cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def add(self, boxes: Iterable[Box]) -> None:
        for box in boxes:
            for cell in self._cells(box):
                self._by_cell.setdefault(cell, []).append(box)

    def meets(self, box: Box) -> bool:
        return any(_meet(box, b) for cell in self._cells(box) for b in self._by_cell.get(cell, ()))


def _slot(job: LabelJob) -> tuple[object, bool]:
    """What a job is the same text as at the last layout: its cell's label, or its cell's other text."""
    return job.key, job.names_cell


Draw = Any  # draw(group, text, centre, height_mm, rgba, font_px): what a placed label's drawing is


class LabelMemo:
    """The last layout of a board's tile labels, to lay the next one out only where it can differ. ``reused`` and
    ``tried``: how many labels the last :meth:`lay_out` put back as they were, and how many it tried afresh."""

    def __init__(self) -> None:
        self._scene: Hashable | None = None
        self._obstacles: frozenset[Box] = frozenset()
        self._last: list[_LaidOut] = []
        self.reused = 0
        self.tried = 0

    def lay_out(self, group: InstructionGroup, room: TextRoom, jobs: Sequence[LabelJob], scene: Hashable,
                draw: Draw) -> set[HexKey]:
        """Place ``jobs`` in order into ``room`` and draw the placed ones into ``group`` with ``draw``; ``scene``
        is everything else the layout depends on (the board's size, the zoom, the visible area, its walls): when
        it changes, every label is tried afresh. The cells whose own label was placed."""
        obstacles = room.obstacles()
        previous = {_slot(laid.job): laid for laid in self._last} if scene == self._scene else {}
        dirty = _Boxes(max(1.0, 4.0 * room.min_mm))  # where the room differs from the last layout's
        dirty.add(obstacles ^ self._obstacles if previous else ())
        asked = {_slot(job) for job in jobs}  # a label not asked for now (its cell is named) leaves its box free
        dirty.add(laid.box for slot, laid in previous.items() if slot not in asked and laid.box is not None)
        out: list[_LaidOut] = []
        self.reused = self.tried = 0
        for job in jobs:
            last = previous.get(_slot(job))
            if last is not None and last.job == job and (
                    last.reach is None or not dirty.meets(last.reach)):
                if last.box is not None:
                    room.claim(job.text, last.box)
                    for instruction in last.drawn:
                        group.add(instruction)
                out.append(last)
                self.reused += 1
                continue
            self.tried += 1
            fitted, reach = room.attempt(job.text, job.centre, job.height_mm, job.font_px)
            laid = _LaidOut(job, room.placed[-1][1] if fitted is not None else None, reach)
            if fitted is not None:
                before = len(group.children)
                draw(group, job.text, fitted[1], fitted[0], job.rgba, job.font_px)
                # Kivy puts a textured rectangle's texture binding before it when it is added: not kept, as adding
                # the rectangle again puts a new one
                laid.drawn = [i for i in group.children[before:] if not isinstance(i, BindTexture)]
            if previous and (last is None or last.box != laid.box):  # the labels after it may come out otherwise
                dirty.add(b for b in (None if last is None else last.box, laid.box) if b is not None)
            out.append(laid)
        self._scene, self._obstacles, self._last = scene, obstacles, out
        return {laid.job.key for laid in out if laid.job.names_cell and laid.box is not None}
