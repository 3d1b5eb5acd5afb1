"""Lists, possessives and counts in the app's own texts, in the table's language ("A, B and C" / 「A、B、C」).

The shared ones are the engine's (``engine.texts``, standard library and Babel only); the app adds what only it
writes: clauses one after another, and a file's multi-line text as one paragraph.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.i18n import current_language
from engine.texts import cell_noun as _cell_noun
from engine.texts import cells as cells
from engine.texts import join_list as join_list
from engine.texts import join_words as join_words
from engine.texts import possessive as possessive


def cell_noun(board_kind: str, count: int = 1) -> str:
    """What the board's cells are called: "hex" / "hexes", "zone" / "zones" (one unless ``count`` says more)."""
    return _cell_noun(board_kind, count)


def join_clauses(items: Iterable[str]) -> str:
    """Clauses one after another: "a; b" / 「a／b」."""
    return ("／" if current_language() == "ja" else "; ").join(str(i) for i in items)


def _japanese(c: str) -> bool:
    return "\u3000" <= c <= "\u30ff" or "\u3400" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef"


def one_paragraph(text: str) -> str:
    """A text written over several lines (a scenario file's description) as one paragraph: the lines joined by a
    space, except between two Japanese characters, which Japanese writes without one."""
    out = ""
    for line in (" ".join(raw.split()) for raw in text.splitlines()):
        if line:
            out += (" " if out and not (_japanese(out[-1]) and _japanese(line[0])) else "") + line
    return out
