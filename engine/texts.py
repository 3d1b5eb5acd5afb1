"""Text helpers every rule set shares, in the table's language: lists, agreement with a name, counts.

- :func:`join_words` — "A, B and C" in English, 「A、B、C」 in Japanese (``or`` lists too).
- :func:`agreeing` — the English sentence form that agrees with a side's name ("Goblins win",
  "Red wins"); both forms carry the same Japanese translation, so Japanese ignores the difference.
- :func:`possessive` (from ``engine.flow.words``) — "Goblins'" / "Red's" in English, 「ゴブリンの」 in
  Japanese: a placeholder value, so one message serves both.
- :func:`hexes`, :func:`cells`, :func:`figures_count` — counts with their counter words
  (「3ヘクス」, 「ゴブリン2体」).

A rule set writes whole sentences with keyword placeholders (``_("{side} rolls 1d6.", side=...)``) and
uses these helpers to fill them in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from engine.flow.words import is_plural
from engine.flow.words import possessive as possessive  # shared here with the other text helpers
from engine.i18n import N_, gettext_for, ngettext_for

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

# Translators: what separates the items of a list ("A, B"; Japanese 「A、B」).
LIST_SEPARATOR = N_(", ")


def join_words(items: Iterable[str], conjunction: str = "and") -> str:
    """``items`` as one list for a sentence: "A, B and C" (or "A, B or C"); Japanese 「A、B、C」 / 「A、B、またはC」."""
    words = [str(i) for i in items]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    rest, last = _(LIST_SEPARATOR).join(words[:-1]), words[-1]
    if conjunction == "or":
        return _("{rest} or {last}", rest=rest, last=last)
    return _("{rest} and {last}", rest=rest, last=last)


def join_list(items: Iterable[str]) -> str:
    """Items listed without a conjunction (ids, labels): "a, b, c" / 「a、b、c」."""
    return _(LIST_SEPARATOR).join(str(i) for i in items)


def agreeing(name: str, singular: str, plural: str) -> str:
    """The form of an English sentence that agrees with ``name``: ``plural`` for "Goblins", else ``singular``.

    Mark both with ``N_`` and look the chosen one up with the caller's ``_``; their translations are alike.
    """
    return plural if is_plural(name) else singular


def hexes(count: int) -> str:
    """"1 hex", "3 hexes" / 「3ヘクス」."""
    return _n("{n} hex", "{n} hexes", count)


@dataclass(frozen=True)
class CellWords:
    """What a board kind calls its cells: ``noun(count)`` ("hex" / "hexes") and ``count(n)`` ("2 hexes") in the
    table's language, and its English forms (one, many)."""

    noun: Callable[[int], str]
    count: Callable[[int], str]
    english: tuple[str, str] = ("cell", "cells")


# By board kind: registered by each kind (engine.board.kinds) and, on a tablet, from the board the engine sends.
_CELL_WORDS: dict[str, CellWords] = {}


def name_cells(board_kind: str, words: CellWords) -> None:
    """Say what the cells of a board kind are called (a kind registering itself; a tablet from the wire)."""
    _CELL_WORDS[board_kind] = words


def words_from_wire(board_kind: str, one: str, many: str, english: tuple[str, str] = ("cell", "cells")) -> None:
    """Name a board kind's cells by the words the engine sent, already in the table's language."""
    if board_kind in _CELL_WORDS:
        return  # this process knows the kind itself (the engine's, a demo)
    name_cells(board_kind, CellWords(lambda c: one if c == 1 else many,
                                     lambda n: _("{n} {cells}", n=n, cells=one if n == 1 else many), english))


def _cell_words(board_kind: str) -> CellWords:
    return _CELL_WORDS.get(board_kind) or CellWords(lambda c: _("cell") if c == 1 else _("cells"),
                                                    lambda n: _n("{n} cell", "{n} cells", n))


def cells(board_kind: str, count: int) -> str:
    """A count of a board's cells as its kind names them: "2 hexes", "1 zone" / 「2ヘクス」「1ゾーン」."""
    return _cell_words(board_kind).count(count)


def cell_noun(board_kind: str, count: int = 2) -> str:
    """What a board's cells are called without a number: "hexes" / 「ヘクス」, "zone" / 「ゾーン」."""
    return _cell_words(board_kind).noun(count)


def english_cell_word(board_kind: str, count: int = 1) -> str:
    """What a board kind's cells are called in English ("hex", "zones"), whatever the table's language."""
    one, many = _cell_words(board_kind).english
    return one if count == 1 else many


def figures_count(count: int, name: str = "") -> str:
    """Counts of figures: "Goblin ×2" in English, 「ゴブリン2体」 in Japanese; without a name "2 figures"."""
    if not name:
        return _n("{n} figure", "{n} figures", count)
    return _("{name} ×{n}", name=name, n=count)


def dice(count: int, sides: int = 6) -> str:
    """"2d6" written as players write it (the same in both languages)."""
    return f"{count}d{sides}"


# The shared terrain kinds as texts for people name them (a rule set's own kinds read as their name).
TERRAIN_WORDS: dict[str, str] = {"floor": N_("floor"), "blocking": N_("blocking"), "low": N_("low"),
                                 "water": N_("water"), "wall": N_("wall"), "door": N_("door"),
                                 "locked": N_("locked door")}


def terrain_word(name: str) -> str:
    """A terrain kind's name in the table's language: "blocking" / 「通行不能」; a rule set's own kind as named."""
    word = TERRAIN_WORDS.get(str(name))
    return _(word) if word else str(name)


@cache
def _lookup_for(module: str) -> Callable[..., str]:
    try:
        return gettext_for(module)
    except LookupError:  # a package without a catalogue of its own: the core's
        return _


def declared_text(owner: type | str, text: str, **args: object) -> str:
    """A text a rule set declares as data (a query's label, a phase name, marked with ``N_``), in the table's language.

    Looked up in the catalogue of ``owner``'s package (a class or a module name), then in the core's.
    """
    if not text:
        return text
    module = owner if isinstance(owner, str) else owner.__module__
    found = _lookup_for(module)(text, **args)
    if found == (text.format(**args) if args else text):
        return _(text, **args)
    return found
