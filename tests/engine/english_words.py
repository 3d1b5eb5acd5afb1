"""Finding English sentences in text meant to be Japanese.

An English sentence here is a run of two or more English words side by side, where a word is a token
of two or more Latin letters (with inner ' or -), possibly quoted or followed by punctuation; a single
letter is a label (the map's column letters, a figure's letter). Tokens that
name things rather than say something do not count and break a run: ids and labels the caller allows
(figure and side ids, option ids, cell labels), dice notation such as 1d6 or 2d6, numbers, paths.
Only ASCII stretches of a line are read: Japanese text between words ends a run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"^[A-Za-z]{2,}(?:['-][A-Za-z]+)*$|^[A-Za-z](?:['-][A-Za-z]+)+$")
_ASCII_RUN = re.compile(r"[\x20-\x7e]+")
_EDGES = "'\"`.,:;!?()[]{}<>"
DICE = re.compile(r"^\d*d\d+$")


def is_word(token: str, allowed: set[str]) -> bool:
    """Whether ``token`` is an English word that says something (not an id, label, number or dice)."""
    core = token.strip(_EDGES)
    if not core or core.lower() in allowed or DICE.match(core):
        return False
    return bool(_WORD.match(core))


def english_runs(line: str, allowed: Iterable[str] = ()) -> list[str]:
    """The runs of two or more English words in ``line``."""
    known = {a.lower() for a in allowed}
    found: list[str] = []
    for stretch in _ASCII_RUN.findall(line):
        run: list[str] = []
        for token in stretch.split():
            if is_word(token, known):
                run.append(token)
                continue
            if len(run) >= 2:
                found.append(" ".join(run))
            run = []
        if len(run) >= 2:
            found.append(" ".join(run))
    return found


def english_lines(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Each line of ``text`` that holds an English sentence, with the runs found: ``'line'  <- ['run']``."""
    known = list(allowed)
    return [f"{line!r}  <- {runs}" for line in text.splitlines() if (runs := english_runs(line, known))]
