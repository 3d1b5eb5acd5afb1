"""The board's canvas: everything drawn in map millimetres into textures, shown on screen as one quad.

Two Fbos, both at the same texture scale (about one texel per screen pixel at the zoom they were made for):
the tiles (terrain, tokens, hex labels: they change with the map or the GM's marks) and, over a copy of
that texture, the layers that change during play (shading, edges, figures, overlays). Kivy renders an Fbo
again only when an instruction inside it changed, so a frame that only pans or zooms draws one textured
quad under a matrix, and an update renders the board once and is shown from then on.
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

Bounds = tuple[float, float, float, float]  # x0, y0, x1, y1 in map millimetres (y down)


class MapLayers:
    """The groups a board draws into (``tiles``, ``tile_labels``; ``under``, ``edges``, ``figures``, ``over``,
    ``names``) and the instructions that show them on ``canvas`` clipped to a scissor box, through ``matrix``."""

    def __init__(self, canvas: Canvas) -> None:
        self.tiles_fbo = Fbo(size=(16, 16), with_stencilbuffer=False)
        with self.tiles_fbo:
            self._clear = ClearColor(*Window.clearcolor)  # the board's background, as the window's elsewhere
            ClearBuffers()
            PushMatrix()
            self._tiles_scale = Scale(1.0, 1.0, 1.0)
            self._tiles_shift = Translate(0.0, 0.0, 0.0)
            self.tiles = InstructionGroup()
            self.tile_labels = InstructionGroup()
            PopMatrix()
        self.fbo = Fbo(size=(16, 16), with_stencilbuffer=False)
        self.fbo.add(self.tiles_fbo)  # inside: a change of the tiles renders the board again too
        with self.fbo:
            PushMatrix()
            self._scale = Scale(1.0, 1.0, 1.0)
            self._shift = Translate(0.0, 0.0, 0.0)
            Color(1, 1, 1, 1)
        # The tiles' texture is opaque and as large as the board's: copied unblended, it clears the board too.
        self._tiles_quad = Rectangle(pos=(0, 0), size=(0, 0))
        for instruction in opaque(self._tiles_quad):
            self.fbo.add(instruction)
        with self.fbo:
            self.under = InstructionGroup()
            self.edges = InstructionGroup()
            self.figures = InstructionGroup()
            self.over = InstructionGroup()
            for g in (self.under, self.edges, self.figures, self.over):
                self.fbo.add(g)  # a second time (made inside ``with``, each is there already): as the board always
                # drew them, so translucent overlays keep the depth of colour they were chosen with
            self.names = InstructionGroup()  # figures' names and badges, last: no overlay line crosses them
            PopMatrix()
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
        self.tiles_fbo.ask_update()
        self.fbo.ask_update()

    def tiles_changed(self) -> None:
        """Render the tiles again (hex labels laid out anew around moved figures)."""
        self.tiles_fbo.ask_update()
