"""The camera's dice as answers to the pending roll prompt: the reading shown, its countdown, the rolls taken.

The matching itself is :mod:`engine.dice_reading` (pure); this keeps what it returned between the camera
service's ``dice`` messages (one per frame, the same settled roll again and again) and the tablets' ``dice``
commands. A settled roll is taken once (a tray's ``roll`` counter), and only while a roll prompt waits that the
camera may answer (``mode`` camera, not a prompt the game master answers): dice lying in the tray from before
are never taken as the answer to a prompt that comes later. While its reading is shown, though, the same roll
read again differently replaces it: a cocked die that falls flat, a die nudged and read again, is not left as
a question (or a proposal) the tray no longer shows, as long as no player has tapped a face for it. Clock readings
(``now``, monotonic seconds) come from the caller.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from engine.actions import CAMERA, CAMERA_AND_TABLET, Roll
from engine.dice_reading import DiceReading, ReadingKind, camera_reads, complete_with, read_roll, read_text
from engine.errors import EngineError
from engine.game import Game
from engine.i18n import gettext_for
from engine.wire import DiceAnswer, TraySeen

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

CAMERA_MODE = "camera"
TABLET_MODE = "tablet"
COUNTDOWN_S = 3.0  # how long a proposal shows on the tablets before it is taken


class DiceCommandError(EngineError):
    """A ``dice`` command that does not fit the reading shown; the text says why and what to do."""


@dataclass
class _Shown:
    """The reading shown for the prompt, where it came from, and when a proposal is taken."""

    reading: DiceReading
    tray: str
    roll: int
    before: tuple[int | None, ...]  # the faces taken before this roll: what a new reading of it starts from
    deadline: float | None = None


@dataclass
class DiceAnswers:
    """The table's dice mode and countdown, and what the tray gave for the pending prompt."""

    mode: str = TABLET_MODE
    countdown_s: float = COUNTDOWN_S
    _prompt: tuple[object, ...] | None = None
    _dice: int = 0  # how many dice the prompt asks for
    _values: tuple[int | None, ...] = ()  # faces taken so far, per die of the prompt
    _shown: _Shown | None = None
    _tapped: bool = False  # a player tapped a face the camera could not read, for this prompt
    _rolls: dict[str, int] = field(default_factory=dict)  # tray → the last settled roll seen in it

    # -- the prompt ---------------------------------------------------------------------------------
    def _follow(self, game: Game) -> None:
        """Start afresh whenever the game moved on to another prompt (an answer, an undo, another game)."""
        prompt = game.prompt
        key = (id(game), len(game.history), prompt.kind, prompt.text, prompt.dice)
        if key != self._prompt:
            self._prompt, self._dice = key, len(prompt.dice)
            self._start_over()

    def _start_over(self) -> None:
        self._values = (None,) * self._dice
        self._shown = None
        self._tapped = False

    def _open(self, game: Game, gm_decides: bool) -> bool:
        return self.mode == CAMERA_MODE and not gm_decides and camera_reads(game.prompt)

    # -- the camera ---------------------------------------------------------------------------------
    def take(self, game: Game, tray: TraySeen, now: float, gm_decides: bool = False) -> bool:
        """A tray as the camera sees it now; True when what the tablets show changed."""
        if not tray.settled or not tray.dice:
            return False
        self._follow(game)
        if self._rolls.get(tray.tray) == tray.roll:  # this settled roll was seen already (taken, asked about, or
            return self._read_again(game, tray, now, gm_decides)  # before the prompt): only a shown one changes
        self._rolls[tray.tray] = tray.roll
        if not self._open(game, gm_decides):
            return False
        return self._show(game, tray, self._values, now)

    def _read_again(self, game: Game, tray: TraySeen, now: float, gm_decides: bool) -> bool:
        """The roll whose reading is shown, settled again: its newer reading replaces the shown one when it
        differs, unless a player tapped a face already (what the player said stands)."""
        shown = self._shown
        if (shown is None or (shown.tray, shown.roll) != (tray.tray, tray.roll) or self._tapped
                or not self._open(game, gm_decides)):
            return False
        return self._show(game, tray, shown.before, now, shown)

    def _show(self, game: Game, tray: TraySeen, before: tuple[int | None, ...], now: float,
              shown: _Shown | None = None) -> bool:
        """Read ``tray`` as the answer to the prompt's dice not in ``before``, and show it (in place of ``shown``,
        a reading of the same roll, when it differs from it)."""
        sides = {s.id: s.name for s in game.scenario.sides}
        reading = read_roll(game.prompt, before, tray, tray.tray if tray.tray in sides else None,
                            lambda side: sides.get(side, side))
        if reading.kind is ReadingKind.IGNORED or (shown is not None and reading == shown.reading):
            return False
        self._values = before if reading.kind is ReadingKind.QUESTION else reading.values
        deadline = now + self.countdown_s if reading.kind is ReadingKind.PROPOSAL else None
        self._shown = _Shown(reading, tray.tray, tray.roll, before, deadline)
        if shown is not None:
            log.info("dice: roll %d in %s read again: %s", tray.roll, tray.tray, reading.text)
        return True

    def due(self, game: Game, now: float) -> Roll | None:
        """The proposal whose countdown ran out, as the roll to apply (the reading then is gone)."""
        self._follow(game)
        shown = self._shown
        if shown is None or shown.deadline is None or now < shown.deadline or self.mode != CAMERA_MODE:
            return None
        return self._taken()

    def _taken(self) -> Roll:
        roll = Roll(tuple(v for v in self._values if v is not None),
                    source=CAMERA_AND_TABLET if self._tapped else CAMERA)
        self._start_over()
        return roll

    # -- the tablets' commands ----------------------------------------------------------------------
    def _named(self, game: Game, tray: str, roll: int) -> _Shown:
        self._follow(game)
        shown = self._shown
        if shown is None or (shown.tray, shown.roll) != (tray, roll):
            raise DiceCommandError(_("the reading of roll {roll} in {tray!r} is no longer shown (taken, or replaced "
                                     "by a newer roll): look at the tablet again, and undo the roll if it was taken "
                                     "wrong", roll=roll, tray=tray))
        return shown

    def wrong(self, game: Game, tray: str, roll: int) -> None:
        """A player says the reading is wrong: it is dropped with every face read for the prompt (roll again, or
        enter the faces)."""
        self._named(game, tray, roll)
        self._start_over()

    def accept(self, game: Game, tray: str, roll: int) -> Roll:
        """A player takes the proposal at once."""
        shown = self._named(game, tray, roll)
        if shown.reading.kind is not ReadingKind.PROPOSAL:
            raise DiceCommandError(_("the dice of roll {roll} are not all read yet: {text}", roll=roll,
                                     text=shown.reading.text))
        return self._taken()

    def tapped(self, game: Game, tray: str, roll: int, faces: list[int]) -> Roll | None:
        """The faces a player tapped for the dice the question asks about: the roll when the prompt is complete
        (camera and tablet together), None when it still waits for another throw."""
        shown = self._named(game, tray, roll)
        if shown.reading.kind is not ReadingKind.QUESTION or not shown.reading.missing:
            raise DiceCommandError(_("roll {roll} asks for no tapped face: {text}", roll=roll,
                                     text=shown.reading.text))
        try:
            values = complete_with(shown.reading, faces, game.prompt.dice)
        except ValueError as exc:
            raise DiceCommandError(str(exc)) from None
        self._values, self._tapped = values, True
        if all(v is not None for v in values):
            return self._taken()
        self._shown = _Shown(replace(shown.reading, kind=ReadingKind.PARTIAL, values=values, missing=(),
                                     text=read_text(values)), tray, roll, shown.before)
        return None

    def command(self, game: Game, args: dict[str, Any]) -> tuple[dict[str, Any], Roll | None]:
        """A validated ``dice`` command: the reply's fields, and the roll to apply when it completes the prompt."""
        op = args["op"]
        if op == "mode":
            self.mode = args["mode"]
            log.info("dice: from the %s now", self.mode)
            return {"op": op, "mode": self.mode}, None
        tray, roll = str(args["tray"]), int(args["roll"])
        if op == "wrong":
            self.wrong(game, tray, roll)
            log.info("dice: a player says roll %d in %s was read wrong", roll, tray)
            return {"op": op, "taken": None}, None
        taken = self.accept(game, tray, roll) if op == "take" else self.tapped(game, tray, roll,
                                                                                 [int(v) for v in args["faces"]])
        return {"op": op, "taken": None if taken is None else list(taken.values)}, taken

    # -- what the tablets show ----------------------------------------------------------------------
    def view(self, game: Game, now: float) -> DiceAnswer | None:
        self._follow(game)
        shown = self._shown
        if shown is None or self.mode != CAMERA_MODE:
            return None
        reading = shown.reading
        remaining = None if shown.deadline is None else round(max(0.0, shown.deadline - now), 2)
        return DiceAnswer(reading.kind.value, reading.values, reading.text, shown.tray, shown.roll,
                          len(game.history), reading.missing,
                          self.countdown_s if shown.deadline is not None else None, remaining)
