"""Layouts that draw their children into a texture only when one of them changed, and that texture otherwise.

A window in software GL repaints every widget on every frame; a panel of buttons and labels beside a board
that pans costs as much as the board. A cached layer keeps its children's canvases inside a Kivy ``Fbo``,
which renders again only when an instruction inside it changed (a label's text, a button's pressed colour,
a scroll, a layout); every other frame draws one opaque quad, unblended. Touches, sizes and positions are the
layout's own: children keep the coordinates they would have without the cache.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, PopMatrix, PushMatrix, Rectangle, Translate
from kivy.graphics.instructions import Canvas
from kivy.properties import ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion_app.ui.opaque import opaque


class CachedLayerMixin:
    """Draws its own canvas and its children into an Fbo the size of the widget, cleared with ``layer_rgba``.

    ``layer_rgba`` is what shows where nothing is drawn: the window's clear colour unless a kv rule says
    otherwise. The quad is opaque, so a layer stands on the window's background, not over another widget.
    """

    layer_rgba = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self.canvas = Canvas()
        with self.canvas:
            self._layer_fbo = Fbo(size=(1, 1), with_stencilbuffer=True)  # scroll views inside clip with stencils
            self._layer_tint = Color(1, 1, 1, 1)
        self._layer_quad = Rectangle(pos=(0, 0), size=(1, 1), texture=self._layer_fbo.texture)
        self._layer_shown = opaque(self._layer_quad, when=lambda: self.opacity >= 1)  # type: ignore[attr-defined]
        for instruction in self._layer_shown:
            self.canvas.add(instruction)
        with self._layer_fbo:
            self._layer_clear = ClearColor(*Window.clearcolor)
            ClearBuffers(clear_color=True, clear_stencil=True)
            PushMatrix()
            self._layer_shift = Translate(0, 0)  # children draw in the parent's coordinates, the Fbo from 0, 0
            self._layer_own = Canvas()  # the widget's canvas.before and canvas rules (a background)
            self._layer_children = Canvas()
            self._layer_after = Canvas()  # its canvas.after rules
            PopMatrix()
        self._layer_fbo.add_reload_observer(self._layer_reloaded)
        self._layer_mine = list(self.canvas.children)  # what shows the texture (a textured quad binds it too)
        super().__init__(**kwargs)
        self._layer_adopt()
        self.bind(pos=self._layer_place, size=self._layer_place, layer_rgba=self._layer_recolour)  # type: ignore[attr-defined]
        self._layer_recolour()

    def _layer_adopt(self) -> None:
        """Move what kv rules drew on the widget's own canvas into the Fbo, in Kivy's order."""
        outer = self.canvas
        moved = [i for i in outer.children if not any(i is m for m in self._layer_mine)]
        if outer.has_before:
            for i in list(outer.before.children):
                outer.before.remove(i)
                self._layer_own.add(i)
        for i in moved:
            outer.remove(i)
            self._layer_own.add(i)
        if outer.has_after:
            for i in list(outer.after.children):
                outer.after.remove(i)
                self._layer_after.add(i)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> Any:
        canvas, self.canvas = self.canvas, self._layer_children  # Kivy attaches children to self.canvas
        try:
            return super().add_widget(widget, *args, **kwargs)  # type: ignore[misc]
        finally:
            self.canvas = canvas

    def remove_widget(self, widget: Any, *args: Any, **kwargs: Any) -> Any:
        canvas, self.canvas = self.canvas, self._layer_children
        try:
            return super().remove_widget(widget, *args, **kwargs)  # type: ignore[misc]
        finally:
            self.canvas = canvas

    def _layer_place(self, *_: Any) -> None:
        x, y = round(self.x), round(self.y)  # type: ignore[attr-defined]
        w, h = max(1, round(self.width)), max(1, round(self.height))  # type: ignore[attr-defined]
        if tuple(self._layer_fbo.size) != (w, h):
            self._layer_fbo.size = (w, h)
            texture = self._layer_fbo.texture
            texture.mag_filter = texture.min_filter = "nearest"  # one texel per pixel: exactly the children
            self._layer_quad.texture = texture
        self._layer_shift.xy = (-x, -y)
        self._layer_quad.pos = (x, y)
        self._layer_quad.size = (w, h)
        self._layer_fbo.ask_update()

    def _layer_recolour(self, *_: Any) -> None:
        rgba = self.layer_rgba or Window.clearcolor
        self._layer_clear.rgba = tuple(rgba)
        self._layer_fbo.ask_update()

    def _layer_reloaded(self, *_: Any) -> None:
        self._layer_fbo.ask_update()  # the GL context came back (Android resume): render anew


class CachedBoxLayout(CachedLayerMixin, BoxLayout):  # type: ignore[misc]
    """A BoxLayout drawn from a texture while nothing inside it changes."""


class CachedGridLayout(CachedLayerMixin, GridLayout):  # type: ignore[misc]
    """A GridLayout drawn from a texture while nothing inside it changes."""
