"""A 1d6 roll on one of the rule document's tables, as a prompt: what each face means and the odds."""

from __future__ import annotations

from engine.i18n import gettext_for
from engine.prompts import Chance, DieRequest, Outcome, Prompt, PromptKind

from . import chart

_ = gettext_for(__name__)

DIE = 6


def table_prompt(side: str, figure: str, table: str, text: str, purpose: str, modifier: int = 0) -> Prompt:
    """Roll 1d6 (+ ``modifier``) on ``table``: outcomes per face of the die as rolled, and each row's odds."""
    outcomes: list[Outcome] = []
    chances: list[Chance] = []
    for row in chart.table(table):
        faces = [d for d in range(1, DIE + 1) if chart.lookup(table, d + modifier).low == row.low]
        if not faces:
            continue
        words = str(row.values["text"])
        outcomes.append(Outcome(faces[0], faces[-1], words))
        chances.append(Chance(words, len(faces) / DIE))
    roll = _("{text} Roll 1d6 {modifier:+d}.", text=text, modifier=modifier) if modifier \
        else _("{text} Roll 1d6.", text=text)
    return Prompt(PromptKind.ROLL, side, roll, figure=figure,
                  dice=(DieRequest(side, DIE, purpose, figure),), outcomes=(tuple(outcomes),), chances=tuple(chances))
