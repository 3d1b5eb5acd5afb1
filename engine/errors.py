"""Domain errors: each a ValueError subclass whose message says what is wrong and what is allowed."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class ScenarioError(EngineError):
    """A scenario file that cannot be played: the message names the file, the line and the fix."""


class IllegalActionError(EngineError):
    """An action that does not answer the current prompt, with the reason and what is allowed."""


class MapError(EngineError):
    """A map drawing or terrain list that cannot be read; ``line`` is the drawing's line (1-based)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line
