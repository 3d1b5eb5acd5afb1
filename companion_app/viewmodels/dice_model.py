"""The dice the camera read in the tray for the pending roll prompt, as the prompt panel shows them.

The engine sends them in the ``table`` message's ``dice`` (engine.wire.dice_answer): a proposal ("Read: 5 3",
taken when its countdown runs out unless a player taps "That's wrong"), a question (the engine's words, and face
buttons for each die it could not read: tapping them completes the roll) or a throw read while the next is
awaited. The answers are ``dice`` commands; typing the faces and the virtual roll stay below, as ever.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.prompt_model import DieView, PromptModel
from engine.i18n import gettext_for

_ = gettext_for(__name__)


@dataclass
class DiceRead:
    """One reading of the tray, with when it arrived (to count its countdown down here) and the faces tapped."""

    state: str  # partial, proposal or question
    values: tuple[int | None, ...]
    text: str  # the engine's words: "Read: 5 3", or the question
    tray: str
    roll: int
    missing: tuple[DieView, ...] = ()  # the prompt's dice whose faces the question asks a player to tap
    countdown_s: float | None = None
    remaining_s: float | None = None
    received_at: float = 0.0  # the tablet's monotonic clock when the reading arrived
    tapped: dict[int, int] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, int, str, tuple[int | None, ...]]:
        """What makes it another reading (a countdown update of the same one is not)."""
        return self.tray, self.roll, self.state, self.values

    @property
    def proposal(self) -> bool:
        return self.state == "proposal"

    @property
    def question(self) -> bool:
        return self.state == "question"

    @property
    def heading(self) -> str:
        """The large line: what the camera read, or what it asks."""
        if self.question:
            return self.text
        return _("Read by the camera: {faces}", faces=" ".join("–" if v is None else str(v) for v in self.values))

    @property
    def detail(self) -> str:
        """The smaller line under it: what comes next."""
        if self.proposal:
            return ""
        if self.question:
            if self.missing:
                return _("Or enter every face below.")
            return _("Roll again in the tray, or enter the faces below.")
        return self.text

    def left_s(self, now: float) -> float | None:
        """What is left of a proposal's countdown at ``now`` (the tablet's monotonic clock)."""
        if self.remaining_s is None:
            return None
        return max(0.0, self.remaining_s - (now - self.received_at))

    def countdown_text(self, now: float) -> str:
        left = self.left_s(now)
        if left is None:
            return ""
        if left <= 0:
            return _("Taking it…")
        return _("Taken in {seconds} s unless it is wrong", seconds=math.ceil(left))

    # ---------------------------------------------------------------- commands

    def _named(self, op: str) -> dict[str, Any]:
        return {"op": op, "tray": self.tray, "roll": self.roll}

    def wrong(self) -> dict[str, Any]:
        """"That's wrong": the engine drops the reading; the players roll again or enter the faces."""
        return self._named("wrong")

    def take(self) -> dict[str, Any]:
        """Take the proposal now."""
        return self._named("take")

    def tap(self, index: int, face: int) -> dict[str, Any] | None:
        """A face tapped for die ``index`` of the question; the command once every asked die has one."""
        die = next((d for d in self.missing if d.index == index), None)
        if die is None:
            raise ValueError(_("the camera read that die; tap the dice it asks about"))
        if not 1 <= face <= die.sides:
            raise ValueError(_("a d{sides} shows 1 to {sides}, not {value}", sides=die.sides, value=face))
        self.tapped[index] = face
        if any(d.index not in self.tapped for d in self.missing):
            return None
        return {**self._named("faces"), "faces": [self.tapped[d.index] for d in self.missing]}


def dice_read(table: Mapping[str, Any] | None, prompt: PromptModel | None, history_len: int | None,
              now: float) -> DiceRead | None:
    """The tray's reading for the prompt shown (None: nothing read, or it answers another prompt)."""
    raw = (table or {}).get("dice")
    if not raw or prompt is None or prompt.kind != "roll":
        return None
    values = tuple(None if v is None else int(v) for v in raw.get("values") or [])
    if len(values) != len(prompt.dice) or (history_len is not None and int(raw.get("n", -1)) != history_len):
        return None
    missing = tuple(prompt.dice[int(i)] for i in raw.get("missing") or [] if 0 <= int(i) < len(prompt.dice))
    remaining = raw.get("remaining_s")
    countdown = raw.get("countdown_s")
    return DiceRead(str(raw.get("state", "")), values, str(raw.get("text", "")), str(raw.get("tray", "")),
                    int(raw.get("roll", 0)), missing, None if countdown is None else float(countdown),
                    None if remaining is None else float(remaining), now)
