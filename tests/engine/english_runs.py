"""Whether a rule set's English texts leak into a Japanese game: the literal parts of its catalogue's messages."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from engine.i18n import catalogue_file, catalogue_root

WORD_RUN = 3  # a run of this many English words or more is an English sentence, not a name or a label


def english_runs(package: str) -> set[str]:
    """Each run of ``WORD_RUN`` or more English words in the package's messages, between their placeholders."""
    with catalogue_file(catalogue_root(package), "ja").open("rb") as f:
        catalog = read_po(f, locale="ja")
    runs: set[str] = set()
    for message in catalog:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            for part in re.split(r"\{[^}]*\}", text):
                for run in re.findall(r"[A-Za-z][A-Za-z']*(?:[ -][A-Za-z][A-Za-z']*)+", part):
                    if len(re.split(r"[ -]", run)) >= WORD_RUN:
                        runs.add(run)
    return runs


def leaked(output: str, package: str) -> list[str]:
    """The package's English word runs that appear in ``output``."""
    return sorted(run for run in english_runs(package) if re.search(rf"\b{re.escape(run)}\b", output))
