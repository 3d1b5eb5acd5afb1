"""The Laramie duel in Japanese: prompts, refusals, counts, the states of tables.toml and the glossary as the
original writes them (伏せ, 制圧-1, 通常射撃 …), and a whole ``hexa play laramie-station --auto --lang ja`` game
without the English of the rule set's own texts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import IllegalActionError
from engine.game import Game
from engine.i18n import speaking
from engine.rules.content import load_glossary
from engine.rules.laramie import units
from tests.engine.english_runs import leaked
from tests.laramie.town import choose, move, play, town

ROOT = Path(__file__).resolve().parents[2]
CORE_WORDS = {"off the table"}  # the core's own removal prompt says these words too ("Take Jeff off the table")


def game() -> Game:
    return Game(town({"gary": {"side": "a", "at": "B2", "combat": 8},
                      "jack": {"side": "a", "at": "B3", "combat": 3},
                      "jesse": {"side": "b", "at": "P8", "combat": 6}}))


def test_the_state_update_offers_the_states_by_their_japanese_names() -> None:
    g = game()
    with speaking("ja"):
        text, labels = g.prompt.text, [o.label for o in g.prompt.options]
    assert text == "状態更新：B3のJack（ノーマル、戦闘値3） — 状態を選んでください。"
    assert [label.split("：")[0] for label in labels] == ["ノーマル", "伏せ", "ダッシュ", "ジャンプ伏せ"]
    assert labels[2] == "ダッシュ：2ヘクス移動できるが射撃できない"


def test_a_dash_is_counted_in_hexes_and_a_too_far_move_is_refused_in_japanese() -> None:
    g = game()
    play(g, choose("dash"), choose("normal"), choose("normal"))
    with speaking("ja"):
        assert g.prompt.text == ("Jack（ダッシュ）を2ヘクスまで移動させるか、そのままにしてください。"
                                 "方向転換は自由です。")
        with pytest.raises(IllegalActionError, match="J3はJackの移動（ダッシュ、2ヘクス）の外か、黒線の先"):
            g.apply(move(g, "jack", "J3"))
        assert g.rules.badges(g.state, "jack")[:2] == ("[D] ダッシュ NA", "HP 4")
    assert g.rules.badges(g.state, "jack")[0] == "[D] dash NA"


def test_the_state_labels_come_from_tables_toml_in_either_language() -> None:
    with speaking("ja"):
        assert [units.label(s) for s in ("prone", "crawl", "suppressed_2", "broken")] == [
            "伏せ", "匍匐前進", "制圧-2", "士気崩壊"]
    assert units.label("prone") == "Prone"


def test_the_glossary_gives_the_terms_as_the_original_writes_them() -> None:
    with speaking("ja"):
        terms = {t.term for t in load_glossary("engine.rules.laramie")}
    assert {"伏せ", "ジャンプ伏せ", "通常射撃", "制圧射撃", "白兵戦", "射界", "開豁地", "塀", "木材置き場"} <= terms


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_auto_game_in_japanese_prints_none_of_the_rule_sets_english(tmp_path: Path, seed: int) -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "play", "laramie-station", "--auto", "--lang", "ja",
                             "--seed", str(seed)], cwd=tmp_path, capture_output=True, text=True, timeout=180,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "状態更新：" in out and "第2ターン。" in out
    found = [run for run in leaked(out, "engine.rules.laramie") if run not in CORE_WORDS]
    assert not found, found
