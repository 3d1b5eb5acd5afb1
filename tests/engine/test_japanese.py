"""The table in Japanese: a whole terminal game, a scenario's errors, counters, texts a scenario names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import i18n
from engine.board.kinds import cells
from engine.errors import ScenarioError
from engine.scenario import bundled_scenarios, load_scenario, load_scenario_text
from engine.texts import figures_count, hexes, join_words
from tests.engine.english_words import english_lines

REPO = Path(__file__).resolve().parents[2]
# The command words a Japanese text may still quote as they are typed.
COMMAND_WORDS = ("hexa", "play", "replay", "resume")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def names_of(scenario_id: str) -> set[str]:
    """Every id and label a game of the scenario may print as it is (figures, sides, options, cells)."""
    scenario = load_scenario(scenario_id)
    ids = {f.id for f in scenario.figures} | {s.id for s in scenario.sides}
    ids |= {"advance", "stay", "end", "done", "move", "choose", "roll", "remove", "face"}  # answers and option ids
    return ids | set(COMMAND_WORDS)


def play_ja(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "play", *args, "--journal", str(tmp_path / "j.db"), "--lang", "ja"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "HEXA_LANG": "en"},
    )


def test_the_check_finds_english_sentences_and_leaves_ids_labels_and_dice() -> None:
    assert english_lines("Goblins: roll 1d6 for Goblin") == [
        "'Goblins: roll 1d6 for Goblin'  <- ['Goblins: roll', 'for Goblin']"
    ]
    assert english_lines("> （自動） move goblin-1 E1") == []
    assert english_lines("> （自動） choose advance", allowed=["advance"]) == []
    assert english_lines("剣士の移動判定：2d6（アプリが振った）") == []
    assert english_lines("剣士が goblin slinger を射撃") != []


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_a_whole_tutorial_game_in_japanese_prints_no_english_sentence(tmp_path: Path, seed: int) -> None:
    result = play_ja(tmp_path, "tutorial", "--auto", "--seed", str(seed))
    assert result.returncode == 0, result.stderr
    assert "勝者：" in result.stdout and "第1ラウンド" in result.stdout
    offending = english_lines(result.stdout, names_of("tutorial"))
    assert not offending, "English in the Japanese game:\n" + "\n".join(offending)


@pytest.mark.parametrize("scenario", ["goblins-treasure", "captured-princess"])
def test_the_other_fantasy_battle_scenarios_play_in_japanese_too(tmp_path: Path, scenario: str) -> None:
    result = play_ja(tmp_path, scenario, "--auto", "--seed", "3")
    assert result.returncode == 0, result.stderr
    offending = english_lines(result.stdout, names_of(scenario))
    assert not offending, "English in the Japanese game:\n" + "\n".join(offending)


def test_an_error_in_a_scenario_file_is_reported_in_japanese_with_the_file_and_line(tmp_path: Path) -> None:
    text = bundled_scenarios()["tutorial"]
    broken = text.replace('kind = "archer"', 'kidn = "archer"', 1)
    line = next(i for i, t in enumerate(broken.splitlines(), start=1) if t.startswith("kidn"))
    i18n.set_language("ja")
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(broken, "broken.toml")
    message = str(err.value)
    assert message.startswith(f"broken.toml、{line}行目：キー 'kidn' は [[figures]] のキーではありません。")
    assert "'kind' のことですか？" in message and "直し方：" in message
    keys_listed = re.sub(r"\[[^\]]*\]", "", message)  # the known keys are listed as they are written
    assert not english_lines(keys_listed, ["kidn", "kind"])


def test_the_play_command_reports_a_broken_scenario_in_japanese(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[scenario]\nname = \"x\"\nruleset = \"fantasy-battle\"\n", encoding="utf-8")
    result = play_ja(tmp_path, str(path), "--auto")
    assert result.returncode == 2
    assert "bad.toml" in result.stderr and "直し方：" in result.stderr
    assert "Fix:" not in result.stderr


def test_counts_carry_their_counter_words() -> None:
    i18n.set_language("ja")
    assert figures_count(2, "ゴブリン") == "ゴブリン2体"
    assert figures_count(3) == "フィギュア3体"
    assert hexes(1) == "1ヘクス" and hexes(3) == "3ヘクス"
    assert cells("zones", 2) == "2ゾーン" and cells("hex", 1) == "1ヘクス"  # each kind's own words
    assert join_words(["剣士", "弓兵", "槍兵"]) == "剣士、弓兵、槍兵"
    i18n.set_language("en")
    assert figures_count(2, "Goblin") == "Goblin ×2"
    assert hexes(1) == "1 hex" and hexes(3) == "3 hexes"
    assert join_words(["A", "B", "C"]) == "A, B and C"
    assert join_words(["A", "B"], "or") == "A or B"


def test_a_scenario_names_its_figures_and_sides_in_either_language() -> None:
    en = load_scenario("tutorial")
    assert en.name == "Tutorial Skirmish" and en.side("goblins").name == "Goblins"
    i18n.set_language("ja")
    ja = load_scenario("tutorial")
    assert ja.name == "チュートリアル：小競り合い" and ja.side("goblins").name == "ゴブリン軍"
    assert ja.figure("goblin-slinger").name == "ゴブリンの投石兵"
    # ids come from the English names, so actions and records read the same in both languages
    assert [f.id for f in ja.figures] == [f.id for f in en.figures]


def test_a_scenario_text_in_an_unknown_language_is_refused_with_its_line() -> None:
    text = bundled_scenarios()["tutorial"]
    broken = text.replace('name = { en = "Bowman", ja = "弓兵" }', 'name = { en = "Bowman", fr = "Archer" }')
    with pytest.raises(ScenarioError, match=r"line \d+: 'name' has a text in 'fr', which is not a language"):
        load_scenario_text(broken, "t.toml")


def test_key_prompts_and_refusals_come_out_in_japanese() -> None:
    from engine.actions import Roll
    from engine.errors import IllegalActionError
    from engine.game import Game

    i18n.set_language("ja")
    game = Game(load_scenario("tutorial"))
    assert game.prompt.text == "手番の順番を決めるため、各プレイヤーが1d6を振ってください。大きい目から先に行います。"
    with pytest.raises(IllegalActionError, match="7は6面ダイスの目ではありません"):
        game.apply(Roll((7, 1)))
    events = game.apply(Roll((2, 5)))
    assert [e.text for e in events][-1] == "第1ラウンド：ゴブリン軍の手番。"


def test_a_game_record_replays_in_japanese(tmp_path: Path) -> None:
    record = REPO / "tests" / "engine" / "records" / "tutorial.txt"
    result = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(record), "--lang", "ja"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "HEXA_LANG": "en"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("チュートリアル：小競り合い（fantasy-battle）")
    assert "結果：" in result.stdout
    offending = english_lines(result.stdout, names_of("tutorial") | {"fantasy-battle"})
    assert not offending, "English in the Japanese replay:\n" + "\n".join(offending)


def test_the_scenario_message_names_kinds_and_abilities_in_the_tables_language() -> None:
    from engine.i18n import speaking
    from engine.scenario import load_scenario_text
    from engine.snapshot import board_to_dict, scenario_to_dict

    with speaking("ja"):
        tutorial = load_scenario_text(bundled_scenarios()["tutorial"])
        words = scenario_to_dict(tutorial)["words"]
        tenkey = scenario_to_dict(load_scenario_text(bundled_scenarios()["tenkey-skirmish"]))["words"]
        lost_worlds = scenario_to_dict(load_scenario_text(bundled_scenarios()["lost-worlds-ruined-tower"]))["words"]
        laramie = board_to_dict(load_scenario_text(bundled_scenarios()["laramie-station"]))
    assert words["fighter"] == "戦士" and words["archer"] == "射手", words
    assert tenkey["footwork"] == "《足さばき》" and tenkey["hawk_eye"] == "《鷹の目》", tenkey
    assert lost_worlds["sword"] == "剣" and lost_worlds["regeneration"] == "再生", lost_worlds
    kinds = {k["name"]: k for k in laramie["terrain_kinds"]}
    assert kinds["house"]["label"] == "家" and not kinds["house"]["help"].isascii()
    assert kinds["floor"]["help"] == "開けた床"
    with speaking("en"):
        english = board_to_dict(load_scenario_text(bundled_scenarios()["laramie-station"]))
    assert {k["name"]: k["label"] for k in english["terrain_kinds"]}["house"] == "house"


@pytest.mark.parametrize("scenario", ["tenkey-skirmish", "laramie-station", "filtwiz-river-ambush",
                                      "lost-worlds-ruined-tower"])
def test_the_new_rule_sets_play_a_whole_game_in_japanese(tmp_path: Path, scenario: str) -> None:
    result = play_ja(tmp_path, scenario, "--auto", "--seed", "3")
    assert result.returncode == 0, result.stderr
    # The scenario author's own words of a figure (a weapon's make, a party's id) are printed as written.
    authored = {str(v) for f in load_scenario(scenario).figures for v in f.fields.values() if isinstance(v, str)}
    words = {w for text in authored for w in text.split()}
    offending = english_lines(result.stdout, names_of(scenario) | words)
    assert not offending, "English in the Japanese game:\n" + "\n".join(offending[:20])


# Broken TOML, where tomllib stops (line, column) and the words of its English reason.
BROKEN_TOML: list[tuple[str, int, int, str]] = [
    ("[map\n", 1, 5, "Expected ']' at the end of a table declaration"),
    ('[scenario]\nname = \n', 2, 8, "Invalid value"),
    ('[scenario]\nname = "a"\nname = "b"\n', 3, 11, "Cannot overwrite a value"),
    ("[scenario]\n[scenario]\n", 2, 10, "Cannot declare scenario twice"),
    ('[scenario]\nname = "open\n', 2, 13, "Illegal character '\\n'"),
    ("[scenario]\nsizes = [1, 2\n", 3, 1, "Unclosed array"),
    ("[scenario]\nname = { en = \"a\"\n", 2, 18, "Unclosed inline table"),
    ('[scenario]\nname = "a" "b"\n', 2, 12, "Expected newline or end of document after a statement"),
    ("[scenario]\nname\n", 2, 5, "Expected '=' after a key in a key/value pair"),
    ("[scenario]\nname = { en = \"a\", en = \"b\" }\n", 2, 28, "Duplicate inline table key en"),
    ("[scenario]\ntext = '''never closed\n", 3, 1, "Expected \"'''\""),
]


@pytest.mark.parametrize(("text", "line", "column", "reason"), BROKEN_TOML)
def test_a_toml_syntax_error_reads_in_japanese_with_its_file_line_and_column(
    text: str, line: int, column: int, reason: str
) -> None:
    with pytest.raises(ScenarioError) as english:
        load_scenario_text(text, "broken.toml")
    assert str(english.value) == (f"broken.toml, line {line}, column {column}: not valid TOML ({reason}). "
                                  "Fix: correct the syntax there")
    i18n.set_language("ja")
    with pytest.raises(ScenarioError) as japanese:
        load_scenario_text(text, "broken.toml")
    message = str(japanese.value)
    assert message.startswith(f"broken.toml、{line}行目{column}文字目：") and "直し方：" in message, message
    assert not english_lines(message, ["scenario", "en", "toml"]), message


def test_a_toml_reason_tomllib_words_otherwise_is_quoted_after_a_japanese_lead_in() -> None:
    import tomllib

    from engine.toml_syntax import toml_error

    i18n.set_language("ja")
    newer = tomllib.TOMLDecodeError("Some newer complaint (at line 4, column 2)")
    assert toml_error(newer, "", "s.toml") == (
        "s.toml、4行目2文字目：Some newer complaint。TOMLとして読めません。直し方：その箇所の書き方を直してください")
    unplaced = tomllib.TOMLDecodeError("Something else entirely, at line 7")
    assert toml_error(unplaced, "", "s.toml").startswith(
        "s.toml：TOMLとして正しくありません（Something else entirely, at line 7）")


def test_a_broken_rule_data_file_and_heights_file_read_in_japanese_too(tmp_path: Path) -> None:
    from engine.rules.data import read_rule_data
    from vision.cli import UsageError, _load_heights

    i18n.set_language("ja")
    with pytest.raises(ScenarioError) as data:
        read_rule_data("[chart\n", "chart.toml", {})
    assert str(data.value).startswith("chart.toml、1行目7文字目：表の見出しの終わりに ']' がありません。")
    heights = tmp_path / "heights.toml"
    heights.write_text("[heights]\n3 = \n", encoding="utf-8")
    with pytest.raises(UsageError) as bad:
        _load_heights(str(heights))
    assert "2行目5文字目：値として読めません" in str(bad.value)
    assert not english_lines(str(bad.value).replace(str(heights), "FILE"), ["toml"]), str(bad.value)


def test_a_broken_record_an_unknown_rule_set_and_a_zone_drawn_twice_read_in_japanese(tmp_path: Path) -> None:
    from engine.record import RecordError, parse_record, read_record_file

    tenkey = bundled_scenarios()["tenkey-skirmish"]
    tutorial = bundled_scenarios()["tutorial"]
    i18n.set_language("ja")
    messages = []
    with pytest.raises(RecordError) as gap:
        parse_record("# scenario: tutorial\n1. roll 2 5\n3. choose done\n", "r.txt")
    messages.append(str(gap.value))
    assert messages[-1].startswith("r.txt、3行目：行動の番号が2のはずのところが3です。")
    with pytest.raises(RecordError) as missing:
        read_record_file(tmp_path / "none.txt")
    messages.append(str(missing.value).replace(str(tmp_path / "none.txt"), "FILE"))
    with pytest.raises(ScenarioError) as ruleset:
        load_scenario_text(tutorial.replace('ruleset = "fantasy-battle"', 'ruleset = "nope"', 1), "rs.toml")
    messages.append(str(ruleset.value))
    assert "'nope' というルールセットはありません" in messages[-1]
    with pytest.raises(ScenarioError) as zones:
        load_scenario_text(tenkey.replace("\n1 2 3\n", "\n1 2 2\n", 1), "z.toml")
    messages.append(str(zones.value))
    assert "ゾーンラベル '2' が二度使われています" in messages[-1]
    from engine.rules import ruleset_names

    names = ["record", "file", "nope", "hexa_rulesets", *ruleset_names()]  # rule set names are listed as they are
    for message in messages:
        assert not english_lines(message, names), message
