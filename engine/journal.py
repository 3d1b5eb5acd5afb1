"""The game journal: every action written to an embedded SQLite database the moment it is played.

One file holds many games. Each game keeps its scenario's full TOML text, so it resumes even when the
scenario file changed or moved. Writes use WAL with ``synchronous=FULL``: once ``apply`` returns, the
action survives a killed process or a lost power supply. Undone actions stay in the table, marked, so
the log shows them; resuming replays the actions that were not undone, in order.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.actions import Action, Roll, action_from_dict, action_to_dict
from engine.errors import EngineError, ScenarioError
from engine.events import Event
from engine.game import Game, Played
from engine.i18n import N_, gettext_for
from engine.journal_lock import JournalInUse, JournalLock, LockUnsupported, lock_path
from engine.journal_storage import (
    BUSY,
    CANNOT_OPEN,
    FULL,
    IO_ERROR,
    MEMORY,
    NOT_WRITABLE,
    private_companions,
    private_file,
    storage_problem,
)
from engine.prompts import Prompt
from engine.scenario import Scenario, load_scenario_text

DEFAULT_JOURNAL = "hexa-games.sqlite"  # in the current folder; shared by hexa play and hexa engine
MEMORY_JOURNAL = ":memory:"  # SQLite's name for a journal that lives in memory only (tests, throwaway games)

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

SCHEMA_VERSION = 1
APPLICATION_ID = 0x48455841  # "HEXA": tells our journals from other SQLite files

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    scenario_id TEXT NOT NULL,
    scenario_name TEXT NOT NULL,
    scenario_toml TEXT NOT NULL,
    scenario_source TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    created TEXT NOT NULL,
    finished TEXT,
    winner TEXT
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    virtual INTEGER NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


_TABLES = ("games", "actions")
_RECOVER = N_("; to keep what it still holds, try the recovery of the sqlite3 program: sqlite3 {path} .recover | "
              "sqlite3 recovered.sqlite, then pass --journal recovered.sqlite")
# What may go wrong while replaying a damaged or outdated action: the rules refuse it, or it names a
# figure, hex or option the game does not have.
_REPLAY_ERRORS = (ValueError, KeyError, IndexError, TypeError, AttributeError)


class JournalError(EngineError):
    """A journal file that cannot be used: the message names the file and the fix."""


class GameNotResumable(JournalError):
    """One game of a journal cannot be rebuilt (damaged rows, a scenario no longer accepted); others may."""


@dataclass(frozen=True)
class Resumed:
    """The outcome of :meth:`Journal.resume_newest`: the game resumed (if any) and why others were skipped."""

    game: JournaledGame | None
    skipped: tuple[str, ...] = ()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class GameInfo:
    """One game of the journal as listed by :meth:`Journal.games`."""

    id: int
    scenario_id: str
    scenario_name: str
    ruleset: str
    created: str
    finished: str | None
    winner: str | None
    actions: int  # actions in play (undone ones not counted)
    undone: int

    @property
    def over(self) -> bool:
        return self.finished is not None


@dataclass(frozen=True)
class JournalRow:
    """One row of a game's action log, undone actions included."""

    seq: int
    action: Action
    virtual: bool
    undone: bool
    at: str

    @property
    def source(self) -> str | None:
        """Where a roll's faces came from (``camera``, ``camera+tablet``), None when the players entered them.

        Kept in the action's JSON, written only when set: a journal from before reads with every source None."""
        return self.action.source if isinstance(self.action, Roll) else None


