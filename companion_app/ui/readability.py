"""The smallest text a player must read, in one place: every text of the screens and the board is at least this.

A player sits about 1 m from the tablet. A 20/20 eye resolves a letter whose height subtends 5 arc minutes; text
read at a glance wants about 1.4 times that, 7′, which at 1 m is a cap height of 2.0 mm. The app's font's capitals
(IPAexGothic, for Japanese and Latin alike) are 0.72 of its font size, so the font must be 2.8 mm: 18 sp (Android's
dp and sp are 1/160 inch, 0.159 mm, on every screen, so the size holds on a 7" or a 13" tablet alike; on a desktop
and a TV Kivy takes 1 sp as 1 pixel at the text scale 1). Longer texts (prompts, odds) are larger still; the
text-size setting scales all of them.
"""

from __future__ import annotations

from kivy.metrics import sp

MIN_READ_SP = 18  # see the module docstring: 7 arc minutes of cap height at 1 m


def min_text_px(text_scale: float = 1.0) -> float:
    """The smallest font size, in pixels, of any text a player must read, at the app's text scale."""
    return float(sp(MIN_READ_SP)) * text_scale


def readable_sp(base: float) -> float:
    """A text's font size in sp: its own, but never below :data:`MIN_READ_SP`."""
    return max(float(base), float(MIN_READ_SP))
