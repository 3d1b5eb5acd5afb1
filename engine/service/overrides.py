"""Overrides: what the table or its game master changes outside the rules, journaled beside the actions.

An override is not a rules action, so it is kept in its own table of the journal file, tied to
the journal row it followed. Kinds: ``place`` (a figure put where the table has it — "accept this
move anyway", or the game master moving any figure), ``out`` (the game master takes a figure out of play:
a verdict of its own, or a mass combat's outcome), ``terrain`` (a cell marked with a terrain kind
in play), ``ruling`` (a game master's ruling, ``engine.rules.gm``) and ``calculation`` (a calculator
the game master ran: kept for the record, it changes nothing). Resuming replays the actions and slots
each override in after its row; undoing that row undoes the overrides that followed it, as it undoes
the state they changed.
"""

from __future__ import annotations

import copy
import json
import logging
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.board.base import Cell
from engine.board.marks import check_mark
from engine.board.terrain import terrain_name
from engine.game import Game
from engine.i18n import gettext_for
from engine.journal import Journal, JournaledGame
from engine.journal_storage import MEMORY
from engine.rules.gm import check_ruling

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS service_overrides (
    game_id INTEGER NOT NULL,
    after_seq INTEGER NOT NULL,
    figure TEXT NOT NULL,
    q INTEGER NOT NULL,
    r INTEGER NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    at TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'place',
    data TEXT NOT NULL DEFAULT ''
)
"""
# Journal files made before overrides had kinds get the two columns added.
_ADDED_COLUMNS = (("kind", "TEXT NOT NULL DEFAULT 'place'"), ("data", "TEXT NOT NULL DEFAULT ''"))

PLACE, OUT, TERRAIN, RULING, CALCULATION = "place", "out", "terrain", "ruling", "calculation"
KINDS = (PLACE, OUT, TERRAIN, RULING, CALCULATION)


@dataclass(frozen=True)
class Override:
    after_seq: int  # journal seq of the last action in play when it was made (0: before any)
    figure: str  # the figure placed (place); empty for the other kinds
    to: Cell  # where it was put (place), the cell marked (terrain)
    kind: str = PLACE
    data: str = ""  # the terrain (terrain); JSON for a ruling or a calculation


def place_figure(game: Game, figure: str, to: Cell) -> None:
    """Put a figure on a hex outside the rules (a copy of the state, so undo snapshots stay intact)."""
    if figure not in game.state.figures or to not in game.scenario.board:
        if figure not in game.state.figures:
            raise ValueError(_("an override names figure {figure!r}, which is not in the scenario", figure=figure))
        raise ValueError(_("an override names hex ({q}, {r}), which is not in the scenario", q=to.q, r=to.r))
    state = copy.deepcopy(game.state)
    state.put(figure, to)  # on top of any stack there
    game.replace_state(state)


def take_out(game: Game, figure: str) -> None:
    """Take a figure out of play by the game master's word; the table is asked to take it off as after a kill."""
    fig = game.state.figures.get(figure)
    if fig is None or not fig.alive:
        raise ValueError(_("{figure!r} is not a figure in play", figure=figure))
    state = copy.deepcopy(game.state)
    state.kill(figure)
    game.replace_state(state)


def mark_terrain(game: Game, cell: Cell, terrain: str) -> None:
    """Mark a cell with a terrain kind in play; marking it with the scenario's own terrain clears the mark."""
    board = game.scenario.board
    check_mark(board, cell, terrain)
    state = copy.deepcopy(game.state)
    original = getattr(board, "terrain", None)
    if original is not None and original(cell) == terrain_name(terrain):
        state.marks.pop(cell, None)
    else:
        state.marks[cell] = str(terrain_name(terrain))
    game.replace_state(state)


