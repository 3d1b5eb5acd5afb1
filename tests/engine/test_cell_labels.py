"""Cells in texts go through the board: hex labels on a hex map, zone labels on the keypad mat.

Action lines, game records, ``hexa play`` and ``hexa replay`` print and read a cell with the board's
``label`` / ``from_label``; the stored Fantasy Battle records keep their hex texts byte for byte.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest

from engine.actions import Move, Roll, action_from_text, action_to_text
from engine.board import CellLabels
from engine.cli import play as play_cli
from engine.cli import replay as replay_cli
from engine.errors import IllegalActionError
from engine.game import Game
from engine.record import RecordError, export_record, parse_record, record_actions, replay_record
from engine.scenario import Scenario, load_scenario, load_scenario_text
from tests.engine.test_cli_play import hexa
from tests.engine.zone_rules import KEYPAD

RECORDS = Path(__file__).parent / "records"
# A whole keypad game: Ash (allies) walks 1 → 4 → 7 → 8 and wins; Bo and Cy (enemies) step about.
KEYPAD_GAME = ["ash 4", "bo 6", "cy 8", "ash 7", "bo 5", "cy 9", "ash 8"]


def keypad() -> Scenario:
    return load_scenario_text(KEYPAD, "keypad.toml")


def zone(scenario: Scenario, label: str) -> Move:
    figure, where = label.split()
    return Move(figure, scenario.board.from_label(where))


def test_boards_are_the_labels_action_texts_use() -> None:
    assert isinstance(keypad().board, CellLabels) and isinstance(load_scenario("tutorial").board, CellLabels)


def test_a_move_on_a_zone_board_is_written_and_read_with_the_zone_label() -> None:
    board = keypad().board
    move = Move("ash", board.from_label("7"))
    assert move.to.q == 0 and move.to.r == 0  # the keypad's top left zone
    assert action_to_text(move, board) == "move ash 7"
    assert action_from_text("move ash 7", board) == move
    assert action_to_text(Roll((3,)), board) == "roll 3"
    with pytest.raises(IllegalActionError, match=r"cannot read 'move ash C3': 'C3' is not a zone of the board; "
                                                 r"zones: 7, 8, 9, 4, 5, 6, 1, 2, 3"):
        action_from_text("move ash C3", board)


def test_a_move_on_a_hex_map_keeps_its_hex_label() -> None:
    board = load_scenario("tutorial").board
    move = action_from_text("move knight C3", board)
    assert action_to_text(move, board) == "move knight C3" and board.label(move.to) == "C3"


@pytest.mark.parametrize("name", ["tutorial", "goblins-treasure", "captured-princess"])
def test_stored_hex_records_are_written_back_with_the_same_action_texts(name: str) -> None:
    record = parse_record((RECORDS / f"{name}.txt").read_text(encoding="utf-8"), name, RECORDS)
    game = replay_record((RECORDS / f"{name}.txt").read_text(encoding="utf-8"), source=name, base_dir=RECORDS)
    written = parse_record(export_record(game, scenario_ref=record.scenario_ref))
    assert [line.text for line in written.lines] == [line.text for line in record.lines]


def play_keypad(scenario: Scenario) -> Game:
    game = Game(scenario)
    for move in KEYPAD_GAME:
        game.apply(zone(scenario, move))
    return game


def test_a_zone_game_record_names_zones_and_replays_to_the_same_game(tmp_path: Path) -> None:
    (tmp_path / "keypad.toml").write_text(KEYPAD, encoding="utf-8")
    game = play_keypad(keypad())
    assert game.over and game.state.winner == "allies"
    text = export_record(game, scenario_ref="keypad.toml")
    record = parse_record(text, "keypad-game.txt", tmp_path)
    assert [line.text for line in record.lines] == [f"move {m}" for m in KEYPAD_GAME]
    assert record.lines[0].comment == "ash to 4"
    replayed = replay_record(text, base_dir=tmp_path)
    assert replayed.state.to_dict() == game.state.to_dict()

    with pytest.raises(RecordError, match=r"line \d+: cannot read 'move ash E4': 'E4' is not a zone"):
        record_actions(parse_record(text.replace("move ash 4", "move ash E4"), "keypad-game.txt"), game.scenario.board)


def test_hexa_replay_walks_a_zone_game_and_ends_with_a_newline(tmp_path: Path) -> None:
    (tmp_path / "keypad.toml").write_text(KEYPAD, encoding="utf-8")
    record = tmp_path / "keypad-game.txt"
    record.write_text(export_record(play_keypad(keypad()), scenario_ref="keypad.toml"), encoding="utf-8")
    out = StringIO()
    assert replay_cli.replay_to(out, str(record)) == 0
    text = out.getvalue()
    assert "> move ash 4\n" in text and "> move ash 8\n" in text
    assert "[1] Move ash\n  legal zones (cost): 4 (1), 2 (1)\n" in text
    assert text.endswith("Result: allies (winner: allies)\n")


def test_hexa_replay_output_ends_with_a_newline(tmp_path: Path) -> None:
    """The whole output of the real command, for a finished game and for one that stops under way."""
    done = hexa(["replay", "--brief", str(RECORDS / "tutorial.txt")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("Result: Knights win: every goblin is down (winner: knights)\n")
    lines = (RECORDS / "tutorial.txt").read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1."))
    (tmp_path / "short.txt").write_text("\n".join(lines[:first + 3]), encoding="utf-8")  # no newline at its end
    stopped = hexa(["replay", "short.txt"], tmp_path)
    assert stopped.returncode == 0, stopped.stderr
    last = stopped.stdout.splitlines()[-1]
    assert last.startswith("Result: the record stops with the game under way; next: ")
    assert stopped.stdout.endswith(last + "\n")


def test_hexa_play_takes_a_zone_label_as_the_move_and_records_zones(tmp_path: Path) -> None:
    scenario_file = tmp_path / "keypad.toml"
    scenario_file.write_text(KEYPAD, encoding="utf-8")
    record = tmp_path / "game.txt"
    typed = StringIO(f"4\nE4\nmove bo 6\nundo\nmove bo 6\nrecord {record}\nquit\n")
    out = StringIO()
    assert play_cli.main(["--journal", str(tmp_path / "games.sqlite"), str(scenario_file)],
                         stdin=typed, stdout=out) == 0
    text = out.getvalue()
    assert "> Ash moves to 4" in text and "> Bo moves to 6" in text and "Undone: Bo moves to 6" in text
    assert "Not understood: 'E4' is not a zone of the board; zones: 7, 8, 9, 4, 5, 6, 1, 2, 3" in text
    written = parse_record(record.read_text(encoding="utf-8"))
    assert [line.text for line in written.lines] == ["move ash 4", "move bo 6"]
