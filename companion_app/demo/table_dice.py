"""The headless demo's dice: the scripted player's faces thrown as dice on the synthetic table and read by the camera.

For a roll prompt the player throws each of the prompt's throws (:func:`engine.dice_reading.die_groups`: one side's
dice for one figure at once, the sides one after the other) into the synthetic tray with the faces it decided (the
control socket's ``roll`` command; a d10's 10 is its printed 0), and waits for the engine: a throw read while the
next is awaited, a proposal that the engine takes after its countdown, or a question. A question is answered as
a player would: roll again (twice at most), then tap the faces it asks for, or enter the whole roll. A proposal
that differs from the faces thrown is a misread: the player taps "that's wrong" and enters the faces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.actions import CAMERA, Roll, action_to_dict
from engine.dice_reading import DIE_KINDS, camera_reads, die_groups
from engine.i18n import gettext_for
from engine.prompts import Prompt
from engine.service.client import EngineClient
from vision.synthetic.control_client import TableControlClient

_ = gettext_for(__name__)

TRAY = "tray"  # the synthetic table's dice tray
REROLLS = 2  # a question is rolled again this many times before the faces are tapped or entered
READ_TIMEOUT_S = 25.0  # a throw: the dice tumble and settle, the camera reads them, the engine answers


@dataclass
class DiceStats:
    """The demo's dice: rolls asked for, read by the camera as thrown, asked again, and read wrong."""

    rolls: int = 0
    read: int = 0
    asked: int = 0
    wrong: int = 0

    def line(self) -> str:
        return _("dice read by the camera: {read} of {rolls} rolls ({asked} asked again, {wrong} wrong)",
                 read=self.read, rolls=self.rolls, asked=self.asked, wrong=self.wrong)


def numeral(sides: int, value: int) -> int:
    """The face a die shows for a result: a d10's 10 is printed 0."""
    return 0 if sides == 10 and value == 10 else value


class DiceThrower:
    """Answers the roll prompts of the headless demo with dice on the synthetic table (see the module docstring).

    ``wait(what, done, timeout_s)`` waits for the engine as the headless player does (polling its client);
    ``history`` gives the engine's game history; ``stalled`` is the error raised when the engine refuses the faces.
    """

    def __init__(self, engine: EngineClient, table: TableControlClient, wait: Callable[..., float],
                 history: Callable[[], list[dict[str, Any]]], say: Callable[[str], None],
                 stalled: type[Exception] = RuntimeError, timeout_s: float = READ_TIMEOUT_S) -> None:
        self.engine, self.table, self.wait, self.history, self.say = engine, table, wait, history, say
        self.stalled = stalled
        self.timeout_s = timeout_s
        self.stats = DiceStats()
        self._last_roll = -1  # the tray's roll counter of the newest reading taken: a throw's reading is newer

    def can_throw(self, prompt: Prompt) -> bool:
        return camera_reads(prompt)

    def _reading(self) -> dict[str, Any] | None:
        dice = (self.engine.table or {}).get("dice")
        return dice if isinstance(dice, dict) else None

    def _throw(self, prompt: Prompt, values: tuple[int, ...], indexes: tuple[int, ...], n: int
               ) -> dict[str, Any] | None:
        """Throw the dice ``indexes`` of the prompt with their faces; the engine's new reading (None: it took the
        roll, the history grew)."""
        dice = [(str(DIE_KINDS[prompt.dice[i].sides]), numeral(prompt.dice[i].sides, values[i])) for i in indexes]
        self.table.roll(dice, TRAY)

        def newer() -> dict[str, Any] | None:
            """The engine's reading of a roll newer than the last one taken (not the echo of a command on it)."""
            reading = self._reading()
            return reading if reading is not None and int(reading.get("roll", -1)) > self._last_roll else None

        self.wait(_("the camera to read the dice"), lambda: len(self.history()) > n or newer() is not None,
                  self.timeout_s)
        reading = None if len(self.history()) > n else newer()
        if reading is not None:
            self._last_roll = int(reading["roll"])
        return reading

    def answer(self, prompt: Prompt, roll: Roll, n: int) -> None:
        """Answer the roll prompt (``n`` actions played) with the faces ``roll`` through the tray and the camera."""
        self.stats.rolls += 1
        asked = False
        groups = die_groups(prompt.dice)
        g = 0
        tries = 0
        while g < len(groups):
            reading = self._throw(prompt, roll.values, groups[g].indexes, n)
            if reading is None:
                break  # taken (a zero countdown)
            state = reading.get("state")
            if state == "question":
                asked = True
                tries += 1
                self.say(_("    the camera asks: {text}", text=reading.get("text", "")))
                if tries <= REROLLS:
                    continue  # roll that throw again
                missing = [int(i) for i in reading.get("missing") or []]
                if missing:
                    if self._command("faces", reading, faces=[roll.values[i] for i in missing]) is not None:
                        self._played(n)  # the tapped faces completed the roll
                        break
                    g, tries = g + 1, 0
                    continue
                self._enter(roll, n)
                break
            values = tuple(reading.get("values") or ())
            thrown = tuple(roll.values[i] if i in self._through(groups, g) else None for i in range(len(roll.values)))
            if values != thrown:
                self.stats.wrong += 1
                self.say(_("    the camera read {read}, thrown {thrown}: that's wrong", read=values, thrown=thrown))
                self._wrong(reading, n)
                self._enter(roll, n)
                break
            if state == "proposal":
                self.say(_("    {text}", text=reading.get("text", "")))
                self._played(n)
                break
            g, tries = g + 1, 0
        self.stats.asked += asked
        played = self.history()[n]["action"]
        if played.get("source") == CAMERA and tuple(played.get("values") or ()) == roll.values:
            self.stats.read += 1

    @staticmethod
    def _through(groups: Any, g: int) -> set[int]:
        return {i for group in groups[:g + 1] for i in group.indexes}

    def _played(self, n: int) -> None:
        """Wait until the engine's game holds the roll (action ``n + 1``)."""
        self.wait(_("the engine to take the dice"), lambda: len(self.history()) > n, self.timeout_s)

    def _command(self, op: str, reading: dict[str, Any], **fields: Any) -> list[int] | None:
        """A ``dice`` command on the reading shown; the roll's faces when it completed the roll."""
        reply = self.engine.request("dice", op=op, tray=reading["tray"], roll=reading["roll"], **fields)
        if not reply.ok:
            raise self.stalled(_("the engine refused the dice command {op}: {error}", op=op, error=reply.error))
        taken = reply.fields.get("taken")
        return list(taken) if isinstance(taken, list) else None

    def _wrong(self, reading: dict[str, Any], n: int) -> None:
        """"That's wrong"; a misread the countdown already took is undone instead."""
        reply = self.engine.request("dice", op="wrong", tray=reading["tray"], roll=reading["roll"])
        if reply.ok:
            return
        self.wait(_("the engine to take the dice"), lambda: len(self.history()) > n, self.timeout_s)
        undone = self.engine.request("undo")
        if not undone.ok:
            raise self.stalled(_("the engine did not undo the misread roll: {error}", error=undone.error))
        self.wait(_("the engine to undo the misread roll"), lambda: len(self.history()) == n, self.timeout_s)

    def _enter(self, roll: Roll, n: int) -> None:
        """Enter the faces on the tablet (after a misread, or a question the tray could not settle)."""
        if len(self.history()) > n:
            return
        reply = self.engine.request("action", action=action_to_dict(Roll(roll.values)))
        if not reply.ok:
            raise self.stalled(_("the engine refused the faces {faces}: {error}", faces=roll.values,
                                 error=reply.error))
        self._played(n)
