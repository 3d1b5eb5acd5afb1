"""The game journal: apply/undo/resume round trips, the log of undone actions, refused and failed writes, bad files."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.actions import Action, Choose, Move, Roll
from engine.autoplay import AutoPlayer, play_out
from engine.errors import IllegalActionError
from engine.events import Event
from engine.game import Game
from engine.hexes import from_label
from engine.journal import SCHEMA_VERSION, Journal, JournalError
from engine.scenario import bundled_scenarios, load_scenario


def play(apply: Callable[[Action], list[Event]], game: Game, player: AutoPlayer, n: int) -> None:
    for _ in range(n):
        apply(player.choose(game))


def test_apply_then_resume_in_a_new_connection_gives_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        play(jg.apply, jg.game, AutoPlayer(5), 30)
        expected = jg.game.state.to_dict()
        actions = jg.game.actions
    with Journal(path) as again:
        resumed = again.resume()
        assert resumed.id == jg.id
        assert resumed.game.actions == actions
        assert resumed.game.state.to_dict() == expected


def test_undo_marks_the_row_and_resume_skips_it(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        player = AutoPlayer(2)
        play(jg.apply, jg.game, player, 6)
        taken_back = jg.undo()
        before_redo = jg.game.state.to_dict()
        jg.apply(taken_back.action)
        jg.undo()
        rows = jg.rows()
        assert [r.seq for r in rows] == list(range(1, 8))
        assert [r.undone for r in rows] == [False] * 5 + [True, True]
        assert rows[5].action == rows[6].action == taken_back.action
        assert journal.games()[0].actions == 5 and journal.games()[0].undone == 2
    with Journal(path) as again:
        resumed = again.resume(jg.id)
        assert resumed.game.state.to_dict() == before_redo
        assert len(resumed.game.history) == 5
        # Playing on after the resume continues the numbering after the undone rows.
        resumed.apply(player.choose(resumed.game))
        assert [r.seq for r in resumed.rows()][-1] == 8


def test_virtual_rolls_are_flagged_in_the_table(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        jg.apply(Roll((6, 2), virtual=True))
    rows = sqlite3.connect(path).execute("SELECT virtual, action FROM actions ORDER BY seq").fetchall()
    assert rows[0][0] == 1
    assert '"virtual": true' in rows[0][1]


def test_a_roll_read_by_the_camera_keeps_its_source_and_older_rows_read_without_one(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        jg.apply(Roll((6, 2), source="camera"))
        jg.apply(Choose("done"))
    with Journal(path) as again:
        assert [r.source for r in again.rows(jg.id)] == ["camera", None]
        assert again.resume(jg.id).game.actions[0] == Roll((6, 2), source="camera")
    conn = sqlite3.connect(path)
    # The row as a journal from before the source field holds it: no "source" key in the action.
    old_row = '{"kind": "roll", "values": [5, 2], "virtual": false}'
    conn.execute("UPDATE actions SET action = ? WHERE seq = 1", (old_row,))
    conn.commit()
    conn.close()
    with Journal(path) as old:
        assert [r.source for r in old.rows(jg.id)] == [None, None]
        resumed = old.resume(jg.id)
        assert list(resumed.game.actions) == [Roll((5, 2)), Choose("done")]


def test_a_refused_action_writes_nothing_and_changes_nothing(tmp_path: Path) -> None:
    with Journal(tmp_path / "games.sqlite") as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        jg.apply(Roll((6, 2)))
        state = jg.game.state.to_dict()
        for bad in (Roll((7,)), Move("swordsman", from_label("G9")), Choose("nonsense")):
            with pytest.raises(IllegalActionError):
                jg.apply(bad)
        assert len(jg.rows()) == 1
        assert jg.game.state.to_dict() == state


def test_a_failed_write_undoes_the_action_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        jg.apply(Roll((6, 2)))
        state = jg.game.state.to_dict()
        # Another writer took sequence number 2 for this game: our insert must fail, and the game stay as it was.
        other = sqlite3.connect(path)
        other.execute(
            "INSERT INTO actions (game_id, seq, action, virtual, at) VALUES (?, 2, ?, 0, 'x')",
            (jg.id, '{"kind": "choose", "option": "done"}'),
        )
        other.commit()
        other.close()
        with pytest.raises(sqlite3.IntegrityError):
            jg.apply(AutoPlayer(0).choose(jg.game))
        assert jg.game.state.to_dict() == state
        assert len(jg.game.history) == 1


def test_finished_games_record_the_winner_and_resume_picks_the_latest_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        first = journal.new_game(load_scenario("tutorial"))
        play_out(first.game, AutoPlayer(1), apply=first.apply)
        second = journal.new_game(load_scenario("goblins-treasure"))
        second.apply(Roll((3, 4)))
        third = journal.new_game(load_scenario("tutorial"))
        third.apply(Roll((2, 5)))
        done = journal.games()[0]
        assert done.over and done.winner == first.game.state.winner
        assert journal.resume().id == third.id
        # Undoing the winning action reopens the game.
        first.undo()
        assert not journal.games()[0].over and journal.games()[0].winner is None


def test_resume_uses_the_stored_scenario_text_when_the_file_changed(tmp_path: Path) -> None:
    scenario_file = tmp_path / "skirmish.toml"
    scenario_file.write_text(bundled_scenarios()["tutorial"], encoding="utf-8")
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario(scenario_file))
        play(jg.apply, jg.game, AutoPlayer(9), 12)
        expected = jg.game.state.to_dict()
    scenario_file.unlink()
    with Journal(path) as again:
        assert again.resume().game.state.to_dict() == expected


def test_no_unfinished_game_and_unknown_game_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        with pytest.raises(JournalError, match="no unfinished game"):
            journal.resume()
        with pytest.raises(JournalError, match="there is no game 7"):
            journal.resume(7)


def test_a_corrupt_file_is_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"this is a shopping list, not a database\n" * 200)
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert str(path) in str(err.value) and "Fix:" in str(err.value)


def test_a_foreign_sqlite_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="another program"):
        Journal(path)
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert tables == {"recipes"}


def test_a_newer_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Journal(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="schema version"):
        Journal(path)


def test_the_database_is_in_wal_mode_with_a_versioned_schema(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Journal(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_an_unreadable_action_row_is_reported_with_its_game_and_number(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        jg.apply(Roll((6, 2)))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE actions SET action = ? WHERE seq = 1", ('{"kind": "jump"}',))
    conn.commit()
    conn.close()
    with Journal(path) as again, pytest.raises(JournalError, match=r"game 1 .*action 1 cannot be read"):
        again.resume()