def set_ruling(game: Game, key: str, value: str | None) -> None:
    """Give (or, with None, withdraw) a ruling the rule set declares."""
    check_ruling(game.rules.ruling_kinds, key, value)
    state = copy.deepcopy(game.state)
    if value is None:
        state.rulings.pop(key, None)
    else:
        state.rulings[key] = value
    game.replace_state(state)


def _apply(game: Game, o: Override) -> None:
    if o.kind == PLACE:
        place_figure(game, o.figure, o.to)
    elif o.kind == OUT:
        take_out(game, o.figure)
    elif o.kind == TERRAIN:
        mark_terrain(game, o.to, o.data)
    elif o.kind == RULING:
        data = json.loads(o.data)
        set_ruling(game, str(data["key"]), data["value"])
    # a calculation changes nothing: it is kept for the record


class OverrideLog:
    """The overrides of a journal file (an in-memory one when the journal is in memory)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal  # its lock covers this table too; its guard words this table's storage errors
        with journal.guard():
            if journal.read_only:  # inspection beside the engine writing the file: read, never create
                self._conn = sqlite3.connect(f"{journal.path.resolve().as_uri()}?mode=ro", uri=True,
                                             isolation_level=None, timeout=10.0)
                return
            target = MEMORY if str(journal.path) == MEMORY else str(journal.path)
            self._conn = sqlite3.connect(target, isolation_level=None, timeout=10.0)
            self._conn.execute("PRAGMA synchronous = FULL")
            self._conn.execute(_SCHEMA)
            have = {row[1] for row in self._conn.execute("PRAGMA table_info(service_overrides)")}
            for name, declaration in _ADDED_COLUMNS:
                if name not in have:
                    self._conn.execute(f"ALTER TABLE service_overrides ADD COLUMN {name} {declaration}")

    def close(self) -> None:
        self._conn.close()

    def record(self, game_id: int, after_seq: int, figure: str, to: Cell, kind: str = PLACE, data: str = "") -> None:
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self.journal.guard():
            self._conn.execute("INSERT INTO service_overrides (game_id, after_seq, figure, q, r, at, kind, data) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (game_id, after_seq, figure, to.q, to.r, at, kind, data))

    def record_data(self, game_id: int, after_seq: int, kind: str, data: dict[str, Any]) -> None:
        """A ruling or a calculation, its details as JSON."""
        self.record(game_id, after_seq, "", Cell(0, 0), kind, json.dumps(data, sort_keys=True))

    def undo_after(self, game_id: int, seq: int) -> int:
        """Mark the overrides made after journal row ``seq`` undone; returns how many."""
        with self.journal.guard():
            cur = self._conn.execute("UPDATE service_overrides SET undone = 1 WHERE game_id = ? AND after_seq >= ? "
                                     "AND undone = 0", (game_id, seq))
        return cur.rowcount

    def of_game(self, game_id: int, kind: str | None = None) -> list[Override]:
        with self.journal.guard():
            rows = self._conn.execute("SELECT after_seq, figure, q, r, kind, data FROM service_overrides "
                                      "WHERE game_id = ? AND undone = 0 ORDER BY rowid", (game_id,)).fetchall()
        found = [Override(a, f, Cell(q, r), k, d) for a, f, q, r, k, d in rows]
        return [o for o in found if kind is None or o.kind == kind]


def last_seq_in_play(journaled: JournaledGame) -> int:
    """The journal seq of the last action not undone (0 before any)."""
    live = [row.seq for row in journaled.rows() if not row.undone]
    return live[-1] if live else 0


def resume(journal: Journal, overrides: OverrideLog, game_id: int) -> JournaledGame:
    """Rebuild a game from its journal rows with the overrides slotted in after their rows."""
    pending = overrides.of_game(game_id)

    def slot_in(game: Game, seq: int) -> None:
        for o in (o for o in pending if o.after_seq == seq):
            _apply(game, o)

    journaled = journal.resume(game_id, slot_in if pending else None)
    log.info("resumed game %d with %d override(s)", game_id, len(pending))
    return journaled
