"""What the engine made of the dice in the tray for the pending roll prompt (the ``table`` message's ``dice``).

``partial``   one throw read; the prompt waits for the next (an opposed roll through one tray).
``proposal``  every die read: the engine answers the prompt with these faces when ``remaining_s`` runs out,
              unless a tablet says it is wrong (``dice`` command, ``op: wrong``) or takes it at once (``take``).
``question``  a doubt (cocked, outside, touching, unreadable, unsure) or a count that differs: ``missing`` lists the
              prompt's dice whose faces a player taps (``op: faces``); empty when the players roll again or enter
              every face.

``values`` are the faces per die of the prompt, in its order (null: not read yet); ``tray`` and ``roll`` name the
settled roll it came from (a command names them too, so it never acts on a newer reading than the one shown);
``n`` is the number of actions played when it was read (the prompt it answers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.i18n import gettext_for
from engine.wire.fields import (
    WireError,
    check_int,
    check_object,
    field_path,
    optional_float,
    read_int,
    read_list,
    read_str,
)

_ = gettext_for(__name__)

DICE_ANSWER_STATES: tuple[str, ...] = ("partial", "proposal", "question")
DICE_MODES: tuple[str, ...] = ("camera", "tablet")  # where the table's dice come from by default
DICE_OPS: tuple[str, ...] = ("wrong", "take", "faces", "mode")  # what the ``dice`` command does


@dataclass(frozen=True, slots=True)
class DiceAnswer:
    """The dice read for the pending roll prompt, as the tablets show them."""

    state: str
    values: tuple[int | None, ...]
    text: str
    tray: str
    roll: int
    n: int
    missing: tuple[int, ...] = ()
    countdown_s: float | None = None  # a proposal: how long the tablets show it before it is taken
    remaining_s: float | None = None  # a proposal: what is left of the countdown when the message was sent

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "values": list(self.values), "text": self.text, "tray": self.tray,
                "roll": self.roll, "n": self.n, "missing": list(self.missing), "countdown_s": self.countdown_s,
                "remaining_s": self.remaining_s}

    @staticmethod
    def from_dict(value: Any, where: str) -> DiceAnswer:
        obj = check_object(value, where)
        values = tuple(None if v is None else check_int(v, f"{where}.values[{i}]", minimum=1)
                       for i, v in enumerate(read_list(obj, "values", where)))
        missing = tuple(check_int(v, f"{where}.missing[{i}]") for i, v in enumerate(read_list(obj, "missing", where)))
        if any(i >= len(values) for i in missing):
            raise WireError(_("{where}: names a die the prompt does not have ({values} dice)",
                              where=field_path(where, "missing"), values=len(values)))
        return DiceAnswer(read_str(obj, "state", where, DICE_ANSWER_STATES), values, read_str(obj, "text", where),
                          read_str(obj, "tray", where), read_int(obj, "roll", where), read_int(obj, "n", where),
                          missing, optional_float(obj, "countdown_s", where),
                          optional_float(obj, "remaining_s", where))
