"""Plain-text game records: a few header comments, then one numbered action per line.

Example::

    # Hexa Table Companion game record
    # scenario: goblins-treasure
    # rules: fantasy-battle
    # scenario-sha256: 3f1c…
    1. roll! 5 3  # Turn order: Adventurers, Goblins: 5 and 3 (rolled by the app) | Round 1: Adventurers's turn.
    2. choose done

Everything after ``#`` is a comment (the events are written there for people and ignored when read).
The scenario is a bundled id or a path relative to the record file; its SHA-256 tells when the
scenario changed since the game was played (a warning, since the actions may still fit).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.actions import Action, action_from_text, action_to_text
from engine.board.base import CellLabels
from engine.errors import EngineError, ScenarioError
from engine.events import Event
from engine.game import Game
from engine.i18n import gettext_for
from engine.journal import Journal
from engine.scenario import Scenario, bundled_scenarios, load_scenario, load_scenario_text

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

TITLE = "Hexa Table Companion game record"
_HEADER = re.compile(r"^#\s*([a-z][a-z0-9-]*)\s*:\s*(.*?)\s*$")
_NUMBERED = re.compile(r"^(\d+)\.\s*(.*)$")


class RecordError(EngineError):
    """A record that cannot be read or replayed; the message names the source, the line and the fix."""


def scenario_sha256(scenario: Scenario) -> str:
    """Fingerprint of the scenario text a game was played on."""
    return hashlib.sha256(scenario.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RecordLine:
    """One action line: where it is in the file, its number, the action text and the trailing comment."""

    line_no: int
    number: int
    text: str
    comment: str = ""


@dataclass(frozen=True)
class Record:
    """A parsed record: header values and action lines (actions still as text until the scenario is known)."""

    headers: dict[str, str]
    lines: tuple[RecordLine, ...]
    source: str = "<record>"
    base_dir: Path | None = None

    @property
    def scenario_ref(self) -> str:
        return self.headers.get("scenario", "")

    @property
    def sha256(self) -> str | None:
        return self.headers.get("scenario-sha256")


@dataclass(frozen=True)
class ReplayedRecord:
    """The outcome of replaying a record: the game, the scenario used and any warnings."""

    record: Record
    game: Game
    warnings: tuple[str, ...] = field(default_factory=tuple)


# -- writing -------------------------------------------------------------------------------------------
def _events_comment(events: Iterable[Event]) -> str:
    return " | ".join(e.text.replace("#", "No.").replace("\n", " ") for e in events)


def export_record(
    game: Game,
    *,
    scenario_ref: str | None = None,
    with_events: bool = True,
    extra_headers: dict[str, str] | None = None,
) -> str:
    """The record of a game's actions so far; ``scenario_ref`` defaults to the scenario's id."""
    scenario = game.scenario
    headers = {
        "scenario": scenario_ref or scenario.id,
        "scenario-name": scenario.name,
        "rules": scenario.ruleset,
        "scenario-sha256": scenario_sha256(scenario),
        **(extra_headers or {}),
    }
    if game.over:
        headers["winner"] = str(game.state.winner)
        victory = [e.text for p in game.history for e in p.events if e.kind == "victory"]
        headers["result"] = victory[-1] if victory else game.prompt.text
    out = [f"# {TITLE}"] + [f"# {k}: {v}" for k, v in headers.items()] + ["#"]
    for n, played in enumerate(game.history, start=1):
        line = f"{n}. {action_to_text(played.action, scenario.board)}"
        if with_events and played.events:
            line += f"  # {_events_comment(played.events)}"
        out.append(line)
    return "\n".join(out) + "\n"


def export_journal_game(journal: Journal, game_id: int, *, scenario_ref: str | None = None) -> str:
    """The record of a journaled game (its actions in play; undone ones are left out)."""
    game = journal.resume(game_id).game
    undone = sum(1 for r in journal.rows(game_id) if r.undone)
    extra = {"journal-game": str(game_id)}
    if undone:
        extra["undone-actions"] = f"{undone} (left out)"
    return export_record(game, scenario_ref=scenario_ref, extra_headers=extra)


# -- reading -------------------------------------------------------------------------------------------
def parse_record(text: str, source: str = "<record>", base_dir: Path | None = None) -> Record:
    """Split a record into headers and numbered action lines; errors give the line number."""
    headers: dict[str, str] = {}
    lines: list[RecordLine] = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            m = _HEADER.match(stripped)
            if m and not lines:
                headers.setdefault(m.group(1), m.group(2))
            continue
        body, _hash, comment = stripped.partition("#")
        body = body.strip()
        expected = len(lines) + 1
        m = _NUMBERED.match(body)
        if m:
            number, body = int(m.group(1)), m.group(2).strip()
            if number != expected:
                raise RecordError(_("{file}, line {line}: action number {number} where {expected} was expected. Fix: "
                                    "number the actions 1, 2, 3… without gaps", file=source, line=line_no,
                                    number=number, expected=expected))
        if not body:
            raise RecordError(_("{file}, line {line}: a number without an action. Fix: write the action after it",
                                file=source, line=line_no))
        lines.append(RecordLine(line_no, expected, body, comment.strip()))
    if "scenario" not in headers:
        raise RecordError(_(
            "{file}: no '# scenario: …' header line before the first action. Fix: add one naming a bundled scenario "
            "id or a scenario file next to the record", file=source))
    return Record(headers, tuple(lines), source, base_dir)


def resolve_scenario(record: Record) -> tuple[Scenario, list[str]]:
    """Find the record's scenario (a file relative to the record, else a bundled id) and check its fingerprint."""
    ref = record.scenario_ref
    warnings: list[str] = []
    candidate = (record.base_dir / ref) if record.base_dir is not None else Path(ref)
    try:
        if ref.endswith(".toml") or candidate.is_file():
            scenario = load_scenario(candidate)
        elif ref in bundled_scenarios():
            scenario = load_scenario_text(bundled_scenarios()[ref], f"bundled scenario {ref!r}")
        else:
            known = ", ".join(sorted(bundled_scenarios()))
            raise RecordError(_(
                "{file}: the scenario {ref!r} is neither a bundled scenario ({known}) nor a file next to the record. "
                "Fix: correct the '# scenario:' line or put the scenario file there", file=record.source, ref=ref,
                known=known))
    except ScenarioError as exc:
        raise RecordError(_("{file}: its scenario cannot be loaded: {error}", file=record.source, error=exc)) from None
    if record.sha256 and record.sha256 != scenario_sha256(scenario):
        warnings.append(_(
            "{file}: the scenario {ref!r} changed since this game was recorded (SHA-256 differs); the replay may "
            "stop where the change matters", file=record.source, ref=ref))
    rules = record.headers.get("rules")
    if rules and rules != scenario.ruleset:
        warnings.append(_("{file}: recorded with rules {rules!r}, the scenario now uses {now!r}", file=record.source,
                          rules=rules, now=scenario.ruleset))
    for w in warnings:
        log.warning("%s", w)
    return scenario, warnings


