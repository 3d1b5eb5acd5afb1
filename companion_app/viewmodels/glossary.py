"""Rules at hand: the text a long press on a term shows. The rule set's glossary, sent in the scenario
message (``glossary``: ``[{term, text, press}]``); the app holds no rule text of its own."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.board_model import BoardView, HexKey


@dataclass(frozen=True)
class Glossary:
    """Terms and their rule texts, and which board features (``terrain:low``, ``edge:locked``) each explains."""

    terms: Mapping[str, str] = field(default_factory=dict)
    press: Mapping[str, str] = field(default_factory=dict)  # board feature → term

    def lookup(self, term: str) -> str | None:
        """The rule text for a term (case and plural insensitive), or None."""
        t = term.strip().lower()
        if t in self.terms:
            return self.terms[t]
        if t.endswith("s") and t[:-1] in self.terms:
            return self.terms[t[:-1]]
        return None

    def terms_in(self, text: str) -> list[str]:
        """Glossary terms mentioned in a text, longest first, each once (for long-press on a prompt)."""
        low = text.lower()
        found: list[str] = []
        for term in sorted(self.terms, key=len, reverse=True):
            # Japanese writes no spaces between words: a Japanese term is found wherever it stands.
            pattern = re.escape(term) if not term.isascii() else r"\b" + re.escape(term) + r"s?\b"
            if re.search(pattern, low) and not any(term in f for f in found):
                found.append(term)
        return found

    def term_at(self, board: BoardView, key: HexKey) -> str | None:
        """The term a long press on a cell explains: a door beside it, else its terrain (None: nothing to say)."""
        tile = board.tiles.get(key)
        if tile is None:
            return None
        term = self.press.get(f"terrain:{tile.terrain}")
        for e in board.edges:
            if key in (e.a, e.b) and f"edge:{e.state}" in self.press:
                term = self.press[f"edge:{e.state}"]
        return term


def glossary_of(scenario: Mapping[str, Any] | None) -> Glossary:
    """The glossary a scenario message carries (empty when it carries none)."""
    terms: dict[str, str] = {}
    press: dict[str, str] = {}
    for row in (scenario or {}).get("glossary") or []:
        term = str(row["term"]).lower()
        terms[term] = str(row["text"])
        for feature in row.get("press") or []:
            press[str(feature)] = term
    return Glossary(terms, press)
