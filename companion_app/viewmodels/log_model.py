"""The log and the undo history: every roll, move and outcome in plain words, newest last."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.i18n import gettext_for

_ = gettext_for(__name__)


@dataclass(frozen=True)
class LogEntry:
    n: int
    action: str  # the one-line command form ("roll! 4" a virtual roll, "roll 5 3 @camera" one the camera read)
    virtual: bool
    lines: tuple[str, ...]  # what happened, in words
    said: str = ""  # the action as a sentence ("Jeff turns to face C4"); an earlier engine sends none
    source: str | None = None  # a roll's faces read by the camera ("camera", "camera+tablet"), else None

    @property
    def heading(self) -> str:
        if self.said:
            return f"{self.n}. {self.said}"
        if self.virtual:
            return _("{n}. {action} (virtual roll, made by the app)", n=self.n, action=self.action)
        if self.source == "camera":
            return _("{n}. {action} (read by the camera)", n=self.n, action=self.action)
        if self.source is not None:
            return _("{n}. {action} (read by the camera, faces it could not read tapped)", n=self.n,
                     action=self.action)
        return f"{self.n}. {self.action}"

    @property
    def words(self) -> str:
        """What was done, as people say it: the sentence, else the command form."""
        return self.said or self.action

    @property
    def undo_label(self) -> str:
        first = self.lines[0] if self.lines else self.words
        return _("Undo {n}: {action}", n=self.n, action=first)


def log_entries(history: Sequence[Mapping[str, Any]]) -> list[LogEntry]:
    out: list[LogEntry] = []
    for row in history:
        action = row.get("action") or {}
        out.append(
            LogEntry(
                n=int(row.get("n", len(out) + 1)),
                action=str(row.get("text", action.get("kind", "?"))),
                virtual=bool(action.get("virtual", False)),
                lines=tuple(str(e.get("text", "")) for e in row.get("events") or []),
                said=str(row.get("said", "")),
                source=action.get("source") if isinstance(action.get("source"), str) else None,
            )
        )
    return out


def undo_steps(entries: Sequence[LogEntry], limit: int = 8) -> list[LogEntry]:
    """The last actions, newest first: undoing the k-th one takes back k actions."""
    return list(reversed(entries[-limit:]))


def export_text(scenario: Mapping[str, Any] | None, entries: Sequence[LogEntry]) -> str:
    """A plain-text game record: the actions one per line, what they caused as '#' comments."""
    name = (scenario or {}).get("name") or _("game")
    sid = (scenario or {}).get("id", "")
    lines = [f"# {name}", "# " + _("scenario: {id}", id=sid), ""]
    for e in entries:
        lines.append(e.action)
        lines += [f"#   {t}" for t in e.lines]
    return "\n".join(lines) + "\n"
