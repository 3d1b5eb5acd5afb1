"""The cells a prompt names: the plain search the board uses finds exactly what the whole-word pattern finds."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any, cast

from companion_app.viewmodels.board_model import named_cells, names_as_word

LABELS = ("M8", "8", "A1", "A10", "1d8", "B", "Keep", "Keypad 7", "Gate-2", "塔", "K", "d8")
PIECES = ("M8", "8", "A1", "A10", " ", ", ", "1d8", "at ", "(", ")", "-", "x", "K", "eep", "Keypad 7", "塔", "d", ".",
          "Gate-2", "_", "é")


def reference(text: str, label: str) -> bool:
    """The pattern the board searched with before: the label with no ASCII letter or digit either side."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(label)}(?![0-9A-Za-z])", text) is not None


def test_whole_words_only() -> None:
    assert names_as_word("Move to M8.", "M8")
    assert not names_as_word("Move to M8.", "8")  # the 8 of M8
    assert not names_as_word("Roll 1d8", "8") and not names_as_word("Roll 1d8", "d8")
    assert names_as_word("8", "8") and names_as_word("A10 or A1", "A1")  # the second occurrence is a word
    assert not names_as_word("A10", "A1")
    assert names_as_word("塔へ", "塔")  # beside a non-ASCII character: still a word, as the pattern had it


def test_the_plain_search_agrees_with_the_pattern_on_random_texts() -> None:
    rng = random.Random(5)
    for _ in range(4000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 8)))
        for label in LABELS:
            assert names_as_word(text, label) == reference(text, label), (text, label)


def test_the_cells_named_agree_with_the_pattern_for_every_label() -> None:
    board = cast(Any, SimpleNamespace(tiles={i: SimpleNamespace(label=label) for i, label in enumerate(LABELS)}))
    rng = random.Random(7)
    for _ in range(2000):
        texts = ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 8))) for _ in range(rng.randint(1, 3))]
        expected: list[Any] = [i for i, label in enumerate(LABELS) if any(reference(t, label) for t in texts)]
        assert named_cells(board, texts) == expected, texts
