"""Dice the table camera reads, as answers to a roll prompt: which settled roll answers which of the prompt's dice.

Pure (no sockets, no clock): the engine service feeds it every settled roll of a tray (``dice`` messages of the
camera service, :mod:`engine.wire.dice_messages`) while a roll prompt waits, and keeps what it returns.

- The prompt's dice are thrown in **groups**: the dice one side rolls for one figure (or for no figure) at once
  (:func:`die_groups`). Dice of different groups (an opposed roll, a roll-off) are thrown one group after the
  other through a shared tray, in the prompt's order; a tray named by a side's id is that side's tray, and takes
  that side's next group, so both sides may throw at the same time, each in its own tray.
- A settled roll whose dice match the group (as many, of the same kinds) and are all read with no doubt gives
  the group's faces: the next group is waited for (``partial``), or the prompt is answered (``proposal``, which
  the service takes after a short countdown unless a player says it is wrong).
- Any doubt (a cocked die, one partly outside the tray, dice touching, an unreadable face, a low confidence) or a
  count or kind that differs from the group's gives a ``question``, never a guess: the faces read, and which of
  the prompt's dice the players tap the face of (none when the count differs: they roll again or enter the
  faces).

The core's dice show 1 to their sides, so a d10's printed 0 is its 10 (:func:`face_value`); only d6 and d10 are
read (a prompt asking for other dice is answered on the tablet).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.i18n import gettext_for, ngettext_for
from engine.prompts import DieRequest, Prompt, PromptKind
from engine.texts import join_list, join_words
from engine.wire.dice_messages import DieDoubt, DieKind, DieSeen, TraySeen

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

DIE_KINDS: dict[int, DieKind] = {6: DieKind.D6, 10: DieKind.D10}  # the dice the camera reads, by their sides
# Below this a die the camera reports without doubt is still asked about. The reader flags its own doubts at its own,
# measured threshold (higher than this); this floor only catches a reader that reports a bare guess without one.
MIN_CONFIDENCE = 0.2

def _doubt_word(doubt: DieDoubt) -> str:
    words = {DieDoubt.COCKED: _("cocked"), DieDoubt.OUTSIDE: _("partly outside the tray"),
             DieDoubt.TOUCHING: _("touching another die"), DieDoubt.LOW_CONFIDENCE: _("not read surely"),
             DieDoubt.UNREADABLE: _("face unreadable")}
    return words[doubt]


def face_value(kind: DieKind, numeral: int) -> int:
    """The result a die's printed face gives: its numeral, a d10's 0 being 10 (the core's dice run 1..sides)."""
    return 10 if kind is DieKind.D10 and numeral == 0 else numeral


def camera_reads(prompt: Prompt) -> bool:
    """The prompt asks for dice, every one of a kind the camera reads."""
    return prompt.kind is PromptKind.ROLL and bool(prompt.dice) and all(d.sides in DIE_KINDS for d in prompt.dice)


@dataclass(frozen=True)
class DieGroup:
    """Dice of a prompt thrown together: one side's dice for one figure (or for none), by their index."""

    roller: str
    figure: str | None
    indexes: tuple[int, ...]

    def kinds(self, dice: Sequence[DieRequest]) -> tuple[DieKind, ...]:
        return tuple(DIE_KINDS[dice[i].sides] for i in self.indexes)


def die_groups(dice: Sequence[DieRequest]) -> tuple[DieGroup, ...]:
    """The prompt's dice in throws: a run of dice with the same roller and figure is one throw."""
    groups: list[DieGroup] = []
    for i, die in enumerate(dice):
        last = groups[-1] if groups else None
        if last is not None and last.roller == die.roller and last.figure == die.figure:
            groups[-1] = DieGroup(last.roller, last.figure, (*last.indexes, i))
        else:
            groups.append(DieGroup(die.roller, die.figure, (i,)))
    return tuple(groups)


class ReadingKind(Enum):
    IGNORED = "ignored"  # nothing for this prompt: not settled, an empty tray, a tray whose side rolls nothing now
    PARTIAL = "partial"  # one throw taken; the prompt waits for the next group
    PROPOSAL = "proposal"  # every die read: the answer, taken after the countdown unless a player says it is wrong
    QUESTION = "question"  # a doubt or a count that differs: the players tap the faces or roll again


@dataclass(frozen=True)
class DiceReading:
    """What one settled roll makes of the prompt: the faces known after it (prompt order, None: not yet), the dice
    whose faces the players are asked to tap (a question), and the sentence the tablets show."""

    kind: ReadingKind
    values: tuple[int | None, ...]
    text: str = ""
    missing: tuple[int, ...] = ()
    group: DieGroup | None = None

    @property
    def complete(self) -> bool:
        return bool(self.values) and all(v is not None for v in self.values)


def _pending(dice: Sequence[DieRequest], values: Sequence[int | None]) -> list[DieGroup]:
    return [g for g in die_groups(dice) if any(values[i] is None for i in g.indexes)]


def _count(n: int, kind: DieKind) -> str:
    """Dice notation: "1d6", "2d10"."""
    return f"{n}{kind}"


def _asked(group: DieGroup, dice: Sequence[DieRequest]) -> str:
    kinds = group.kinds(dice)
    return join_words(_count(kinds.count(k), k) for k in DieKind if k in kinds)


def _seen_faces(seen: Sequence[DieSeen]) -> list[str]:
    return [str(face_value(d.kind, d.value)) for d in seen if d.value is not None and _is_read(d)]


def _is_read(die: DieSeen, floor: float = MIN_CONFIDENCE) -> bool:
    return die.read and die.confidence >= floor


def _doubt_of(die: DieSeen) -> DieDoubt:
    if die.doubt is not None:
        return die.doubt
    return DieDoubt.UNREADABLE if die.value is None else DieDoubt.LOW_CONFIDENCE


def doubt_question(read: Sequence[str], doubts: Sequence[DieDoubt]) -> str:
    """"I see 5, 3 and one die I can't read (cocked): reroll it or tap its face." """
    why = join_words(dict.fromkeys(_doubt_word(d) for d in doubts))
    n = len(doubts)
    if not read:
        return _n("I see one die I can't read ({why}): reroll it or tap its face.",
                  "I see {n} dice I can't read ({why}): reroll them or tap their faces.", n, why=why)
    return _n("I see {faces} and one die I can't read ({why}): reroll it or tap its face.",
              "I see {faces} and {n} dice I can't read ({why}): reroll them or tap their faces.", n,
              faces=join_list(read), why=why)


def _count_question(seen: Sequence[DieSeen], group: DieGroup, dice: Sequence[DieRequest], roller: str,
                    later: bool) -> str:
    faces = _seen_faces(seen)
    unread = len(seen) - len(faces)
    shown = [*faces, *([_("?")] * unread)]
    seen_text = _n("one die ({faces})", "{n} dice ({faces})", len(seen), faces=", ".join(shown))
    if later:
        return _("I see {seen}, but the dice are thrown one throw at a time: first {asked} for {roller}, alone. "
                 "Roll again, or enter the faces.", seen=seen_text, roller=roller, asked=_asked(group, dice))
    return _("I see {seen}, but this throw is {asked} for {roller}: roll again, or enter the faces.",
             seen=seen_text, roller=roller, asked=_asked(group, dice))


def read_roll(prompt: Prompt, values: Sequence[int | None], tray: TraySeen, tray_side: str | None,
              name: Callable[[str], str] = str, floor: float = MIN_CONFIDENCE) -> DiceReading:
    """What the settled ``tray`` makes of ``prompt``, whose dice already have the faces ``values`` (None: not yet).

    ``tray_side``: the side whose tray this is (its dice answer only that side's next throw), None for a tray
    every side throws in (it answers the next throw of the prompt). ``name`` gives a side's name for the texts.
    """
    known = tuple(values)
    if not camera_reads(prompt) or not tray.settled or not tray.dice:
        return DiceReading(ReadingKind.IGNORED, known)
    dice = prompt.dice
    pending = _pending(dice, known)
    if tray_side is not None:
        pending = [g for g in pending if g.roller == tray_side]
    if not pending:
        return DiceReading(ReadingKind.IGNORED, known)
    group = pending[0]
    wanted = group.kinds(dice)
    seen = sorted(tray.dice, key=lambda d: (d.x_mm, d.y_mm))
    read = [d for d in seen if _is_read(d, floor) and d.value is not None]
    slots = {kind: [i for i, k in zip(group.indexes, wanted, strict=True) if k is kind] for kind in DieKind}
    if len(seen) != len(wanted) or any(sum(d.kind is kind for d in read) > len(slots[kind]) for kind in DieKind):
        later = tray_side is None and len(seen) > len(wanted) and len(_pending(dice, known)) > 1
        return DiceReading(ReadingKind.QUESTION, known, _count_question(seen, group, dice, name(group.roller), later),
                           group=group)
    # As many dice as the throw asks for: each kind's dice read, left to right, give that kind's dice in order (the
    # dice of one throw are alike); the dice not read leave the others to be tapped (a die not read may even have
    # been taken for another kind).
    faces = list(known)
    for kind in DieKind:
        for i in slots[kind]:
            faces[i] = None
        for i, numeral in zip(slots[kind], (d.value for d in read if d.kind is kind and d.value is not None),
                              strict=False):
            faces[i] = face_value(kind, numeral)
    missing = [i for i in group.indexes if faces[i] is None]
    doubts = [_doubt_of(d) for d in seen if d not in read]
    if missing:
        shown = [str(faces[i]) for i in group.indexes if faces[i] is not None]
        return DiceReading(ReadingKind.QUESTION, tuple(faces), doubt_question(shown, doubts), tuple(missing), group)
    after = tuple(faces)
    if all(v is not None for v in after):
        return DiceReading(ReadingKind.PROPOSAL, after, read_text(after), group=group)
    following = _pending(dice, after)[0]
    return DiceReading(ReadingKind.PARTIAL, after, waiting_text(after, name(following.roller),
                                                                _asked(following, dice)), group=group)


def read_text(values: Sequence[int | None]) -> str:
    """"Read: 5 3" (a die not read yet shows as –)."""
    return _("Read: {faces}", faces=" ".join("–" if v is None else str(v) for v in values))


def waiting_text(values: Sequence[int | None], roller: str, asked: str) -> str:
    """"Read: 5 –. Next: 1d6 for Goblins." """
    faces = " ".join("–" if v is None else str(v) for v in values)
    return _("Read: {faces}. Next: {asked} for {roller}.", faces=faces, roller=roller, asked=asked)


def complete_with(reading: DiceReading, tapped: Sequence[int], dice: Sequence[DieRequest]) -> tuple[int | None, ...]:
    """A question's faces with the players' taps for its ``missing`` dice (in that order); raises ValueError with
    the reason when the taps do not fit."""
    if len(tapped) != len(reading.missing):
        raise ValueError(_n("tap the face of the one die the camera could not read, not {given}",
                            "tap the faces of the {n} dice the camera could not read, not {given}",
                            len(reading.missing), given=len(tapped)))
    faces = list(reading.values)
    for i, value in zip(reading.missing, tapped, strict=True):
        sides = dice[i].sides
        if not 1 <= value <= sides:
            raise ValueError(_("{value} is not a result of a {sides}-sided die (1–{sides})", value=value, sides=sides))
        faces[i] = value
    return tuple(faces)
