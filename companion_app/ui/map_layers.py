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
    """The groups a board draws into (``tiles``, ``tile_labels``; ``under``, ``edges``, ``figures``, ``over``)
    and the instructions that show them on ``canvas`` clipped to a scissor box, through ``matrix``."""

    def __init__(self, canvas: Canvas) -> None:
        self.tiles_fbo = Fbo(size=(16, 16), with_stencilbuffer=False)
        with self.tiles_fbo:
            ClearColor(0, 0, 0, 0)
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
            self._clear = ClearColor(*Window.clearcolor)  # the board's background, as the window's elsewhere
            ClearBuffers()
            PushMatrix()
            self._scale = Scale(1.0, 1.0, 1.0)
            self._shift = Translate(0.0, 0.0, 0.0)
            Color(1, 1, 1, 1)
            self._tiles_quad = Rectangle(pos=(0, 0), size=(0, 0))
            self.under = InstructionGroup()
            self.edges = InstructionGroup()
            self.figures = InstructionGroup()
            self.over = InstructionGroup()
            for g in (self.under, self.edges, self.figures, self.over):
                self.fbo.add(g)
            PopMatrix()
        canvas.add(self.fbo)  # renders when something in it changed, before the quad that shows it
        with canvas:
            # A scissor clips the board to the widget for free (a stencil costs full-area fills in software GL).
            self.scissor = ScissorPush(x=0, y=0, width=1, height=1)
            PushMatrix()
            self.matrix = MatrixInstruction()
            Color(1, 1, 1, 1)
        self._quad = Rectangle(pos=(0, 0), size=(0, 0))
        for instruction in opaque(self._quad):  # the board's texture is opaque: its background is cleared in
            canvas.add(instruction)
        with canvas:
            PopMatrix()
            ScissorPop()

    def place(self, bounds: Bounds, scale: float, margin_mm: float) -> None:
        """Size both textures for ``bounds`` at ``scale`` texels per millimetre (the board's with ``margin_mm``
        around it, for names and marks past the outer hexes) and render them."""
        x0, y0, x1, y1 = bounds
        w_mm, h_mm = max(1.0, x1 - x0), max(1.0, y1 - y0)
        self.tiles_fbo.size = (max(1, int(w_mm * scale)), max(1, int(h_mm * scale)))
        self._tiles_scale.xyz = (scale, scale, 1.0)
        self._tiles_shift.xyz = (-x0, y1, 0.0)
        tiles_w, tiles_h = self.tiles_fbo.size
        self._tiles_quad.texture = self.tiles_fbo.texture
        self._tiles_quad.pos = (x0, -y1)
        self._tiles_quad.size = (tiles_w / scale, tiles_h / scale)  # texel for texel in the board's texture
        margin_px = math.ceil(margin_mm * scale)
        margin = margin_px / scale  # a whole number of texels: the tiles' texture is copied without resampling
        self.fbo.size = (tiles_w + 2 * margin_px, tiles_h + 2 * margin_px)
        self._clear.rgba = tuple(Window.clearcolor)
        self._scale.xyz = (scale, scale, 1.0)
        self._shift.xyz = (-x0 + margin, y1 + margin, 0.0)
        self._quad.texture = self.fbo.texture
        self._quad.pos = (x0 - margin, -y1 - margin)
        self._quad.size = (self.fbo.size[0] / scale, self.fbo.size[1] / scale)
        self.tiles_fbo.ask_update()
        self.fbo.ask_update()

    def tiles_changed(self) -> None:
        """Render the tiles again (hex labels laid out anew around moved figures)."""
        self.tiles_fbo.ask_update()