def record_actions(record: Record, labels: CellLabels) -> list[tuple[RecordLine, Action]]:
    """Read every action line, cells by ``labels`` (the scenario's board); an unreadable line is an error naming it."""
    out = []
    for line in record.lines:
        try:
            out.append((line, action_from_text(line.text, labels)))
        except EngineError as exc:
            raise RecordError(_("{file}, line {line}: {error}", file=record.source, line=line.line_no,
                                error=exc)) from None
    return out


def replay_parsed(record: Record) -> ReplayedRecord:
    """Replay a parsed record from the start; a refused action is an error naming its line."""
    scenario, warnings = resolve_scenario(record)
    game = Game(scenario)
    for line, action in record_actions(record, scenario.board):
        try:
            game.apply(action)
        except EngineError as exc:
            raise RecordError(_("{file}, line {line} (action {n}) refused: {error}", file=record.source,
                                line=line.line_no, n=line.number, error=exc)) from None
    return ReplayedRecord(record, game, tuple(warnings))


def replay_record(text: str, *, source: str = "<record>", base_dir: Path | None = None) -> Game:
    """Replay a record's text and return the game as it stands after its last action."""
    return replay_parsed(parse_record(text, source, base_dir)).game


def read_record_file(path: str | Path) -> Record:
    """Read and parse a record file; a missing or unreadable file is a clear error."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(_("{path}: no such record file. Fix: check the path (records are written by 'record FILE')",
                            path=p)) from None
    except IsADirectoryError:
        raise RecordError(_("{path}: is a folder. Fix: give the path of a record file", path=p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(_("{path}: cannot read it as a text record ({error}). Fix: give a game record file", path=p,
                            error=exc)) from None
    return parse_record(text, str(p), p.parent)
