"""The difficulty scale for checks (the original's "判定の難易度の目安"), as the GM reads it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Difficulty:
    value: int
    name: str
    text: str


SCALE: tuple[Difficulty, ...] = (
    Difficulty(0, "easy", "no modifier: easy, even a novice with the aptitude manages; a related skill makes it sure"),
    Difficulty(3, "standard", "a little hard for a novice; easy for one practised in a related skill"),
    Difficulty(6, "rather hard", "nearly impossible for a novice; one practised in a related skill just manages"),
    Difficulty(9, "hard", "nearly impossible unless an expert in the field"),
    Difficulty(12, "very hard", "an expert manages only with help from those around"),
)


def difficulty(value: int) -> Difficulty:
    """The scale's entry of a difficulty (0, 3, 6, 9 or 12)."""
    for d in SCALE:
        if d.value == value:
            return d
    raise ValueError(f"difficulty {value} is not on the scale; use one of {', '.join(str(d.value) for d in SCALE)}")
