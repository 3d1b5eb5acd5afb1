"""The font files the texts need: one with Japanese glyphs, for the window and the printed sheets.

IPAexGothic (IPA Font License v1.0, which allows redistribution) comes from the ``japanize-kivy``
package on PyPI, which ships it with its licence. The package is only located, never imported:
importing it would reconfigure Kivy, and the printed sheets must not load Kivy at all.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

FONT_PACKAGE = "japanize_kivy"
FONT_FILE = Path("resources") / "ipaexg00401" / "ipaexg.ttf"
FONT_LICENCE = Path("resources") / "ipaexg00401" / "IPA_Font_License_Agreement_v1.0.txt"


class FontMissingError(LookupError):
    """The Japanese font's package is not installed."""


def japanese_font() -> Path:
    """The path of a TrueType font with Japanese (and Latin) glyphs."""
    spec = importlib.util.find_spec(FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FontMissingError(
            f"the Japanese font is missing: install the '{FONT_PACKAGE.replace('_', '-')}' package "
            "(the README's setup command does)"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / FONT_FILE
    if not path.is_file():
        raise FontMissingError(
            f"the Japanese font file {FONT_FILE} is not in the '{FONT_PACKAGE}' package: reinstall it"
        )
    return path