class Journal:
    """A journal file; open it, start or resume games, list them. Use as a context manager or ``close()``.

    Opened for writing (the default), the journal is locked for this process (:mod:`engine.journal_lock`)
    and refused while another holds it; ``read_only=True`` opens it for inspection beside its writer,
    without the lock, and never creates or changes the file. New journal files are made 0600.
    """

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._lock: JournalLock | None = None
        self._riders: list[tuple[str, tuple[object, ...]]] = []
        if self.path.is_dir():
            raise self._fail(_("is a folder, not a journal file"))
        if not read_only and str(path) != MEMORY:
            self._lock = self._take_lock()
        try:
            self._conn = self._open()
        except BaseException:
            self._release_lock()
            raise

    def _fail(self, problem: str, recover: bool = False) -> JournalError:
        return JournalError(
            _("{path}: {problem}. Fix: move that file away (or pass another journal file with --journal); a new "
              "journal is created when the file does not exist", path=self.path, problem=problem)
            + (_(_RECOVER, path=self.path) if recover else "")
        )

    def _damaged(self, exc: sqlite3.Error) -> JournalError:
        return self._fail(_("is damaged and cannot be read ({error})", error=exc), recover=True)

    def _storage_error(self, exc: sqlite3.Error, unreadable: str | None = None) -> JournalError:
        """What a database error says about the file, by its SQLite error code: a full disk, a failing disk,
        a file this user may not write or open, or damage (``unreadable`` words damage met while opening)."""
        kind = storage_problem(exc)
        if kind == FULL:
            return JournalError(_("{path}: the disk holding it is full ({error}). Fix: free some space on that disk, "
                                  "then try again; nothing was lost: the journal keeps every action saved so far",
                                  path=self.path, error=exc))
        if kind == IO_ERROR:
            return JournalError(_("{path}: the disk holding it reported a read or write error ({error}). Fix: check "
                                  "that the disk is still connected and sound, then try again; the journal keeps every "
                                  "action saved so far", path=self.path, error=exc))
        if kind == NOT_WRITABLE:
            return JournalError(_("{path}: this program may not write it ({error}). Fix: give your user write "
                                  "permission on the file and its folder, or pass another journal file with --journal",
                                  path=self.path, error=exc))
        if kind == CANNOT_OPEN:
            return self._cannot_open(exc)
        if kind == BUSY:
            return JournalError(_("{path}: another program is writing it ({error}). Fix: close that program (an "
                                  "sqlite3 shell, say), then try again", path=self.path, error=exc))
        if unreadable is not None:
            return self._fail(_(unreadable, error=exc), recover=True)
        return self._damaged(exc)

    def _cannot_open(self, error: object) -> JournalError:
        return JournalError(_("{path}: cannot be opened ({error}). Fix: check that its folder exists and that you "
                              "may write there, or pass another journal file with --journal", path=self.path,
                              error=error))

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Turn a database error met mid-use (a full disk, a damaged page, a vanished table) into a clear
        JournalError that says which."""
        try:
            yield
        except sqlite3.IntegrityError:
            raise  # a write that conflicts with another writer, not damage
        except sqlite3.DatabaseError as exc:
            raise self._storage_error(exc) from None

    guard = _reading  # for the tables kept beside the journal's own (the service's overrides)

    def _not_resumable(self, game_id: int, problem: str) -> GameNotResumable:
        name = self._scenario_name(game_id)
        return GameNotResumable(
            _("{path}: game {id}{name} cannot be resumed: {problem}. Fix: start a new game (give the scenario file "
              "or id again); the journal keeps that game's rows untouched", path=self.path, id=game_id, name=name,
              problem=problem)
        )

    def _scenario_name(self, game_id: int) -> str:
        try:
            row = self._conn.execute("SELECT scenario_name FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.Error:
            return ""
        return f" ({row[0]})" if row else ""

    def _take_lock(self) -> JournalLock:
        try:
            return JournalLock(self.path)
        except JournalInUse as exc:
            raise JournalError(_("{path}: is in use by {owner}: one program at a time may write a journal. Fix: stop "
                                 "that program first (a crashed one lets go of the journal by itself), or pass another "
                                 "journal file with --journal", path=self.path, owner=exc.owner.describe())) from None
        except LockUnsupported as exc:
            raise JournalError(_("{path}: cannot be locked for this program ({error}). Fix: run on a system with "
                                 "file locks (Linux, macOS, Windows, Android), or pass --journal :memory: to keep the "
                                 "game in memory only", path=self.path, error=exc)) from None
        except OSError as exc:
            raise JournalError(_("{path}: cannot make its lock file {lock} ({error}). Fix: check that the folder "
                                 "exists and that you may write there, or pass another journal file with --journal",
                                 path=self.path, lock=lock_path(self.path), error=exc.strerror or exc)) from None

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _connect(self) -> sqlite3.Connection:
        if str(self.path) == MEMORY:
            return sqlite3.connect(MEMORY, isolation_level=None)
        if self.read_only:
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)
        private_file(self.path)
        return sqlite3.connect(self.path, isolation_level=None, timeout=10.0)

    def _open(self) -> sqlite3.Connection:
        try:
            conn = self._connect()
        except OSError as exc:  # making the file 0600 before SQLite opens it
            raise self._cannot_open(exc.strerror or exc) from None
        except sqlite3.Error as exc:
            raise self._storage_error(exc, N_("cannot open the journal ({error})")) from None
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if app_id == 0 and version == 0 and not tables and not self.read_only:
                self._create(conn)
            elif app_id != APPLICATION_ID:
                raise self._fail(_("is an SQLite database of another program, not a game journal"))
            elif version != SCHEMA_VERSION:
                raise self._fail(
                    _("is a game journal of schema version {version}; this program reads version {mine}",
                      version=version, mine=SCHEMA_VERSION)
                )
            else:
                missing = [t for t in _TABLES if t not in tables]
                if missing:
                    raise self._fail(_("is damaged: its table {table!r} is missing", table=missing[0]), recover=True)
                found = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
                if found != ["ok"]:
                    problems = [p for text in found for p in str(text).splitlines() if not p.startswith("***")]
                    raise self._fail(_("is damaged ({problems})", problems="; ".join(problems)), recover=True)
            if not self.read_only:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                private_companions(self.path)
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise self._storage_error(exc, N_("is not a readable game journal ({error})")) from None
        except JournalError:
            conn.close()
            raise
        return conn

    @staticmethod
    def _create(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # not when SQLite rolled back already (a full disk does): keep its error
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._conn.close()
        self._release_lock()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -------------------------------------------------------------------------------------
    def new_game(self, scenario: Scenario) -> JournaledGame:
        """Start a game of ``scenario`` and record it (with the scenario's full text)."""
        game = Game(scenario)
        with self._reading():
            cur = self._conn.execute(
                "INSERT INTO games (scenario_id, scenario_name, scenario_toml, scenario_source, ruleset, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (scenario.id, scenario.name, scenario.text, scenario.source, scenario.ruleset, _now()),
            )
        game_id = cur.lastrowid
        assert game_id is not None
        log.info("journal %s: new game %d of %s", self.path, game_id, scenario.id)
        return JournaledGame(self, game_id, game, next_seq=1)

    def games(self) -> list[GameInfo]:
        """Every game of the journal, oldest first."""
        with self._reading():
            rows = self._conn.execute(
                "SELECT g.id, g.scenario_id, g.scenario_name, g.ruleset, g.created, g.finished, g.winner, "
                "COALESCE(SUM(a.undone = 0), 0), COALESCE(SUM(a.undone = 1), 0) "
                "FROM games g LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id ORDER BY g.id"
            ).fetchall()
        return [GameInfo(*row) for row in rows]

    def latest_unfinished(self) -> GameInfo | None:
        unfinished = [g for g in self.games() if not g.over]
        return unfinished[-1] if unfinished else None

    def rows(self, game_id: int) -> list[JournalRow]:
        """The action log of a game in order, undone actions included."""
        self._game_row(game_id)
        out = []
        with self._reading():
            rows = self._conn.execute(
                "SELECT seq, action, virtual, undone, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        for seq, text, virtual, undone, at in rows:
            try:
                action = action_from_dict(json.loads(text))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise self._not_resumable(game_id, _("its action {seq} cannot be read ({error})", seq=seq,
                                                     error=exc)) from None
            out.append(JournalRow(seq, action, bool(virtual), bool(undone), at))
        return out

    def scenario_of(self, game_id: int) -> Scenario:
        """The scenario a game was started with, from the text stored in the journal."""
        _name, toml, source = self._game_row(game_id)
        if not isinstance(toml, str):
            raise self._not_resumable(game_id, _("its stored scenario text is missing"))
        try:
            return load_scenario_text(toml, f"{source} (as stored in the journal {self.path}, game {game_id})")
        except ScenarioError as exc:
            problem = str(exc).split(". Fix: ")[0]
            raise self._not_resumable(game_id, _("its scenario is not accepted any more: {problem}",
                                                 problem=problem)) from None

    def _game_row(self, game_id: int) -> tuple[str, str, str]:
        with self._reading():
            row = self._conn.execute(
                "SELECT scenario_id, scenario_toml, scenario_source FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            known = ", ".join(str(g.id) for g in self.games()) or "none yet"
            raise JournalError(_("{path}: there is no game {id}. Fix: use one of the game ids: {known}", path=self.path,
                                 id=game_id, known=known))
        return row[0], row[1], row[2]

    def resume(
        self, game_id: int | None = None, between: Callable[[Game, int], None] | None = None
    ) -> JournaledGame:
        """Rebuild a game by replaying its actions that were not undone; by default the latest unfinished one.

        ``between(game, seq)`` runs before the first action (seq 0) and after each one replayed, for state
        kept beside the actions (the service's overrides). Raises :class:`GameNotResumable` when the game's
        rows or scenario no longer make a game, naming what and where.
        """
        if game_id is None:
            latest = self.latest_unfinished()
            if latest is None:
                raise JournalError(_("{path}: no unfinished game to resume. Fix: start a new game", path=self.path))
            game_id = latest.id
        scenario = self.scenario_of(game_id)
        rows = self.rows(game_id)
        try:
            game = Game(scenario)
        except _REPLAY_ERRORS as exc:
            raise self._not_resumable(game_id, _("its scenario does not start a game ({error})", error=exc)) from None
        seq = 0
        try:
            if between is not None:
                between(game, 0)
            for row in rows:
                if row.undone:
                    continue
                seq = row.seq
                try:
                    game.apply(row.action)
                except _REPLAY_ERRORS as exc:
                    raise self._not_resumable(game_id, _("its action {seq} no longer applies ({error})", seq=seq,
                                                         error=exc)) from None
                if between is not None:
                    between(game, seq)
        except _REPLAY_ERRORS as exc:
            where = _("after its action {seq}", seq=seq) if seq else _("before its first action")
            raise self._not_resumable(game_id, _("{where}: {error}", where=where, error=exc)) from None
        log.info("journal %s: resumed game %d after %d actions", self.path, game_id, len(game.history))
        return JournaledGame(self, game_id, game, next_seq=(rows[-1].seq + 1) if rows else 1)

    def resume_newest(
        self, game_ids: Iterable[int], resume: Callable[[int], JournaledGame] | None = None
    ) -> Resumed:
        """Resume the first of ``game_ids`` (newest first) that can be; the others are skipped with the reason.

        A game that cannot be resumed never stops a start: the reasons are logged and returned, and
        the caller starts a new game when none could be resumed.
        """
        skipped: list[str] = []
        for game_id in game_ids:
            try:
                return Resumed((resume or self.resume)(game_id), tuple(skipped))
            except GameNotResumable as exc:
                log.warning("%s", exc)
                skipped.append(str(exc))
        return Resumed(None, tuple(skipped))

    # -- writes used by JournaledGame ---------------------------------------------------------------
    def _insert(self, game_id: int, seq: int, action: Action, winner: str | None) -> None:
        virtual = isinstance(action, Roll) and action.virtual
        with self._reading(), self._transaction():
            self._conn.execute(
                "INSERT INTO actions (game_id, seq, action, virtual, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, json.dumps(action_to_dict(action)), int(virtual), _now()),
            )
            if winner is not None:
                self._conn.execute("UPDATE games SET finished = ?, winner = ? WHERE id = ?", (_now(), winner, game_id))

    def _mark_undone(self, game_id: int) -> None:
        with self._reading(), self._transaction():
            row = self._conn.execute(
                "SELECT MAX(seq) FROM actions WHERE game_id = ? AND undone = 0", (game_id,)
            ).fetchone()
            if row is None or row[0] is None:
                raise JournalError(_("{path}: game {id} has no action to undo in the journal", path=self.path,
                                     id=game_id))
            self._conn.execute("UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, row[0]))
            self._conn.execute("UPDATE games SET finished = NULL, winner = NULL WHERE id = ?", (game_id,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn, self._riders)

    def write_with_next_change(self, statement: str, params: tuple[object, ...]) -> None:
        """Hold ``statement`` to be written in the same transaction as the next action or undo (once).

        What must be kept exactly when a change is, and never without it: the engine service marks a request
        as carried out this way, so that a crash right after the change cannot let a resent request do it again.
        """
        self._riders.append((statement, params))

    def drop_riders(self) -> None:
        """Forget the statements held for the next change (the command that held them wrote none)."""
        self._riders.clear()


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error (autocommit connection); the riders held are written
    in it and then dropped, whatever the outcome."""

    def __init__(self, conn: sqlite3.Connection, riders: list[tuple[str, tuple[object, ...]]]) -> None:
        self.conn = conn
        self.riders = riders

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        riders, self.riders[:] = list(self.riders), []
        if exc_type is None:
            try:
                for statement, params in riders:
                    self.conn.execute(statement, params)
                self.conn.execute("COMMIT")
                return
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        if self.conn.in_transaction:  # SQLite may have rolled back already (a full disk does): keep its error
            self.conn.execute("ROLLBACK")


class JournaledGame:
    """A :class:`Game` whose every action and undo is in the journal before the call returns."""

    def __init__(self, journal: Journal, game_id: int, game: Game, next_seq: int) -> None:
        self.journal = journal
        self.id = game_id
        self.game = game
        self._next_seq = next_seq

    @property
    def prompt(self) -> Prompt:
        return self.game.prompt

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def scenario(self) -> Scenario:
        return self.game.scenario

    def apply(self, action: Action) -> list[Event]:
        """Validate by applying in memory, then commit the row; if the write fails, undo and re-raise."""
        events = self.game.apply(action)
        try:
            self.journal._insert(self.id, self._next_seq, action, self.game.state.winner)
        except BaseException:
            self.game.undo()
            raise
        self._next_seq += 1
        return events

    def undo(self) -> Played:
        """Mark the last action undone in the journal (the row stays) and take it back in memory."""
        if not self.game.history:
            raise IndexError(_("nothing to undo: no action has been played yet"))
        self.journal._mark_undone(self.id)
        return self.game.undo()

    def rows(self) -> list[JournalRow]:
        return self.journal.rows(self.id)
