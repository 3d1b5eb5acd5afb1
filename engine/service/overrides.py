"""Overrides ("accept this move anyway"): a figure put where the table has it, journaled beside the actions.

An override is not a rules action, so it is kept in its own table of the journal file, tied to
the journal row it followed. Resuming replays the actions and slots each override in after its row;
undoing that row undoes the overrides that followed it, as it undoes the state they changed.
"""

from __future__ import annotations

import copy
import logging
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.game import Game
from engine.hexes import Hex
from engine.journal import Journal, JournaledGame

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS service_overrides (
    game_id INTEGER NOT NULL,
    after_seq INTEGER NOT NULL,
    figure TEXT NOT NULL,
    q INTEGER NOT NULL,
    r INTEGER NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    at TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class Override:
    after_seq: int  # journal seq of the last action in play when it was made (0: before any)
    figure: str
    to: Hex


def place_figure(game: Game, figure: str, to: Hex) -> None:
    """Put a figure on a hex outside the rules (a copy of the state, so undo snapshots stay intact)."""
    if figure not in game.state.figures or to not in game.scenario.board:
        what = f"figure {figure!r}" if figure not in game.state.figures else f"hex ({to.q}, {to.r})"
        raise ValueError(f"an override names {what}, which is not in the scenario")
    state = copy.deepcopy(game.state)
    state.put(figure, to)  # on top of any stack there
    game.replace_state(state)


class OverrideLog:
    """The overrides of a journal file (an in-memory one when the journal is in memory)."""

    def __init__(self, journal: Journal) -> None:
        target = ":memory:" if str(journal.path) == ":memory:" else str(journal.path)
        self._conn = sqlite3.connect(target, isolation_level=None, timeout=10.0)
        self._conn.execute("PRAGMA synchronous = FULL")
        self._conn.execute(_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def record(self, game_id: int, after_seq: int, figure: str, to: Hex) -> None:
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        self._conn.execute("INSERT INTO service_overrides (game_id, after_seq, figure, q, r, at) "
                           "VALUES (?, ?, ?, ?, ?, ?)", (game_id, after_seq, figure, to.q, to.r, at))

    def undo_after(self, game_id: int, seq: int) -> int:
        """Mark the overrides made after journal row ``seq`` undone; returns how many."""
        cur = self._conn.execute("UPDATE service_overrides SET undone = 1 WHERE game_id = ? AND after_seq >= ? "
                                 "AND undone = 0", (game_id, seq))
        return cur.rowcount

    def of_game(self, game_id: int) -> list[Override]:
        rows = self._conn.execute("SELECT after_seq, figure, q, r FROM service_overrides WHERE game_id = ? "
                                  "AND undone = 0 ORDER BY rowid", (game_id,)).fetchall()
        return [Override(a, f, Hex(q, r)) for a, f, q, r in rows]


def last_seq_in_play(journaled: JournaledGame) -> int:
    """The journal seq of the last action not undone (0 before any)."""
    live = [row.seq for row in journaled.rows() if not row.undone]
    return live[-1] if live else 0


def resume(journal: Journal, overrides: OverrideLog, game_id: int) -> JournaledGame:
    """Rebuild a game from its journal rows with the overrides slotted in after their rows."""
    pending = overrides.of_game(game_id)

    def slot_in(game: Game, seq: int) -> None:
        for o in (o for o in pending if o.after_seq == seq):
            place_figure(game, o.figure, o.to)

    journaled = journal.resume(game_id, slot_in if pending else None)
    log.info("resumed game %d with %d override(s)", game_id, len(pending))
    return journaled
