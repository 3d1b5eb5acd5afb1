"""Events: what happened, in plain words for the log, with the data the app needs to draw it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str  # e.g. "moved", "rolled", "killed", "retreated", "door_opened", "victory"
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": self.data}
