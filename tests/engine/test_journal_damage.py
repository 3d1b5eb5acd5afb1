"""Damaged journals give a clear message, and a game that cannot be resumed never stops a start."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.autoplay import AutoPlayer
from engine.errors import EngineError
from engine.journal import GameNotResumable, Journal, JournalError
from engine.scenario import load_scenario
from engine.service.overrides import OverrideLog
from engine.service.session import open_session


def _journal(path: Path, actions: int = 30) -> Path:
    """A journal of two unfinished games: game 1 of the tutorial, game 2 of the goblins' treasure."""
    with Journal(path) as journal:
        for scenario in ("tutorial", "goblins-treasure"):
            jg = journal.new_game(load_scenario(scenario))
            player = AutoPlayer(3)
            for _ in range(actions):
                jg.apply(player.choose(jg.game))
            assert not jg.over
    return path


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _journal(tmp_path_factory.mktemp("journal") / "games.sqlite")


@pytest.fixture()
def copy(pristine: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(pristine, tmp_path / "games.sqlite"))


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def _clear(exc: BaseException, path: Path) -> None:
    text = str(exc)
    assert str(path) in text and "Fix:" in text and "Traceback" not in text


@pytest.mark.parametrize("seed", range(12))
def test_two_kib_overwritten_mid_file_is_a_clear_error_or_leaves_a_usable_journal(copy: Path, seed: int) -> None:
    rng = random.Random(seed)
    size = copy.stat().st_size
    with copy.open("r+b") as fh:
        fh.seek(rng.randrange(size // 4, size - 2048))
        fh.write(rng.randbytes(2048))
    try:
        with Journal(copy) as journal:
            journal.resume_newest(g.id for g in reversed(journal.games()))
    except JournalError as exc:
        _clear(exc, copy)


def test_the_page_of_the_games_overwritten_is_reported_as_damaged(copy: Path) -> None:
    with copy.open("r+b") as fh:
        fh.seek(4096)  # page 2: the first table's root page
        fh.write(b"\xa5" * 2048)
    with pytest.raises(JournalError, match=r"(damaged|not a readable game journal).*Fix: move that file away.*"
                                           r"\.recover") as err:
        Journal(copy).resume()
    _clear(err.value, copy)


@pytest.mark.parametrize("table", ["actions", "games"])
def test_a_dropped_table_is_reported_by_name(copy: Path, table: str) -> None:
    _sql(copy, f"DROP TABLE {table}")
    with pytest.raises(JournalError, match=f"is damaged: its table '{table}' is missing") as err:
        Journal(copy)
    _clear(err.value, copy)
    with pytest.raises(EngineError, match=f"table '{table}' is missing"):
        open_session(str(copy), "tutorial")


def _override(path: Path, figure: str, q: int, r: int) -> None:
    with Journal(path) as journal:
        OverrideLog(journal).close()  # creates the table
    _sql(path, "INSERT INTO service_overrides (game_id, after_seq, figure, q, r, at) "
               f"VALUES (2, 3, '{figure}', {q}, {r}, 'now')")


@pytest.mark.parametrize(("figure", "q", "r", "message"), [
    ("nobody", 0, 0, r"figure 'nobody', which is not in the scenario"),
    ("", 99, 99, r"hex \(99, 99\), which is not in the scenario"),
])
def test_an_override_naming_an_unknown_figure_or_hex_skips_that_game(
    copy: Path, figure: str, q: int, r: int, message: str
) -> None:
    if not figure:
        figure = load_scenario("goblins-treasure").figures[0].id
    _override(copy, figure, q, r)
    from engine.service.overrides import resume

    with Journal(copy) as journal:
        overrides = OverrideLog(journal)
        with pytest.raises(GameNotResumable, match=r"game 2 \(The Goblins' Treasure\) cannot be resumed: after its "
                                                   r"action 3: an override names " + message) as err:
            resume(journal, overrides, 2)
        overrides.close()
    _clear(err.value, copy)
    session = open_session(str(copy), None)  # the engine starts: the newest game it can resume is game 1
    try:
        assert session.game_id == 1
    finally:
        session.close()


def test_an_action_that_no_longer_applies_names_the_game_and_the_action(copy: Path) -> None:
    _sql(copy, "UPDATE actions SET action = '{\"kind\": \"roll\", \"values\": [1, 2, 3, 4, 5]}' "
               "WHERE game_id = 2 AND seq = 1")
    with Journal(copy) as journal, pytest.raises(GameNotResumable, match=r"game 2 .*: its action 1 no longer "
                                                                           r"applies") as err:
        journal.resume(2)
    _clear(err.value, copy)


def _nan_height(path: Path) -> None:
    conn = sqlite3.connect(path)
    for game_id, text in conn.execute("SELECT id, scenario_toml FROM games").fetchall():
        conn.execute("UPDATE games SET scenario_toml = ? WHERE id = ?",
                     (text.replace("[[figures]]", "[[figures]]\nheight_mm = nan", 1), game_id))
    conn.commit()
    conn.close()


def test_a_journaled_game_whose_scenario_is_now_refused_never_stops_the_engine(copy: Path) -> None:
    _nan_height(copy)
    with Journal(copy) as journal, pytest.raises(GameNotResumable, match=r"game 2 .* cannot be resumed: its "
                                                                           r"scenario is not accepted any more: .*"
                                                                           r"'height_mm' is nan") as err:
        journal.resume(2)
    assert str(err.value).count("Fix:") == 1
    with pytest.raises(EngineError, match=r"no unfinished game to resume.*\n.*game 2 .*'height_mm' is nan"):
        open_session(str(copy), None)
    session = open_session(str(copy), "goblins-treasure")  # starts a new game instead
    try:
        assert session.game_id == 3 and not session.game.history
    finally:
        session.close()
