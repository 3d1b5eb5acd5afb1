"""Text on the live calibration window in any language: OpenCV's own fonts draw only ASCII.

Pillow draws the lines with the Japanese-capable TrueType font (``engine.fonts``), so a Japanese
instruction reads as it does on the tablet instead of as question marks.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from engine.fonts import japanese_font


@cache
def _font(size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(japanese_font()), size_px)


def text_width(text: str, size_px: int) -> float:
    """How wide ``text`` is drawn at ``size_px``, in pixels."""
    return float(_font(size_px).getlength(text))


def wrap_text(text: str, size_px: int, width_px: int) -> list[str]:
    """``text`` broken into lines no wider than ``width_px``: at spaces, or anywhere in Japanese (no spaces)."""
    lines: list[str] = []
    line = ""
    tokens = text.split(" ") if " " in text else list(text)
    joiner = " " if " " in text else ""
    for token in tokens:
        candidate = f"{line}{joiner}{token}" if line else token
        if line and text_width(candidate, size_px) > width_px:
            lines.append(line)
            line = token
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def draw_lines(image: NDArray[np.uint8], lines: list[tuple[str, tuple[int, int, int]]], origin: tuple[int, int],
               size_px: int, line_px: int) -> None:
    """Draw ``lines`` (text, BGR colour) on the BGR ``image`` in place, the first line's top at ``origin``."""
    if not lines:
        return
    picture = Image.fromarray(image[:, :, ::-1])
    pen = ImageDraw.Draw(picture)
    x, y = origin
    for i, (text, (b, g, r)) in enumerate(lines):
        pen.text((x, y + i * line_px), text, font=_font(size_px), fill=(r, g, b), stroke_width=1,
                 stroke_fill=(0, 0, 0))
    image[:] = np.asarray(picture)[:, :, ::-1]
