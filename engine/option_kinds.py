"""What kind of choice an option is, read from its id the same way for every rule set.

Every rule set names its options ``word``, ``word:subject`` or ``word-subject`` (``hold``, ``shot:ash``,
``push-troll``, ``open:F7|G7``), or names the subject alone: a figure (``garrick``), a cell (``A4``) or a
number (``20``). The kind is the leading word, and a figure, cell or number stands for its class, so that
``push-troll`` and ``push-elf`` are one kind (``push``), ``knight:troll`` is ``figure:figure`` and a damage
``20`` is ``number``. The auto player draws its choices by kind (:mod:`engine.autoplay`), and tests count
the kinds played as the rule groups a game reached. A new option a rule set adds is a new kind by itself.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from engine.game import Game
from engine.prompts import Option

FIGURE = "figure"
PLACE = "place"
NUMBER = "number"
SEPARATORS = ":->@|#"
_SPLIT = re.compile(f"[{re.escape(SEPARATORS)}]")


@dataclass(frozen=True)
class OptionKinds:
    """Reads option kinds for one game: its figures' ids and its board's cell labels."""

    figures: tuple[str, ...]  # longest first, so that ``orc-1`` is read before ``orc``
    labels: frozenset[str]

    @classmethod
    def of(cls, game: Game) -> OptionKinds:
        board = game.scenario.board
        figures = tuple(sorted(game.state.figures, key=lambda fid: (-len(fid), fid)))
        return cls(figures, frozenset(board.label(cell) for cell in board))

    def kind(self, option: Option) -> str:
        """The option's kind: ``figure``, ``place``, ``number``, or the id's leading word (see the module)."""
        if option.hex is not None and option.id in self.labels:
            return PLACE
        return self._kind(option.id, cells=False)

    def _kind(self, text: str, *, cells: bool) -> str:
        if text in self.figures:
            return FIGURE
        if cells and text in self.labels:
            return PLACE
        if text.isdigit():
            return NUMBER
        for fid in self.figures:
            if len(text) > len(fid) and text.startswith(fid) and text[len(fid)] in SEPARATORS:
                return FIGURE + text[len(fid)] + self._kind(text[len(fid) + 1:], cells=True)
        return _SPLIT.split(text, maxsplit=1)[0] or text


def kinds_offered(options: Collection[Option], kinds: OptionKinds) -> dict[str, list[Option]]:
    """The options grouped by kind, in the order the prompt offers them."""
    grouped: dict[str, list[Option]] = {}
    for option in options:
        grouped.setdefault(kinds.kind(option), []).append(option)
    return grouped
