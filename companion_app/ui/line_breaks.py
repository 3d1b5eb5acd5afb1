"""Where a line of text may break, for texts that mix Japanese and English.

Kivy breaks lines at spaces only, and cuts a word too long for the line anywhere, so a Japanese sentence (which has
no spaces) is cut mid-word in its English parts and may start a line with 「。」 or 「ー」. Here a line breaks at a
space or between two Japanese characters, never inside an English word or a number, never before closing
punctuation, a small kana or a prolonged-sound mark, never after an opening bracket (the usual kinsoku rules), and
a paragraph does not end on a line of one or two characters ("す。" alone): the line above gives it its last piece.
Plain Python: the width of a text comes from the caller's ``measure``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Characters a line must not start with (closing punctuation, small kana, the prolonged-sound mark) …
NO_LINE_START = frozenset("、。，．,.:;!?！？：；)）]］}｝」』】〕〉》〙〗’”ー～〜…‥々ゝゞヽヾぁぃぅぇぉっゃゅょゎゕゖ"
                          "ァィゥェォッャュョヮヵヶ・%％")
# … and must not end with (opening brackets).
NO_LINE_END = frozenset("(（[［{｛「『【〔〈《〘〖‘“")
_JAPANESE = "\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_PLAIN = re.compile(rf" +|[{_JAPANESE}]|[^ {_JAPANESE}]+")
_MARKUP = re.compile(rf"\[[^\]]*\]| +|[{_JAPANESE}]|[^ \[{_JAPANESE}]+|\[")


def has_japanese(text: str) -> bool:
    """Whether ``text`` has a character of the Japanese scripts (kana, kanji, full-width forms)."""
    return any("\u3000" <= c <= "\u30ff" or "\u3400" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" for c in text)


def _tokens(line: str, markup: bool) -> list[str]:
    """The pieces a line is broken between: each Japanese character, each run of spaces, each other word (and,
    with ``markup``, each ``[tag]``, which has no width)."""
    return (_MARKUP if markup else _PLAIN).findall(line)


def _may_break(before: str, after: str) -> bool:
    """Whether a line may end after the token ``before`` with ``after`` beginning the next."""
    if not before or not after or before.isspace():
        return bool(before)
    if after[0] in NO_LINE_START or before[-1] in NO_LINE_END:
        return False
    return after[0].isspace() or has_japanese(before[-1]) or has_japanese(after[0])


def break_lines(text: str, width: float, measure: Callable[[str], float], markup: bool = False) -> str:
    """``text`` with line breaks where a line of ``width`` is full (as ``measure`` gives a text's width).

    A piece too long for a line on its own is left to the label, which cuts it; ``[tags]`` have no width when
    ``markup``."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        out += _break_paragraph(_tokens(paragraph, markup), width, measure, markup)
    return "\n".join(out)


def _width(token: str, measure: Callable[[str], float], markup: bool) -> float:
    if markup and token.startswith("[") and token.endswith("]") and len(token) > 1:
        return 0.0
    return measure(token)


def _break_paragraph(tokens: list[str], width: float, measure: Callable[[str], float], markup: bool) -> list[str]:
    lines: list[str] = []
    line: list[str] = []
    used = 0.0
    for token in tokens:
        w = _width(token, measure, markup)
        if line and used + w > width and not token.isspace():
            cut = _break_at(line, token)
            if cut > 0:
                lines.append("".join(line[:cut]).rstrip(" "))
                line = line[cut:]
                while line and line[0].isspace():
                    line.pop(0)
                used = sum(_width(t, measure, markup) for t in line)
        line.append(token)
        used += w
    lines.append("".join(line).rstrip(" "))
    return _without_widow(lines, markup)


WIDOW_CHARS = 2  # a last line this short (in characters, tags and spaces aside) takes a piece of the line above


def _without_widow(lines: list[str], markup: bool) -> list[str]:
    """``lines`` with a Japanese paragraph's too-short last line ("す。") given the last piece of the line above
    that may start a line: the lines above only get shorter, so every line still fits."""
    if len(lines) < 2:
        return lines
    last = re.sub(r"\[[^\]]*\]", "", lines[-1]) if markup else lines[-1]
    if len(last.strip()) > WIDOW_CHARS or not has_japanese(last):
        return lines
    tokens = _tokens(lines[-2], markup)
    for cut in range(len(tokens) - 1, 0, -1):
        if _may_break(tokens[cut - 1], tokens[cut]):
            above = "".join(tokens[:cut]).rstrip(" ")
            if not above.strip():
                break
            return [*lines[:-2], above, "".join(tokens[cut:]).lstrip(" ") + lines[-1]]
    return lines


def _break_at(line: list[str], next_token: str) -> int:
    """How many tokens of ``line`` stay on it when ``next_token`` does not fit: the last place a break is allowed
    (0: none, the line runs on and the label cuts it)."""
    after = next_token
    for cut in range(len(line), 0, -1):
        if _may_break(line[cut - 1], after):
            return cut
        after = line[cut - 1] if not line[cut - 1].isspace() else after
    return 0
