"""The journal as a file: one writer at a time, storage errors told apart from damage, files only the
player may read. Real SQLite files throughout; the full disk is SQLite's own page limit (SQLITE_FULL)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine import wire
from engine.actions import action_to_dict
from engine.autoplay import AutoPlayer
from engine.errors import EngineError
from engine.i18n import speaking
from engine.journal import Journal, JournalError
from engine.journal_lock import lock_path
from engine.scenario import load_scenario
from engine.service.session import open_session


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _clear(exc: BaseException, path: Path) -> None:
    text = str(exc)
    assert str(path) in text and "Fix:" in text and "Traceback" not in text


def test_a_second_writer_is_refused_naming_the_first_and_the_journal_is_free_once_it_closes(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as first:
        first.new_game(load_scenario("tutorial"))
        with pytest.raises(JournalError, match=rf"is in use by process {os.getpid()} .*started .*Fix: stop that "
                                               r"program") as err:
            Journal(path)
        _clear(err.value, path)
        with pytest.raises(EngineError, match=rf"process {os.getpid()}"):  # the engine's way in refuses alike
            open_session(str(path), "tutorial")
        with Journal(path, read_only=True) as reader:  # inspection beside the writer needs no lock
            assert [g.scenario_id for g in reader.games()] == ["tutorial"]
    with Journal(path) as again:  # the first let go
        assert len(again.games()) == 1
    assert lock_path(path).read_text() == ""  # a clean close leaves no owner behind


def test_the_refusal_reads_in_japanese(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path), speaking("ja"), pytest.raises(JournalError) as err:
        Journal(path)
    text = str(err.value)
    assert f"プロセス {os.getpid()}" in text and "使用中" in text and str(path) in text and "is in use" not in text


def test_journals_in_memory_need_no_lock() -> None:
    with Journal(":memory:") as one, Journal(":memory:") as two:
        one.new_game(load_scenario("tutorial"))
        assert len(one.games()) == 1 and two.games() == []


def test_journal_files_and_the_lock_are_made_0600(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with umask(0o022), Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        jg.apply(AutoPlayer(1).choose(jg.game))
        made = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"), lock_path(path)]
        assert {p.name: oct(_mode(p)) if p.exists() else "missing" for p in made} == {p.name: "0o600" for p in made}


def test_a_journal_made_readable_to_others_is_narrowed_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Journal(path).close()
    path.chmod(0o644)
    with Journal(path):
        assert _mode(path) == 0o600


def test_a_full_disk_is_reported_as_full_not_damaged_and_the_game_goes_on_once_space_returns(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    session = open_session(str(path), "tutorial")
    conn = session.journal._conn  # the engine's own connection: the page limit is per connection
    try:
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        player = AutoPlayer(5)
        refusal: JournalError | None = None
        for _ in range(300):  # rows fill the last page, then the next one needs a page the disk has not
            action = action_to_dict(player.choose(session.game))
            before = len(session.game.history)
            request = wire.parse_request(json.dumps({"cmd": "action", "id": "a", "action": action}))
            try:
                session.handle(request)
            except JournalError as exc:
                refusal = exc
                break
        assert refusal is not None, "the journal never filled its pages"
        text = str(refusal)
        assert "the disk holding it is full" in text and "nothing was lost" in text and "free some space" in text
        assert "damaged" not in text and "move that file away" not in text
        _clear(refusal, path)
        assert len(session.game.history) == before  # refused: the game is as the journal has it
        conn.execute("PRAGMA max_page_count = 1073741823")  # space returns
        session.handle(request)  # the same action, sent again, now counts
        assert len(session.game.history) == before + 1
        with Journal(path, read_only=True) as reader:
            assert len([r for r in reader.rows(session.game_id) if not r.undone]) == before + 1
    finally:
        session.close()
        session.journal.close()


def test_a_journal_it_may_not_write_is_not_called_damaged(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Journal(path).close()
    with Journal(path, read_only=True) as reader, pytest.raises(JournalError) as err:
        reader.new_game(load_scenario("tutorial"))  # SQLITE_READONLY, as a file without write permission gives
    assert "may not write it" in str(err.value) and "damaged" not in str(err.value)
    _clear(err.value, path)


def test_a_journal_in_a_missing_folder_says_so(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "games.sqlite"
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert "damaged" not in str(err.value) and "folder exists" in str(err.value)
    _clear(err.value, path)


def test_damage_is_still_damage(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Journal(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE actions")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match=r"is damaged.*move that file away"):
        Journal(path)


def test_a_change_outside_the_rules_refused_by_a_full_disk_is_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    session = open_session(str(path), "tutorial")
    conn = session.overrides._conn  # the overrides' own connection: where a GM's change or an override is written
    try:
        figure = next(iter(session.game.state.figures))
        start = session.game.state.figures[figure].hex
        assert start is not None
        cells = [start, next(h for h in session.scenario.board.tiles if h != start)]
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        refused: JournalError | None = None
        for n in range(2000):  # rows fill the last page, then the next one needs a page the disk has not
            to = cells[(n + 1) % 2]
            override = wire.parse_request(json.dumps({"cmd": "override", "id": f"o{n}", "figure": figure,
                                                      "to": [to.q, to.r]}))
            was = session.game.state.figures[figure].hex
            try:
                session.handle(override)
            except JournalError as exc:
                refused = exc
                break
        assert refused is not None, "the overrides never filled their pages"
        assert "the disk holding it is full" in str(refused) and "nothing was lost" in str(refused)
        assert session.game.state.figures[figure].hex == was  # what the tablets see is what the journal holds
        conn.execute("PRAGMA max_page_count = 1073741823")  # space returns
        session.handle(override)
        assert session.game.state.figures[figure].hex == to
    finally:
        session.close()
        session.journal.close()
