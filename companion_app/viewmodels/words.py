"""Lists, possessives and counts in the app's own texts, in the table's language ("A, B and C" / 「A、B、C」)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.flow.words import possessive as english_possessive
from engine.i18n import current_language, gettext_for, ngettext_for

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


def join_words(items: Iterable[str]) -> str:
    """"A, B and C" in English, 「A、B、C」 in Japanese."""
    words = [str(i) for i in items]
    if len(words) < 2:
        return "".join(words)
    if current_language() == "ja":
        return "、".join(words)
    return _("{rest} and {last}", rest=", ".join(words[:-1]), last=words[-1])


def join_list(items: Iterable[str], english: str = ", ") -> str:
    """Items listed without a conjunction (labels, ids): "a, b, c" / 「a、b、c」."""
    return ("、" if current_language() == "ja" else english).join(str(i) for i in items)


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


def possessive(name: str) -> str:
    """"Goblins'", "Red's" for an English sentence; 「ゴブリンの」 for a Japanese one."""
    return f"{name}の" if current_language() == "ja" else english_possessive(name)


def cell_noun(board_kind: str, count: int = 1) -> str:
    """What the board's cells are called: "hex" / "hexes", "zone" / "zones" (「ヘクス」「ゾーン」)."""
    if board_kind == "zones":
        return _("zone") if count == 1 else _("zones")
    if board_kind == "hex":
        return _("hex") if count == 1 else _("hexes")
    return _("cell") if count == 1 else _("cells")


def cells(board_kind: str, count: int) -> str:
    """A count of cells: "3 hexes", "1 zone" / 「3ヘクス」「1ゾーン」."""
    if board_kind == "zones":
        return _n("{n} zone", "{n} zones", count)
    if board_kind == "hex":
        return _n("{n} hex", "{n} hexes", count)
    return _n("{n} cell", "{n} cells", count)
