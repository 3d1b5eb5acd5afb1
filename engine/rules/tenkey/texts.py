"""Lists of words in the table's language: "4, 5 and 6" in English, "4、5、6" in Japanese."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from engine.i18n import gettext_for

_ = gettext_for(__name__)


def joined(words: Iterable[str]) -> str:
    """Words joined with the language's comma: "Ash, Bram" / "アッシュ、ブラム"."""
    # Translators: the separator between the items of a list
    return _(", ").join(words)


def word_list(words: Iterable[str]) -> str:
    """Words as a list for people: "4, 5 and 6" / "4、5、6"."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}", items=joined(items[:-1]), last=items[-1])


class TranslatedNames(Mapping[str, str]):
    """Names (marked with ``N_``) read in the table's language each time they are looked up: a rule set's phases."""

    def __init__(self, names: Mapping[str, str]) -> None:
        self._names = dict(names)

    def __getitem__(self, key: str) -> str:
        return _(self._names[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
