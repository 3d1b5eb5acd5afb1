"""Render an Fbo again only where its drawing changed: a scissor box around what differs from its last render.

The board's textures are large (a whole map at the zoom it is shown at: 4 million texels on a 30×30 map), and in
software GL every render of one fills every texel, though a figure moved by one hex changes a few thousand. A
:class:`PartialRender` watches the instruction groups an Fbo draws. When the Fbo renders, it lists what each
group draws — every polygon of a mesh, every rectangle, each with its colour, texture and box — and compares
that with what the last render drew: only the boxes of what appeared, went, changed or changed places in the
drawing order are rendered again (in at most a few scissored passes), the rest of the texture keeps its
texels. Whatever it cannot account for (a first render, a resize, instructions other than colours, meshes and
rectangles, a lost GL context) renders the whole texture, so a change is
never clipped away. Meshes are read in Kivy's default vertex format (x, y, u, v), the one the board draws in.

Drawing code must replace instructions to change them (clear a group and draw it again, as the board does),
not change an instruction in place: a group whose instructions are the same objects as last time is taken to
draw what it drew then.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Literal

from kivy.graphics import BindTexture, Callback, Color, Fbo, InstructionGroup, Mesh, Rectangle
from kivy.graphics import opengl as gl

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in the groups' coordinates
# What one primitive draws: ("rect", colour, texture, x, y, w, h, texture coordinates) or ("mesh", colour,
# texture, its vertices' floats (x, y, u, v each), …); equal entries draw the same pixels.
Primitive = tuple[Any, ...]
MARGIN_TEXELS = 2  # around a changed box: edges rasterised half a texel out, texture filtering


def box_of(primitive: Primitive) -> Box:
    """Where a primitive draws."""
    if primitive[0] == "rect":
        x, y, w, h = primitive[3:7]
        return (min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h))
    points = primitive[3]
    xs, ys = points[0::4], points[1::4]
    return (min(xs), min(ys), max(xs), max(ys))


def _mesh_polygons(mesh: Mesh, rgba: tuple[float, ...]) -> list[Primitive] | None:
    """A triangle mesh's polygons when it is made of fans over consecutive vertices (as MeshBatch makes them:
    triangles (b, b+1, b+2), (b, b+2, b+3) …), each its own entry; otherwise the whole mesh as one."""
    if mesh.mode != "triangles":
        return None
    vertices, indices = mesh.vertices, mesh.indices
    texture = mesh.texture
    n = len(indices) - len(indices) % 3
    if not n:
        return []
    firsts, seconds, thirds = indices[0:n:3], indices[1:n:3], indices[2:n:3]
    starts = [0] + [j for j, (a, b) in enumerate(itertools.pairwise(firsts), 1) if a != b]
    runs = [(firsts[j], end - j) for j, end in zip(starts, [*starts[1:], len(firsts)], strict=True)]
    fans = (n == len(indices) and [t - 1 for t in thirds] == seconds
            and [s - f for s, f in zip(seconds, firsts, strict=True)] == [t for _, r in runs for t in range(1, r + 1)]
            and (runs[-1][0] + runs[-1][1] + 2) * 4 <= len(vertices))
    if not fans:
        return [("mesh", rgba, texture, tuple(vertices), tuple(indices))]
    return [("mesh", rgba, texture, tuple(vertices[base * 4:(base + r + 2) * 4])) for base, r in runs]


def primitives(children: Sequence[Any], rgba: tuple[float, ...]) -> tuple[list[Primitive], tuple[float, ...]] | None:
    """What ``children`` draw, in order, starting in colour ``rgba``; and the colour they leave. None when one of
    them is not a colour, a mesh, a rectangle (with the texture binding Kivy puts before it) or a group of those."""
    out: list[Primitive] = []
    for i in children:
        if isinstance(i, Color):
            rgba = tuple(i.rgba)
        elif isinstance(i, BindTexture):
            continue  # Kivy binds a textured rectangle's or mesh's texture before it: that texture is in its entry
        elif isinstance(i, Rectangle):
            x, y = i.pos
            w, h = i.size
            out.append(("rect", rgba, i.texture, x, y, w, h, tuple(i.tex_coords)))
        elif isinstance(i, Mesh):
            polygons = _mesh_polygons(i, rgba)
            if polygons is None:
                return None
            out += polygons
        elif type(i) is InstructionGroup:
            inner = primitives(i.children, rgba)
            if inner is None:
                return None
            drawn, rgba = inner
            out += drawn
        else:
            return None
    return out, rgba


def _common_start(a: Sequence[Primitive], b: Sequence[Primitive]) -> int:
    """How many entries two lists begin with alike (halving the length tried: each try one comparison in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def changed_boxes(old: Sequence[Primitive], new: Sequence[Primitive]) -> list[Box]:
    """The boxes of what differs between two renders' primitives (none when nothing does).

    What both begin and end with, in the same order, is the same; of the rest, entries changed in place give
    both their boxes, and where entries were added or taken away, those give theirs — unless the others were
    drawn in another order too (they may overlap differently), when every one of the rest gives its box."""
    if len(old) == len(new) and old == new:
        return []
    head = _common_start(old, new)
    tail = _common_start(old[head:][::-1], new[head:][::-1])
    old, new = old[head:len(old) - tail], new[head:len(new) - tail]
    if len(old) == len(new):  # changed in place (a figure moved): compared entry by entry, in the same order
        return [box_of(p) for a, b in zip(old, new, strict=True) if a != b for p in (a, b)]
    both = Counter(old) & Counter(new)

    def split(drawn: Sequence[Primitive]) -> tuple[list[Primitive], list[Box]]:
        budget = Counter(both)
        kept, boxes = [], []
        for primitive in drawn:
            if budget[primitive] > 0:
                budget[primitive] -= 1
                kept.append(primitive)
            else:
                boxes.append(box_of(primitive))
        return kept, boxes

    kept_old, gone = split(old)
    kept_new, came = split(new)
    if kept_old != kept_new:
        return [box_of(p) for p in (*old, *new)]
    return gone + came


TexelBox = tuple[int, int, int, int]  # x0, y0, x1, y1 in texels
EMPTY: TexelBox = (0, 0, 0, 0)


def _area(b: TexelBox) -> int:
    return (b[2] - b[0]) * (b[3] - b[1])


def _join(a: TexelBox, b: TexelBox) -> TexelBox:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _groups(boxes: Sequence[TexelBox], cell: int) -> list[TexelBox]:
    """The boxes joined where they lie in the same or neighbouring cells of a grid of ``cell`` texels.

    Two boxes are near when their ranges of cells, each widened by one cell, overlap along both axes. A box inside
    another is left out first (whatever is near it is near the other: the groups' boxes are the same), which halves a
    board render's list (most of its boxes overlap); the rest are found near by a sweep along x (boxes in order of
    their first cell column, each compared with those whose last column reaches it) and chained with a union-find.
    (The tablet's app runs without numpy: this is plain Python.)"""
    kept: list[TexelBox] = []
    for b in sorted(boxes, key=lambda b: (b[0] - b[2]) * (b[3] - b[1])):  # the largest first
        if not any(k[0] <= b[0] and k[1] <= b[1] and b[2] <= k[2] and b[3] <= k[3] for k in kept):
            kept.append(b)
    cells = [(x0 // cell, y0 // cell, (x1 - 1) // cell, (y1 - 1) // cell) for x0, y0, x1, y1 in kept]
    parent = list(range(len(kept)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    open_boxes: list[int] = []  # boxes that may still be near the next in the sweep
    for i in sorted(range(len(kept)), key=lambda k: cells[k][0]):
        first_x, first_y, _, last_y = cells[i]
        open_boxes = [j for j in open_boxes if cells[j][2] + 1 >= first_x]
        for j in open_boxes:
            if cells[j][1] <= last_y + 1 and first_y <= cells[j][3] + 1:
                mine, theirs = root(i), root(j)
                if mine != theirs:
                    parent[mine] = theirs
        open_boxes.append(i)
    joined: dict[int, TexelBox] = {}
    for i, b in enumerate(kept):
        r = root(i)
        joined[r] = _join(joined[r], b) if r in joined else b
    return list(joined.values())


def cover(boxes: Sequence[TexelBox], most: int) -> list[TexelBox]:
    """At most ``most`` boxes that cover ``boxes`` with little area to spare: boxes near each other joined (on a
    grid coarse enough to leave a few groups), then the two whose join adds least area, until few enough."""
    if not boxes:
        return []
    cell = 32
    groups = _groups(list(dict.fromkeys(boxes)), cell)  # a third of a board's changed boxes are repeats
    while len(groups) > 12:
        cell *= 2
        groups = _groups(groups, cell)
    while len(groups) > most:
        _, i, j = min((_area(_join(a, b)) - _area(a) - _area(b), i, j)
                      for i, a in enumerate(groups) for j, b in enumerate(groups) if i < j)
        joined = _join(groups[i], groups[j])
        groups = [g for k, g in enumerate(groups) if k not in (i, j)] + [joined]
    return groups


class PartialRender:
    """Renders ``fbo`` only inside the boxes of what changed in ``groups`` since its last render.

    ``groups`` are listed in the order the Fbo draws them (a group drawn twice is listed twice). Everything the
    Fbo draws between :attr:`begins` ``[k]`` and :attr:`ends` ``[k]`` (a clear or an opaque copy of another texture
    first, so that drawing it twice in one place gives what drawing it once does, then the groups) is a pass:
    each pass draws inside one box, so two changes far apart cost two small boxes, not one that spans them.
    ``to_texels`` maps the groups' coordinates to the Fbo's texels (x, y); :meth:`whole` asks for a whole render
    (call it when anything else in the Fbo changed: its size, a matrix, a texture it copies). ``before`` is the
    colour the first group starts in. :attr:`last_boxes` are the texel boxes of the last render (None: the whole
    texture). Another Fbo that copies this one's texture learns what changed through ``rendered`` (and adds it
    to its own :attr:`extra_boxes`)."""

    def __init__(self, fbo: Fbo, groups: Sequence[InstructionGroup],
                 to_texels: Callable[[float, float], tuple[float, float]], passes: int = 1,
                 before: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0),
                 rendered: Callable[[list[TexelBox] | None], None] | None = None) -> None:
        self.fbo = fbo
        self.rendered = rendered  # told each render's texel boxes (None: the whole texture), when it ends
        self.groups = list(groups)
        self.to_texels = to_texels
        self.before = before
        self.extra_boxes: list[TexelBox] = []  # texel boxes changed by something else (a copied texture)
        self.last_boxes: list[TexelBox] | None = None
        self.partial_renders = 0  # renders clipped to boxes, and whole ones (tests and benchmarks read them)
        self.whole_renders = 0
        self.texels_rendered = 0  # over all renders (a whole one counts every texel)
        self._whole = True
        # What each listed group drew at the last render: its instructions (kept: the same objects mean the same
        # drawing), the colour it started in, what they drew and the colour they left.
        self._drawn: list[tuple[list[Any], tuple[float, ...], list[Primitive], tuple[float, ...]] | None] = [
            None] * len(self.groups)
        self._pass_boxes: list[TexelBox | None] = []  # each pass's box; None: no scissor
        self._restore: tuple[bool, list[int]] | None = None
        self.begins = [Callback(lambda *_, k=k: self._begin(k)) for k in range(passes)]
        self.ends = [Callback(lambda *_, k=k: self._end(k)) for k in range(passes)]
        fbo.add_reload_observer(lambda *_: self.whole())  # a new GL context: the texture's texels are gone

    def whole(self, render: bool = True) -> None:
        """Render the whole texture next time (``render``: and render it at the next frame)."""
        self._whole = True
        if render:
            self.fbo.ask_update()

    def _changes(self) -> list[Box] | Literal[True]:
        """What changed in the groups since the last render (boxes in their coordinates), True: all of it."""
        out: list[Box] = []
        whole = False
        rgba = self.before
        found_for: dict[tuple[int, tuple[float, ...]], Any] = {}  # a group listed twice is read and compared once
        compared: set[tuple[int, int]] = set()
        for k, group in enumerate(self.groups):
            children = list(group.children)
            last = self._drawn[k]
            if last is not None and last[1] == rgba and len(last[0]) == len(children) and all(
                    a is b for a, b in zip(last[0], children, strict=True)):
                rgba = last[3]  # the same instructions from the same colour: the same drawing
                continue
            key = (id(group), rgba)
            if key not in found_for:
                found_for[key] = primitives(children, rgba)
            found = found_for[key]
            if found is None:
                self._drawn[k] = None
                whole = True
                continue
            drawn, left_in = found
            self._drawn[k] = (children, rgba, drawn, left_in)
            rgba = left_in
            if last is None:
                whole = True
                continue
            if whole or (id(last[2]), id(drawn)) in compared:
                continue
            compared.add((id(last[2]), id(drawn)))
            out += changed_boxes(last[2], drawn)
        return True if whole else out

    def _boxes(self) -> list[TexelBox] | None:
        """The texel boxes (x0, y0, x1, y1) to render, at most one per pass; None: the whole texture."""
        changes = self._changes()
        if self._whole or changes is True:
            return None
        texel_boxes = list(self.extra_boxes)
        for box in changes:
            (ax, ay), (bx, by) = self.to_texels(box[0], box[1]), self.to_texels(box[2], box[3])
            texel_boxes.append((math.floor(min(ax, bx)) - MARGIN_TEXELS, math.floor(min(ay, by)) - MARGIN_TEXELS,
                                math.ceil(max(ax, bx)) + MARGIN_TEXELS, math.ceil(max(ay, by)) + MARGIN_TEXELS))
        w, h = (int(v) for v in self.fbo.size)
        clipped = [(max(0, b[0]), max(0, b[1]), min(w, b[2]), min(h, b[3])) for b in texel_boxes]
        boxes = cover([b for b in clipped if b[2] > b[0] and b[3] > b[1]], len(self.begins))
        if sum(_area(b) for b in boxes) >= 0.8 * w * h:
            return None
        return boxes

    def _begin(self, k: int) -> None:
        if k == 0:
            boxes = self._boxes()
            self._whole = False
            self.extra_boxes = []
            if boxes is None:
                self.whole_renders += 1
                self.texels_rendered += int(self.fbo.size[0]) * int(self.fbo.size[1])
                self.last_boxes = None
                self._pass_boxes = [None] + [EMPTY] * (len(self.begins) - 1)
            else:
                self.partial_renders += 1
                self.texels_rendered += sum(_area(b) for b in boxes)
                self.last_boxes = boxes
                self._pass_boxes = [*boxes, *[EMPTY] * (len(self.begins) - len(boxes))]
            self._restore = (bool(gl.glIsEnabled(gl.GL_SCISSOR_TEST)), list(gl.glGetIntegerv(gl.GL_SCISSOR_BOX)))
        box = self._pass_boxes[k] if k < len(self._pass_boxes) else EMPTY
        if box is None:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        else:
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glScissor(box[0], box[1], box[2] - box[0], box[3] - box[1])  # an empty box: the pass draws nothing

    def _end(self, k: int) -> None:
        if k < len(self.ends) - 1 or self._restore is None:
            return
        if self.rendered is not None:
            self.rendered(self.last_boxes)
        enabled, box = self._restore
        self._restore = None
        if len(box) >= 4:
            gl.glScissor(*box[:4])
        if enabled:
            gl.glEnable(gl.GL_SCISSOR_TEST)
        else:
            gl.glDisable(gl.GL_SCISSOR_TEST)
