"""``hexa play`` and ``hexa replay`` as a person uses them: real processes, typed lines, the journal on disk."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from engine.actions import action_to_text
from engine.autoplay import AutoPlayer, play_out
from engine.cli import play as play_cli
from engine.cli import replay as replay_cli
from engine.journal import Journal
from engine.record import replay_record
from engine.scenario import load_scenario

REPO = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).parent / "records"


def hexa(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_auto_mode_plays_the_tutorial_to_a_winner(tmp_path: Path) -> None:
    result = hexa(["play", "--auto", "--seed", "1", "tutorial"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"Journal: {tmp_path / 'hexa-games.sqlite'}" in out
    winner_lines = [line for line in out.splitlines() if line.startswith("Winner: ")]
    assert len(winner_lines) == 1 and ("knights" in winner_lines[0] or "goblins" in winner_lines[0])
    # The log shows every prompt's answer and the events in words.
    # Each answer is echoed as a sentence, never as the command syntax a person types.
    assert "> (auto) Knights rolled " in out and "(the app rolled)" in out and "Turn order:" in out
    assert "> (auto) roll" not in out and "> (auto) choose" not in out
    with Journal(tmp_path / "hexa-games.sqlite") as journal:
        (info,) = journal.games()
        assert info.over and info.winner in winner_lines[0]
        assert out.count("> (auto) ") == info.actions


def test_an_interactive_session_takes_numbers_labels_rolls_undo_and_bad_input(tmp_path: Path) -> None:
    typed = [
        "hello",  # nonsense: explained, asked again
        "6 2",  # turn order: knights first
        "done",  # finish the ranged phase (an option id works too)
        "9",  # no such option
        "3",  # 3) move Swordsman
        "r",  # the software rolls the movement die
        "Z9",  # not a legal hex
        "C2",
        "undo",
        "B2",
        "targets B",
        "reach S",
        "record game.txt",
        "quit",
    ]
    result = hexa(["play", "--seed", "4", "tutorial"], tmp_path, "\n".join(typed) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "S  Swordsman" in out and "g  Goblin" in out  # the legend: uppercase first side, lowercase second
    assert "Not understood" in out and "Expected: 2 die result(s)" in out
    assert "> Knights rolled 6; Goblins rolled 2" in out and "Round 1: Knights" in out
    assert "There is no option 9. Expected: an option number 1–4." in out
    assert "> Chose “move Swordsman" in out
    assert "(rolled by the app)" in out
    assert "Not accepted:" in out and "Legal hexes:" in out
    assert "legal hexes (cost):" in out and "B2 (1)" in out
    assert "> Swordsman moves to C2" in out and "Undone: Swordsman moves to C2" in out
    assert "> Swordsman moves to B2" in out
    assert "Bowman (B):" in out and "range" in out
    assert "Swordsman could move to (cost):" in out
    assert "Game record written to game.txt (5 actions)." in out
    assert "Stopped; the game is saved in the journal" in out

    game = replay_record((tmp_path / "game.txt").read_text(encoding="utf-8"))
    assert game.scenario.label(game.state.figures["swordsman"].hex) == "B2"  # type: ignore[arg-type]
    with Journal(tmp_path / "hexa-games.sqlite") as journal:
        rows = journal.rows(1)
    assert [r.undone for r in rows] == [False, False, False, False, True, False]
    assert rows[3].virtual and not rows[0].virtual

    # Starting again offers the unfinished game; 'y' resumes it where it stopped.
    again = hexa(["play"], tmp_path, "y\nboard\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "An unfinished game is in the journal: #1 Tutorial Skirmish, 5 actions" in again.stdout
    assert "Resumed game #1: Tutorial Skirmish after 5 actions" in again.stdout
    assert any(
        line.split()[:2] == ["S", "Swordsman"] and line.rstrip().endswith("B2") for line in again.stdout.splitlines()
    )


def test_mixed_players_let_the_auto_player_take_one_side(tmp_path: Path) -> None:
    out = StringIO()
    typed = StringIO("6 2\ndone\nend\nquit\n")  # knights go first, shoot nothing, end the turn
    argv = ["--journal", str(tmp_path / "games.sqlite"), "--players", "human,auto", "--seed", "3", "tutorial"]
    assert play_cli.main(argv, stdin=typed, stdout=out) == 0
    lines = [line.removeprefix("? ") for line in out.getvalue().splitlines()]
    auto = [line for line in lines if line.startswith("> (auto) ")]
    human = [line for line in lines if line.startswith("> ") and not line.startswith("> (auto) ")]
    assert human[0] == "> Knights rolled 6; Goblins rolled 2" and len(human) >= 3
    assert auto, "the goblins' turn was not played by the auto player"
    assert not any(knight in a for a in auto for knight in ("Swordsman moves", "Bowman moves", "Spearman moves"))
    # After the goblins' turn the knights are asked again (or a fight needs their die).
    assert lines[-1].startswith("Stopped; the game is saved")


def test_a_finished_game_resumed_can_be_undone_and_ended_again(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Journal(path) as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        play_out(jg.game, AutoPlayer(2, explore=0.0), apply=jg.apply)  # the plain aims: the knights win
        last = jg.game.history[-1].action
        board = jg.game.scenario.board
        said = jg.game.sentence(len(jg.game.history))
    out = StringIO()
    typed = StringIO(f"2\nundo\n{action_to_text(last, board)}\nquit\n")  # '2' is refused: the game is over
    assert play_cli.main(["--journal", str(path), "--resume", "1"], stdin=typed, stdout=out) == 0
    text = out.getvalue()
    assert text.count("Winner: knights") == 2
    assert "The game is over" in text and f"Undone: {said}" in text


def test_a_corrupt_journal_stops_with_the_file_and_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "hexa-games.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    assert play_cli.main(["--journal", str(bad), "--auto", "tutorial"]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "Fix:" in err


def test_bad_players_and_unknown_scenarios_are_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(tmp_path / "games.sqlite")
    assert play_cli.main(["--journal", journal, "--players", "human", "tutorial"]) == 2
    assert "--players needs 2 entries" in capsys.readouterr().err
    assert play_cli.main(["--journal", journal, "--auto", "dragons-lair"]) == 2
    assert "no such scenario file or bundled scenario" in capsys.readouterr().err


def test_a_mistyped_scenario_gets_the_nearest_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert play_cli.main(["--journal", str(tmp_path / "games.sqlite"), "--auto", "goblins-treasur"]) == 2
    assert "Did you mean goblins-treasure?" in capsys.readouterr().err


def test_a_journal_in_memory_is_not_said_to_be_saved(capsys: pytest.CaptureFixture[str]) -> None:
    assert play_cli.main(["--journal", ":memory:", "--auto", "--seed", "1", "tutorial"]) == 0
    out = capsys.readouterr().out
    assert "in memory only" in out and "every action is saved" not in out


def test_replay_prints_each_prompt_the_answer_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert replay_cli.main([str(RECORDS / "goblins-treasure.txt")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The Goblins' Treasure (fantasy-battle)")
    assert "[1] Each player rolls 1d6 for the turn order" in out
    assert "  die 1: Adventurers roll 1d6 for turn order" in out
    assert "> roll! " in out and "  - Turn order:" in out
    assert out.rstrip().endswith(
        "Result: Adventurers win: the treasure is carried out of the lair (winner: adventurers)"
    )


def test_replay_of_a_missing_or_broken_record_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert replay_cli.main([str(tmp_path / "none.txt")]) == 2
    assert "no such record file" in capsys.readouterr().err
    broken = tmp_path / "broken.txt"
    broken.write_text("# scenario: tutorial\n1. roll 6 2\n2. fly away\n", encoding="utf-8")
    assert replay_cli.main([str(broken)]) == 2
    assert "line 3" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope.toml", "--auto"], "no such scenario file"),
        (["bad.toml", "--auto"], "'height_mm' is nan"),
        (["tutorial", "--players", "robot,human"], "--players needs 2 entries"),
        (["--resume"], "no such journal file"),
    ],
)
def test_refused_inputs_write_no_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    bad = load_scenario("tutorial").text.replace("[[figures]]", "[[figures]]\nheight_mm = nan", 1)
    (tmp_path / "bad.toml").write_text(bad, encoding="utf-8")
    journal = tmp_path / "games.sqlite"
    args = [str(tmp_path / a) if a.endswith(".toml") else a for a in args]
    code = play_cli.main([*args, "--journal", str(journal)], StringIO(""), StringIO())
    assert code == 2
    assert message in capsys.readouterr().err
    assert not journal.exists()


def test_play_shows_the_points_and_warns_when_the_sides_differ(tmp_path: Path) -> None:
    out = StringIO()
    argv = ["--journal", str(tmp_path / "g.sqlite"), "tutorial"]
    assert play_cli.main(argv, stdin=StringIO("quit\n"), stdout=out) == 0
    game = play_cli.Game(load_scenario("tutorial"))
    points = game.points()
    names = {s.id: s.name for s in game.scenario.sides}
    parts = ", ".join(f"{names[sid]} {n}" for sid, n in points.items())
    assert f"Points: {parts}." in out.getvalue()
    assert ("Warning: the points differ" in out.getvalue()) == (len(set(points.values())) > 1)


def test_the_terminal_map_draws_walls_and_doors() -> None:
    game = play_cli.Game(load_scenario("goblins-treasure"))
    text = play_cli.board_text(game, play_cli.figure_letters(game))
    assert "=" in text and "+" in text and "*" in text
    assert "Edges: = wall, + door, * locked door, ' open door" in text


def test_the_figure_list_shows_any_rule_sets_own_fields() -> None:
    from engine.hexes import Hex
    from engine.rules.fantasy_battle.scenario_fields import FigureKind
    from engine.scenario import FigureSpec

    runner = FigureSpec("r", "Runner", 3, "red", Hex(0, 0), fields={"speed": 2, "tags": ("swift",), "fast": True})
    assert play_cli.own_fields_text(runner) == "speed 2, swift"
    archer = FigureSpec("a", "Archer", 4, "red", Hex(0, 0), fields={"kind": FigureKind.ARCHER, "abilities": ()})
    assert play_cli.own_fields_text(archer) == "archer"


def test_the_figure_list_in_japanese_names_the_parties_and_keeps_its_columns() -> None:
    from engine import i18n

    i18n.set_language("ja")
    try:
        game = play_cli.Game(load_scenario("filtwiz-river-ambush"))
        text = play_cli.board_text(game, play_cli.figure_letters(game))
    finally:
        i18n.set_language("en")
    rows = [line for line in text.splitlines() if "移動力" in line]
    assert len(rows) == len(game.scenario.figures)
    assert not any("dawn" in row or "gang" in row for row in rows)
    assert all("暁の一行" in row or "川の一味" in row for row in rows)
    # The side column starts at the same terminal column on every row (a Japanese character takes two).
    starts = set()
    for row, spec in zip(rows, game.scenario.figures, strict=True):
        after_name = row.index(spec.name) + len(spec.name)
        starts.add(play_cli._columns(row[: row.index(game.scenario.side(spec.side).name, after_name)]))
    assert len(starts) == 1, rows
