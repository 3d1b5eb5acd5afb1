"""Game records: export and replay round trips, scenario lookup and fingerprint, errors that name the line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine.autoplay import AutoPlayer, play_out
from engine.game import Game
from engine.journal import Journal
from engine.record import (
    RecordError,
    export_journal_game,
    export_record,
    parse_record,
    read_record_file,
    replay_parsed,
    replay_record,
    scenario_sha256,
)
from engine.scenario import bundled_scenarios, load_scenario


def played(scenario_id: str = "tutorial", seed: int = 3, steps: int | None = None) -> Game:
    game = Game(load_scenario(scenario_id))
    player = AutoPlayer(seed)
    if steps is None:
        play_out(game, player)
    else:
        for _ in range(steps):
            game.apply(player.choose(game))
    return game


def action_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_export_then_replay_gives_the_same_game() -> None:
    game = played("goblins-treasure", seed=4, steps=80)
    text = export_record(game)
    again = replay_record(text)
    assert again.actions == game.actions
    assert again.state.to_dict() == game.state.to_dict()
    header = text.splitlines()[:6]
    assert "# scenario: goblins-treasure" in header
    assert "# rules: fantasy-battle" in header
    assert f"# scenario-sha256: {scenario_sha256(game.scenario)}" in header


def test_a_finished_game_names_its_winner_and_event_comments_are_only_comments() -> None:
    game = played("tutorial", seed=2)
    text = export_record(game)
    assert f"# winner: {game.state.winner}" in text
    lines = action_lines(text)
    assert lines[0].startswith("1. roll! ") and "# Turn order" in lines[0]
    stripped = "\n".join(line.split("#")[0] for line in text.splitlines() if not line.startswith("# scenario-sha"))
    stripped = "# scenario: tutorial\n" + stripped
    assert replay_record(stripped).state.to_dict() == game.state.to_dict()


def test_a_hand_written_record_without_numbers_replays() -> None:
    text = "# scenario: tutorial\nroll 6 2\nchoose done\nchoose swordsman\nroll 5\nmove swordsman C2\n"
    game = replay_record(text)
    assert game.scenario.label(game.state.figures["swordsman"].hex) == "C2"  # type: ignore[arg-type]


def test_a_wrong_number_names_the_line() -> None:
    text = "# scenario: tutorial\n1. roll 6 2\n\n3. choose done\n"
    with pytest.raises(RecordError, match=r"line 4: action number 3 where 2 was expected"):
        parse_record(text, "game.txt")


def test_an_unreadable_action_names_the_line() -> None:
    text = "# scenario: tutorial\n1. roll 6 2\n2. jump swordsman\n"
    with pytest.raises(RecordError, match=r"game.txt, line 3: .*cannot read 'jump swordsman'"):
        replay_parsed(parse_record(text, "game.txt"))


def test_a_refused_action_names_the_line_and_why() -> None:
    text = "# scenario: tutorial\n1. roll 6 2\n2. choose done\n3. choose swordsman\n4. roll 2\n5. move swordsman G9\n"
    with pytest.raises(RecordError, match=r"line 6 \(action 5\) refused: .*Legal hexes"):
        replay_record(text, source="game.txt")


def test_a_record_without_a_scenario_header_is_refused() -> None:
    with pytest.raises(RecordError, match="no '# scenario: …' header"):
        parse_record("1. roll 6 2\n", "game.txt")


def test_an_unknown_scenario_is_a_clear_error() -> None:
    with pytest.raises(RecordError, match="neither a bundled scenario"):
        replay_record("# scenario: dragons-lair\n1. roll 6 2\n")


def test_a_scenario_file_next_to_the_record_is_found_and_a_changed_one_warned(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "club"
    (folder / "maps").mkdir(parents=True)
    scenario_file = folder / "maps" / "skirmish.toml"
    scenario_file.write_text(bundled_scenarios()["tutorial"], encoding="utf-8")
    game = Game(load_scenario(scenario_file))
    player = AutoPlayer(1)
    for _ in range(25):
        game.apply(player.choose(game))
    record_file = folder / "evening.txt"
    record_file.write_text(export_record(game, scenario_ref="maps/skirmish.toml"), encoding="utf-8")

    result = replay_parsed(read_record_file(record_file))
    assert result.warnings == ()
    assert result.game.state.to_dict() == game.state.to_dict()

    scenario_file.write_text(bundled_scenarios()["tutorial"] + "\n# a note added later\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="engine.record"):
        changed = replay_parsed(read_record_file(record_file))
    assert len(changed.warnings) == 1 and "changed since this game was recorded" in changed.warnings[0]
    assert "changed since" in caplog.text
    assert changed.game.state.to_dict() == game.state.to_dict()


def test_a_journal_game_exports_without_its_undone_actions(tmp_path: Path) -> None:
    with Journal(tmp_path / "games.sqlite") as journal:
        jg = journal.new_game(load_scenario("tutorial"))
        player = AutoPlayer(6)
        for _ in range(15):
            jg.apply(player.choose(jg.game))
        jg.undo()
        jg.undo()
        text = export_journal_game(journal, jg.id)
    assert "# undone-actions: 2 (left out)" in text
    assert len(action_lines(text)) == 13
    assert replay_record(text).state.to_dict() == jg.game.state.to_dict()


def test_missing_and_unreadable_record_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such record file"):
        read_record_file(tmp_path / "nope.txt")
    garbage = tmp_path / "photo.txt"
    garbage.write_bytes(b"\xff\xd8\xff\xe0 not text \x00\x9f")
    with pytest.raises(RecordError, match="cannot read it as a text record"):
        read_record_file(garbage)
