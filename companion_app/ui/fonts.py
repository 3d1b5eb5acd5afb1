"""The app's font: IPAexGothic (Japanese and Latin glyphs) for every label, button and text field, so neither
language is drawn as empty boxes. Registered once, where the app starts (:meth:`HexaApp.build`)."""

from __future__ import annotations

import logging

from kivy.core.text import DEFAULT_FONT, LabelBase

from engine.fonts import FontMissingError, japanese_font

log = logging.getLogger(__name__)


def use_japanese_font() -> str | None:
    """Make the Japanese font Kivy's default font (every widget that names no font uses it); its path, or None
    (the font is missing: Latin texts still draw, Japanese ones would not)."""
    try:
        path = str(japanese_font())
    except FontMissingError as exc:
        log.warning("%s; Japanese texts cannot be drawn", exc)
        return None
    # The font has no bold face of its own: bold texts use the same file (Kivy draws them bolder).
    LabelBase.register(DEFAULT_FONT, fn_regular=path, fn_italic=path, fn_bold=path, fn_bolditalic=path)
    return path
