"""Text as textures for drawing on canvases (board labels), cached: the same text renders once."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics.texture import Texture

_CACHE: dict[tuple[str, int, bool], Texture] = {}


def text_texture(text: str, font_px: int = 32, bold: bool = True) -> Texture:
    key = (text, font_px, bold)
    tex = _CACHE.get(key)
    if tex is None:
        label = CoreLabel(text=text, font_size=font_px, bold=bold, color=(1, 1, 1, 1))
        label.refresh()
        tex = label.texture
        if len(_CACHE) > 2000:
            _CACHE.clear()
        _CACHE[key] = tex
    return tex
