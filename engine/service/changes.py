"""What a call on the engine session changed, for the server to publish, and the refusal of a command.

:class:`Changes` says what the server must publish after a command or a camera message; :class:`EventsOut` is one
``game.events`` message; :class:`CommandError` a command that cannot be carried out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError


class CommandError(EngineError):
    """A command that cannot be carried out; the text goes back to the tablet as the reply's error."""


@dataclass(frozen=True)
class EventsOut:
    """One ``game.events`` message to publish."""

    n: int
    action: str
    events: list[dict[str, Any]]
    source: str


@dataclass
class Changes:
    """What a call changed, so the server knows what to publish."""

    scenario: bool = False
    state: bool = False
    events: list[EventsOut] = field(default_factory=list)
    rewritten: bool = False  # the game's texts were made again (another language): publish its whole history

    def merge(self, other: Changes) -> None:
        self.scenario |= other.scenario
        self.state |= other.state
        self.rewritten |= other.rewritten
        self.events.extend(other.events)


