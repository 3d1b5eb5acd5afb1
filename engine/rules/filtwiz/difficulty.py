"""The difficulty scale for checks (the original's "判定の難易度の目安"), as the GM reads it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)


@dataclass(frozen=True)
class Difficulty:
    value: int
    name: str
    text: str


SCALE: tuple[Difficulty, ...] = (
    Difficulty(0, N_("easy"),
               N_("no modifier: easy, even a novice with the aptitude manages; a related skill makes it sure")),
    Difficulty(3, N_("standard"), N_("a little hard for a novice; easy for one practised in a related skill")),
    Difficulty(6, N_("rather hard"),
               N_("nearly impossible for a novice; one practised in a related skill just manages")),
    Difficulty(9, N_("hard"), N_("nearly impossible unless an expert in the field")),
    Difficulty(12, N_("very hard"), N_("an expert manages only with help from those around")),
)


def difficulty(value: int) -> Difficulty:
    """The scale's entry of a difficulty (0, 3, 6, 9 or 12)."""
    for d in SCALE:
        if d.value == value:
            return d
    raise ValueError(_("difficulty {value} is not on the scale; use one of {values}", value=value,
                       values=", ".join(str(d.value) for d in SCALE)))
