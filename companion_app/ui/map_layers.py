"""The board's canvas: everything drawn in map millimetres into textures, shown on screen as one quad.

Two Fbos, both at the same texture scale (about one texel per screen pixel at the zoom they were made for):
the tiles (terrain, tokens, hex labels: they change with the map or the GM's marks) and, over a copy of
that texture, the layers that change during play (shading, edges, figures, overlays). Kivy renders an Fbo
again only when an instruction inside it changed, so a frame that only pans or zooms draws one textured
quad under a matrix, and an update renders the board once and is shown from then on. Each texture renders
again only inside the box of what changed in it (``partial_render``): a figure moved by a hex renders a few
thousand texels of a board's millions.
"""

from __future__ import annotations

import math

from kivy.core.window import Window
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    InstructionGroup,
    MatrixInstruction,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Scale,
    Translate,
)
from kivy.graphics.instructions import Canvas
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush

from companion_app.ui.opaque import opaque
from companion_app.ui.partial_render import PartialRender, TexelBox

Bounds = tuple[float, float, float, float]  # x0, y0, x1, y1 in map millimetres (y down)
PASSES = 2  # boxes a texture renders again in: two figures moved far apart cost two small boxes


class MapLayers:
    """The groups a board draws into (``tiles``, ``tile_labels``; ``under``, ``edges``, ``figures``, ``over``,
    ``names``) and the instructions that show them on ``canvas`` clipped to a scissor box, through ``matrix``."""

    def __init__(self, canvas: Canvas) -> None:
        self._origin = (0.0, 0.0)  # the textures' lower left corner in the board's coordinates
        self._texels_per_mm = 1.0
        self.tiles = InstructionGroup()
        self.tile_labels = InstructionGroup()
        self.under, self.edges, self.figures, self.over = (InstructionGroup() for _ in range(4))
        self.names = InstructionGroup()  # figures' names and badges, last: no overlay line crosses them
        # The four layers that change in play are drawn twice, as the board always drew them, so translucent
        # overlays keep the depth of colour they were chosen with.
        drawn = [self.under, self.edges, self.figures, self.over] * 2 + [self.names]
        self.tiles_fbo = Fbo(size=(16, 16), with_stencilbuffer=False)
        self.fbo = Fbo(size=(16, 16), with_stencilbuffer=False)
        # Each texture renders again only where its drawing changed, in up to PASSES boxes (see partial_render);
        # the board's also where the tiles' texture it copies did.
        self.tiles_partial = PartialRender(self.tiles_fbo, [self.tiles, self.tile_labels], self._to_texels,
                                           passes=PASSES, rendered=self._tiles_rendered)
        self.partial = PartialRender(self.fbo, drawn, self._to_texels, passes=PASSES)
        self._clear = ClearColor(*Window.clearcolor)  # the board's background, as the window's elsewhere
        self._tiles_scale = Scale(1.0, 1.0, 1.0)
        self._tiles_shift = Translate(0.0, 0.0, 0.0)
        self._scale = Scale(1.0, 1.0, 1.0)
        self._shift = Translate(0.0, 0.0, 0.0)
        self._tiles_quad = Rectangle(pos=(0, 0), size=(0, 0))
        self.tiles_fbo.add(self._clear)
        for begin, end in zip(self.tiles_partial.begins, self.tiles_partial.ends, strict=True):
            # a pass: cleared (inside its box), then drawn
            for instruction in (begin, ClearBuffers(), PushMatrix(), self._tiles_scale, self._tiles_shift,
                                Color(1, 1, 1, 1), self.tiles, self.tile_labels, PopMatrix(), end):
                self.tiles_fbo.add(instruction)
        self.fbo.add(self.tiles_fbo)  # inside, first: a change of the tiles renders the board again too
        for begin, end in zip(self.partial.begins, self.partial.ends, strict=True):
            # a pass: the tiles' texture (opaque, as large as the board's) copied unblended clears the board too
            for instruction in (begin, PushMatrix(), self._scale, self._shift, Color(1, 1, 1, 1),
                                *opaque(self._tiles_quad), *drawn, PopMatrix(), end):
                self.fbo.add(instruction)
        canvas.add(self.fbo)  # renders when something in it changed, before the quad that shows it
        with canvas:
            # A scissor clips the board to the widget for free (a stencil costs full-area fills in software GL).
            self.scissor = ScissorPush(x=0, y=0, width=1, height=1)
            PushMatrix()
            self.matrix = MatrixInstruction()
            Color(1, 1, 1, 1)
        self._quad = Rectangle(pos=(0, 0), size=(0, 0))
        for instruction in opaque(self._quad):  # the board's texture is opaque: its background is drawn in
            canvas.add(instruction)
        with canvas:
            PopMatrix()
            ScissorPop()

    def place(self, bounds: Bounds, scale: float, margin_mm: float) -> None:
        """Size both textures for ``bounds`` and ``margin_mm`` around it (names and marks past the outer hexes)
        at ``scale`` texels per millimetre, and render them."""
        x0, y0, x1, y1 = bounds
        margin_px = math.ceil(margin_mm * scale)
        margin = margin_px / scale
        w_px = max(1, int(max(1.0, x1 - x0) * scale)) + 2 * margin_px
        h_px = max(1, int(max(1.0, y1 - y0) * scale)) + 2 * margin_px
        left, bottom = x0 - margin, -y1 - margin  # the textures' lower left corner in the board's coordinates
        self._origin, self._texels_per_mm = (left, bottom), scale
        for fbo in (self.tiles_fbo, self.fbo):
            fbo.size = (w_px, h_px)
        self._clear.rgba = tuple(Window.clearcolor)
        for scaling, shift in ((self._tiles_scale, self._tiles_shift), (self._scale, self._shift)):
            scaling.xyz = (scale, scale, 1.0)
            shift.xyz = (-left, -bottom, 0.0)
        tiles = self.tiles_fbo.texture
        tiles.mag_filter = tiles.min_filter = "nearest"  # copied texel for texel
        for quad, texture in ((self._tiles_quad, tiles), (self._quad, self.fbo.texture)):
            quad.texture = texture
            quad.pos = (left, bottom)
            quad.size = (w_px / scale, h_px / scale)
        self.tiles_partial.whole()
        self.partial.whole()

    def _to_texels(self, x: float, y: float) -> tuple[float, float]:
        return (x - self._origin[0]) * self._texels_per_mm, (y - self._origin[1]) * self._texels_per_mm

    def _tiles_rendered(self, boxes: list[TexelBox] | None) -> None:
        """The tiles' texture rendered again (inside the board's render): copy those parts of it again."""
        if boxes is None:
            self.partial.whole(render=False)  # it is rendering now
        else:
            self.partial.extra_boxes += boxes

    def tiles_changed(self) -> None:
        """Render the tiles again (hex labels laid out anew around moved figures)."""
        self.tiles_fbo.ask_update()
